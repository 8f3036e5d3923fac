"""Heatmaps drawn from one trace: the weights, the scores and vectors, one by one or side by
side, each with its numbers as a table on request.

Each ``show_*`` draws with ``st`` calls; the numbers come from the trace (no tensor arithmetic
here) and every number goes through the page's one format.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import streamlit as st
import torch
from streamlit.delta_generator import DeltaGenerator

from attention_core import AttentionTrace
from attention_core.formatting import format_scientific
from translation import N_, _, ngettext
from ui import safe
from ui.blocks import sentences
from ui.session import kept_widgets
from ui.session.run_order import Page
from ui.specs import heatmap_chart, tables
from ui.specs.sizing import LAPTOP, PHONE, PROJECTOR

SCALING_TEXT = {"none": "", "d": " ÷ d_k", "sqrt_d": " ÷ √d_k"}

CONTENT_WIDTH = LAPTOP.column  # the main column at 1280 × 720 with the sidebar open (pixels)
PRESENT_WIDTH = PROJECTOR.column  # projected, at the narrowest projector (the sidebar folded)
# On a phone charts are drawn for its column (not drawn for a laptop and scaled down).
PHONE_WIDTH = PHONE.column


def difference(value: float, digits: int = 1) -> str:
    """A largest difference in scientific notation (1.2e−08); an undefined one in words."""
    return format_scientific(value, digits)


def vega_spec(spec: dict) -> dict:
    """A chart's spec as the app sends it: axis and legend text in the theme's text colour
    (.streamlit/config.toml), records as an Arrow table (``ui.specs.heatmap_chart``)."""
    return heatmap_chart.with_table(
        heatmap_chart.with_text_color(spec, st.get_option("theme.textColor"))
    )


def nonzero(page: Page, value: float) -> str:
    """A number in the app's format, or in scientific notation (2.8e−06) when that format
    would round a number that is not 0 to 0 (a leak must not read 0.0000)."""
    text = page.number(value)
    rounded_away = value != 0 and math.isfinite(value) and round(value, page.decimals) == 0
    return difference(value) if rounded_away else text


def matrix_values(matrix: torch.Tensor) -> list[list[float]]:
    """A 2-D tensor as nested floats (chart data)."""
    return [[float(v) for v in row] for row in matrix.tolist()]


def show_heatmap(
    page: Page,
    heatmap: heatmap_chart.Heatmap,
    key: str,
    max_width: int = CONTENT_WIDTH,
    table: bool = True,
) -> None:
    """One heatmap, what its colours mean, and (unless ``table`` is False: the caller shows
    it) its numbers as a table on request."""
    max_width = room(page, max_width)
    heatmap = hide_answers(page, heatmap)
    decimals = heatmap_chart.shown_decimals(
        heatmap, decimals=page.decimals, look=page.look, max_width=max_width
    )
    spec = heatmap_chart.make_heatmap(
        heatmap, decimals=decimals, look=page.look, max_width=max_width
    )
    st.vega_lite_chart(spec=vega_spec(spec), key=key, width="content")
    if decimals < page.decimals:
        st.caption(rounding_note(page, _("This chart"), decimals, page.decimals, _("its table")))
    if not heatmap_chart.prints_numbers(
        heatmap, decimals=decimals, look=page.look, max_width=max_width
    ):
        st.caption(_(COLOUR_ONLY))
    show_marks(page, heatmap, decimals)
    if table:
        show_tables(page, [(heatmap, key)], _("Show as table"), f"{key}_table")


def show_marks(page: Page, heatmap: heatmap_chart.Heatmap, decimals: int) -> None:
    """Under a chart: what its marks mean, and which queries were left with no weight."""
    legend = heatmap_chart.marks(heatmap, decimals)
    if legend:
        st.caption(" · ".join(legend))
    if heatmap.empty_rows:
        st.caption(empty_rows_sentence(page, heatmap.empty_rows))


def empty_rows_sentence(page: Page, rows: Sequence[tuple[int, str]]) -> str:
    """Which queries have no weight left, and why (Markdown-safe)."""
    said = []
    for why in ("mask", "dropout"):
        names = [safe.md(page.labels[row], 24) for row, reason in rows if reason == why]
        if names:
            said.append(EMPTY_ROWS[why](len(names)).format(names=sentences.listing(names)))
    return " ".join(said)


EMPTY_ROWS = {
    "mask": lambda count: ngettext(
        "The mask leaves query {names} no key to look at: its row has no weight, so no value "
        "reaches its context vector.",
        "The mask leaves queries {names} no key to look at: their rows have no weight, so no "
        "value reaches their context vectors.",
        count,
    ),
    "dropout": lambda count: ngettext(
        "Dropout dropped every weight of query {names}: its row has no weight left, so no value "
        "reaches its context vector.",
        "Dropout dropped every weight of queries {names}: their rows have no weight left, so no "
        "value reaches their context vectors.",
        count,
    ),
}


COLOUR_ONLY = N_(
    "Too many cells to print their numbers: the colours show them. Tap or hover over a cell "
    "for its number, or open the table under the chart."
)


def rounding_note(page: Page, what: str, shown: int, decimals: int, tables: str) -> str:
    """Why a picture prints fewer decimals than the page's (projected, or on a phone), and
    where they all are."""
    if page.present:
        note = _(
            "{what} rounds to {shown} decimals so that its type stays large enough to read "
            "when projected; {tables} gives every number to {decimals}."
        )
    else:
        note = _(  # short: on a phone it stands between the weights and the matrix
            "{what} rounds to {shown} decimals to stay readable on a phone; {tables} gives "
            "all {decimals}."
        )
    return note.format(what=what, shown=shown, tables=tables, decimals=decimals)


def show_tables(
    page: Page, heatmaps: Sequence[tuple[heatmap_chart.Heatmap, str]], label: str, key: str
) -> None:
    """The heatmaps' numbers as tables, built only when the learner opens them; each named
    by its chart's title when there are several."""
    with kept_widgets.section(label, key) as tables_open:
        if tables_open.open:
            for heatmap, _key in heatmaps:
                if len(heatmaps) > 1:
                    st.markdown(safe.md(heatmap.title, 80))
                st.markdown(tables.heatmap_table(hide_answers(page, heatmap), page.decimals))


