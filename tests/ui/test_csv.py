"""CSV export (issue 12): a label a spreadsheet would run as a formula gets a leading quote."""

from __future__ import annotations

import io

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from attention_core import AttentionConfig, AttentionInputError, make_embeddings, run_attention
from attention_core.knobs.text import check_label
from ui.blocks.panels import FORMULA_STARTS, csv_cell, matrix_csv

ROWS = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33]]


def read(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text), dtype={"token": str}, keep_default_na=False)


def test_formula_labels_are_quoted_and_numbers_kept_exactly():
    tokens = ["=1+1", "+x", "-y", "@z"]
    trace = run_attention(make_embeddings(tokens, ROWS), AttentionConfig())
    frame = read(matrix_csv(trace, "inputs"))
    assert frame["token"].tolist() == ["'=1+1", "'+x", "'-y", "'@z"]
    assert frame[["c1", "c2", "c3"]].to_numpy().tolist() == trace.inputs.tolist()


def test_plain_labels_and_matrices_without_labels_are_unchanged():
    tokens = ["a=b", "x+1", "'q", "🙂"]
    trace = run_attention(make_embeddings(tokens, ROWS), AttentionConfig())
    assert read(matrix_csv(trace, "weights_after_dropout"))["token"].tolist() == tokens
    weights = read(matrix_csv(trace, "W_query"))
    assert "token" not in weights.columns
    assert weights.to_numpy().tolist() == trace.W_query.tolist()


def test_tab_and_carriage_return_starts_are_quoted_too():
    assert csv_cell("\tx") == "'\tx"
    assert csv_cell("\rx") == "'\rx"
    assert csv_cell("x\t") == "x\t"


def _accepted(label: str) -> bool:
    try:
        return check_label(label, "label") == label
    except AttentionInputError:
        return False


TEXT = st.text(st.characters(exclude_categories=("Cc", "Cs", "Co", "Cn", "Cf")), max_size=19)
FORMULA_LIKE = st.tuples(st.sampled_from(FORMULA_STARTS[:4]), TEXT).map("".join)
ACCEPTED = st.one_of(TEXT, FORMULA_LIKE).map(str.strip).filter(_accepted)


@given(tokens=st.lists(ACCEPTED, min_size=1, max_size=4))
def test_any_accepted_label_round_trips_through_pandas(tokens):
    rows = [[0.1 * (i + 1), 0.2] for i in range(len(tokens))]
    trace = run_attention(make_embeddings(tokens, rows), AttentionConfig())
    shown = read(matrix_csv(trace, "inputs"))["token"].tolist()
    assert shown == ["'" + t if t.startswith(FORMULA_STARTS) else t for t in tokens]
