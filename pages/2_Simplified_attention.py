"""Simplified attention: scores as dot products, three ways to normalise, and the context vector."""

import streamlit as st

from attention_core import AttentionConfig
from attention_core.lessons import compare_normalisations, loop_attention
from ui import components, lesson, state, views

NORM_NAMES = {
    "sum": "divide by the sum",
    "naive_softmax": "naive softmax",
    "softmax": "softmax (stable)",
}

components.page_setup("Simplified attention", ":material/functions:")
view = state.view()
simple = components.compute_with(view, AttentionConfig(init="identity", scaling="none"))
labels = views.labels_of(simple)
query = view.query
focus = labels[query]

st.title("2 · Simplified attention: no trainable weights")
components.show_messages(view)
if not view.present:
    st.markdown(
        "The simplest attention uses the embeddings themselves as queries, keys and values. "
        f"To build a new, context-aware vector for “{focus}”, score every token by its dot "
        f"product with “{focus}”, turn the scores into weights that sum to 1, and add up the "
        "embeddings with those weights. (The focused token is chosen in the sidebar.)"
    )

st.subheader(f"1. Scores: each token against “{focus}”")
for key in range(simple.num_tokens):
    st.latex(lesson.score_latex(simple, query, key))

st.subheader("2. Three ways to turn scores into weights")


@st.fragment
def normalisation_block() -> None:
    """The three normalisations; the input-scale slider reruns only this block."""
    scale = st.slider(
        "input scale: multiply every embedding by",
        1.0,
        30.0,
        1.0,
        0.5,
        key="input_scale",
        help="Scores grow with the square of this factor. Watch the naive softmax.",
    )
    rows = compare_normalisations(view.embeddings, query, scale)
    columns = st.columns(3)
    for column, row in zip(columns, rows, strict=True):
        with column:
            st.markdown(f"**{NORM_NAMES[row.norm]}**")
            st.dataframe(
                {"key": labels, "weight": [round(w, 4) for w in row.weights]}, hide_index=True
            )
            if row.finite:
                st.caption(f"sum = {row.total:.4f}")
            else:
                st.error("Overflow: exp(score) is ∞ in float32, and ∞/∞ is NaN.")
    if not view.present:
        st.markdown(
            "Dividing by the sum works only while every score is positive; negative scores give "
            "negative “weights”. Softmax, eˢ / Σ eˢ, is always positive and emphasises the largest "
            "scores. Written naively, eˢ overflows once a score passes about 88 in float32; the "
            "stable version subtracts the row's largest score first, which changes nothing "
            "mathematically. Push the input scale up to see the difference."
        )


normalisation_block()

lesson.predict(
    "If you add 5 to every score in a row, what happens to the softmax weights? And to the "
    "sum-normalised ones?",
    "Softmax weights do not change at all: e^(s+5) = e⁵·eˢ and the common factor cancels. "
    "That is exactly why the stable softmax may subtract the maximum. Sum-normalised weights "
    "do change, because (s+5)/Σ(s+5) is not s/Σs.",
    key="simplified_shift",
)

st.subheader(f"3. The context vector of “{focus}”")
st.latex(views.context_latex(simple, query))

st.subheader("4. All tokens at once")
if not view.present:
    st.markdown(
        "Two loops (every query against every key) compute the same numbers as one matrix "
        "product, X Xᵀ, which is what real code uses. Here both are computed on your matrix:"
    )
_, _, diff = loop_attention(view.embeddings)
views.show_heatmap_trio(simple, view.present, 0)
st.success(
    f"Loop version and matrix version agree: max |Δ| = {diff:.1e}", icon=":material/check_circle:"
)
components.finish()
