"""The editable embedding matrix of the Playground."""

from __future__ import annotations

import streamlit as st

from attention_core.params import MAX_TOKENS
from attention_core.parsing import LABEL_MAX_CHARS, VALUE_LIMIT
from ui import editor, state
from ui.page import Page


def show_matrix_editor(page: Page) -> None:
    """The grid: edit a number, rename a token, add or delete a token; Reset goes back.

    The grid is drawn from the matrix it started from, under a key that changes only when the
    matrix is replaced (Reset, another example, another page): every edit in the browser is
    kept, and the edits are applied on the server before anything is computed.
    """
    tokens, rows = state.editor_base()
    frame = editor.to_frame(tokens, rows)
    column_config = {
        editor.TOKEN_COLUMN: st.column_config.TextColumn(
            "token", default=editor.NEW_LABEL, required=True
        )
    }
    # No max_chars, min_value or max_value: the browser would cut a long label to 20
    # characters and clamp 1e9 to 10 without a word. The server refuses them with a message
    # naming the cell and the limit (ui.editor), and the last valid matrix stays.
    for name in frame.columns[1:]:
        column_config[name] = st.column_config.NumberColumn(
            name,
            step=0.001,
            default=0.0,
            required=True,
            format="%.4f" if page.decimals >= 4 else f"%.{page.decimals}f",
        )
    st.data_editor(
        frame,
        key=state.editor_key(),
        num_rows="dynamic",
        hide_index=True,
        column_config=column_config,
        width="content",
    )
    left, right = st.columns([1, 3], vertical_alignment="center")
    left.button(
        "Reset",
        help="Back to the chosen example's matrix.",
        key="reset_matrix",
        on_click=state.reset_matrix,
    )
    right.caption(
        f"Up to {MAX_TOKENS} tokens, labels of up to {LABEL_MAX_CHARS} characters; numbers "
        f"between −{VALUE_LIMIT:g} and {VALUE_LIMIT:g}."
    )
