"""The book's scores on the Playground (issue 53): its attn_scores (ω, before scaling) and the
scaled scores beside them in the *Scores* panel, each heatmap saying which axis is the query
and which the key."""

from __future__ import annotations

import math

from tests.core.test_golden import BOOK_ATTN_SCORES_2
from tests.ui.apptest import open_page
from tests.ui.oracle import title_of
from tests.ui.vega import chart_specs, records


def row_of(spec: dict, query: str) -> list[float]:
    """The printed numbers of one query's row."""
    return [float(r["text"]) for r in records(spec) if r["row"] == query]


def test_the_scores_panel_shows_the_books_attn_scores_and_the_scaled_ones():
    at = open_page(params={"panel": "scores"})  # the book's example, d_out 2, ÷ √d_k
    specs = {title_of(s): s for s in chart_specs(at)}
    raw = specs["scores ω = q·k (the book's attn_scores)"]
    scaled = specs["scores q·k ÷ √d_k"]
    # printed to 4 decimals: within rounding of the book's 4 decimals
    raw_row = row_of(raw, "journey")
    assert all(
        abs(shown - book) <= 1e-4 for shown, book in zip(raw_row, BOOK_ATTN_SCORES_2, strict=True)
    )
    scaled_row = row_of(scaled, "journey")
    assert all(
        abs(shown - book / math.sqrt(2)) <= 1.5e-4
        for shown, book in zip(scaled_row, BOOK_ATTN_SCORES_2, strict=True)
    )
    for spec in (raw, scaled):
        assert spec["encoding"]["y"]["title"] == "query ↓"
        assert spec["encoding"]["x"]["title"] == "key →"


def test_without_scaling_the_panel_shows_one_heatmap_of_scores():
    at = open_page(params={"panel": "scores", "scaling": "none"})
    titles = [title_of(s) for s in chart_specs(at)]
    assert "scores q·k" in titles and not any(t.startswith("scores ω") for t in titles)


def test_marks_have_a_legend_and_rows_without_weight_are_named_under_the_weights():
    at = open_page(params={"mask": "causal", "dropout": "0.9"})  # seed 0: 3 rows all dropped
    captions = [c.value for c in at.caption]
    assert (
        "✕ with a red border: dropped by dropout (its weight set to 0) · grey: masked, the "
        "query may not look at this key (weight 0)"
    ) in captions
    named = [c for c in captions if c.startswith("Dropout dropped every weight of queries")]
    assert named == [
        "Dropout dropped every weight of queries `Your`, `journey` and `starts`: their rows "
        "have no weight left, so no value reaches their context vectors."
    ]
    plain = open_page()  # no mark, no empty row: no legend, no sentence
    assert not [c for c in plain.caption if "dropped" in c.value or "masked" in c.value]
