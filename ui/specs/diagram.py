"""Boxes of numbers joined by labelled arrows, drawn as one Vega-Lite picture. No st.* calls.

Every position is in pixels (``scale: null``): the layout is decided in Python, where it can be
measured and tested, and Vega only draws it. A picture reveals its stages in order: boxes and
arrows of a later stage are drawn as grey outlines without numbers, those of the current stage
with a thick blue frame.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from translation import _
from ui import safe
from ui.specs.colors import DROPPED, DROPPED_FILL, WHITE

INK = "#111111"
CURRENT = "#1f4e9c"
# A later stage's outlines and titles: dashed and grey, yet 4.8 : 1 on white (WCAG's ratio for
# text), so that a projector, which washes out light greys, still shows what comes next
# (it was #b8bec9, 1.9 : 1).
FUTURE = "#6b7280"
HIGHLIGHT = "#ffe9a8"  # the focused token's row: not a value scale, so no legend


@dataclass
class Box:
    """A titled grid of printed numbers; ``x``, ``y`` is the top-left cell's corner."""

    key: str
    title: str
    stage: int
    texts: list[list[str]]
    fills: list[list[str]]
    row_labels: list[str] | None = None
    x: float = 0.0
    y: float = 0.0

    @property
    def rows(self) -> int:
        """Rows of printed cells."""
        return len(self.texts)

    @property
    def columns(self) -> int:
        """Columns of printed cells."""
        return len(self.texts[0]) if self.texts else 0


@dataclass(frozen=True)
class Arrow:
    """A straight arrow from ``start`` to ``end`` (pixels), with a label at its middle."""

    start: tuple[float, float]
    end: tuple[float, float]
    label: str
    stage: int
    label_at: tuple[float, float] | None = None


@dataclass(frozen=True)
class Size:
    """The sizes every part of the picture is drawn with (pixels)."""

    font: int
    cell_width: int
    cell_height: int
    label_width: int
    arrow_font: int  # the arrows' labels: a little smaller than the numbers
    # Between a box's title and its first row. A Chinese title's glyph box reaches below its
    # baseline: with rows a table's tight lines (projected) it met the first row's numbers.
    title_gap: int = 3

    @property
    def title_height(self) -> int:
        """Room for a one-line box title."""
        return math.ceil(1.5 * self.font)


def _status(item_stage: int, stage: int) -> str:
    if item_stage > stage:
        return "future"
    return "current" if item_stage == stage else "past"


def _box_records(box: Box, size: Size, stage: int) -> dict[str, list[dict]]:
    status = _status(box.stage, stage)
    shown = status != "future"
    cells, frames, titles, labels = [], [], [], []
    for i, row in enumerate(box.texts):
        for j, text in enumerate(row):
            left = box.x + j * size.cell_width
            top = box.y + i * size.cell_height
            fill = box.fills[i][j] if shown else WHITE
            cells.append(
                {
                    "x": left,
                    "x2": left + size.cell_width,
                    "y": top,
                    "y2": top + size.cell_height,
                    "cx": left + size.cell_width / 2,
                    "cy": top + size.cell_height / 2,
                    "fill": fill,
                    "outline": DROPPED if shown and fill == DROPPED_FILL else "#e3e6ec",
                    "text": text if shown else "",
                    "desc": _("{box}, row {row}, column {column}: {value}").format(
                        box=box.title.splitlines()[0],
                        row=i + 1,
                        column=j + 1,
                        value=text if shown else _("not shown yet"),
                    ),
                    "box": box.key,
                    "row": i,
                    "column": j,
                }
            )
    frames.append(
        {
            "x": box.x,
            "x2": box.x + box.columns * size.cell_width,
            "y": box.y,
            "y2": box.y + box.rows * size.cell_height,
            "status": status,
            "box": box.key,
        }
    )
    for n, line in enumerate(box.title.split("\n")):
        titles.append(
            {
                "x": box.x,
                "y": box.y
                - size.title_height * (len(box.title.split("\n")) - 1 - n)
                - size.title_gap,
                "text": line,
                "status": status,
                "box": box.key,
                "line": n,
            }
        )
    for i, label in enumerate(box.row_labels or []):
        labels.append(
            {
                "x": box.x - 6,
                "y": box.y + (i + 0.5) * size.cell_height,
                "text": safe.plain(label, 14) if shown or box.stage <= 1 else "",
                "status": status,
            }
        )
    return {"cells": cells, "frames": frames, "titles": titles, "labels": labels}


def _arrow_records(arrow: Arrow, size: Size, stage: int) -> dict[str, list[dict]]:
    status = _status(arrow.stage, stage)
    (x1, y1), (x2, y2) = arrow.start, arrow.end
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    head = 0.55 * size.font
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    angle = math.degrees(math.atan2(ux, -uy))  # a triangle-up turned clockwise to point along
    colour = {"future": FUTURE, "current": CURRENT, "past": INK}[status]
    lines = [{"x": x1, "y": y1, "x2": x2 - ux * head, "y2": y2 - uy * head, "colour": colour}]
    heads = [
        {"x": x2 - ux * head * 0.6, "y": y2 - uy * head * 0.6, "angle": angle, "colour": colour}
    ]
    texts = []
    if arrow.label and status != "future":
        lx, ly = arrow.label_at or ((x1 + x2) / 2, (y1 + y2) / 2)
        texts.append({"x": lx, "y": ly, "text": arrow.label, "colour": colour})
    return {"lines": lines, "heads": heads, "arrow_labels": texts}


