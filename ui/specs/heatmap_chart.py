"""Heatmaps: plain data in, a Vega-Lite dict out. No st.* calls (the other charts are in
``ui.specs.bars_and_curves``, ``ui.specs.embedding_3d``, ``ui.specs.lines`` and the Flow
picture's modules).

A heatmap sizes itself from what it prints (``ui.specs.sizing``). Every chart carries a
``description`` (its text alternative); layers that repeat the text are hidden from assistive
technology. Data goes at the top of the spec: while the rest is unchanged the browser swaps
the data instead of rebuilding the chart. So nothing that moves with the numbers is in the
spec: a cell's colour is a ``shade`` (0 to 1, fixed scale); the legend reads its range.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pyarrow as pa

from attention_core.formatting import format_number
from translation import N_, _
from ui import safe
from ui.specs import colors, sizing
from ui.specs.sizing import LABEL_CHARS, LAPTOP, PADDING, PRESENT_MIN_DECIMALS, Look

LEGEND_TITLES = {"weights": N_("weight"), "scores": N_("score"), "difference": "B − A"}  # by kind
# An axis title drawn level with the top of the plot, upright (its place across: "titleX").
# Each label centred on its row or column: Streamlit's theme makes labels flush, which moved
# the first row's label down by half a line (at 24 px rows it stood nearer the second row's).
AXIS_TITLE = {"titleAngle": 0, "titleBaseline": "bottom", "titleY": -4, "labelFlush": False}
# The axes' titles of a heatmap whose rows are queries and columns keys (row axis, column axis).
# Drawn in the corner above the row labels and right of the column labels, they add width,
# not height: the Playground's weights stay on the first screen.
QUERY_KEY = (N_("query ↓"), N_("key →"))
AXES = {"weights": QUERY_KEY, "scores": QUERY_KEY, "difference": QUERY_KEY}  # by kind


@dataclass(frozen=True)
class Heatmap:
    """What one heatmap shows.

    ``kind`` is ``weights`` (a sequential scale, ``fixed`` 0..1 or ``fitted`` to the numbers),
    or ``scores``, ``values`` or ``difference`` (a diverging scale centred at 0). Masked cells
    are grey and read −∞ in a scores heatmap; dropped cells read ✕; a cell that is not a
    number (0/0 or ∞/∞ in a pitfall) reads "undef." on grey with a red outline.
    """

    values: Sequence[Sequence[float]]
    rows: Sequence[str]
    columns: Sequence[str]
    kind: str
    title: str
    description: str
    masked: Sequence[Sequence[bool]] | None = None
    dropped: Sequence[Sequence[bool]] | None = None
    scale: str = "fitted"
    shared: tuple[float, float] | None = None  # a fitted range shared with neighbouring charts
    legend: str = ""  # the legend's title when the kind's own would not say what a colour is
    bound: float | None = None  # a diverging scale's end where no number can pass it (cosines: 1)
    # The row and column axes' titles, in the learner's words; None: by kind (queries and
    # keys for weights, scores and differences), () for none.
    axes: tuple[str, ...] | None = None
    # Queries left with no weight (their row index and why: "mask" or "dropout").
    empty_rows: tuple[tuple[int, str], ...] = ()
    # The (row, column) cells an exercise on screen asks, not answered yet: "?" on grey, in
    # the chart, its table and its tooltip (a question never sits beside its answer).
    asked: frozenset[tuple[int, int]] = frozenset()


MARKS = {  # what each mark means, in the legend under a chart that draws it
    "dropped": N_("✕ with a red border: dropped by dropout (its weight set to 0)"),
    "masked_score": N_("−∞ on grey: masked, the query may not look at this key"),
    "masked": N_("grey: masked, the query may not look at this key (weight 0)"),
    "undefined": N_("undef. on grey with a red border: not a number (0/0)"),
    "asked": N_("? on grey: a number an exercise below asks; it shows once you answer it"),
}


def marks(heatmap: Heatmap, decimals: int) -> list[str]:
    """The legend of the marks the chart draws (✕, −∞, grey, red border), one entry each."""
    texts = {text for row in cell_texts(heatmap, decimals) for text in row}
    masked = heatmap.masked is not None and any(any(row) for row in heatmap.masked)
    found = {
        "dropped": "✕" in texts,
        "masked_score": masked and heatmap.kind == "scores",
        "masked": masked and heatmap.kind != "scores",
        "undefined": "undef." in texts,
        "asked": bool(heatmap.asked),
    }
    return [_(MARKS[name]) for name, drawn in found.items() if drawn]


def axis_titles(heatmap: Heatmap) -> tuple[str, str] | None:
    """The titles of the row axis and the column axis as the chart prints them, or None for
    a chart without them."""
    if heatmap.axes is not None:
        pair = (heatmap.axes[0], heatmap.axes[1]) if len(heatmap.axes) == 2 else None
    else:
        pair = (
            (_(AXES[heatmap.kind][0]), _(AXES[heatmap.kind][1])) if heatmap.kind in AXES else None
        )
    return (safe.plain(pair[0], 40), safe.plain(pair[1], 40)) if pair else None


def _layout(
    heatmap: Heatmap, texts: list[str], look: Look, max_width: int
) -> tuple[sizing.Geometry, bool, bool]:
    """``sizing.layout`` for this heatmap: its labels, texts and axis titles."""
    titles = axis_titles(heatmap)
    return sizing.layout(heatmap.rows, heatmap.columns, texts, look, max_width, titles)


def description(heatmap: Heatmap) -> str:
    """The chart's text alternative: the caller's, or its shape when that is blank."""
    given = safe.plain(heatmap.description, 300)
    kind = _(KINDS[heatmap.kind]) if heatmap.kind in KINDS else heatmap.kind
    shape = _("A {rows} by {columns} heatmap of {kind}").format(
        rows=len(heatmap.rows), columns=len(heatmap.columns), kind=kind
    )
    return given if given.strip() else f"{shape}: {safe.plain(heatmap.title, 80)}".strip(" :")


def cell_text(value: float, masked: bool, dropped: bool, kind: str, decimals: int) -> str:
    """What a cell prints: its number, −∞ (masked score), ✕ (dropped) or "undef." (NaN)."""
    if masked and kind == "scores":
        return "−∞"
    if dropped and not masked:
        return "✕"
    if not math.isfinite(value):
        return "undef."  # a masked weight too, when its whole row is 0 / 0 (norm "sum")
    return format_number(value, decimals)


def cell_texts(heatmap: Heatmap, decimals: int) -> list[list[str]]:
    """Every cell's text as the chart prints it, row by row (for a table of the same)."""
    texts = [str(r["text"]) for r in _records(heatmap, decimals)]
    width = len(heatmap.columns)
    return [texts[i * width : (i + 1) * width] for i in range(len(heatmap.rows))]


