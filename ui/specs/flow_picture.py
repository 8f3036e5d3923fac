"""The Flow picture: one query's path through attention, from the trace's numbers. No st.* calls.

Three bands, each read left to right. Top: the tokens X and the matrices W_query, W_key,
W_value. Middle, one row per key j: the query q above the keys K (so that q meets each row of
K), then the score, the scaled score, the masked score, the weight and the weight after dropout
of that key, then the values V with the context z below them. Bottom: the heads side by side
and the output projection. Every printed number is one of the trace's (``FlowNumbers``) in the
app's one format; a matrix wider than ``MAX_COLUMNS`` or taller than ``MAX_ROWS`` (weights
only: tokens are never cut) is elided with ⋯ or ⋮, and the page gives all of it as a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from attention_core.config import AttentionConfig
from attention_core.flow import FlowNumbers
from attention_core.formatting import format_number
from attention_core.knobs.table import FLOW_STAGES
from translation import N_, _
from ui import safe
from ui.specs.colors import DROPPED_FILL, MASKED, WHITE
from ui.specs.diagram import HIGHLIGHT, Arrow, Box, Size, render
from ui.specs.flow_layout import layout, measure
from ui.specs.sizing import LAPTOP, MIN_FONT, PRESENT_MIN_DECIMALS, Look

MAX_COLUMNS = 4  # then 3 and 2, before the type gets smaller than READABLE_FONT
READABLE_FONT = 11
MAX_ROWS = 6
ROWS = 1.6  # a matrix row's height in fonts (projected: the look's, a table's 1.5)
MIN_ARROW_FONT = 8  # the arrows' labels (projected or on a phone: the look's least, as the numbers)
# ... and where even a wide matrix's first column at the fewest decimals does not fit at the
# look's least type, the picture's type may go down to this (the largest that fits).
PRESENT_LEAST_FONT = 12
BIAS_FILL = "#eef1f6"
SCALING = {"none": (N_("no scaling"), "÷ 1"), "d": ("÷ d_k", "÷ {}"), "sqrt_d": ("÷ √d_k", "÷ {}")}
NORM = {
    "softmax": "softmax",
    "naive_softmax": "softmax",
    "sum": N_("÷ row sum"),
    "none": N_("none"),
}
# The mask column's title, by mask (another mask: "mask" over its name).
MASK_TITLES = {
    "none": N_("mask\nnone"),
    "causal": N_("mask\ncausal"),
    "padding": N_("mask\npadding"),
}
SUPERSCRIPT = str.maketrans("0123456789()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁽⁾")


def sup(index: int) -> str:
    """``(index)`` in superscript, as in x⁽²⁾ (1-based)."""
    return f"({index + 1})".translate(SUPERSCRIPT)


def _fills(texts: list[list[str]], fill: str = WHITE) -> list[list[str]]:
    return [[fill] * len(row) for row in texts]


class _Texts:
    """Numbers in the app's one format, in matrices cut to ``columns`` columns."""

    def __init__(self, decimals: int, columns: int) -> None:
        self.decimals = decimals
        self.columns = columns

    def clip(self, rows: Sequence[Sequence[str]], max_rows: int | None) -> list[list[str]]:
        """The first ``columns`` columns, then ⋯, and ``max_rows`` rows, then ⋮ (never a ⋯ or
        a ⋮ in place of a single number)."""
        wide = self.columns
        cut = [[*r[:wide], "⋯"] if len(r) > wide + 1 else list(r) for r in rows]
        if max_rows is not None and len(cut) > max_rows + 1:
            cut = [*cut[:max_rows], ["⋮"] * len(cut[0])]
        return cut

    def one(self, value: float) -> str:
        return format_number(value, self.decimals)

    def rows(self, matrix: Sequence[Sequence[float]]) -> list[list[str]]:
        return [[self.one(v) for v in row] for row in matrix]


def _weight_box(key: str, title: str, matrix, bias, fmt: _Texts, stage: int = 2) -> Box:
    """A weight matrix (rows cut to MAX_ROWS), with its bias as a shaded last row."""
    texts = fmt.clip(fmt.rows(matrix), MAX_ROWS)
    fills = _fills(texts)
    if bias is None:
        return Box(key, title, stage, texts, fills)
    bias_row = fmt.clip(fmt.rows([bias]), None)
    return Box(key, f"{title} + b", stage, texts + bias_row, fills + _fills(bias_row, BIAS_FILL))


def _column(key: str, title: str, stage: int, texts: list[str], fills: list[str]) -> Box:
    return Box(key, title, stage, [[t] for t in texts], [[f] for f in fills])


