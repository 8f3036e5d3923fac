"""Attention as lines: each query token (left) joined to every key token (right). No st.* calls.

A line's width and opacity grow with its weight (``line_width``, ``line_opacity``); masked
pairs have no line; pairs that dropout zeroed are dashed. With several heads each head has its
colour (and a legend), and its lines are shifted a little so that they do not hide each other.
Hovering a token (or choosing it with the page's widget, for keyboard users) keeps its lines
and fades the others: two Vega-Lite point selections, on the queries and on the keys.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from attention_core.formatting import format_number
from translation import _
from ui import safe
from ui.specs import sizing
from ui.specs.sizing import LABEL_CHARS, LAPTOP, Look, text_width

# Dark2 (ColorBrewer), colour-blind friendly for the first three; one colour per head.
DARK2 = "#1b9e77 #d95f02 #7570b3 #e7298a #66a61e #e6ab02 #a6761d #666666"
HEAD_COLOURS = tuple(DARK2.split())
ONE_HEAD = "#3b528b"
PILL = "#eef1f6"
PICKED = "#ffe08a"
FADED = 0.04  # the opacity of another token's lines while one token is isolated
DROPPED_DASH = [5, 4]
DROPPED_WIDTH = 1.4
DROPPED_OPACITY = 0.7


def line_width(weight: float) -> float:
    """Stroke width in pixels: 0.8 for a zero weight, 9.8 for a weight of 1 (or more)."""
    return 0.8 + 9.0 * min(abs(weight), 1.0)


def line_opacity(weight: float) -> float:
    """Opacity: 0.15 for a zero weight, 1 for a weight of 1 (or more); the square root makes
    the many small weights of a long sentence visible."""
    return 0.15 + 0.85 * math.sqrt(min(abs(weight), 1.0))


@dataclass(frozen=True)
class Lines:
    """What a lines chart shows.

    Shapes:
        weights: (num_heads, num_tokens, num_tokens), after dropout; masked: (num_tokens,
        num_tokens), True = may not attend; dropped: (num_heads, num_tokens, num_tokens).
    """

    weights: Sequence[Sequence[Sequence[float]]]
    labels: Sequence[str]
    title: str
    description: str
    masked: Sequence[Sequence[bool]] | None = None
    dropped: Sequence[Sequence[Sequence[bool]]] | None = None


def _records(lines: Lines, geometry: dict[str, float], decimals: int) -> list[dict]:
    heads = len(lines.weights)
    labels = [safe.plain(label, LABEL_CHARS) for label in lines.labels]
    shift = min(2.5, geometry["row"] * 0.5 / heads)
    records = []
    for h, matrix in enumerate(lines.weights):
        offset = (h - (heads - 1) / 2) * shift
        for i, row in enumerate(matrix):
            for j, weight in enumerate(row):
                if lines.masked is not None and lines.masked[i][j]:
                    continue  # a masked pair has no line
                if not math.isfinite(weight):
                    continue  # an undefined weight (a pitfall's 0/0) has no width to draw
                dropped = bool(lines.dropped is not None and lines.dropped[h][i][j])
                text = _("dropped") if dropped else format_number(weight, decimals)
                records.append(
                    {
                        "x": geometry["left"],
                        "x2": geometry["right"],
                        "y": geometry["top"] + (i + 0.5) * geometry["row"] + offset,
                        "y2": geometry["top"] + (j + 0.5) * geometry["row"] + offset,
                        "query": i,
                        "key": j,
                        "head": _("head {number}").format(number=h + 1),
                        "dropped": dropped,
                        "width": DROPPED_WIDTH if dropped else line_width(weight),
                        "alpha": DROPPED_OPACITY if dropped else line_opacity(weight),
                        "weight": text,
                        "desc": _("{query} to {key}, head {head}: {weight}").format(
                            query=labels[i], key=labels[j], head=h + 1, weight=text
                        ),
                    }
                )
    return records


def _tokens(lines: Lines, geometry: dict[str, float]) -> list[dict]:
    labels = [safe.plain(label, LABEL_CHARS) for label in lines.labels]
    tokens = []
    for side, x, x2, tx in (
        ("query", 0.0, geometry["left"] - 4, geometry["left"] - 10),
        (
            "key",
            geometry["right"] + 4,
            geometry["right"] + geometry["label"],
            geometry["right"] + 10,
        ),
    ):
        for i, label in enumerate(labels):
            top = geometry["top"] + i * geometry["row"]
            tokens.append(
                {
                    "x": x,
                    "x2": x2,
                    "y": top + 2,
                    "y2": top + geometry["row"] - 2,
                    "tx": tx,
                    "ty": top + geometry["row"] / 2,
                    side: i,
                    "side": side,
                    "text": label,
                }
            )
    return tokens


def _px(*names: str) -> dict:
    return {name: {"field": name, "type": "quantitative", "scale": None} for name in names}


def _selection(side: str, isolate: int) -> dict:
    """Hovering one of this side's tokens picks it (and leaving it clears the pick).

    The events are filtered to this side's targets (``@{side}_targets_marks``): otherwise a
    point selection takes its tuple from any mark under the pointer.
    """
    marks = f"@{side}_targets_marks"
    param: dict = {
        "name": f"pick_{side}",
        "select": {
            "type": "point",
            "on": f"{marks}:pointerover",
            "clear": f"{marks}:pointerout",
            "fields": [side],
        },
    }
    if isolate and side == "query":
        param["value"] = [{"query": isolate - 1}]
    return param


def _numbers(records: list[dict], geometry: dict[str, float], font: int, look: Look) -> dict:
    """Each weight printed at its key's end, shown only while its query is picked."""
    values = [
        {
            "x": geometry["right"] - 8,
            "y": r["y2"] - 0.45 * font,
            "query": r["query"],
            "text": r["weight"],
        }
        for r in records
    ]
    return {
        "data": {"values": values},
        "mark": {
            "type": "text",
            "fontSize": sizing.smaller(font, 2, look),
            "align": "right",
            "baseline": "middle",
            "color": "#111111",
            "tooltip": None,
            "aria": False,
        },
        "encoding": {
            **_px("x", "y"),
            "text": {"field": "text"},
            "opacity": {
                "condition": {"param": "pick_query", "empty": False, "value": 1},
                "value": 0,
            },
        },
    }


