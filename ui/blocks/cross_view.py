"""Cross-attention: the two grids, the decoder layer's two steps and their script."""

from __future__ import annotations

import streamlit as st

from attention_core import AttentionTrace
from attention_core.cross import DecoderLayer, decoder_layer, decoder_problem
from attention_core.embeddings import display_labels
from attention_core.export import export_decoder_script
from translation import N_, _
from ui import safe
from ui.blocks import focus_panel, heatmaps
from ui.blocks.matrix_editor import show_matrix_editor
from ui.session import controls, kept_widgets, target_grid
from ui.session.run_order import Page
from ui.specs import heatmap_chart, tables

LEFT_OUT = {
    "mask": N_("the causal mask"),
    "window": N_("the sliding window"),
    "rope": N_("RoPE"),
}


def show_inputs(page: Page) -> target_grid.TargetGrid:
    """The source (the Playground's matrix) beside the target; returns the target read."""
    grid = target_grid.read_target(page.settings, page.settings["lang"])
    # Projected, the two grids are folded (as the Playground's matrix is): the first screen
    # is for the decoder layer's result.
    box = st.expander(_("The source and the target (edit me)")) if page.present else st.container()
    with box:
        _show_grids(page, grid)
    return grid


def _show_grids(page: Page, grid: target_grid.TargetGrid) -> None:
    source, target = st.columns(2, gap="medium")
    with source:
        st.header(_("Source: the encoder's tokens"))
        st.caption(_("Keys and values come from here. This is the Playground's matrix."))
        show_matrix_editor(page)
    with target:
        st.header(_("Target: the decoder's tokens so far"))
        st.caption(_("Queries come from here, through the decoder's first step."))
        if grid.problem is not None:
            st.warning(
                _("Target: {problem}").format(problem=safe.sentence(safe.prose(grid.problem, 320)))
                + " "
                + _("The results use the last valid target."),
                icon=":material/warning:",
            )
        target_grid.draw(grid)
        st.button(
            _("Reset the target"),
            help=_("Back to the starting target."),
            key="reset_target",
            on_click=target_grid.reset,
        )


def run_layer(page: Page, grid: target_grid.TargetGrid) -> DecoderLayer | None:
    """The core's decoder layer on the two matrices; None after saying why it cannot run
    (without projections, two widths that differ: a setting to change, not a fault)."""
    problem = decoder_problem(grid.target, page.embeddings, page.config)
    if problem is not None:
        st.info(
            _("The decoder layer cannot run: {problem}.").format(problem=safe.prose(problem, 300)),
            icon=":material/info:",
        )
        return None
    return page.call(decoder_layer, grid.target, page.embeddings, page.config)


def show_heading(text: str) -> None:
    """A section's heading."""
    st.header(text)


def show_order(page: Page, layer: DecoderLayer) -> int:
    """The two steps in order, the step chosen, and what step 2 leaves out; returns the step."""
    first, second = layer.self_attention, layer.cross_attention
    st.markdown(
        _(
            "1. **Masked self-attention over the target**: each of the {target} target tokens "
            "attends to itself and the target tokens before it.\n"
            "2. **Cross-attention to the source**: each target token's query, from step 1's "
            "output, attends to all {source} source tokens."
        ).format(target=first.num_tokens, source=second.num_keys)
    )
    if layer.left_out:
        names = ", ".join(_(LEFT_OUT[name]) for name in layer.left_out)
        st.info(
            _(
                "Step 2 leaves out {names}: they pair positions within one sequence, and the "
                "target and the source are two. Step 1 is causal whatever the sidebar says; "
                "the padding mask applies to the source."
            ).format(names=names),
            icon=":material/info:",
        )
    return int(controls.widget("decoder_step", page.settings))


def show_step(page: Page, layer: DecoderLayer, step: int) -> None:
    """One step: its Q/K/V shapes in the learner's numbers, its scores and its weights."""
    trace = layer.self_attention if step == 1 else layer.cross_attention
    st.markdown(shapes_table(trace, step))
    head = focus_panel.head_choice(page)
    rows = display_labels(trace.tokens)
    columns = display_labels(trace.key_tokens)
    if step == 2:
        st.markdown(square_sentence(trace))
    pictures = [
        (scores_heatmap(trace, head, rows, columns, step), f"decoder_scores_{step}"),
        (weights_heatmap(page, trace, head, rows, columns, step), f"decoder_weights_{step}"),
    ]
    heatmaps.show_side_by_side(page, pictures)
    output = heatmaps.vectors_heatmap(
        page,
        trace.output,
        "z",
        _("step {step}'s output").format(step=step),
        _("Output of step {step}: {rows} target tokens × {width} numbers.").format(
            step=step, rows=len(rows), width=trace.output.shape[1]
        ),
        row_names=rows,
    )
    heatmaps.show_heatmap(page, output, f"decoder_output_{step}")