def build_boxes(
    numbers: FlowNumbers,
    labels: Sequence[str],
    config: AttentionConfig,
    decimals: int,
    columns: int = MAX_COLUMNS,
) -> dict[str, Box]:
    """Every box of the picture with its printed numbers (positions are set by the layout).

    A matrix shows its first ``columns`` columns, then ⋯.
    """
    fmt = _Texts(decimals, columns)
    i = numbers.query
    tokens = [safe.plain(label, 14) for label in labels]
    n = len(tokens)
    x_texts = fmt.clip(fmt.rows(numbers.inputs), None)
    x_fills = _fills(x_texts)
    x_fills[i] = [HIGHLIGHT] * len(x_fills[i])
    heads = (
        " · " + _("head {number}").format(number=numbers.head + 1) if numbers.num_heads > 1 else ""
    )
    boxes = {
        "X": Box("X", _("X: the tokens"), 1, x_texts, x_fills, tokens),
        "W_query": _weight_box("W_query", "W_query", numbers.W_query, numbers.b_query, fmt),
        "W_key": _weight_box("W_key", "W_key", numbers.W_key, numbers.b_key, fmt),
        "W_value": _weight_box("W_value", "W_value", numbers.W_value, numbers.b_value, fmt),
    }
    q_texts = fmt.clip(fmt.rows([numbers.query_vector]), None)
    boxes["q"] = Box("q", f"q{sup(i)}{heads}", 2, q_texts, _fills(q_texts, HIGHLIGHT))
    k_texts = fmt.clip(fmt.rows(numbers.keys), None)
    boxes["K"] = Box("K", _("K: keys"), 2, k_texts, _fills(k_texts), tokens)
    blocked = [MASKED if not a else WHITE for a in numbers.allowed]
    scale_name, scale_detail = SCALING[config.scaling]
    score_title = "cos(q, k⁽ʲ⁾)" if config.scoring == "cosine" else "q · k⁽ʲ⁾"
    if config.rope:  # the scores are of the query and keys turned by RoPE
        score_title = score_title.replace("q", "RoPE q", 1)
    mask_title = (
        _(MASK_TITLES[config.mask]) if config.mask in MASK_TITLES else f"mask\n{config.mask}"
    )
    norm = _(NORM[config.norm])
    steps = (
        (
            "scores",
            _("score\n{formula}").format(formula=score_title),
            3,
            numbers.scores,
            [WHITE] * n,
        ),
        (
            "scaled",
            f"{_(scale_name)}\n{scale_detail.format(fmt.one(numbers.scale_divisor))}",
            4,
            numbers.scaled,
            [WHITE] * n,
        ),
        ("masked", mask_title, 5, numbers.masked, blocked),
        ("weights", _("{norm}\nweight α").format(norm=norm), 6, numbers.weights, blocked),
    )
    for key, title, stage, values, fills in steps:
        boxes[key] = _column(key, title, stage, [fmt.one(v) for v in values], fills)
    if config.dropout_active:
        drop_title = _("dropout\np = {p:g}").format(p=config.dropout)
        drop_texts = [
            fmt.one(v) if kept else "✕"
            for v, kept in zip(numbers.after_dropout, numbers.kept, strict=True)
        ]
        drop_fills = [
            f if kept else DROPPED_FILL for f, kept in zip(blocked, numbers.kept, strict=True)
        ]
    else:
        drop_title = _("dropout\noff")
        drop_texts = [fmt.one(v) for v in numbers.after_dropout]
        drop_fills = blocked
    boxes["dropout"] = _column("dropout", drop_title, 7, drop_texts, drop_fills)
    v_texts = fmt.clip(fmt.rows(numbers.values), None)
    boxes["V"] = Box("V", _("V: values"), 2, v_texts, _fills(v_texts))
    z_texts = fmt.clip(fmt.rows([numbers.head_context]), None)
    boxes["z"] = Box("z", f"z{sup(i)} = Σⱼ αⱼ v⁽ʲ⁾", 8, z_texts, _fills(z_texts, HIGHLIGHT))
    merged = fmt.clip(fmt.rows([numbers.context]), None)
    merged_fills = _fills(merged)
    for c in numbers.head_columns:
        if c < columns:
            merged_fills[0][c] = HIGHLIGHT
    merged_title = _("heads side by side") if numbers.num_heads > 1 else _("heads merged (one)")
    boxes["merged"] = Box("merged", merged_title, 9, merged, merged_fills)
    if numbers.W_out is not None:
        boxes["W_out"] = _weight_box("W_out", "W_out", numbers.W_out, numbers.b_out, fmt, 9)
    out_texts = fmt.clip(fmt.rows([numbers.output]), None)
    boxes["output"] = Box(
        "output",
        _("output of {token}").format(token=tokens[i]),
        9,
        out_texts,
        _fills(out_texts, HIGHLIGHT),
    )
    return boxes


@dataclass(frozen=True)
class Fitted:
    """The boxes placed for one width, with the sizes and arrows they were placed with."""

    boxes: dict[str, Box]
    size: Size
    arrows: list[Arrow]
    width: int
    height: int
    decimals: int  # the picture's: fewer than the page's when projected type would be too small
    tight: bool = False  # projected: no header (the page's stage control names the stage)