def _line_layers(records: list[dict], heads: int) -> list[dict]:
    """Kept lines solid, dropped ones dashed; one colour per head (with a legend) if several."""
    if heads > 1:
        names = [_("head {number}").format(number=h + 1) for h in range(heads)]
        colour: dict = {
            "field": "head",
            "type": "nominal",
            "scale": {"domain": names, "range": list(HEAD_COLOURS[:heads])},
            "legend": {"title": None, "orient": "bottom", "direction": "horizontal"},
        }
    else:
        colour = {"value": ONE_HEAD}
    # A line keeps its opacity unless another token is picked (an empty pick keeps them all).
    kept_in = {"and": [{"param": "pick_query"}, {"param": "pick_key"}]}
    encoding = {
        **_px("x", "y", "x2", "y2"),
        "strokeWidth": {"field": "width", "type": "quantitative", "scale": None},
        "strokeOpacity": {
            "condition": {"test": kept_in, "field": "alpha", "type": "quantitative", "scale": None},
            "value": FADED,
        },
        "color": colour,
        "description": {"field": "desc"},
        "tooltip": [{"field": "desc", "title": _("weight")}],
    }
    return [
        {
            "data": {"values": [r for r in records if r["dropped"] == dropped]},
            "mark": {"type": "rule", "strokeCap": "butt" if dropped else "round"}
            | ({"strokeDash": DROPPED_DASH} if dropped else {}),
            "encoding": encoding,
        }
        for dropped in (False, True)
    ]


