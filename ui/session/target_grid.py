"""Cross-attention's target as an editable grid, kept like the Playground's matrix.

The grid is drawn from the target it started from, under a key that changes only when the
target is replaced (Reset, a refused whole edit, another language, Back or Forward, a class's
teacher showing another one); the
browser's edits are applied to that start on the server (``matrix_edits.apply_edits``), every
cell checked and a refused one named. The result is recorded as the ``target`` and
``target_tokens`` settings, so that the link carries it.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from attention_core import AttentionInputError
from attention_core.cross import target_labels, target_of
from attention_core.embeddings import TARGET_VALUES, Embeddings
from attention_core.knobs.settings import Settings
from ui.session import kept_widgets, matrix_edits, state

GENERATION = "_target_grid_generation"
LAST = "_target_grid_last"  # the target this grid gave last: another one replaced it
Matrix = tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class TargetGrid:
    """The grid's key and start, the target it gives now, and why an edit was refused."""

    key: str
    start: tuple[tuple[str, ...], Matrix]
    target: Embeddings
    problem: str | None


def read_target(settings: Settings, language: str) -> TargetGrid:
    """The target after the browser's pending edits; a refused edit keeps the last valid one."""
    session = st.session_state
    settled = target_of(settings["target"], settings["target_tokens"], language)
    wanted = (settled.tokens, settings["target"] or TARGET_VALUES)
    if session.get(LAST, wanted) != wanted:  # replaced elsewhere: a class's teacher, Reset
        session[GENERATION] = session.get(GENERATION, 0) + 1
    generation = session.get(GENERATION, 0)
    key = state.grid_key(f"target_grid_{language}_{generation}")
    start_key = f"_start_{key}"
    start = session.get(start_key)
    if key not in session or start is None:
        start = wanted
        session[start_key] = start
    try:
        tokens, rows = matrix_edits.apply_edits(*start, session.get(key))
    except AttentionInputError as error:
        if isinstance(error, matrix_edits.WholeEditError):
            session[GENERATION] = generation + 1  # a fresh grid from the last target
        session[LAST] = wanted
        return TargetGrid(key, start, settled, str(error))
    session[LAST] = (tokens, rows)
    target = target_of(rows, tokens, language)
    starting = rows == TARGET_VALUES and tokens == target_labels(len(rows), language)
    state.record("target", None if starting else rows)
    state.record("target_tokens", None if starting else tokens)
    return TargetGrid(key, start, target, None)


def draw(grid: TargetGrid) -> None:
    """The grid itself, from its start (the browser keeps the edits made since)."""
    frame = matrix_edits.to_frame(*grid.start)
    st.data_editor(
        frame,
        key=grid.key,
        num_rows="dynamic",
        hide_index=True,
        column_config=kept_widgets.grid_columns(frame),
        width="content",
    )


def reset() -> None:
    """Back to the starting target (a button callback): a fresh grid."""
    state.record("target", None)
    state.record("target_tokens", None)
    st.session_state[GENERATION] = st.session_state.get(GENERATION, 0) + 1
