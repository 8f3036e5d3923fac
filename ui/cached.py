"""Core computations that depend on nothing a learner types, cached once per server process."""

from __future__ import annotations

import streamlit as st

from attention_core.experiments import scaling_experiment


@st.cache_data(max_entries=64, show_spinner=False)
def scaling_rows(seed: int) -> list[dict[str, float | int | str]]:
    """The core's scaling experiment for one seed (plain values in and out)."""
    return scaling_experiment(seed=seed)