def share_fitted_range(heatmaps: Sequence[tuple[Heatmap, str]]) -> list[tuple[Heatmap, str]]:
    """Weights fitted to their numbers, shown side by side, share one range: the same colour,
    the same weight. Other heatmaps pass unchanged."""
    fitted = [h for h, _key in heatmaps if h.kind == "weights" and h.scale == "fitted"]
    ranges = [r for r in map(value_range, fitted) if r is not None]
    if len(fitted) < 2 or not ranges:
        return list(heatmaps)
    shared = (min(r[0] for r in ranges), max(r[1] for r in ranges))
    return [
        (replace(h, shared=shared) if h.kind == "weights" and h.scale == "fitted" else h, key)
        for h, key in heatmaps
    ]


def _records(heatmap: Heatmap, decimals: int) -> list[dict[str, object]]:
    records = []
    for i, row in enumerate(heatmap.values):
        for j, value in enumerate(row):
            masked = bool(heatmap.masked[i][j]) if heatmap.masked is not None else False
            dropped = bool(heatmap.dropped[i][j]) if heatmap.dropped is not None else False
            finite = math.isfinite(value)
            text = cell_text(value, masked, dropped, heatmap.kind, decimals)
            state = "masked" if masked else ("shown" if finite else "undefined")
            if (i, j) in heatmap.asked and not masked:
                text, state, dropped = "?", "asked", False
            records.append(
                {
                    "row": heatmap.rows[i],
                    "column": heatmap.columns[j],
                    "value": value if state == "shown" else None,
                    "text": text,
                    "state": state,
                    "dropped": dropped,
                    "desc": f"{heatmap.rows[i]}, {heatmap.columns[j]}: {text}",
                }
            )
    return records


