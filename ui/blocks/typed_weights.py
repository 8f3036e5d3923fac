"""Three grids to type W_query, W_key and W_value by hand (the Trainable-weights lesson)."""

from __future__ import annotations

import streamlit as st

from attention_core import AttentionInputError, AttentionTrace
from attention_core.knobs.table import PARAMS
from attention_core.knobs.text import linked_rows
from attention_core.weights import typed_matrices
from translation import _
from ui import safe
from ui.session import kept_widgets, matrix_edits, state
from ui.session.run_order import Page

NAMES = (("wq", "W_query"), ("wk", "W_key"), ("wv", "W_value"))
Matrix = tuple[tuple[float, ...], ...]


def _rows(matrix: object) -> Matrix:
    """Numbers as a link carries them, so that a copied link gives the same."""
    return linked_rows(matrix.tolist())  # type: ignore[attr-defined]


def typed_weights(page: Page, sidebar: AttentionTrace) -> tuple[Matrix, Matrix, Matrix]:
    """Draw the three grids; returns the last valid typed matrices.

    The grids start from the link's typed matrices when they fit the input width, else from
    the sidebar's; they keep that start while the learner types (every edit is kept).
    """
    d_in = page.embeddings.d_in
    starts = _starting_matrices(page, sidebar, d_in)
    result = []
    for column, (short, name), start in zip(st.columns(3), NAMES, starts, strict=True):
        with column:
            st.markdown(_("**{name}** ({d_in} rows)").format(name=name, d_in=d_in))
            names = [f"c{j + 1}" for j in range(len(start[0]))]
            edited = kept_widgets.stable_grid(
                f"grid_{short}_{d_in}",
                lambda start=start, names=names: matrix_edits.numbers_frame(start, names),
                hide_index=True,
                width="content",
                column_config={c: kept_widgets.number_column(c) for c in names},
            )
            try:
                matrix = linked_rows(matrix_edits.numbers_from_frame(edited, name))
            except AttentionInputError as error:
                st.warning(
                    _("{error} Using the last valid {name}.").format(
                        error=safe.sentence(safe.prose(error, 120)), name=name
                    )
                )
                matrix = page.settings[short] or start
            state.record(short, matrix)
            result.append(matrix)
    return result[0], result[1], result[2]


def _misfit(linked: list[Matrix | None], d_in: int) -> str | None:
    """Why the typed matrices cannot be used as they are (the core's check), or None."""
    missing = [name for (_short, name), matrix in zip(NAMES, linked, strict=True) if not matrix]
    if missing:
        return _("{missing} is missing").format(missing=missing[0])
    try:
        typed_matrices(linked, d_in)
    except AttentionInputError as error:
        return str(error)
    return None


def _starting_matrices(page: Page, sidebar: AttentionTrace, d_in: int) -> list[Matrix]:
    linked = [page.settings[short] for short, _name in NAMES]
    why = _misfit(linked, d_in)
    if why is None:
        return linked
    if any(linked):  # say why the typed matrices are not used, never drop them silently
        st.info(
            _(
                "The typed matrices do not fit: {why}. The grids start from the sidebar's "
                "W_query, W_key and W_value."
            ).format(why=why),
            icon=":material/info:",
        )
    # Heads side by side ("wrapper") can be wider than one typed matrix may be (6 heads of 2
    # make 12 columns); the page shows one head, so it starts from the first head's columns.
    _low, high = PARAMS["d_out"].limits(page.embeddings.num_tokens)
    whole = (sidebar.W_query, sidebar.W_key, sidebar.W_value)
    matrices = whole if sidebar.W_query.shape[1] <= high else sidebar.head_projections(0)
    return [_rows(m) for m in matrices]
