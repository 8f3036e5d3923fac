"""Playground: edit the embeddings, move a control, see scores, weights and context change."""

import streamlit as st

from ui import charts, controls, lines_view, panels, sentences, views
from ui import page as run_order
from ui.matrix_editor import show_glove_import, show_matrix_editor

page = run_order.setup(__file__)
trace = page.trace
views.show_header(
    page,
    "Self-attention playground",
    "Each row of the matrix is one token's embedding. Edit a number, rename or add a token, "
    "or move a control in the sidebar: the attention weights and everything below them are "
    "recomputed at once, and every page shares these settings.",
)
head = views.head_choice(page)
weights = views.weights_heatmap(page, trace, head)
side_width = int(views.CONTENT_WIDTH * 0.58)
beside = (
    page.settings.d_in <= 4
    and not page.present
    and charts.fits(weights, decimals=page.decimals, present=False, max_width=side_width)
)
if beside:
    left, right = st.columns([0.42, 0.58], gap="medium")
    with left:
        st.header("Embedding matrix")
        show_matrix_editor(page)
        show_glove_import(page)
    with right:
        lines_view.show_weights(page, trace, weights, "hm_weights", max_width=side_width)
else:
    lines_view.show_weights(page, trace, weights, "hm_weights")
    with st.expander("Embedding matrix (edit me)", expanded=not page.present):
        show_matrix_editor(page)
    show_glove_import(page)
with st.container(key="result_summary"):
    st.markdown(sentences.summary(page, trace, head))


# Only the open panel is built and sent: a change reruns what the learner is looking at.
steps, scores, qkv, checks, code = controls.tabs("panel", page.settings)
if steps.open:
    with steps:
        views.show_focus(page, trace, head, with_summary=False)
        with st.expander("Every number of this row", key="focus_rows", on_change="rerun") as rows:
            if rows.open:
                st.markdown(views.focus_rows(page, trace, head))
if scores.open:
    with scores:
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
                        f"Context vectors: {trace.num_tokens} tokens × "
                        f"{trace.output.shape[1]} numbers.",
                    ),
                    "hm_context",
                ),
            ],
        )
if qkv.open:
    with qkv:
        views.show_qkv(page, trace)
if checks.open:
    with checks:
        panels.show_diagnostics(page, trace, head)
if code.open:
    with code:
        panels.show_code_export(page, trace, folded=False)

views.finish(page)