def _token_layers(tokens: list[dict], font: int, isolate: int) -> list[dict]:
    """Each token as a pill with its label, under a transparent target that picks it."""
    picked = {
        "or": [{"param": "pick_query", "empty": False}, {"param": "pick_key", "empty": False}]
    }
    layers: list[dict] = [
        {
            "data": {"values": tokens},
            "mark": {"type": "rect", "cornerRadius": 4, "tooltip": None, "aria": False},
            "encoding": {
                **_px("x", "y", "x2", "y2"),
                "fill": {"condition": {"test": picked, "value": PICKED}, "value": PILL},
            },
        }
    ]
    for side in ("query", "key"):
        values = [t for t in tokens if t["side"] == side]
        align = "right" if side == "query" else "left"
        layers.append(
            {
                "data": {"values": values},
                "mark": {"type": "text", "fontSize": font, "baseline": "middle", "align": align},
                "encoding": {
                    "x": {"field": "tx", "type": "quantitative", "scale": None},
                    "y": {"field": "ty", "type": "quantitative", "scale": None},
                    "text": {"field": "text"},
                    "color": {"value": "#111111"},
                },
            }
        )
    for side in ("query", "key"):  # on top of the labels: hovering anywhere on a token picks it
        layers.append(
            {
                "name": f"{side}_targets",
                "data": {"values": [t for t in tokens if t["side"] == side]},
                "params": [_selection(side, isolate)],
                "mark": {
                    "type": "rect",
                    "fill": "#ffffff",
                    "fillOpacity": 0.01,
                    "cursor": "pointer",
                    "tooltip": None,
                    "aria": False,
                },
                "encoding": _px("x", "y", "x2", "y2"),
            }
        )
    return layers


def make_lines(
    lines: Lines, *, decimals: int, look: Look = LAPTOP, isolate: int = 0, max_width: int = 600
) -> dict:
    """A Vega-Lite spec of the weights as lines; ``isolate`` (1-based, 0 = none) keeps one
    query token's lines from the start."""
    font = look.font
    count = len(lines.labels)
    label = max(text_width(safe.plain(t, LABEL_CHARS), font) for t in lines.labels) + 22
    row = math.ceil((2.0 if count <= 16 else 1.5) * font)
    span = max(160.0, min(380.0, max_width - 2 * label - 10))
    geometry = {"label": label, "left": label, "right": label + span, "top": 1.6 * font, "row": row}
    records = _records(lines, geometry, decimals)
    heads = len(lines.weights)
    headers = {
        "data": {
            "values": [
                {"x": geometry["left"] / 2, "text": _("queries")},
                {"x": geometry["right"] + geometry["label"] / 2, "text": _("keys")},
            ]
        },
        "mark": {
            "type": "text",
            "fontSize": sizing.smaller(font, 1, look),
            "fontStyle": "italic",
            "baseline": "top",
            "color": "#555555",
            "tooltip": None,
            "aria": False,
        },
        "encoding": {**_px("x"), "y": {"value": 0}, "text": {"field": "text"}},
    }
    numbers = [_numbers(records, geometry, font, look)] if heads == 1 else []
    return {
        "description": safe.plain(lines.description, 300),
        "title": {"text": safe.plain(lines.title, 80), "fontSize": font + 3, "anchor": "start"},
        "width": math.ceil(2 * label + span),
        "height": math.ceil(geometry["top"] + count * row),
        "autosize": {"type": "pad"},
        "usermeta": {"embedOptions": {"renderer": "svg"}},
        "layer": [
            *_line_layers(records, heads),
            *numbers,
            *_token_layers(_tokens(lines, geometry), font, isolate),
            headers,
        ],
        "config": {
            "view": {"stroke": None},
            "legend": {"labelFontSize": sizing.smaller(font, 1, look)},
        },
    }
