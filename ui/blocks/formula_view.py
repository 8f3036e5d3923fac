"""A formula laid out for the screen it is read on.

KaTeX never wraps a displayed formula: a line that is too long runs past its column. The
formulas of ``ui.specs.formulas`` break their lines at a width in characters, so a page that
may be read on a phone gives both layouts and the reader's column picks one (a container
query: the column's width is known only in the browser).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui.specs import formulas

NARROW_WIDTH = 30  # characters in a phone's column at KaTeX's size (358 px)
NARROW_COLUMN = 480  # px: a column narrower than this shows the narrow layout
CSS = f"""
@container (min-width: {NARROW_COLUMN}px)
  {{ .stApp [class*="st-key-formula_narrow_"] {{ display: none; }} }}
@container (max-width: {NARROW_COLUMN - 0.02}px)
  {{ .stApp [class*="st-key-formula_wide_"] {{ display: none; }} }}
"""


def show(make: Callable[[int], str], key: str, width: int = formulas.FULL_WIDTH) -> None:
    """The formula ``make(width)``; and ``make(NARROW_WIDTH)`` for a narrow column, when its
    lines break differently. ``key`` names the formula on its page."""
    wide, narrow = make(width), make(NARROW_WIDTH)
    if wide == narrow:
        st.latex(wide)
        return
    with st.container(key=f"formula_wide_{key}"):
        st.latex(wide)
    with st.container(key=f"formula_narrow_{key}"):
        st.latex(narrow)
    st.html(f"<style>{CSS}</style>")
