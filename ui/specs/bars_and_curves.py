"""One query's weights as bars, and curves against the key dimension. Plain data in, a
Vega-Lite dict out; no st.* calls. Fonts and room around the plot come from ``ui.specs.sizing``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from attention_core.formatting import counted, format_number
from translation import _
from ui import safe
from ui.specs.sizing import LABEL_CHARS, LAPTOP, PADDING, Look, smaller, text_width

LINE_COLORS = ("#1b9e77", "#d95f02", "#7570b3")  # Dark2: distinguishable without red-green


def make_weight_bars(
    weights: Sequence[float],
    labels: Sequence[str],
    *,
    title: str,
    description: str,
    decimals: int,
    look: Look = LAPTOP,
) -> dict:
    """Horizontal bars of one query's weights, with the numbers printed (a Vega-Lite dict)."""
    font = look.font
    labels = [safe.plain(label, LABEL_CHARS) for label in labels]
    top = max(1.0, max((w for w in weights if math.isfinite(w)), default=0.0))
    records = [
        {
            "key": label,
            "weight": weight if math.isfinite(weight) else 0.0,
            "text": format_number(weight, decimals),
            "desc": f"{label}: {format_number(weight, decimals)}",
        }
        for label, weight in zip(labels, weights, strict=True)
    ]
    return _bars(
        records,
        labels,
        title=title,
        description=safe.plain(description, 300),
        x_title=_("weight"),
        top=top,
        look=look,
        height=max(100, math.ceil(font * 2) * len(labels)),
        label_limit=160,
    )


def _bars(
    records: list[dict],
    keys: list[str],
    *,
    title: str,
    description: str,
    x_title: str,
    top: float,
    look: Look,
    height: int,
    label_limit: int,
    whole: bool = False,
    key_title: str = "",
) -> dict:
    """Horizontal bars of ``records`` (key, weight, text, desc), in the order of ``keys``,
    each with its text printed at its end; ``whole``: the axis counts in whole numbers.
    ``key_title`` names a bar's key in its tooltip (a key, by default)."""
    font = look.font
    room = max(text_width(r["text"], font) for r in records) + 10
    return {
        "autosize": {"type": "fit-x", "contains": "padding"},
        "description": description,
        "width": "container",
        "height": height,
        "title": {"text": safe.plain(title, 80), "fontSize": font + 3, "anchor": "start"},
        "data": {"values": records},
        "encoding": {
            "y": {
                "field": "key",
                "type": "nominal",
                "sort": keys,
                "title": None,
                "axis": {"labelFontSize": font, "labelLimit": label_limit},
            },
            "x": {
                "field": "weight",
                "type": "quantitative",
                "scale": {"domain": [0, top]},
                "title": x_title,
                "axis": {
                    "labelFontSize": smaller(font, 1, look),
                    "titleFontSize": smaller(font, 1, look),
                    **({"tickMinStep": 1, "format": "d"} if whole else {}),
                },
            },
            # named in the learner's words (Streamlit's default listed the fields: "key")
            "tooltip": [
                {"field": "key", "title": key_title or _("key")},
                {"field": "text", "title": x_title},
            ],
        },
        "layer": [
            {"mark": {"type": "bar", "color": "#3b528b", "aria": False}},
            {
                "mark": {
                    "type": "text",
                    "align": "left",
                    "dx": 4,
                    "fontSize": font,
                    "color": "#000000",
                    "aria": True,
                },
                "encoding": {"text": {"field": "text"}, "description": {"field": "desc"}},
            },
        ],
        "padding": {**PADDING, "right": math.ceil(room)},
    }


def curves_frame(title: str, description: str, look: Look) -> dict:
    """What every chart of lines shares: its size, title, screen-reader description, and its
    axes' and legend's type (a size under the lines', never under the look's least)."""
    text = smaller(look.font, 1, look)
    return {
        "config": {
            "axis": {"labelFontSize": text, "titleFontSize": text},
            "legend": {"labelFontSize": text, "titleFontSize": text},
        },
        "autosize": {"type": "fit-x", "contains": "padding"},
        "padding": PADDING,
        "description": safe.plain(description, 300),
        "width": "container",
        "height": 260 if look.projected else 220,
        "title": {"text": title, "fontSize": look.font + 3, "anchor": "start"},
    }


def make_line_chart(
    rows: Sequence[dict[str, float | int | str]],
    *,
    y: str,
    y_title: str,
    title: str,
    description: str,
    log_y: bool = False,
    look: Look = LAPTOP,
) -> dict:
    """Lines of ``y`` against d (log axis), one per scaling label, with a legend."""
    # The rows are shared by every session (a cache): their labels are English msgids,
    # translated here into copies.
    rows = [{**row, "label": _(str(row["label"]))} for row in rows]
    labels = list(dict.fromkeys(str(r["label"]) for r in rows))
    return {
        **curves_frame(title, description, look),
        "layer": [
            {
                "data": {"values": [dict(r) for r in rows]},
                "mark": {"type": "line", "point": True, "aria": False},
                "encoding": {
                    "x": {
                        "field": "d",
                        "type": "quantitative",
                        "scale": {"type": "log", "base": 2},
                        "title": _("key dimension d"),
                    },
                    "y": {
                        "field": y,
                        "type": "quantitative",
                        "scale": {"type": "log"} if log_y else {"zero": False},
                        "title": y_title,
                    },
                    "color": {
                        "field": "label",
                        "type": "nominal",
                        "sort": labels,
                        "scale": {"domain": labels, "range": list(LINE_COLORS[: len(labels)])},
                        "legend": {"title": _("scores"), "orient": "bottom", "columns": 1},
                    },
                    "tooltip": [
                        {"field": "d", "title": _("key dimension d")},
                        {"field": "label", "title": _("scores")},
                        {"field": y, "type": "quantitative", "format": ".4f", "title": y_title},
                    ],
                },
            }
        ],
    }


def answer_shares(counts: Sequence[int]) -> list[str]:
    """Each choice's count and share of the answers, as the chart and its words print it."""
    total = sum(counts)
    return [f"{n} ({round(100 * n / total) if total else 0} %)" for n in counts]


def make_answer_bars(
    counts: Sequence[int],
    choices: Sequence[str],
    *,
    title: str,
    look: Look = LAPTOP,
    top: int = 0,
) -> dict:
    """A class's answers to one question: a bar per choice with its count and share.
    ``top``: the axis's end (two rounds drawn side by side share one), else the largest."""
    font = look.font
    names = [f"{chr(ord('A') + i)}. {safe.plain(choice, 40)}" for i, choice in enumerate(choices)]
    records = [
        {"key": name, "weight": count, "text": share, "desc": f"{name}: {share}"}
        for name, count, share in zip(names, counts, answer_shares(counts), strict=True)
    ]
    summary = "; ".join(r["desc"] for r in records)
    return _bars(
        records,
        names,
        title=title,
        description=safe.plain(
            _("{title}. {answers}. {summary}").format(
                title=title, answers=counted(sum(counts), "answer"), summary=summary
            ),
            600,
        ),
        x_title=_("learners"),
        key_title=_("answer"),
        top=max(1, top, *counts),
        look=look,
        height=max(80, math.ceil(font * 2.2) * len(names)),
        label_limit=260,
        whole=True,
    )
