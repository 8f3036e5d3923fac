"""Multi-head attention: several heads side by side, merged and mixed, checked against PyTorch."""

import streamlit as st

from attention_core import run_attention
from attention_core.knobs.table import PARAMS
from attention_core.lessons import several_heads
from attention_core.reference import MATCH_TOLERANCE, check_against_torch
from ui.blocks import heatmaps, page_frame
from ui.session import run_order
from ui.specs import heatmap_chart, tables

page = run_order.setup(__file__)
config = page.call(several_heads, page.config.replace(dropout=0.0), page.embeddings.d_in)
trace = page.call(run_attention, page.embeddings, config) if config is not None else None
trace = trace or page.trace
page_frame.show_header(
    page,
    "7 · Multi-head attention",
    "Each head runs the same attention on its own slice of the queries, keys and values, so "
    "each can attend to different tokens. Switch the layout under *More settings* in the "
    "sidebar: one wide projection cut into heads (the book's MultiHeadAttention), or "
    "independent heads put side by side (the book's MultiHeadAttentionWrapper).",
    result=trace,
)
if page.config.heads == 1 and trace.num_heads > 1:
    widened = trace.config.d_out != page.config.d_out
    st.info(
        f"The sidebar has 1 head; this page shows {trace.num_heads} heads with d_out = "
        f"{trace.config.d_out}"
        + (f" (the sidebar's d_out {page.config.d_out} cannot be split in two)" if widened else "")
        + ". Choose heads in the sidebar to see your own.",
        icon=":material/info:",
    )
elif trace.num_heads == 1:
    st.info(
        f"Without projections the heads must divide the embedding width, and no number of "
        f"heads from 2 to {int(PARAMS['heads'].limits()[1])} divides this matrix's "
        f"{trace.inputs.shape[1]} numbers per token: "
        "one head is all there is.",
        icon=":material/info:",
    )
labels = page.labels
st.header("One weights heatmap per head")
heatmaps.show_side_by_side(
    page,
    [
        (heatmaps.weights_heatmap(page, trace, head, title=f"head {head + 1}"), f"hm_head_{head}")
        for head in range(trace.num_heads)
    ],
    per_row=min(trace.num_heads, 4),
)

st.header("Merge the heads, then mix them")
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
        title="the heads' outputs side by side",
        description=f"The {trace.num_heads} heads' outputs side by side: {width} numbers.",
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
            "output = heads · W_out",
            f"The output after the output projection: {width} numbers per token.",
        ),
        "hm_output",
    )
else:
    st.caption(
        f"No output projection (“{PARAMS['out_proj'].label}” is none under More settings): "
        "the output is the heads side by side."
    )
heatmaps.show_heatmap(
    page,
    heatmap_chart.Heatmap(
        heatmaps.matrix_values(trace.mean_weights),
        labels,
        labels,
        kind="weights",
        title="weights averaged over heads (what nn.MultiheadAttention returns)",
        description="The attention weights averaged over the heads.",
        scale=page.settings["weight_scale"],
    ),
    "hm_mean",
)

st.header("Checked live against PyTorch")
check = page.call(check_against_torch, trace)
if check is not None:
    copied_reason = check.mha_reason or (
        "" if check.mha_copied_max_diff is not None else "needs d_in ≤ d_out to copy the weights"
    )
    rows = [
        ("F.scaled_dot_product_attention, per head", check.sdpa_max_diff, check.sdpa_reason),
        ("nn.MultiheadAttention, our weights copied in", check.mha_copied_max_diff, copied_reason),
        (
            "nn.MultiheadAttention, identity bypass (seed 001)",
            check.mha_bypass_max_diff,
            check.mha_reason,
        ),
    ]
    st.markdown(
        tables.markdown_table(
            ["reference", "largest difference", "result"],
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
        "The identity bypass is seed 001's trick: set nn.MultiheadAttention's input projection "
        "to three stacked identity matrices and feed it our own queries, keys and values, so "
        "that only the attention itself is compared. nn.MultiheadAttention's boolean mask "
        "means *may not attend*, the opposite of F.scaled_dot_product_attention's."
    )
page_frame.predict(
    page,
    "Is the head-averaged weights matrix the attention of any single head?",
    "No. It is only a summary: each head mixes its own value slice with its own weights, and "
    "the output projection then mixes the heads. Averaging the weights loses which head "
    "attended where.",
    key="multihead_average",
    choices=("Yes, of the first head", "No, it is only a summary"),
)
page_frame.finish(page)
