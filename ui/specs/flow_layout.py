"""Where the Flow picture's boxes go: sizes measured from the printed text, three bands.

Band 1 holds X and the weight matrices, with W_value above V; band 2 holds q over K, one
column per step (score, scaled, masked, weight, after dropout) and V over z; band 3 (the heads
merged, W_out, the output) runs back right to left on z's row when it fits there, else below.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

from translation import _
from ui import safe
from ui.specs.diagram import Arrow, Box, Size
from ui.specs.sizing import text_width

STEPS = ("scores", "scaled", "masked", "weights", "dropout")  # one column per key each
NARROW = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁽⁾ʲⱼ", "..............")  # small letters: as wide as a dot


def _width(text: str, font: float) -> float:
    return text_width(text.translate(NARROW), font)


def measure(
    boxes: dict[str, Box],
    labels: Sequence[str],
    font: int,
    arrow_floor: int,
    rows: float = 1.6,
    title_gap: int = 3,
) -> Size:
    """Cell, row and label sizes at ``font`` pixels, from the widest printed text (a row
    ``rows`` fonts high); the arrows' labels 2 pixels smaller, but never below ``arrow_floor``
    nor above ``font``."""
    texts = [t for box in boxes.values() for row in box.texts for t in row]
    cell = max(_width(t, font) for t in texts) + 0.6 * font
    label = max(_width(safe.plain(t, 14), font) for t in labels) + 10
    return Size(
        font,
        max(math.ceil(cell), math.ceil(2.4 * font)),
        math.ceil(rows * font),
        math.ceil(label),
        min(max(font - 2, arrow_floor), font),
        title_gap,
    )


def footprint(box: Box, size: Size) -> float:
    """A box's width: its cells, or its title if that is wider (the first line is bold)."""
    lines = box.title.split("\n")
    title = max(_width(line, size.font) * (1.1 if n == 0 else 1.0) for n, line in enumerate(lines))
    return max(box.columns * size.cell_width, title)


