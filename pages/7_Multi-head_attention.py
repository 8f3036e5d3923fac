"""Multi-head attention: several heads side by side, merged and mixed, checked against PyTorch."""

import streamlit as st

from attention_core import run_attention
from attention_core.knobs.table import PARAMS
from attention_core.lessons import several_heads
from attention_core.reference import MATCH_TOLERANCE, check_against_torch
from translation import _
from ui.blocks import check_yourself, heatmaps, page_frame
from ui.session import run_order
from ui.specs import heatmap_chart, tables

page = run_order.setup(__file__)
config = page.call(several_heads, page.config.replace(dropout=0.0), page.embeddings.d_in)
trace = page.call(run_attention, page.embeddings, config) if config is not None else None
trace = trace or page.trace
check_yourself.exercises_on(page, trace)  # no chart prints an answer it asks
page_frame.show_header(
    page,
    _("7 · Multi-head attention"),
    _(
        "Each head runs the same attention on its own slice of the queries, keys and values, so "
        "each can attend to different tokens. Switch the layout under *More settings* in the "
        "sidebar: one wide projection cut into heads (the book's MultiHeadAttention), or "
        "independent heads put side by side (the book's MultiHeadAttentionWrapper)."
    ),
    result=trace,
)
if page.config.heads == 1 and trace.num_heads > 1:
    widened = trace.config.d_out != page.config.d_out
    if widened:
        shown = _(
            "The sidebar has 1 head; this page shows {num_heads} heads with d_out = {d_out} "
            "(the sidebar's d_out {sidebar_d_out} cannot be split in two). Choose heads in the "
            "sidebar to see your own."
        ).format(
            num_heads=trace.num_heads, d_out=trace.config.d_out, sidebar_d_out=page.config.d_out
        )
    else:
        shown = _(
            "The sidebar has 1 head; this page shows {num_heads} heads with d_out = {d_out}. "
            "Choose heads in the sidebar to see your own."
        ).format(num_heads=trace.num_heads, d_out=trace.config.d_out)
    st.info(shown, icon=":material/info:")
elif trace.num_heads == 1:
    st.info(
        _(
            "Without projections the heads must divide the embedding width, and no number of "
            "heads from 2 to {most} divides this matrix's {width} numbers per token: one "
            "head is all there is."
        ).format(most=int(PARAMS["heads"].limits()[1]), width=trace.inputs.shape[1]),
        icon=":material/info:",
    )
labels = page.labels
if not page.present:  # projected, the teacher's line names the heads' heatmaps
    st.header(_("One weights heatmap per head"))
heatmaps.show_side_by_side(
    page,
    [
        (
            heatmaps.weights_heatmap(
                page, trace, head, title=_("head {number}").format(number=head + 1)
            ),
            f"hm_head_{head}",
        )
        for head in range(trace.num_heads)
    ],
    per_row=min(trace.num_heads, 4),
)

st.header(_("Merge the heads, then mix them"))
width = trace.context.shape[1]
head_dim = trace.head_dim
merged_names = [f"h{c // head_dim + 1}·{c % head_dim + 1}" for c in range(width)]
heatmaps.show_heatmap(
    page,
    heatmap_chart.Heatmap(
        heatmaps.matrix_values(trace.context),
        labels,
        merged_names,
        kind="values",
        title=_("the heads' outputs side by side"),
        description=_("The {num_heads} heads' outputs side by side: {width} numbers.").format(
            num_heads=trace.num_heads, width=width
        ),
    ),
    "hm_merged",
)
if trace.W_out is not None:
    heatmaps.show_heatmap(
        page,
        heatmaps.vectors_heatmap(
            page,
            trace.output,
            "z",
            _("output = heads · W_out"),
            _("The output after the output projection: {width} numbers per token.").format(
                width=width
            ),
        ),
        "hm_output",
    )
else:
    st.caption(
        _(
            "No output projection (“{label}” is none under More settings): the output is the "
            "heads side by side."
        ).format(label=_(PARAMS["out_proj"].label))
    )
heatmaps.show_heatmap(
    page,
    heatmap_chart.Heatmap(
        heatmaps.matrix_values(trace.mean_weights),
        labels,
        labels,
        kind="weights",
        title=_("weights averaged over heads (what nn.MultiheadAttention returns)"),
        description=_("The attention weights averaged over the heads."),
        scale=page.settings["weight_scale"],
    ),
    "hm_mean",
)

st.header(_("Checked live against PyTorch"))
check = page.call(check_against_torch, trace)
if check is not None:
    copied_reason = check.mha_reason or (
        "" if check.mha_copied_max_diff is not None else _("needs d_in ≤ d_out to copy the weights")
    )
    rows = [
        (_("F.scaled_dot_product_attention, per head"), check.sdpa_max_diff, check.sdpa_reason),
        (
            _("nn.MultiheadAttention, our weights copied in"),
            check.mha_copied_max_diff,
            copied_reason,
        ),
        (
            _("nn.MultiheadAttention, identity bypass (Nugues' chapter 15)"),
            check.mha_bypass_max_diff,
            check.mha_reason,
        ),
    ]
    st.markdown(
        tables.markdown_table(
            [_("reference"), _("largest difference"), _("result")],
            [
                [
                    name,
                    "—" if diff is None else heatmaps.difference(diff),
                    ("✓" if diff < MATCH_TOLERANCE else "✗") if diff is not None else reason,
                ]
                for name, diff, reason in rows
            ],
            labelled_rows=False,
        )
    )
if not page.present:
    st.markdown(
        _(
            "The identity bypass is a trick from Nugues' chapter 15: set nn.MultiheadAttention's "
            "input projection to three stacked identity matrices and feed it our own queries, "
            "keys and values, so that only the attention itself is compared. "
            "nn.MultiheadAttention's boolean mask means *may not attend*, the opposite of "
            "F.scaled_dot_product_attention's."
        )
    )
page_frame.predict(
    page,
    _("Is the head-averaged weights matrix the attention of any single head?"),
    _(
        "No. It is only a summary: each head mixes its own value slice with its own weights, and "
        "the output projection then mixes the heads. Averaging the weights loses which head "
        "attended where."
    ),
    key="multihead_average",
    choices=(_("Yes, of the first head"), _("No, it is only a summary")),
    correct=1,
)
check_yourself.show_check_yourself(page, trace)
page_frame.finish(page)