def hidden_weights(trace: AttentionTrace) -> list[list[bool]] | None:
    """The (query, key) pairs to draw as masked (``trace.hidden_by_mask``); None when none."""
    hidden = trace.hidden_by_mask
    return hidden.tolist() if bool(hidden.any()) else None


def hide_answers(page: Page, heatmap: heatmap_chart.Heatmap) -> heatmap_chart.Heatmap:
    """``heatmap`` with every cell that prints an answer an exercise on screen asks drawn as
    "?" (``check_yourself.answer_cells``; imported here, as the class's question block draws
    its bars with this module's ``vega_spec``)."""
    from ui.blocks import check_yourself

    cells = check_yourself.answer_cells(page, heatmap.values)
    return replace(heatmap, asked=heatmap.asked | cells) if cells else heatmap


def weights_heatmap(
    page: Page, trace: AttentionTrace, head: int = 0, title: str | None = None
) -> heatmap_chart.Heatmap:
    """The weights after dropout of one head: rows are queries, columns keys; ``title``, in
    the learner's words, defaults to "attention weights"."""
    labels = page.labels
    dropped = trace.dropped[head].tolist() if trace.config.dropout_active else None
    rows_sum = _("each row sums to 1") if not trace.config.dropout_active else _("after dropout")
    return heatmap_chart.Heatmap(
        matrix_values(trace.weights_after_dropout[head]),
        labels,
        labels,
        kind="weights",
        title=_("attention weights") if title is None else title,
        description=_("Attention weights, {count} queries × {count} keys, {rows_sum}.").format(
            count=len(labels), rows_sum=rows_sum
        ),
        masked=hidden_weights(trace),
        dropped=dropped,
        scale=page.settings["weight_scale"],
        empty_rows=trace.rows_without_weight(head),
    )


def scores_heatmap(page: Page, trace: AttentionTrace, head: int = 0) -> heatmap_chart.Heatmap:
    """The scaled, masked scores of one head (−∞ where the mask hides a key)."""
    labels = page.labels
    scaling = SCALING_TEXT[trace.config.scaling]
    masked = trace.blocked.tolist() if trace.config.mask_strategy == "neg_inf" else None
    return heatmap_chart.Heatmap(
        matrix_values(trace.masked_scores[head]),
        labels,
        labels,
        kind="scores",
        title=_("scores q·k{scaling}").format(scaling=scaling),
        description=_("Scores{scaling}, {count} queries × {count} keys.").format(
            scaling=scaling, count=len(labels)
        ),
        masked=masked if masked is not None and bool(trace.blocked.any()) else None,
    )


def raw_scores_heatmap(page: Page, trace: AttentionTrace, head: int = 0) -> heatmap_chart.Heatmap:
    """The scores ω = q·k of one head before scaling and masking: the book's ``attn_scores``."""
    labels = page.labels
    return heatmap_chart.Heatmap(
        matrix_values(trace.scores[head]),
        labels,
        labels,
        kind="scores",
        title=_("scores ω = q·k (the book's attn_scores)"),
        description=_("Scores before scaling, {count} queries × {count} keys.").format(
            count=len(labels)
        ),
    )


def score_pair(
    page: Page, trace: AttentionTrace, head: int, key: str
) -> list[tuple[heatmap_chart.Heatmap, str]]:
    """The scores before and after scaling (and masking), keyed ``key``-raw and ``key``; one
    heatmap when the scores are not scaled."""
    scaled = (scores_heatmap(page, trace, head), key)
    if trace.config.scaling == "none":
        return [scaled]
    return [(raw_scores_heatmap(page, trace, head), f"{key}_raw"), scaled]


