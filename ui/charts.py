"""Chart builders: plain data in, an Altair or Plotly figure out. No st.* calls (unit-testable)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import altair as alt
import pandas as pd
import plotly.graph_objects as go

MASKED_GREY = "#c8c8c8"
# Streamlit's default autosize "fit" squeezes axes and cells into the width given to the plot;
# "pad" keeps the cell sizes computed here (they are chosen to fit the column).
PAD = {"type": "pad", "contains": "padding"}
TEXT_LIMIT = 16  # past this many tokens, cells carry no printed numbers


def _label_width(labels: Sequence[str], font: int) -> int:
    return min(110, int(0.62 * font * max((len(label) for label in labels), default=1)) + 12)


def cell_size(rows: Sequence[str], columns: int, present: bool, max_width: int) -> int:
    """Square cells as large as fit: the chart must not be wider than its column."""
    base = 58 if present else 46
    room = max_width - _label_width(rows, _font(present))
    return max(14, min(base, int(room / max(columns, 1))))


def _font(present: bool) -> int:
    return 17 if present else 12


def _cells(
    matrix: Sequence[Sequence[float]],
    rows: Sequence[str],
    columns: Sequence[str],
    masked: Sequence[Sequence[bool]] | None,
    dropped: Sequence[Sequence[bool]] | None,
    decimals: int,
) -> list[dict[str, object]]:
    records = []
    for i, row in enumerate(matrix):
        for j, value in enumerate(row):
            is_masked = bool(masked[i][j]) if masked is not None else False
            is_dropped = bool(dropped[i][j]) if dropped is not None else False
            finite = math.isfinite(value)
            if is_masked:
                text = "−∞"
            elif not finite:
                text = "NaN" if math.isnan(value) else ("∞" if value > 0 else "−∞")
            else:
                text = f"{value:.{decimals}f}" + (" ✕" if is_dropped else "")
            records.append(
                {
                    "row": rows[i],
                    "column": columns[j],
                    "value": value if finite and not is_masked else None,
                    "text": text,
                    "state": "masked" if is_masked or not finite else "shown",
                    "dropped": is_dropped,
                }
            )
    return records


def make_heatmap(
    matrix: Sequence[Sequence[float]],
    rows: Sequence[str],
    columns: Sequence[str],
    *,
    kind: str,
    title: str,
    masked: Sequence[Sequence[bool]] | None = None,
    dropped: Sequence[Sequence[bool]] | None = None,
    present: bool = False,
    decimals: int = 2,
    max_width: int = 300,
    max_cell: int | None = None,
) -> dict:
    """A Vega-Lite heatmap: layered rect and text marks, rows and columns in token order.

    ``kind`` is ``weights`` (fixed 0..1 viridis scale), ``scores`` or ``values`` (diverging,
    centred at 0). Masked cells are grey and read −∞; dropped cells are outlined and marked ✕.
    The spec is built as a plain dict: building the same layers through Altair objects and
    validating them cost ~40 ms per chart, eight times a whole baseline rerun (bench/).
    """
    records = _cells(matrix, rows, columns, masked, dropped, decimals)
    size = cell_size(rows, len(columns), present, max_width)
    size = min(size, max_cell) if max_cell else size
    font = _font(present)
    wide = max(len(c) for c in columns) * 0.62 * font > size
    scale, text_test = _scale(kind, records)
    layers: list[dict] = [
        {
            "transform": [{"filter": "datum.state == 'shown'"}],
            "mark": {"type": "rect", "stroke": "white", "strokeWidth": 1},
            "encoding": {
                "color": {"field": "value", "type": "quantitative", "scale": scale, "legend": None},
                "tooltip": [
                    {"field": "row", "title": "query"},
                    {"field": "column", "title": "key"},
                    {"field": "value", "type": "quantitative", "format": ".4f"},
                ],
            },
        },
        {
            "transform": [{"filter": "datum.state == 'masked'"}],
            "mark": {"type": "rect", "color": MASKED_GREY, "stroke": "white", "strokeWidth": 1},
        },
    ]
    if any(record["dropped"] for record in records):
        layers.append(
            {
                "transform": [{"filter": "datum.dropped"}],
                "mark": {"type": "rect", "fillOpacity": 0, "stroke": "#d62728", "strokeWidth": 2.5},
            }
        )
    if len(rows) <= TEXT_LIMIT and len(columns) <= TEXT_LIMIT:
        layers.append(
            {
                "mark": {"type": "text", "fontSize": font - (1 if decimals > 2 else 0)},
                "encoding": {
                    "text": {"field": "text", "type": "nominal"},
                    "color": {"condition": {"test": text_test, "value": "white"}, "value": "black"},
                },
            }
        )
    return {
        "autosize": PAD,
        "width": size * len(columns),
        "height": size * len(rows),
        "title": {"text": title, "fontSize": font + 3, "anchor": "start"},
        "data": {"values": records},
        "encoding": {
            "x": {
                "field": "column",
                "type": "nominal",
                "sort": list(columns),
                "title": None,
                "axis": {"orient": "top", "labelAngle": -40 if wide else 0, "labelOverlap": False},
            },
            "y": {
                "field": "row",
                "type": "nominal",
                "sort": list(rows),
                "title": None,
                "axis": {"labelOverlap": False},
            },
        },
        "layer": layers,
        "config": {"axis": {"labelFontSize": font, "labelLimit": 110}, "view": {"strokeWidth": 0}},
    }


def _scale(kind: str, records: list[dict[str, object]]) -> tuple[dict, str]:
    """The colour scale and the test for printing white text on dark cells."""
    if kind == "weights":
        # Fixed 0..1 so colours mean the same on every page; values past 1 (dropout) saturate.
        return (
            {"scheme": "viridis", "domain": [0, 1], "clamp": True},
            "datum.value !== null && datum.value < 0.55",
        )
    values = [abs(r["value"]) for r in records if r["value"] is not None]
    extent = max(values, default=1.0) or 1.0
    return (
        {"scheme": "blueorange", "domain": [-extent, extent], "domainMid": 0},
        f"datum.value !== null && abs(datum.value) > {0.62 * extent}",
    )


def make_weight_bars(
    weights: Sequence[float], labels: Sequence[str], *, title: str, present: bool = False
) -> dict:
    """Horizontal bars of one query's weights, with the numbers printed (a Vega-Lite dict)."""
    font = _font(present)
    top = max(1.0, max(weights, default=0.0))
    return {
        "autosize": PAD,
        "width": 240,
        "height": max(120, 26 * len(labels)),
        "title": {"text": title, "fontSize": font + 3, "anchor": "start"},
        "data": {"values": [{"key": k, "weight": w} for k, w in zip(labels, weights, strict=True)]},
        "encoding": {
            "x": {
                "field": "weight",
                "type": "quantitative",
                "scale": {"domain": [0, top]},
                "title": "weight",
            },
            "y": {"field": "key", "type": "nominal", "sort": list(labels), "title": None},
            "tooltip": [
                {"field": "key"},
                {"field": "weight", "type": "quantitative", "format": ".4f"},
            ],
        },
        "layer": [
            {"mark": {"type": "bar", "color": "#3b528b"}},
            {
                "mark": {
                    "type": "text",
                    "align": "left",
                    "dx": 4,
                    "fontSize": font,
                    "color": "black",
                },
                "encoding": {"text": {"field": "weight", "type": "quantitative", "format": ".4f"}},
            },
        ],
        "config": {"axis": {"labelFontSize": font, "titleFontSize": font}},
    }


