"""Small editable grids that keep every edit: drawn from a start that changes only on purpose."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from ui import state


def stable_grid(key: str, start: Callable[[], pd.DataFrame], **options: object) -> pd.DataFrame:
    """An ``st.data_editor`` whose starting table stays the same while the learner edits it.

    The browser sends edits relative to the table the grid was drawn from, and a grid drawn
    from another table is another widget, which would lose the next edit. So the start is
    computed only when the grid is not in the browser yet (first run, or back from another
    page) and kept until then. After the browser's Back or Forward the grid is another one
    (``state.grid_key``), started from the link the browser went to.
    """
    key = state.grid_key(key)
    base_key = f"_grid_start_{key}"
    if not state.has_state(key) or state.recall(base_key) is None:
        state.remember(base_key, start())
    return st.data_editor(state.recall(base_key), key=key, **options)


def number_column(label: str) -> object:
    """A grid column of numbers the learner types as text, right-aligned like numbers.

    The grid's number cells silently drop what is not a digit, a minus sign or a point
    (``1e-3`` reached the server as -13, ``0,5`` as 5); a text cell sends what was typed,
    and the server parses it strictly (``ui.editor``).
    """
    return st.column_config.TextColumn(label, default="0", required=True, alignment="right")