def _xy(x: str = "x", y: str = "y") -> dict:
    return {
        "x": {"field": x, "type": "quantitative", "scale": None},
        "y": {"field": y, "type": "quantitative", "scale": None},
    }


def _span() -> dict:
    """A rule or a rectangle from (x, y) to (x2, y2), in pixels."""
    return {**_xy(), "x2": {"field": "x2", "scale": None}, "y2": {"field": "y2", "scale": None}}


def _layer(values: list[dict], mark: dict, encoding: dict) -> dict:
    """One layer of the picture; no tooltip: hovering a box showed its pixel fields (x, y,
    x2, y2), and every number the picture has is printed on it."""
    return {"data": {"values": values}, "mark": {"tooltip": None, **mark}, "encoding": encoding}


def _text(
    values: list[dict], font: float, colour: dict | None = None, at: str = "", **mark: object
) -> dict:
    """Text marks at (x, y), or at the centres (cx, cy) with ``at="c"``."""
    encoding = {**_xy(f"{at}x", f"{at}y"), "text": {"field": "text"}}
    if colour is not None:
        encoding["color"] = colour
    return _layer(
        values, {"type": "text", "fontSize": font, "baseline": "middle", **mark}, encoding
    )


def _colour(field: str) -> dict:
    return {"field": field, "type": "nominal", "scale": None, "legend": None}


def _when(test: str, value: object, otherwise: object) -> dict:
    return {"condition": {"test": test, "value": value}, "value": otherwise}


STATUS_COLOUR = {
    "condition": [
        {"test": "datum.status == 'current'", "value": CURRENT},
        {"test": "datum.status == 'future'", "value": FUTURE},
    ],
    "value": INK,
}


def render(
    boxes: Sequence[Box],
    arrows: Sequence[Arrow],
    *,
    header: str | None,
    stage: int,
    size: Size,
    width: int,
    height: int,
    description: str,
) -> dict:
    """The picture as a Vega-Lite spec of layered marks at fixed pixel positions."""
    parts: dict[str, list[dict]] = {
        k: [] for k in ("cells", "frames", "titles", "labels", "lines", "heads", "arrow_labels")
    }
    for box in boxes:
        for k, v in _box_records(box, size, stage).items():
            parts[k] += v
    for arrow in arrows:
        for k, v in _arrow_records(arrow, size, stage).items():
            parts[k] += v
    font, small = size.font, size.arrow_font
    head = {"type": "point", "shape": "triangle-up", "filled": True, "opacity": 1, "aria": False}
    angle = {"field": "angle", "type": "quantitative", "scale": None}
    numbers = _text(parts["cells"], font, at="c", color=INK)
    numbers["encoding"]["description"] = {"field": "desc"}
    layers = [
        _layer(
            parts["lines"],
            {"type": "rule", "strokeWidth": 1.6, "aria": False},
            {**_span(), "color": _colour("colour")},
        ),
        _layer(
            parts["heads"],
            {**head, "size": round((0.75 * font) ** 2)},
            {**_xy(), "angle": angle, "color": _colour("colour")},
        ),
        _layer(
            parts["cells"],
            {"type": "rect", "strokeWidth": 1, "aria": False},
            {**_span(), "fill": _colour("fill"), "stroke": _colour("outline")},
        ),
        _layer(
            parts["frames"],
            {"type": "rect", "fillOpacity": 0, "aria": False},
            {
                **_span(),
                "stroke": STATUS_COLOUR,
                "strokeWidth": _when("datum.status == 'current'", 3, 1.2),
                "strokeDash": _when("datum.status == 'future'", [4, 3], [1, 0]),
            },
        ),
        numbers,
        *(
            _text(
                [t for t in parts["titles"] if (t["line"] == 0) == bold],
                font,
                STATUS_COLOUR,
                fontWeight="bold" if bold else "normal",
                align="left",
                baseline="bottom",
            )
            for bold in (True, False)
        ),
        _text(parts["labels"], font, STATUS_COLOUR, align="right"),
        # Arrow labels on a white halo, so that a line behind them does not cross the words.
        _text(
            parts["arrow_labels"],
            small,
            None,
            fontStyle="italic",
            stroke=WHITE,
            strokeWidth=4,
            strokeOpacity=0.9,
            aria=False,
        ),
        _text(parts["arrow_labels"], small, _colour("colour"), fontStyle="italic"),
    ]
    if header:  # projected, the page's stage control names the stage instead
        layers.append(
            _text(
                [{"x": 0, "y": 0, "text": header}],
                font + 3,
                None,
                fontWeight="bold",
                align="left",
                baseline="top",
                dy=3,  # a CJK font's box is taller than its type: it reached above the picture
                color=CURRENT,
            )
        )
    return {
        "description": safe.plain(description, 300),
        "width": width,
        "height": height,
        "autosize": {"type": "none"},
        "padding": {"left": 4, "right": 4, "top": 4, "bottom": 4},
        "usermeta": {"embedOptions": {"renderer": "svg"}},
        "layer": layers,
        "config": {"view": {"stroke": None}, "text": {"font": "sans-serif"}},
    }
