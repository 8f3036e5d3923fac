"""Widgets that keep what the learner did with them across reruns and pages.

Folded sections (:func:`section`) are built only when open and stay as the learner left them.
Streamlit forgets an expander's state in a run that does not draw it: the weights' table
section while the lines are shown, "Every number of this row" while another tab is open, any
section while the learner is on another page. The open state is kept in the session instead,
for each page, and given back when the section is drawn again.

Small editable grids (:func:`stable_grid`) keep every edit: they are drawn from a start that
changes only on purpose.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.runtime.scriptrunner import get_script_run_ctx

from translation import _
from ui.session import matrix_edits, state

_OPEN = "_open_sections"  # (page, key) of each section the learner left open
_GRID_TYPING = Path(__file__).with_name("grid_typing.js").read_text(encoding="utf-8")


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


def stable_grid(key: str, start: Callable[[], pd.DataFrame], **options: object) -> pd.DataFrame:
    """An ``st.data_editor`` that keeps every edit and is drawn with the values it holds.

    The start is computed only when the grid is not in the browser yet (first run, or back
    from another page); after the browser's Back or Forward the grid is another one
    (``state.grid_key``), started from the link the browser went to. While the learner edits
    it, each run draws the grid from its current values: the table kept so far with the
    edits the browser just sent (:func:`_with_edits`), kept for the next run.

    Drawn from an unchanged start, the browser's grid showed a tick only through its own
    layer of edits: when that layer lost the tick (seen under load, on the first tick of a
    grid just drawn: after Back, or on a fresh page), the grid showed the cell unticked for
    good while the weights and the link had the tick. Drawn from the current values, every
    run gives the browser the table the weights use. The widget stays the same one: a keyed
    grid with a fixed number of rows is identified by its key and its columns, not its values
    (Streamlit 1.67), and the browser drops the edits the new table already holds.
    """
    key = state.grid_key(key)
    base_key = f"_grid_start_{key}"
    if not state.has_state(key) or state.recall(base_key) is None:
        state.remember(base_key, start())
    else:
        state.remember(base_key, _with_edits(state.recall(base_key), st.session_state[key]))
    return st.data_editor(state.recall(base_key), key=key, **options)


def _with_edits(table: pd.DataFrame, sent: object) -> pd.DataFrame:
    """``table`` with the cell edits of a grid's state (``edited_rows``: row position ->
    column -> value, each the cell's new value, not a change), as ``st.data_editor`` applies
    them; the table is not changed. A fixed grid sends no added or deleted rows."""
    edited = table.copy()
    rows = sent.get("edited_rows", {}) if isinstance(sent, dict) else {}
    for row, cells in rows.items():
        for column, value in cells.items():
            if column not in edited.columns or not 0 <= int(row) < len(edited):
                continue
            if value is None and edited[column].dtype != object:
                continue  # a tick box is never emptied; None would change the column's type
            edited.iat[int(row), edited.columns.get_loc(column)] = value
    return edited


def number_column(label: str) -> object:
    """A grid column of numbers the learner types as text, right-aligned like numbers.

    The grid's number cells silently drop what is not a digit, a minus sign or a point
    (``1e-3`` reached the server as -13, ``0,5`` as 5); a text cell sends what was typed,
    and the server parses it strictly (``ui.session.matrix_edits``).
    """
    return st.column_config.TextColumn(label, default="0", required=True, alignment="right")


def grid_columns(frame: pd.DataFrame) -> dict[str, object]:
    """The columns of a matrix grid: the token labels, then the numbers typed as text."""
    columns: dict[str, object] = {
        matrix_edits.TOKEN_COLUMN: st.column_config.TextColumn(
            _("token"), default=matrix_edits.NEW_LABEL, required=True
        )
    }
    for name in frame.columns[1:]:
        columns[name] = number_column(name)
    return columns


def keep_typed_keys() -> None:
    """Make every grid on the page take each key typed into it, however fast, in order.

    Streamlit's grid drops keys typed while a cell's editor opens, and may end an edit
    without saving it when Enter follows other keys at once (``grid_typing.js`` says how).
    The script holds such keys for the few milliseconds the grid needs; it installs itself
    once per browser tab and touches no key typed outside a grid.
    """
    st.html(f"<script data-grid-typing>{_GRID_TYPING}</script>", unsafe_allow_javascript=True)