# The colour scale's fixed domain: a cell's ``shade`` is its place between ``low`` and ``high``.
SHADES = colors.spread(0.0, 1.0, 5)
# Streamlit gives the spec's top-level data (sent as a table) this name in the browser.
DATA = "data('source')"
# A heatmap's kind in words, for its text alternative (in English, the kind itself).
KINDS = {
    "weights": N_("weights"),
    "scores": N_("scores"),
    "values": N_("values"),
    "difference": N_("difference"),
}


def colour_range(heatmap: Heatmap, records: list[dict[str, object]]) -> tuple[float, float]:
    """The values the colours span, ``low`` (first stop) to ``high`` (last stop)."""
    shown = [float(r["value"]) for r in records if r["value"] is not None]  # type: ignore[arg-type]
    if heatmap.kind == "weights":
        if heatmap.scale == "fixed" or not shown:
            return 0.0, 1.0
        low, high = heatmap.shared if heatmap.shared is not None else (min(shown), max(shown))
        nice_low, nice_high = colors.nice_range(low, high)
        if low >= 0.0 and high <= 1.0:  # weights that are probabilities: no colour beyond 0-1
            nice_low, nice_high = max(nice_low, 0.0), min(nice_high, 1.0)
        return nice_low, nice_high
    if heatmap.bound is not None:  # a cosine of 1.0000001 (rounding) must not double the scale
        return -heatmap.bound, heatmap.bound
    extent = colors.nice_bound(max((abs(v) for v in shown), default=1.0) or 1.0)
    return -extent, extent


def _legend_label(decimals: int) -> str:
    """A Vega expression: a legend tick's shade as the value it stands for (from the data)."""
    first = f"{DATA}[0]"
    span = f"({first}.high - {first}.low)"
    value = f"{first}.low + datum.value * {span}"
    # Two decimals, or as many more (up to the cells') as tell low, middle and high apart: a
    # narrow range such as 0.06-0.07 read "0.06, 0.07, 0.07" with two.
    fewest = min(decimals, 2)
    places = f"clamp(ceil(-log({span} / 2) / LN10), {fewest}, {max(decimals, fewest)})"
    # Vega draws the legend once before Streamlit inserts the data: print nothing then.
    return f"length({DATA}) ? format({value}, '.' + {places} + 'f') : ''"


def value_range(heatmap: Heatmap) -> tuple[float, float] | None:
    """The smallest and largest finite value shown (None when there is none)."""
    shown = [
        v
        for i, row in enumerate(heatmap.values)
        for j, v in enumerate(row)
        if math.isfinite(v)
        and not (heatmap.masked is not None and heatmap.masked[i][j])
        and (i, j) not in heatmap.asked
    ]
    return (min(shown), max(shown)) if shown else None


def fits(heatmap: Heatmap, *, decimals: int, look: Look, max_width: int, shrink: int = 0) -> bool:
    """True when the heatmap fits ``max_width`` with its font at most ``shrink`` pixels
    smaller than its look's full size, printing its numbers if it can print them at all."""
    texts = [str(r["text"]) for r in _records(heatmap, decimals)]
    size, _tilt, printed = _layout(heatmap, texts, look, max_width)
    printable = max(len(heatmap.rows), len(heatmap.columns)) <= sizing.TEXT_LIMIT
    return (
        size.font >= look.font - shrink and size.total_width <= max_width and printed == printable
    )


def prints_numbers(heatmap: Heatmap, *, decimals: int, look: Look, max_width: int) -> bool:
    """False when the cells are colour only (too many, or their numbers would not fit)."""
    texts = [str(r["text"]) for r in _records(heatmap, decimals)]
    return _layout(heatmap, texts, look, max_width)[2]