def fit(
    numbers: FlowNumbers,
    labels: Sequence[str],
    config: AttentionConfig,
    *,
    decimals: int,
    look: Look = LAPTOP,
    max_width: int = 820,
) -> Fitted:
    """The largest type (from the look's 13 pixels, or the 14 or 16 its numbers need) and the
    most columns that fit ``max_width``.

    Larger type comes before more columns (the page gives every number as a table); below
    ``READABLE_FONT`` only two columns of a wide matrix are shown. Projected or on a phone
    (a look with ``least_numbers``), the picture prints fewer decimals, down to
    ``PRESENT_MIN_DECIMALS``, then a wide matrix's first column alone, rather than type
    smaller than that; ``Fitted.decimals`` says how many decimals it prints.
    """
    least = look.least_numbers
    arrow_floor = least or MIN_ARROW_FONT
    fitted = _fit(numbers, labels, config, look, decimals, max_width, arrow_floor=arrow_floor)
    if least is None or fitted.size.font >= least:
        return fitted
    # Never more decimals than the page's own (a page at 1 decimal printed 0.30 here).
    fewest = min(decimals, PRESENT_MIN_DECIMALS)
    fewer = range(decimals, fewest - 1, -1)

    def narrowest(n: int, columns: int, floor: int) -> Fitted:
        return _place(numbers, labels, config, look, n, columns, floor, floor)

    # The most decimals that keep the least type, two columns of a wide matrix at least ...
    for n in fewer:
        if narrowest(n, 2, least).width <= max_width:
            return _fit(numbers, labels, config, look, n, max_width, least, least)
    # ... else a wide matrix's first column alone, then ⋯, at the least type ...
    alone = narrowest(fewest, 1, least)
    if alone.width <= max_width:
        return alone
    # ... else smaller type, down to PRESENT_LEAST_FONT: the largest that fits, then the most
    # decimals, then the most columns at that size.
    for font in range(least - 1, min(least, PRESENT_LEAST_FONT) - 1, -1):
        for n in fewer:
            for columns in (MAX_COLUMNS, 3, 2):
                placed = _place(numbers, labels, config, look, n, columns, font, font)
                if placed.width <= max_width:
                    return placed
    return fitted


def _fit(
    numbers: FlowNumbers,
    labels: Sequence[str],
    config: AttentionConfig,
    look: Look,
    decimals: int,
    max_width: int,
    floor: int = READABLE_FONT,
    arrow_floor: int = MIN_ARROW_FONT,
) -> Fitted:
    # Projected or on a phone, the type the numbers need, not more: a short projector's
    # first screen has room for the picture at 16 px, not at 17.
    start = look.least_numbers or look.font
    tries = [(c, f) for c in (MAX_COLUMNS, 3, 2) for f in range(start, floor - 1, -1)]
    tries += [(2, f) for f in range(READABLE_FONT - 1, MIN_FONT - 1, -1)]
    for columns, font in tries:
        fitted = _place(numbers, labels, config, look, decimals, columns, font, arrow_floor)
        if fitted.width <= max_width:
            break
    return fitted


def _place(
    numbers: FlowNumbers,
    labels: Sequence[str],
    config: AttentionConfig,
    look: Look,
    decimals: int,
    columns: int,
    font: int,
    arrow_floor: int,
) -> Fitted:
    boxes = build_boxes(numbers, labels, config, decimals, columns)
    gap = 5 if look.rows else 3  # rows a table's lines: a title 2 px higher
    size = measure(boxes, labels, font, arrow_floor, look.rows or ROWS, gap)
    arrows, width, height = layout(boxes, size, numbers.query, tight=look.projected)
    return Fitted(boxes, size, arrows, width, height, decimals, look.projected)


def make_flow(
    numbers: FlowNumbers,
    labels: Sequence[str],
    config: AttentionConfig,
    *,
    stage: int,
    decimals: int,
    look: Look = LAPTOP,
    max_width: int = 820,
) -> dict:
    """The Flow picture as a Vega-Lite spec, revealed up to ``stage`` (1-based)."""
    fitted = fit(numbers, labels, config, decimals=decimals, look=look, max_width=max_width)
    return picture(fitted, numbers, labels, stage)


def picture(fitted: Fitted, numbers: FlowNumbers, labels: Sequence[str], stage: int) -> dict:
    """The fitted boxes as a Vega-Lite spec, revealed up to ``stage`` (1-based)."""
    name = _(FLOW_STAGES[stage - 1])
    label = safe.plain(labels[numbers.query], 20)
    header = _("Stage {stage} of {count} · {name}").format(
        stage=stage, count=len(FLOW_STAGES), name=name
    )
    if numbers.num_heads > 1:
        description = _(
            "How token {query} ({label}) passes through attention, head {head} of {heads}. "
            "{header}: the boxes up to this stage show their numbers, later ones are outlines."
        )
    else:
        description = _(
            "How token {query} ({label}) passes through attention. {header}: the boxes up to "
            "this stage show their numbers, later ones are outlines."
        )
    description = description.format(
        query=numbers.query + 1,
        label=label,
        head=numbers.head + 1,
        heads=numbers.num_heads,
        header=header,
    )
    return render(
        list(fitted.boxes.values()),
        fitted.arrows,
        header=None if fitted.tight else header,
        stage=stage,
        size=fitted.size,
        width=fitted.width,
        height=fitted.height,
        description=description,
    )
