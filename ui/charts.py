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
PAD = alt.AutoSizeParams(type="pad", contains="padding")
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
) -> pd.DataFrame:
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
    return pd.DataFrame.from_records(records)


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
) -> alt.LayerChart:
    """A heatmap with numbers printed in the cells, rows and columns in token order.

    ``kind`` is ``weights`` (fixed 0..1 viridis scale), ``scores`` (diverging, centred at 0) or
    ``values`` (diverging, centred at 0). Masked cells are grey and read −∞; dropped cells are
    outlined and marked ✕.
    """
    data = _cells(matrix, rows, columns, masked, dropped, decimals)
    size = cell_size(rows, len(columns), present, max_width)
    size = min(size, max_cell) if max_cell else size
    axis_font = _font(present)
    wide = max(len(c) for c in columns) * 0.62 * axis_font > size
    x = alt.X(
        "column:N",
        sort=list(columns),
        title=None,
        axis=alt.Axis(orient="top", labelAngle=-40 if wide else 0, labelOverlap=False),
    )
    y = alt.Y("row:N", sort=list(rows), title=None, axis=alt.Axis(labelOverlap=False))
    scale, text_test = _scale(kind, data)
    base = alt.Chart(data).encode(x=x, y=y)
    shown = (
        base.transform_filter("datum.state == 'shown'")
        .mark_rect(stroke="white", strokeWidth=1)
        .encode(
            color=alt.Color("value:Q", scale=scale, legend=None),
            tooltip=[
                alt.Tooltip("row:N", title="query"),
                alt.Tooltip("column:N", title="key"),
                alt.Tooltip("value:Q", format=".4f"),
            ],
        )
    )
    greyed = base.transform_filter("datum.state == 'masked'").mark_rect(
        color=MASKED_GREY, stroke="white", strokeWidth=1
    )
    layers = [shown, greyed]
    if (data["dropped"]).any():
        layers.append(
            base.transform_filter("datum.dropped").mark_rect(
                fillOpacity=0, stroke="#d62728", strokeWidth=2.5
            )
        )
    if len(rows) <= TEXT_LIMIT and len(columns) <= TEXT_LIMIT:
        layers.append(
            base.mark_text(fontSize=axis_font - (1 if decimals > 2 else 0)).encode(
                text="text:N",
                color=alt.condition(text_test, alt.value("white"), alt.value("black")),
            )
        )
    return (
        alt.layer(*layers)
        .properties(
            autosize=PAD,
            width=size * len(columns),
            height=size * len(rows),
            title=alt.Title(title, fontSize=axis_font + 3, anchor="start"),
        )
        .configure_axis(labelFontSize=axis_font, labelLimit=110)
        .configure_view(strokeWidth=0)
    )


def _scale(kind: str, data: pd.DataFrame) -> tuple[alt.Scale, str]:
    """The colour scale and the test for printing white text on dark cells."""
    if kind == "weights":
        # Fixed 0..1 so colours mean the same on every page; values past 1 (dropout) saturate.
        return (
            alt.Scale(scheme="viridis", domain=[0, 1], clamp=True),
            "datum.value !== null && datum.value < 0.55",
        )
    values = data["value"].dropna()
    extent = float(values.abs().max()) if len(values) else 1.0
    extent = extent or 1.0
    return (
        alt.Scale(scheme="blueorange", domain=[-extent, extent], domainMid=0),
        f"datum.value !== null && abs(datum.value) > {0.62 * extent}",
    )


def make_weight_bars(
    weights: Sequence[float], labels: Sequence[str], *, title: str, present: bool = False
) -> alt.LayerChart:
    """Horizontal bars of one query's weights, with the numbers printed."""
    data = pd.DataFrame({"key": list(labels), "weight": list(weights)})
    font = _font(present)
    y = alt.Y("key:N", sort=list(labels), title=None)
    bars = (
        alt.Chart(data)
        .mark_bar(color="#3b528b")
        .encode(
            x=alt.X(
                "weight:Q",
                scale=alt.Scale(domain=[0, max(1.0, float(data["weight"].max()))]),
                title="weight",
            ),
            y=y,
            tooltip=["key", alt.Tooltip("weight:Q", format=".4f")],
        )
    )
    text = bars.mark_text(align="left", dx=4, fontSize=font, color="black").encode(
        text=alt.Text("weight:Q", format=".4f")
    )
    return (
        alt.layer(bars, text)
        .properties(
            autosize=PAD,
            width=240,
            height=max(120, 26 * len(labels)),
            title=alt.Title(title, fontSize=font + 3, anchor="start"),
        )
        .configure_axis(labelFontSize=font, titleFontSize=font)
    )


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
        .properties(autosize=PAD, width=360, height=260, title=alt.Title(title, fontSize=font + 3))
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
