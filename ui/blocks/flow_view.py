"""The Flow page's blocks: the step control, the picture, the stage in words, its numbers.

Numbers come from ``attention_core.flow.flow_numbers`` (read from the trace, never recomputed)
and go through the page's one format.
"""

from __future__ import annotations

import math

import streamlit as st

from attention_core import AttentionTrace
from attention_core.flow import FlowNumbers, flow_numbers
from attention_core.knobs.table import FLOW_STAGES
from translation import _
from ui import safe
from ui.blocks import focus_panel, heatmaps, sentences, stepper
from ui.blocks.weights_view import MAIN_WIDTH
from ui.session import kept_widgets
from ui.session.run_order import Page
from ui.specs import flow_picture, tables


def show_stepper(page: Page) -> int:
    """Previous and Next (also ← and →, PageUp and PageDown), and the stage by name."""
    return stepper.show_stepper(page, "stage", "flow", len(FLOW_STAGES))


def show_flow(page: Page, trace: AttentionTrace, head: int, stage: int) -> FlowNumbers | None:
    """The picture up to ``stage``, what this stage does in words, and its numbers on request."""
    numbers = page.call(flow_numbers, trace, page.query, head)
    if numbers is None:
        return None
    fitted = flow_picture.fit(
        numbers,
        page.labels,
        trace.config,
        decimals=page.decimals,
        look=page.look,
        # on a phone at its 14 px type, in a box that scrolls sideways (the laptop's width)
        max_width=heatmaps.PRESENT_WIDTH if page.present else MAIN_WIDTH,
    )
    spec = flow_picture.picture(fitted, numbers, page.labels, stage)
    # Projected, the stage's sentence leads: the class reads it with the picture, on the
    # first screen; otherwise it follows the picture.
    above = st.container()
    st.vega_lite_chart(spec=heatmaps.vega_spec(spec), key="flow_picture", width="content")
    if fitted.decimals < page.decimals:  # projected or a phone: larger type, not more digits
        st.caption(
            heatmaps.rounding_note(
                page, _("The picture"), fitted.decimals, page.decimals, _("*Show as tables*")
            )
        )
    with above if page.present else st.container(), st.container(key="flow_stage_text"):
        st.markdown(stage_sentence(page, trace, numbers, stage))
    with kept_widgets.section(_("Show as tables"), "flow_tables") as tables_open:
        if tables_open.open:
            st.markdown(flow_tables(page, trace, numbers))
    return numbers


def _named(page: Page, j: int) -> str:
    return safe.md(page.labels[j], 24)


def _all_named(page: Page, positions: list[int]) -> str:
    return sentences.listing([_named(page, j) for j in positions])


def stage_sentence(page: Page, trace: AttentionTrace, numbers: FlowNumbers, stage: int) -> str:
    """What the current stage does, with its numbers (Markdown, labels escaped)."""
    i, n = numbers.query, page.number
    me = f"{_named(page, i)} (x{flow_picture.sup(i)})"
    top_scores = sentences.strongest(page, numbers.scores)
    top_score = top_scores[0]
    config = trace.config
    blocked = [j for j, a in enumerate(numbers.allowed) if not a]
    sup = flow_picture.sup(i)
    stage_3 = (
        _(
            "**Stage 3.** q{sup} meets every row j of K, both first turned by RoPE: the largest "
            "score is with {keys}, {score}."
        )
        if config.rope
        else _(
            "**Stage 3.** q{sup} meets every row j of K: the largest score is with {keys}, {score}."
        )
    )
    texts = {
        1: _("**Stage 1.** The focused token {me} is row {row} of X: {vector}.").format(
            me=me, row=i + 1, vector=page.vector(list(numbers.inputs[i]))
        ),
        2: _(
            "**Stage 2.** Its query q{sup} = x{sup} · W_query = {vector}; every row of X times "
            "W_key and W_value gives that token's key and value (the rows of K and V)."
        ).format(sup=sup, vector=page.vector(list(numbers.query_vector))),
        3: stage_3.format(
            sup=sup,
            keys=_all_named(page, top_scores),
            score=sentences.each(n(numbers.scores[top_score]), top_scores),
        ),
        4: _("**Stage 4.** No scaling: the scores pass unchanged.")
        if config.scaling == "none"
        else _(
            "**Stage 4.** Every score is divided by {divisor}: {score} becomes {scaled}."
        ).format(
            divisor=n(numbers.scale_divisor),
            score=n(numbers.scores[top_score]),
            scaled=n(numbers.scaled[top_score]),
        ),
        5: _("**Stage 5.** No mask: every key may be attended to.")
        if not blocked
        else _("**Stage 5.** The {mask} mask hides {count} of the keys: {keys}.").format(
            mask=sentences.mask_name(config.mask),
            count=len(blocked),
            keys=", ".join(_named(page, j) for j in blocked[:6])
            + (" …" if len(blocked) > 6 else ""),
        ),
        6: _("**Stage 6.** {norm} turns the row into weights that sum to {total}{largest}.").format(
            norm=_(flow_picture.NORM[config.norm]).capitalize(),
            total=n(float(trace.diagnostics.row_sums[numbers.head, i])),
            largest=_largest_weight(page, list(numbers.weights)),
        ),
        7: _dropout_sentence(page, trace, numbers),
        8: _("**Stage 8.** z{sup} = Σⱼ αⱼ v⁽ʲ⁾ = {vector}: {attends}.").format(
            sup=sup,
            vector=page.vector(list(numbers.head_context)),
            attends=_attends(page, me, numbers, config.dropout_active),
        ),
        9: _output_sentence(page, numbers),
    }
    return texts[stage]


