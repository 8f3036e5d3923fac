"""Memory against the number of tokens: a KV cache's line grows, a recurrent state's stays
flat. Plain data in, a Vega-Lite dict out; no st.* calls."""

from __future__ import annotations

from collections.abc import Sequence

from ui.specs.bars_and_curves import LINE_COLORS, curves_frame
from ui.specs.sizing import LAPTOP, Look


def make_memory_chart(
    rows: Sequence[dict[str, int | str]],
    *,
    x_title: str,
    y_title: str,
    legend_title: str,
    title: str,
    description: str,
    look: Look = LAPTOP,
) -> dict:
    """Lines of ``bytes`` against ``tokens``, one per ``label`` (already in the learner's
    words), each with its own colour and dash, and a legend."""
    labels = list(dict.fromkeys(str(r["label"]) for r in rows))
    dashes = [[1, 0], [6, 3], [2, 2]]
    return {
        **curves_frame(title, description, look),
        "data": {"values": [dict(r) for r in rows]},
        "mark": {"type": "line", "point": True},
        "encoding": {
            "x": {
                "field": "tokens",
                "type": "quantitative",
                "title": x_title,
                "axis": {"tickMinStep": 1},
            },
            "y": {"field": "bytes", "type": "quantitative", "title": y_title},
            "color": {
                "field": "label",
                "type": "nominal",
                "sort": labels,
                "scale": {"domain": labels, "range": list(LINE_COLORS[: len(labels)])},
                "legend": {"title": legend_title, "orient": "bottom", "columns": 1},
            },
            "strokeDash": {
                "field": "label",
                "type": "nominal",
                "sort": labels,
                "scale": {"domain": labels, "range": dashes[: len(labels)]},
                "legend": None,
            },
            "tooltip": [
                {"field": "label", "title": legend_title},
                {"field": "tokens", "title": x_title},
                {"field": "bytes", "title": y_title},
            ],
        },
    }
