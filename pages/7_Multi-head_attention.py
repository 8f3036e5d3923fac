"""Multi-head attention: several heads side by side, merged and mixed, checked against PyTorch."""

import pandas as pd
import streamlit as st

from attention_core import AttentionInputError
from attention_core.reference import MATCH_TOLERANCE, check_against_torch
from ui import components, lesson, state, views

components.page_setup("Multi-head attention", ":material/view_column:")
view = state.view()
config = view.config.replace(dropout=0.0)
if config.heads == 1:
    even = config.d_out if config.d_out % 2 == 0 else config.d_out + 1
    try:
        config = config.replace(heads=2, d_out=even)
    except AttentionInputError:
        config = config.replace(heads=2, d_out=even, init="book")
trace = components.compute_with(view, config)
labels = views.labels_of(trace)

st.title("7 · Multi-head attention")
components.show_messages(view)
if view.config.heads == 1:
    st.info(
        f"The sidebar asks for 1 head; this page shows {trace.num_heads} heads with "
        f"d_out = {config.d_out}. Choose heads in the sidebar to see your own."
    )
if not view.present:
    layout = (
        "one wide projection of width d_out cut into heads of "
        f"{trace.head_dim} column{'s' if trace.head_dim > 1 else ''} each, then an output "
        "projection W_out"
        if config.heads_layout == "split"
        else f"independent heads, each with its own {trace.head_dim}-wide W_query, W_key and "
        "W_value, whose outputs are simply put side by side"
    )
    st.markdown(
        "Each head runs the same attention on its own slice of the queries, keys and values, "
        f"so each can attend to different tokens. Layout *{config.heads_layout}*: {layout}. "
        "Switch layouts under *More settings* in the sidebar."
    )

st.subheader("One weights heatmap per head")
columns = st.columns(min(trace.num_heads, 4))
for head in range(trace.num_heads):
    with columns[head % len(columns)]:
        views.show_heatmap(
            trace.weights[head],
            labels,
            labels,
            kind="weights",
            title=f"head {head + 1}",
            key=f"hm_head_{head}",
            present=view.present,
            max_width=260,
        )

st.subheader("Merge the heads, then mix them")
merged, projection, output = st.columns(3)
width = trace.context.shape[1]
with merged:
    st.markdown("**heads side by side**")
    lesson.show_table(
        trace.context,
        labels,
        [f"h{c // trace.head_dim + 1}·{c % trace.head_dim + 1}" for c in range(width)],
    )
with projection:
    st.markdown("**W_out**" if trace.W_out is not None else "**no output projection**")
    if trace.W_out is not None:
        lesson.show_table(
            trace.W_out,
            [f"in {i + 1}" for i in range(width)],
            [f"out {j + 1}" for j in range(width)],
        )
with output:
    st.markdown("**output = heads · W_out**")
    lesson.show_table(trace.output, labels, [f"z{c + 1}" for c in range(width)])
views.show_heatmap(
    trace.mean_weights,
    labels,
    labels,
    kind="weights",
    title="weights averaged over heads (what nn.MultiheadAttention returns)",
    key="hm_mean",
    present=view.present,
    max_width=320,
)

st.subheader("Checked live against PyTorch")
check = check_against_torch(trace)
rows = [
    ("F.scaled_dot_product_attention, per head", check.sdpa_max_diff, check.sdpa_reason),
    (
        "nn.MultiheadAttention, our W copied in",
        check.mha_copied_max_diff,
        check.mha_reason
        or (
            ""
            if check.mha_copied_max_diff is not None
            else "needs d_in ≤ d_out to copy W_query, W_key, W_value"
        ),
    ),
    (
        "nn.MultiheadAttention, identity bypass (seed 001)",
        check.mha_bypass_max_diff,
        check.mha_reason,
    ),
]
st.dataframe(
    pd.DataFrame(
        [
            {
                "reference": name,
                "max |Δ|": "—" if diff is None else f"{diff:.1e}",
                "result": ("✓" if diff < MATCH_TOLERANCE else "✗") if diff is not None else reason,
            }
            for name, diff, reason in rows
        ]
    ),
    hide_index=True,
)
if not view.present:
    st.markdown(
        "The identity bypass is seed 001's trick: set nn.MultiheadAttention's input projection "
        "to three stacked identity matrices and feed it our own queries, keys and values, so "
        "only the attention itself is compared. Note that nn.MultiheadAttention's boolean mask "
        "means *may not attend*, the opposite of F.scaled_dot_product_attention's."
    )
lesson.predict(
    "Is the head-averaged weights matrix the attention of any single head?",
    "No. It is only a summary: each head mixes its own value slice with its own weights, and "
    "the output projection then mixes the heads. Averaging the weights loses which head "
    "attended where.",
    key="multihead_average",
)
components.finish()