def _largest_weight(page: Page, weights: list[float]) -> str:
    """ "; the largest, 0.2264, goes to journey" (ties named together); nothing when no weight
    is largest (all 0, or undefined)."""
    if not all(math.isfinite(w) for w in weights) or not any(w > 0 for w in weights):
        return ""
    top = sentences.strongest(page, weights)
    return _("; the largest, {weight}, goes to {keys}").format(
        weight=sentences.each(page.number(weights[top[0]]), top), keys=_all_named(page, top)
    )


def _attends(page: Page, me: str, numbers: FlowNumbers, dropout_active: bool) -> str:
    """Whom the focused token attends to most, or why no key is named."""
    weights = list(numbers.after_dropout)
    why = sentences.no_key_attended(weights, numbers.allowed, dropout_active)
    if why is not None:
        return _("{me} has {why}").format(me=me, why=why)
    top = sentences.strongest(page, weights)
    weight = sentences.each(page.number(weights[top[0]]), top)
    return _("{me} attends most to {keys} ({weight})").format(
        me=me, keys=_all_named(page, top), weight=weight
    )


def _dropout_sentence(page: Page, trace: AttentionTrace, numbers: FlowNumbers) -> str:
    if not trace.config.dropout_active:
        return _(
            "**Stage 7.** Dropout is off (rate 0, or evaluation mode): the weights pass unchanged."
        )
    dropped = sum(1 for kept in numbers.kept if not kept)
    return _(
        "**Stage 7.** Dropout (p = {dropout:g}) zeroes {dropped} of this row's weights "
        "(✕) and multiplies the others by {dropout_factor}."
    ).format(
        dropout=trace.config.dropout,
        dropped=dropped,
        dropout_factor=page.number(numbers.dropout_factor),
    )


def _output_sentence(page: Page, numbers: FlowNumbers) -> str:
    output = page.vector(list(numbers.output))
    if numbers.num_heads == 1 and numbers.W_out is None:
        return _(
            "**Stage 9.** One head and no output projection: the output of {named} is z "
            "itself, {output}."
        ).format(named=_named(page, numbers.query), output=output)
    if numbers.W_out is None:
        return _(
            "**Stage 9.** The output is the {num_heads} heads' outputs side by side: {output}."
        ).format(num_heads=numbers.num_heads, output=output)
    if numbers.num_heads == 1:
        return _("**Stage 9.** The output is z times W_out plus b: {output}.").format(output=output)
    return _(
        "**Stage 9.** The output is the {num_heads} heads' outputs side by side times W_out "
        "plus b: {output}."
    ).format(num_heads=numbers.num_heads, output=output)


def flow_tables(page: Page, trace: AttentionTrace, numbers: FlowNumbers) -> str:
    """Every number of the picture, uncut, as Markdown tables."""
    labels = page.labels
    fmt = page.number

    def grid(matrix, rows, prefix: str) -> str:
        values = [[fmt(v) for v in row] for row in matrix]
        columns = [f"{prefix}{c + 1}" for c in range(len(values[0]))]
        return tables.matrix_table(values, rows, columns, "", labelled_columns=False)

    dims = [f"x·{r + 1}" for r in range(len(numbers.inputs[0]))]
    parts = ["**X**", grid(numbers.inputs, labels, "d")]
    for name in ("W_query", "W_key", "W_value"):
        bias = getattr(numbers, "b_" + name[2:])
        rows = list(getattr(numbers, name)) + ([bias] if bias is not None else [])
        parts += [f"**{name}**", grid(rows, dims + (["b"] if bias is not None else []), "c")]
    parts += ["**K**", grid(numbers.keys, labels, "k"), "**V**", grid(numbers.values, labels, "v")]
    parts += [
        _("**The row of query {query}**").format(query=numbers.query + 1),
        focus_panel.focus_rows(page, trace, numbers.head),
    ]
    vectors = [
        ("q", numbers.query_vector),
        (_("z (this head)"), numbers.head_context),
        (_("heads side by side"), numbers.context),
        (_("output"), numbers.output),
    ]
    parts.append(
        tables.markdown_table(
            [_("vector"), _("numbers")],
            [[name, page.vector(list(v))] for name, v in vectors],
            labelled_rows=False,
        )
    )
    if numbers.W_out is not None:
        rows = list(numbers.W_out) + ([numbers.b_out] if numbers.b_out is not None else [])
        names = [f"c{r + 1}" for r in range(len(numbers.W_out))]
        parts += [
            "**W_out**",
            grid(rows, names + (["b"] if numbers.b_out is not None else []), "o"),
        ]
    return "\n\n".join(parts)
