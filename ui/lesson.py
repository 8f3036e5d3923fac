"""Blocks the lesson pages share: predict-then-reveal, number tables, formulas, the 3D view."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st
import torch

from attention_core import AttentionTrace
from attention_core.explain import score_terms
from ui import state


def predict(question: str, answer: str, key: str) -> None:
    """Ask first; the answer is not on the page until the learner clicks."""
    st.markdown(f"**Predict, then reveal.** {question}")
    if state.is_revealed(key):
        st.success(answer, icon=":material/lightbulb:")
    else:
        st.button("Reveal the answer", key=f"reveal_{key}", on_click=state.reveal, args=(key,))


def table(
    matrix: torch.Tensor, rows: Sequence[str], columns: Sequence[str], decimals: int = 4
) -> pd.DataFrame:
    """A matrix as a labelled table, rounded for reading."""
    frame = pd.DataFrame(matrix.tolist(), columns=list(columns))
    frame.insert(0, "", list(rows))
    return frame.round(decimals)


def show_table(
    matrix: torch.Tensor, rows: Sequence[str], columns: Sequence[str], decimals: int = 4
) -> None:
    """Draw :func:`table`."""
    st.dataframe(table(matrix, rows, columns, decimals), hide_index=True)


def score_latex(trace: AttentionTrace, query: int, key: int, head: int = 0) -> str:
    """ω_ij = q(i) · k(j) with every product term, then the scaled score."""
    terms = score_terms(trace, query, key, head)
    products = " + ".join(
        f"{q:.4f} \\times {k:.4f}" for q, k in zip(terms.query_terms, terms.key_terms, strict=True)
    )
    line = rf"\omega_{{{query + 1}{key + 1}}} = q^{{({query + 1})}} \cdot k^{{({key + 1})}} = "
    line += rf"{products} = {terms.total:.4f}"
    if trace.config.scaling != "none":
        line += rf", \quad \omega / {terms.divisor:.4f} = {terms.scaled:.4f}"
    return line
