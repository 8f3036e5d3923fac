"""Playground: edit the embeddings, move a control, see scores, weights and context change."""

import streamlit as st

from ui import components, state, views

components.page_setup("Playground")

st.title("Self-attention playground")
present = state.is_present()
if not present:
    st.markdown(
        "Each row of the matrix is one token's embedding. Edit a cell, add a token, or move a "
        "control in the sidebar: the scores, the attention weights and the context vectors "
        "below are recomputed at once. Every page of this app shares these settings."
    )
# In presentation mode the results come first, so nothing essential is below the fold.
first, second = st.container(), st.container()
results, editor_slot = (first, second) if present else (second, first)
with editor_slot, st.expander("Embedding matrix (edit me)", expanded=not present):
    components.show_matrix_editor(present)
view = state.view()
trace = components.compute(view)

with results:
    components.show_messages(view)
    head = views.head_choice(trace, key="playground_head")
    if not present:
        st.subheader("Scores → weights → context vectors")
    views.show_heatmap_trio(trace, present, head)
    labels = views.labels_of(trace)
    st.subheader(f"Step by step for query {view.query + 1}: “{labels[view.query]}”")
    views.show_focus(trace, view.query, present, head)

st.subheader("Queries, keys and values")
views.show_qkv(trace, present)
st.subheader("Diagnostics")
components.show_diagnostics(trace, head)
components.show_code_export(trace)
components.finish()
