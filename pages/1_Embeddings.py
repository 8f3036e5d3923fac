"""Embeddings: the tokens as arrows in 3D, and how alike each pair is by dot product and cosine."""

import streamlit as st

from attention_core.lessons import similarity
from ui import charts, components, lesson, state, views

components.page_setup("Embeddings", ":material/scatter_plot:")
view = state.view()
trace = components.compute(view)
labels = views.labels_of(trace)
focus = labels[view.query]
table_sim = similarity(view.embeddings)

st.title("1 · Tokens as vectors")
components.show_messages(view)
if not view.present:
    st.markdown(
        "Before attention can mix anything, each token is turned into a list of numbers: its "
        "**embedding**. With three numbers per token you can draw every token as an arrow from "
        "the origin. Tokens used in similar ways end up pointing in similar directions. Edit "
        "the matrix on the Playground page and come back: the arrows follow."
    )

left, right = st.columns([1.3, 1])
with left:
    st.subheader("The embeddings in 3D")
    figure = charts.make_embedding_3d(
        trace.inputs.tolist(),
        labels,
        context=trace.output[view.query].tolist(),
        context_label=f"context of {focus}",
        present=view.present,
    )
    st.plotly_chart(figure, key="embedding_3d", config={"displaylogo": False})
    if view.embeddings.d_in != 3:
        st.caption(
            f"These embeddings have {view.embeddings.d_in} dimensions; the plot shows "
            "the first three (missing ones drawn as 0)."
        )
    st.caption(
        f"Dashed black: the context vector of “{focus}” from the current settings "
        "(its axes are the d_out dimensions, so compare it with the inputs only when "
        "W is the identity)."
    )
with right:
    st.subheader("The matrix")
    lesson.show_table(
        trace.inputs, labels, [f"d{c + 1}" for c in range(trace.inputs.shape[1])], decimals=3
    )

st.subheader("How alike are two tokens?")
if not view.present:
    st.markdown(
        "The **dot product** x⁽ⁱ⁾·x⁽ʲ⁾ multiplies matching coordinates and adds them up: it "
        "grows when two arrows point the same way *and* when they are long. The **cosine "
        "similarity** divides by both lengths, so it measures direction only: 1 means the "
        "same direction, 0 perpendicular, −1 opposite. Attention scores start from dot "
        "products; seed 001 also builds attention weights straight from cosines."
    )
dot_col, cos_col = st.columns(2)
with dot_col:
    views.show_heatmap(
        table_sim.dot,
        labels,
        labels,
        kind="scores",
        title="dot products x·x",
        key="hm_dot",
        present=view.present,
    )
with cos_col:
    views.show_heatmap(
        table_sim.cosine,
        labels,
        labels,
        kind="scores",
        title="cosine similarity",
        key="hm_cos",
        present=view.present,
    )
lesson.show_table(table_sim.norms.unsqueeze(0), ["length ‖x‖"], labels, decimals=3)

lesson.predict(
    f"Which token has the largest dot product with “{focus}”, and is it the same token that "
    "has the largest cosine?",
    "Look at the row of the focused token in both heatmaps. The dot product favours long "
    "vectors as well as aligned ones, so a long arrow can win the dot product while a "
    "shorter, better-aligned one wins the cosine. Every token's cosine with itself is exactly 1.",
    key="embeddings_dot_vs_cos",
)
components.finish()
