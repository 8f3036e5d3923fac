"""The embeddings as arrows in 3D (Plotly), with the context vector among them. Plain data in,
a Plotly figure out; no st.* calls.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from attention_core.formatting import format_number
from translation import _
from ui import safe
from ui.specs.sizing import LAPTOP, Look

PALETTE = (
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
)

# Plotly's own camera (eye at 1.25, 1.25, 1.25) fills the plot's height with the cube, and its
# width follows the column: the "d3" title and ticks on the left were cut at 1280 × 720 (issue
# 39, item 8), and more on a tablet or a phone. Farther away, and looking a little to the left
# of the cube's centre (the d3 side is the wider one), the cube and its titles fit every screen.
CAMERA = {"eye": {"x": 1.65, "y": 1.65, "z": 1.5}, "center": {"x": 0.09, "y": -0.09, "z": -0.05}}


def make_embedding_3d(
    vectors: Sequence[Sequence[float]],
    labels: Sequence[str],
    *,
    context: Sequence[float] | None = None,
    context_label: str = "",
    decimals: int = 2,
    look: Look = LAPTOP,
) -> go.Figure:
    """Tokens as arrows from the origin in 3D (first three dimensions; missing ones are 0).

    Plotly reads a few HTML tags in its labels, so every label goes through ``safe.plotly``.
    """
    figure = go.Figure()
    arrows = [
        (list(v), label, PALETTE[i % len(PALETTE)], "solid")
        for i, (v, label) in enumerate(zip(vectors, labels, strict=True))
    ]
    if context is not None:
        arrows.append((list(context), context_label, "#000000", "dash"))
    for vector, label, colour, dash in arrows:
        x, y, z = ([*list(vector), 0.0, 0.0, 0.0])[:3]
        name = safe.plotly(label)
        where = ", ".join(format_number(v, decimals) for v in (x, y, z))
        figure.add_trace(
            go.Scatter3d(
                x=[0, x],
                y=[0, y],
                z=[0, z],
                mode="lines+text",
                text=["", name],
                textposition="top center",
                line={"color": colour, "width": 7, "dash": dash},
                textfont={"size": max(look.least, 12), "color": colour},
                name=name,
                hovertext=[_("origin"), f"{name}: ({where})"],
                hoverinfo="text",
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
        scene={
            "xaxis_title": "d1",
            "yaxis_title": "d2",
            "zaxis_title": "d3",
            "aspectmode": "cube",
            "camera": CAMERA,
        },
    )
    return figure