def shapes_table(trace: AttentionTrace, step: int) -> str:
    """Where Q, K and V come from and their shapes, as a Markdown table."""
    (target_rows, target_width), (key_rows, key_width) = trace.input_shapes
    width = trace.queries.shape[1]
    query_from = _("the target") if step == 1 else _("step 1's output")
    kv_from = _("the target") if step == 1 else _("the source")

    def shape(rows: int, columns: int) -> str:
        return f"{rows} × {columns}"

    header = [_("matrix"), _("from"), _("input"), "W", _("result")]
    body = [
        ["Q", query_from, shape(target_rows, target_width), shape(target_width, width)],
        ["K", kv_from, shape(key_rows, key_width), shape(key_width, width)],
        ["V", kv_from, shape(key_rows, key_width), shape(key_width, width)],
    ]
    body[0].append(shape(target_rows, width))
    body[1].append(shape(key_rows, width))
    body[2].append(shape(key_rows, width))
    body.append(
        [
            _("weights"),
            "softmax(Q·Kᵀ)",
            "",
            "",
            _("{shape} per head").format(shape=shape(target_rows, key_rows)),
        ]
    )
    return tables.markdown_table(header, body, labelled_rows=False)


def square_sentence(trace: AttentionTrace) -> str:
    """What the shape of the cross-attention matrix says."""
    rows, columns = trace.num_tokens, trace.num_keys
    if rows != columns:
        return _(
            "Rows are the target's {rows} queries, columns the source's {columns} keys: the "
            "score matrix is {rows} × {columns}, **not square**. Each row of weights sums to 1 "
            "over the source's tokens."
        ).format(rows=rows, columns=columns)
    return _(
        "Rows are the target's {rows} queries, columns the source's {columns} keys. Here both "
        "sequences have {rows} tokens, so the matrix happens to be square, but its rows and "
        "columns are two different sequences: no diagonal means “itself”."
    ).format(rows=rows, columns=columns)


def _axes(step: int) -> str:
    if step == 1:
        return _("rows: target queries × columns: target keys")
    return _("rows: target queries × columns: source keys")


def weights_heatmap(
    page: Page,
    trace: AttentionTrace,
    head: int,
    rows: list[str],
    columns: list[str],
    step: int,
) -> heatmap_chart.Heatmap:
    """One head's weights after dropout, its axes named after both sequences."""
    dropped = trace.dropped[head].tolist() if trace.config.dropout_active else None
    return heatmap_chart.Heatmap(
        heatmaps.matrix_values(trace.weights_after_dropout[head]),
        rows,
        columns,
        kind="weights",
        title=_("step {step} weights ({axes})").format(step=step, axes=_axes(step)),
        description=_("Weights of step {step}: {rows} target queries × {columns} keys.").format(
            step=step, rows=len(rows), columns=len(columns)
        ),
        masked=heatmaps.hidden_weights(trace),
        dropped=dropped,
        scale=page.settings["weight_scale"],
    )


def scores_heatmap(
    trace: AttentionTrace, head: int, rows: list[str], columns: list[str], step: int
) -> heatmap_chart.Heatmap:
    """One head's scaled, masked scores (−∞ where the mask hides a key)."""
    hidden = trace.blocked.tolist() if trace.config.mask_strategy == "neg_inf" else None
    return heatmap_chart.Heatmap(
        heatmaps.matrix_values(trace.masked_scores[head]),
        rows,
        columns,
        kind="scores",
        title=_("step {step} scores ({axes})").format(step=step, axes=_axes(step)),
        description=_("Scores of step {step}: {rows} target queries × {columns} keys.").format(
            step=step, rows=len(rows), columns=len(columns)
        ),
        masked=hidden if hidden is not None and bool(trace.blocked.any()) else None,
    )


def show_code(layer: DecoderLayer) -> None:
    """The PyTorch script of both steps, built when opened."""
    with kept_widgets.section(_("Reproduce in PyTorch"), "cross_export_open") as section:
        if not section.open:
            return
        script = export_decoder_script(layer.self_attention, layer.cross_attention)
        st.code(script, language="python")
        st.download_button(
            _("Download attention.py"),
            script,
            file_name="attention.py",
            mime="text/x-python",
            key="download_decoder_script",
        )
