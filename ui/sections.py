"""Folded sections that are built only when open, and stay as the learner left them.

Streamlit forgets an expander's state in a run that does not draw it: the weights' table
section while the lines are shown, "Every number of this row" while another tab is open, any
section while the learner is on another page. The open state is kept in the session instead,
for each page, and given back when the section is drawn again.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.runtime.scriptrunner import get_script_run_ctx

from ui import state

_OPEN = "_open_sections"  # (page, key) of each section the learner left open


def section(label: str, key: str) -> DeltaGenerator:
    """A folded section whose ``.open`` says whether to build its content; opening or closing
    it reruns the page. Use it as ``with section(...) as s: if s.open: ...``."""
    ctx = get_script_run_ctx()
    mine = (ctx.page_script_hash if ctx else "", key)  # pages may share a section's key
    kept: set[tuple[str, str]] = state.recall(_OPEN) or set()
    if key not in st.session_state and mine in kept:
        st.session_state[key] = True  # drawn again after a run without it: open as it was
    drawn = st.expander(label, key=key, on_change="rerun")
    state.remember(_OPEN, kept | {mine} if drawn.open else kept - {mine})
    return drawn