def vectors_heatmap(
    page: Page,
    matrix: torch.Tensor,
    prefix: str,
    title: str,
    description: str,
    row_names: Sequence[str] | None = None,
) -> heatmap_chart.Heatmap:
    """One vector per row: per token (queries, keys, values, context) or per input number."""
    columns = [f"{prefix}{c + 1}" for c in range(matrix.shape[1])]
    return heatmap_chart.Heatmap(
        matrix_values(matrix),
        list(row_names) if row_names is not None else page.labels,
        columns,
        kind="values",
        title=title,
        description=description,
    )


def halves(
    page: Page, heatmap: heatmap_chart.Heatmap
) -> tuple[DeltaGenerator, DeltaGenerator, int]:
    """Two columns when ``heatmap`` fits half the width at full size (projected: at the
    projector's size, with fewer decimals if need be), else two rows; and the width a chart
    has in one of them (a chart in rows keeps the full width: in presentation mode, its type
    at full size)."""
    half = column_width(main_width(page), 2)
    if fits_beside(page, heatmap, half, shrink=0):
        left, right = st.columns(2)
        return left, right, half
    return st.container(), st.container(), main_width(page)


def main_width(page: Page) -> int:
    """The width charts side by side share: the main column with the sidebar open, or
    projected (the sidebar folded) at the narrowest projector, or a phone's column; or the
    column the browser measured, where it is narrower."""
    return room(page, page.look.column)


def room(page: Page, width: int) -> int:
    """The width a chart meant for ``width`` pixels is drawn for: on a phone, no wider than
    its column (``PHONE_WIDTH``), so that its text keeps the phone's size; nor wider than the
    column the browser measured, where it is narrower than the look's (a tablet, a laptop's
    sidebar open at 1024 px), so that it is drawn at its text's size rather than cut by its
    box. A chart meant for a share of the column takes its share of ``main_width``."""
    if page.look is PHONE:
        width = min(width, PHONE_WIDTH)
    if page.column is not None:
        width = min(width, page.column)
    return width


def share(page: Page, width: int) -> int:
    """A width meant for a share of the look's column (``width`` of its ``look.column``), as
    the same share of the column the browser measured, where that is narrower."""
    full = page.look.column
    if page.column is None or page.column >= full:
        return width
    return max(width * page.column // full, 1)


def fits_beside(page: Page, heatmap: heatmap_chart.Heatmap, width: int, shrink: int) -> bool:
    """Whether ``heatmap`` fits ``width`` with its type at most ``shrink`` pixels under full
    size; projected or on a phone, at the look's ``least_numbers`` or more with the decimals
    it would then print (``heatmap_chart.shown_decimals``), so that views side by side stay
    side by side."""
    look = page.look
    if look.least_numbers is None:
        return heatmap_chart.fits(
            heatmap, decimals=page.decimals, look=look, max_width=width, shrink=shrink
        )
    decimals = heatmap_chart.shown_decimals(
        heatmap, decimals=page.decimals, look=look, max_width=width
    )
    return heatmap_chart.fits(
        heatmap,
        decimals=decimals,
        look=look,
        max_width=width,
        shrink=look.font - look.least_numbers,
    )


def column_width(width: int, count: int) -> int:
    """The width of one of ``count`` columns sharing ``width`` (Streamlit's gap is 1 rem)."""
    return (width - 16 * (count - 1)) // count


def show_side_by_side(
    page: Page,
    heatmaps: Sequence[tuple[heatmap_chart.Heatmap, str]],
    width: int | None = None,
    per_row: int | None = None,
) -> list:
    """Heatmaps in rows of ``per_row`` (all in one row by default), fewer per row when they
    would not fit at full size (projected: at the projector's size, with fewer decimals if
    need be); returns one container per heatmap, for what goes under it. ``width``: the
    main column's by default (:func:`main_width`)."""
    heatmaps = heatmap_chart.share_fitted_range(heatmaps)
    per_row = per_row or len(heatmaps)
    width = main_width(page) if width is None else width
    while per_row > 1 and not all(
        fits_beside(page, h, column_width(width, per_row), shrink=2) for h, _key in heatmaps
    ):
        per_row -= 1
    holders = []
    for start in range(0, len(heatmaps), per_row):
        row = heatmaps[start : start + per_row]
        columns = st.columns(per_row) if per_row > 1 else [st.container() for _heatmap in row]
        for column, (heatmap, key) in zip(columns, row, strict=False):
            with column:
                width_each = column_width(width, per_row)
                show_heatmap(page, heatmap, key, max_width=width_each, table=per_row == 1)
            holders.append(column)
        if per_row > 1:  # a table is wider than its chart: the row's tables go under the row
            show_tables(page, row, _("Show these as tables"), f"{row[0][1]}_tables")
    return holders
