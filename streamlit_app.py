"""Playground: edit the embeddings, move a control, see scores, weights and context change."""

import streamlit as st

from ui import lines_view, panels, views
from ui import page as run_order
from ui.matrix_editor import show_matrix_editor

page = run_order.setup(__file__)
trace = page.trace
views.show_header(
    page,
    "Self-attention playground",
    "Each row of the matrix is one token's embedding. Edit a number, rename or add a token, "
    "or move a control in the sidebar: the attention weights, the scores and the context "
    "vectors are recomputed at once, and every page shares these settings.",
)
head = views.head_choice(page)
weights = views.weights_heatmap(page, trace, head)
beside = page.settings.d_in <= 4 and not page.present
if beside:
    left, right = st.columns([0.42, 0.58], gap="medium")
    with left:
        st.subheader("Embedding matrix")
        show_matrix_editor(page)
    with right:
        width = int(views.CONTENT_WIDTH * 0.58)
        lines_view.show_weights(page, trace, weights, "hm_weights", max_width=width)
else:
    lines_view.show_weights(page, trace, weights, "hm_weights")
    with st.expander("Embedding matrix (edit me)", expanded=not page.present):
        show_matrix_editor(page)

st.subheader(f"Step by step for token {page.query + 1}")
views.show_focus(page, trace, head)
with st.expander("Every number of this row", key="focus_rows", on_change="rerun") as rows:
    if rows.open:
        st.markdown(views.focus_rows(page, trace, head))

st.subheader("Scores and context vectors")
views.show_side_by_side(
    page,
    [
        (views.scores_heatmap(page, trace, head), "hm_scores"),
        (
            views.vectors_heatmap(
                page,
                trace.output,
                "z",
                "context vectors",
                f"Context vectors: {trace.num_tokens} tokens × {trace.output.shape[1]} numbers.",
            ),
            "hm_context",
        ),
    ],
)
st.subheader("Queries, keys and values")
views.show_qkv(page, trace)
st.subheader("Diagnostics")
panels.show_diagnostics(page, trace, head)
panels.show_code_export(page, trace)
views.finish(page)
