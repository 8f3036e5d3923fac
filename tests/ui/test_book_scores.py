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