def layout(
    boxes: dict[str, Box], size: Size, query: int, tight: bool = False
) -> tuple[list[Arrow], int, int]:
    """Place the boxes in three bands; returns the arrows and the picture's width and height.

    ``tight`` (projected): no room for a header above the bands (the page's stage control
    names the stage), band 1 closer to q and the columns closer together, so that the
    picture fits under a short projector's page title, and in a 1024 px projector's width at
    16 px."""
    f, ch, th, cw = size.font, size.cell_height, size.title_height, size.cell_width
    arrow_font = size.arrow_font
    gap = math.ceil(2.2 * f)
    step_gap = math.ceil((0.9 if tight else 1.3) * f)
    margin = 10 if tight else 16  # beside an arrow's label

    def wide_gap(label: str) -> float:
        return max(gap, _width(label, arrow_font) + margin)

    def width(key: str) -> float:
        return footprint(boxes[key], size)

    x0 = size.label_width
    q, k, v, z, x_box = boxes["q"], boxes["K"], boxes["V"], boxes["z"], boxes["X"]
    # Columns first: band 2 (q over K, the five columns, V over z) fixes where W_value goes.
    x = x0 + max(width("q"), width("K")) + wide_gap("q · k⁽ʲ⁾")
    for key in STEPS:
        boxes[key].x = x
        x += width(key) + step_gap
    v.x = z.x = x - step_gap + wide_gap("× v⁽ʲ⁾")
    q.x = k.x = x_box.x = x0
    boxes["W_query"].x = x0 + width("X") + wide_gap("X × W")
    boxes["W_key"].x = boxes["W_query"].x + width("W_query") + gap
    boxes["W_value"].x = max(v.x, boxes["W_key"].x + width("W_key") + gap)
    # Rows: band 1 (X and the weights), band 2, band 3 (heads merged, output projection).
    top1 = (0 if tight else math.ceil(1.4 * f)) + th + 4
    band1 = ("X", "W_query", "W_key", "W_value")
    for key in band1:
        boxes[key].y = top1
    q.y = top1 + max(boxes[key].rows for key in band1) * ch + 1.1 * f + (1 if tight else 2) * th
    k.y = q.y + ch + th + 4
    for key in (*STEPS, "V"):
        boxes[key].y = k.y
    z.y = v.y + v.rows * ch + th + 0.5 * f
    chain = ["merged", *(["W_out"] if "W_out" in boxes else []), "output"]
    link = wide_gap("× W_out + b")
    below = z.y + ch + 1.6 * f + th
    shape = "snake" if z.x - sum(width(key) + link for key in chain) >= x0 else "row"
    if shape == "snake":  # band 3 runs right to left on z's row, back under band 2
        x = z.x
        for key in chain:
            x -= link + width(key)
            boxes[key].x, boxes[key].y = x, z.y
    else:  # a band of its own below, left to right; the output under the heads if too wide
        x = x0
        for key in chain:
            boxes[key].x, boxes[key].y = x, below
            x += width(key) + link
        if len(chain) == 3 and x - link > v.x + width("V"):
            shape = "corner"
            merged_box = boxes["merged"]
            boxes["output"].x = x0
            boxes["output"].y = below + merged_box.rows * ch + 1.6 * f + th
    bottom = max(b.y + b.rows * ch for b in boxes.values())

    def at(box: Box, across: float, down: float) -> tuple[float, float]:
        """A point of a box: ``across`` its width and ``down`` its height (0 to 1)."""
        return box.x + across * box.columns * cw, box.y + down * box.rows * ch

    def arrow(start, end, label: str, stage: int, where: float = 0.5, side: int = 0) -> Arrow:
        """``side`` puts the label beside the line (1 right, -1 left) instead of on it."""
        (x1, y1), (x2, y2) = start, end
        spot_x = x1 + (x2 - x1) * where + side * (_width(label, arrow_font) / 2 + 5)
        spot_y = y1 + (y2 - y1) * where - (0.7 * f if y1 == y2 else 0)
        return Arrow(start, end, label, stage, (spot_x, spot_y))

    w_query, w_key, w_value = boxes["W_query"], boxes["W_key"], boxes["W_value"]
    row = (w_query.rows * ch) / 2
    mid = k.rows * ch / 2
    arrows = [
        arrow((x_box.x + x_box.columns * cw, top1 + row), (w_query.x, top1 + row), "X × W", 2),
        arrow(
            at(w_query, 0.5, 1),
            (q.x + q.columns * cw * 0.75, q.y),
            _("row {query} of X").format(query=query + 1),
            2,
            0.22,
            1,
        ),
        arrow(at(w_key, 0.5, 1), at(k, 0.85, 0), _("every row"), 2, 0.22, 1),
        arrow(
            at(w_value, 0.8, 1),
            at(v, 0.8, 0) if w_value.x == v.x else at(v, 0.5, 0),
            _("every row"),
            2,
            0.45,
            -1,
        ),
        arrow((k.x + k.columns * cw, k.y + mid), (boxes["scores"].x, k.y + mid), "q · k⁽ʲ⁾", 3),
    ]
    for stage, (a, b) in enumerate(pairwise(STEPS), start=4):
        start = (boxes[a].x + cw, k.y + mid)
        arrows.append(arrow(start, (boxes[b].x, k.y + mid), "", stage))
    arrows.append(arrow((boxes["dropout"].x + cw, k.y + mid), (v.x, k.y + mid), "× v⁽ʲ⁾", 8))
    arrows.append(arrow(at(v, 0.5, 1), (z.x + 0.5 * z.columns * cw, z.y - th), "", 8))
    merged = boxes["merged"]
    if shape == "snake":
        arrows.append(arrow(at(z, 0, 0.5), at(merged, 1, 0.5), "", 9))
        pairs = [(at(boxes[a], 0, 0.5), at(boxes[b], 1, 0.5), b) for a, b in pairwise(chain)]
    else:
        arrows.append(arrow(at(z, 0.2, 1), at(merged, 0.8, 0), "", 9))
        pairs = [(at(boxes[a], 1, 0.5), at(boxes[b], 0, 0.5), b) for a, b in pairwise(chain)]
        if shape == "corner":  # from under W_out back to the output below the heads
            pairs[-1] = (at(boxes["W_out"], 0.3, 1), at(boxes["output"], 1, 0.5), "output")
    for start, end, target in pairs:
        label = {"W_out": "× W_out + b", "output": "" if "W_out" in boxes else _("no projection")}
        arrows.append(arrow(start, end, label[target], 9))
    right = max(b.x + footprint(b, size) for b in boxes.values()) + (4 if tight else 8)
    return arrows, math.ceil(right), math.ceil(bottom + 4)