def shown_decimals(heatmap: Heatmap, *, decimals: int, look: Look, max_width: int) -> int:
    """The decimals the heatmap's cells print: the page's, or projected or on a phone, fewer
    (down to ``PRESENT_MIN_DECIMALS``) when only that keeps them at the look's
    ``least_numbers`` or larger in ``max_width``. A chart that cannot reach that size keeps
    the page's decimals."""
    if look.least_numbers is None:
        return decimals
    shrink = look.font - look.least_numbers
    for fewer in range(decimals, PRESENT_MIN_DECIMALS - 1, -1):
        if fits(heatmap, decimals=fewer, look=look, max_width=max_width, shrink=shrink):
            return fewer
    return decimals


def make_heatmap(
    heatmap: Heatmap, *, decimals: int, look: Look = LAPTOP, max_width: int = 600
) -> dict:
    """A Vega-Lite heatmap: layered rect and text marks, rows and columns in token order."""
    records = _records(heatmap, decimals)
    for record in records:
        record["row"] = safe.plain(record["row"], LABEL_CHARS)
        record["column"] = safe.plain(record["column"], LABEL_CHARS)
    rows = [safe.plain(r, LABEL_CHARS) for r in heatmap.rows]
    columns = [safe.plain(c, LABEL_CHARS) for c in heatmap.columns]
    texts = [str(r["text"]) for r in records]
    size, tilt, printed = _layout(heatmap, texts, look, max_width)
    titles = axis_titles(heatmap)
    low, high = colour_range(heatmap, records)
    stops = colors.SEQUENTIAL if heatmap.kind == "weights" else colors.DIVERGING
    for record in records:
        shown = record["state"] == "shown"
        shade = (float(record["value"]) - low) / (high - low) if shown else None  # type: ignore[arg-type]
        background = (
            colors.interpolate(stops, SHADES, shade) if shade is not None else colors.MASKED
        )
        record.update(shade=shade, low=low, high=high, ink=colors.ink(background))
    plot_width = size.cell_width * len(columns)
    return {
        "autosize": {"type": "pad", "contains": "padding"},
        "padding": PADDING,
        "usermeta": {"cellFont": size.font},  # the cells' type as fitted (Vega ignores it)
        "description": description(heatmap),
        "width": plot_width,
        "height": size.cell_height * len(rows),
        # The title keeps the look's size when the cells' type shrinks to fit: charts side by
        # side, shrunk by different amounts, keep titles of one height and their plots level.
        "title": sizing.title(
            safe.plain(heatmap.title, 80), look.font + 3, plot_width + size.label_width, max_width
        ),
        # Top-level data: Streamlit sends it as a table and, while the rest of the spec stays
        # the same, the browser swaps the data in place instead of rebuilding the chart.
        "data": {"values": records},
        "encoding": {
            "x": {
                "field": "column",
                "type": "nominal",
                "sort": columns,
                "title": titles[1] if titles else None,
                "axis": {
                    **AXIS_TITLE,
                    **column_title_place(
                        titles, size, plot_width, sizing.label_band(columns, size.axis_font, tilt)
                    ),
                    "orient": "top",
                    "labelPadding": sizing.LABEL_PADDING,
                    "labelAngle": -45 if tilt else 0,
                    "labelAlign": "left" if tilt else "center",
                    "labelOverlap": False,
                    # Not the row labels' width: that cut "head 1" to "h…" over one row.
                    "labelLimit": sizing.label_limit(columns, size.axis_font),
                },
            },
            "y": {
                "field": "row",
                "type": "nominal",
                "sort": rows,
                "title": titles[0] if titles else None,
                "axis": {
                    **AXIS_TITLE,
                    **row_title_place(size, sizing.label_band(columns, size.axis_font, tilt)),
                    "labelOverlap": False,
                    "labelLimit": size.label_width,
                },
            },
        },
        "layer": _legend_beside(
            _heatmap_layers(heatmap, stops, size, printed, decimals, max_width),
            look,
            max_width - size.label_width,
        ),
        "config": {
            "axis": {
                "labelFontSize": size.axis_font,
                "titleFontSize": size.axis_font,
                "titleFontWeight": "normal",
                "domain": False,
                "ticks": False,
            },
            "legend": {
                "labelFontSize": sizing.smaller(size.font, 1, look),
                "titleFontSize": sizing.smaller(size.font, 1, look),
            },
            "view": {"strokeWidth": 0},
        },
    }


