"""Real sentences: a pretrained model's embeddings, two contexts for one word, and a real head."""

import pandas as pd
import streamlit as st

from attention_core import AttentionInputError, run_attention
from attention_core.embeddings import display_labels
from attention_core.lessons import similarity
from real_model import MODEL_ENV, compare_word, model_source, noncontextual_embeddings
from real_model.analysis import MAX_TOKENS, SIMPLIFIED, reproduce_head
from ui import components, lesson, real, state, views

SENTENCES = {
    "Odyssey": "I must go back to my ship and to my crew",
    "Order": "We process and ship your order",
}

components.page_setup("Real sentences", ":material/translate:")
view = state.view()
st.title("9 · Real sentences, a real model")
source = model_source()
st.caption(f"Model: {source} (set {MODEL_ENV} to use another one, or a local folder).")
if not view.present:
    st.markdown(
        "The toy matrices stand in for what a trained model learns. Here a small pretrained "
        "encoder supplies real embeddings, and one of its real attention heads is recomputed "
        "with the same attention core as every other page."
    )
loaded = real.model_or_message(source)
if loaded is None:
    components.finish()
    st.stop()

choice = st.selectbox("Sentence", [*SENTENCES, "my own"], key="sentence_choice")
if choice == "my own":
    sentence = st.text_input(
        "Your sentence", "The bank by the river", max_chars=200, key="own_sentence"
    )
else:
    sentence = SENTENCES[choice]
embeddings = noncontextual_embeddings(loaded, sentence)
labels = display_labels(embeddings.tokens)
st.markdown("**Tokens, as the model splits them** (at most 32):")
st.dataframe(pd.DataFrame([list(embeddings.tokens)], columns=labels), hide_index=True)
if embeddings.num_tokens == MAX_TOKENS:
    st.caption(f"The sentence was cut at {MAX_TOKENS} tokens.")

st.subheader("Noncontextual embeddings")
if not view.present:
    st.markdown(
        f"Each token's row of the model's input embedding table ({embeddings.d_in} numbers): "
        "the same vector for a word wherever it appears. Left, their cosine similarities; "
        "right, plain scaled dot-product self-attention on them (no trainable weights, as "
        "seed 001 does with GloVe vectors)."
    )
simple = run_attention(embeddings, SIMPLIFIED)
views.show_side_by_side(
    [
        views.Panel(
            "cosine similarity", "hm_real_cos", similarity(embeddings).cosine, kind="scores"
        ),
        views.Panel("softmax(X·X^T / √d)", "hm_real_attn", simple.weights[0]),
    ],
    labels,
    view.present,
    max_width=420,
)

st.subheader("One word, two contexts")


@st.fragment
def two_contexts_block() -> None:
    """One word in two sentences; the word box reruns only this block."""
    word = st.text_input("Word in both preset sentences", "ship", max_chars=20, key="real_word")
    try:
        comparison = compare_word(loaded, SENTENCES["Odyssey"], SENTENCES["Order"], word.strip())
        first, second = st.columns(2)
        first.metric("cosine of its two contextual vectors", f"{comparison.contextual_cosine:.3f}")
        second.metric(
            "cosine of its two noncontextual vectors", f"{comparison.noncontextual_cosine:.3f}"
        )
        st.dataframe(
            pd.DataFrame(
                {
                    "sentence": list(SENTENCES.values()),
                    "attends most to": [
                        ", ".join(f"{t} ({w:.2f})" for t, w in top)
                        for top in (comparison.top_a, comparison.top_b)
                    ],
                }
            ),
            hide_index=True,
        )
    except AttentionInputError as error:
        st.warning(f"{error}.")


two_contexts_block()

st.subheader("A real head, recomputed")
layer_col, head_col = st.columns(2)
layer = layer_col.selectbox(
    "layer",
    list(range(loaded.num_layers)),
    key="real_layer",
    format_func=lambda i: f"layer {i + 1}",
)
head = head_col.selectbox(
    "head", list(range(loaded.num_heads)), key="real_head", format_func=lambda i: f"head {i + 1}"
)
result = reproduce_head(loaded, sentence, layer, head)
views.show_side_by_side(
    [
        views.Panel(
            "attention_core with the head's weights", "hm_head_ours", result.trace.weights[0]
        ),
        views.Panel("the model's own attention", "hm_head_model", result.model_weights),
    ],
    labels,
    view.present,
    max_width=420,
)
if result.matches:
    st.success(
        f"Reproduced: max |Δ| = {result.max_diff:.1e} (✓ under 1e-4)",
        icon=":material/check_circle:",
    )
else:
    st.error(f"Not reproduced: max |Δ| = {result.max_diff:.1e}")
if not view.present:
    st.markdown(
        "How: take this layer's input hidden states, append a 1 to each, and append each "
        "projection's bias as an extra row of its weight matrix, so x·W + b = [x, 1]·[W; b]. "
        "The core's custom weights then give exactly the model's queries, keys and values; "
        "scores are divided by √d_k and softmaxed as on every other page."
    )
lesson.predict(
    "Is “ship” closer to itself across the two sentences before or after the model adds context?",
    "Before: its noncontextual vectors are the same row of the embedding table (cosine 1). "
    "After the layers mix in the neighbouring words, the two contextual vectors differ, so "
    "their cosine drops below 1.",
    key="real_ship",
)
components.finish()