def make_line_chart(
    rows: Sequence[dict[str, float | int | str]],
    *,
    y: str,
    y_title: str,
    title: str,
    log_y: bool = False,
    present: bool = False,
) -> alt.Chart:
    """Lines of ``y`` against d (log axis), one per scaling label."""
    data = pd.DataFrame.from_records(list(rows))
    font = _font(present)
    return (
        alt.Chart(data)
        .mark_line(point=True)
        .encode(
            x=alt.X("d:Q", scale=alt.Scale(type="log", base=2), title="key dimension d"),
            y=alt.Y(f"{y}:Q", scale=alt.Scale(type="log") if log_y else alt.Scale(), title=y_title),
            color=alt.Color("label:N", title="scores", scale=alt.Scale(scheme="dark2")),
            tooltip=["d", "label", alt.Tooltip(f"{y}:Q", format=".4f")],
        )
        .properties(
            autosize=alt.AutoSizeParams(**PAD),
            width=360,
            height=260,
            title=alt.Title(title, fontSize=font + 3),
        )
        .configure_axis(labelFontSize=font, titleFontSize=font)
        .configure_legend(labelFontSize=font, titleFontSize=font)
    )


def make_embedding_3d(
    vectors: Sequence[Sequence[float]],
    labels: Sequence[str],
    *,
    context: Sequence[float] | None = None,
    context_label: str = "",
    present: bool = False,
) -> go.Figure:
    """Tokens as arrows from the origin in 3D (first three dimensions; missing ones are 0).

    Labels never contain markup (they are validated), so Plotly draws them as plain text.
    """
    palette = [
        "#1f77b4",
        "#ff7f0e",
        "#2ca02c",
        "#d62728",
        "#9467bd",
        "#8c564b",
        "#e377c2",
        "#7f7f7f",
        "#bcbd22",
        "#17becf",
        "#393b79",
        "#637939",
    ]
    figure = go.Figure()
    arrows = [
        (list(v), label, palette[i % len(palette)], "solid")
        for i, (v, label) in enumerate(zip(vectors, labels, strict=True))
    ]
    if context is not None:
        arrows.append((list(context), context_label, "#000000", "dash"))
    for vector, label, colour, dash in arrows:
        x, y, z = ([*list(vector), 0.0, 0.0, 0.0])[:3]
        figure.add_trace(
            go.Scatter3d(
                x=[0, x],
                y=[0, y],
                z=[0, z],
                mode="lines+text",
                text=["", label],
                textposition="top center",
                line={"color": colour, "width": 7, "dash": dash},
                textfont={"size": 16 if present else 12, "color": colour},
                name=label,
                hovertemplate=f"({x:.2f}, {y:.2f}, {z:.2f})<extra></extra>",
            )
        )
        figure.add_trace(
            go.Cone(
                x=[x],
                y=[y],
                z=[z],
                u=[x * 0.12],
                v=[y * 0.12],
                w=[z * 0.12],
                anchor="tip",
                colorscale=[[0, colour], [1, colour]],
                showscale=False,
                hoverinfo="skip",
            )
        )
    figure.update_layout(
        height=460,
        margin={"l": 0, "r": 0, "t": 10, "b": 0},
        showlegend=False,
        scene={"xaxis_title": "d1", "yaxis_title": "d2", "zaxis_title": "d3", "aspectmode": "cube"},
    )
    return figure