def _legend_beside(layers: list[dict], look: Look, room: int) -> list[dict]:
    """Projected, the colour legend's title stands left of its scale, on one line, where the
    chart has ``room`` for both right of its row labels (where the legend starts): a line of
    height less (twelve tokens' heatmap stays on a 720 px projector's first screen)."""
    legend = layers[0]["encoding"]["color"]["legend"]
    if not isinstance(legend["title"], str):  # on lines: it stays above its scale
        return layers
    needed = sizing.text_width(legend["title"], look.least) + 12 + legend["gradientLength"] + 24
    if look.projected and needed <= room:
        legend.update(titleOrient="left", titleAnchor="end", titleBaseline="top")
    return layers


def row_title_place(size: sizing.Geometry, band: int) -> dict:
    """Where the rows' axis title goes (``sizing.PLACES``): in the corner above the row
    labels, ending by the plot; or, "above", from the labels' left edge over the column
    labels (``band`` pixels tall)."""
    if size.titles == "above":
        return {"titleAlign": "left", "titleX": -size.label_width, "titleY": -band - 6}
    return {"titleAlign": "right", "titleX": -sizing.AXIS_TITLE_GAP // 2}


def column_title_place(
    titles: tuple[str, str] | None, size: sizing.Geometry, plot_width: int, band: int
) -> dict:
    """Where the columns' axis title goes: right of the plot, level with its top; in the
    corner, one line above the rows' title; or, "above", after the rows' title on its line
    (``sizing.axis_title_room``)."""
    font = size.axis_font
    if size.titles == "above":
        after = math.ceil(sizing.text_width(titles[0], font)) if titles else 0
        x = -size.label_width + after + 2 * sizing.AXIS_TITLE_GAP
        return {"titleAlign": "left", "titleX": x, "titleY": -band - 6}
    if size.titles == "corner":
        return {
            "titleAlign": "right",
            "titleX": -sizing.AXIS_TITLE_GAP // 2,
            "titleY": -math.ceil(1.5 * font) - 6,
        }
    return {"titleAlign": "left", "titleX": plot_width + sizing.AXIS_TITLE_GAP}


def tooltip(heatmap: Heatmap) -> list[dict]:
    """What hovering a cell shows, in the learner's words: its query and key (or row and
    column) and its value."""
    named = axis_titles(heatmap) is not None
    return [
        {"field": "row", "title": _("query") if named else _("row")},
        {"field": "column", "title": _("key") if named else _("column")},
        {"field": "text", "title": _("value")},
    ]


def _heatmap_layers(
    heatmap: Heatmap,
    stops: tuple,
    size: sizing.Geometry,
    printed: bool,
    decimals: int,
    max_width: int,
) -> list[dict]:
    legend_title = safe.plain(heatmap.legend, 40) or _(LEGEND_TITLES.get(heatmap.kind, N_("value")))
    if heatmap.kind == "weights":  # the scale's choice, stated under the chart
        legend_title = {
            "fixed": _("{title} (colours fixed from 0 to 1)"),
            "fitted": _("{title} (colours shared by these charts)")
            if heatmap.shared
            else _("{title} (colours fitted to these numbers)"),
        }[heatmap.scale].format(title=legend_title)

    # not Vega's 180: the legend starts past the row labels and the padding
    title_limit = max(60, max_width - size.label_width - 56)
    legend_font = max(size.font - 1, size.least)  # the config's legend type
    # a masked cell stays plain grey, dropped or not: its weight was 0 before dropout
    marked = "(datum.dropped && datum.state != 'masked') || datum.state == 'undefined'"
    # Two layers only (Vega draws each layer's marks in its own dataflow): the cells, whose
    # colour and outline follow their state, and their text in its contrasting colour.
    layers: list[dict] = [
        {
            # A masked or undefined cell has no shade; Vega-Lite drops such cells unless told
            # to draw them (its colour is then the condition's grey).
            "mark": {"type": "rect", "aria": False, "invalid": "show"},
            "encoding": {
                "color": {
                    "condition": {"test": "datum.state != 'shown'", "value": colors.MASKED},
                    "field": "shade",
                    "type": "quantitative",
                    "scale": {
                        "domain": SHADES,
                        "range": list(stops),
                        "interpolate": "rgb",
                        "clamp": True,
                    },
                    "legend": {
                        # on lines that fit rather than cut with "…" (a phone's column)
                        "title": sizing.title_lines(legend_title, legend_font, title_limit),
                        "titleLimit": title_limit,
                        "orient": "bottom",
                        "direction": "horizontal",
                        "gradientLength": max(80, min(220, size.cell_width * len(heatmap.columns))),
                        "values": [0, 0.5, 1],  # low, middle, high
                        "labelExpr": _legend_label(decimals),
                    },
                },
                "stroke": {
                    "condition": {"test": marked, "value": colors.DROPPED},
                    "value": "white",
                },
                "strokeWidth": {"condition": {"test": marked, "value": 2.5}, "value": 1},
                "tooltip": tooltip(heatmap),
            },
        }
    ]
    if not printed:  # colour only: a click or a tap on a cell prints its number over it
        layers[0]["params"] = [
            {
                "name": "tapped",
                # It stays until another cell is tapped: two quick taps are not a double
                # click that would clear it.
                "select": {"type": "point", "on": "click", "clear": False, "fields": CELL},
            }
        ]
        for ink, halo in ((colors.WHITE, 4), (colors.BLACK, 0)):  # a white halo, then the ink
            layers.append(
                {
                    "name": f"tapped_{'halo' if halo else 'number'}",
                    "transform": [{"filter": {"param": "tapped", "empty": False}}],
                    "mark": {
                        "type": "text",
                        "fontSize": max(size.font, sizing.LAPTOP.font, size.least) + 1,
                        "fontWeight": "bold",
                        "color": ink,
                        "stroke": colors.WHITE if halo else None,
                        "strokeWidth": halo,
                        "aria": False,
                    },
                    "encoding": {
                        "text": {"field": "text", "type": "nominal"},
                        "tooltip": tooltip(heatmap),
                    },
                }
            )
    if printed:
        layers.append(
            {
                "mark": {"type": "text", "fontSize": size.font, "aria": True},
                "encoding": {
                    "text": {"field": "text", "type": "nominal"},
                    "color": {
                        "condition": {
                            "test": f"datum.ink == '{colors.WHITE}'",
                            "value": colors.WHITE,
                        },
                        "value": colors.BLACK,
                    },
                    "description": {"field": "desc", "type": "nominal"},
                    # the number over the cell catches the pointer: the cell's own tooltip,
                    # not Vega's list of every field (column, row, text, desc...)
                    "tooltip": tooltip(heatmap),
                },
            }
        )
    return layers


# Streamlit's chart theme draws axis and legend text in grey (#808495: 3.7 : 1 on white,
# under WCAG AA's 4.5 : 1, and faint on a projector); they name the tokens, so they take the
# page's own text colour (``ui.blocks.heatmaps.vega_spec``).
TEXT_PARTS = ("axis", "legend")
CELL = ["row", "column"]  # what names a cell (a tapped one)


def with_text_color(spec: dict, color: str | None) -> dict:
    """The spec with its axis and legend labels and titles in ``color`` (None: unchanged)."""
    if color is None:
        return spec
    config = dict(spec.get("config", {}))
    for part in TEXT_PARTS:
        config[part] = {"labelColor": color, "titleColor": color, **config.get(part, {})}
    return {**spec, "config": config}


def with_table(spec: dict) -> dict:
    """The spec with its top-level records as an Arrow table, which Streamlit sends as it is
    (a list of records goes through pandas first: a few milliseconds a chart, every change)."""
    data = spec.get("data")
    records = data.get("values") if isinstance(data, dict) else None
    if not isinstance(records, list) or not records:
        return spec
    names = list(dict.fromkeys(name for record in records for name in record))
    try:
        table = pa.table({name: [record.get(name) for record in records] for name in names})
    except (pa.ArrowInvalid, pa.ArrowTypeError):  # a column of mixed kinds: as records
        return spec
    return {**spec, "data": {**data, "values": table}}
