"""Trainable weights: W_query, W_key, W_value turn each token into a query, a key and a value."""

import pandas as pd
import streamlit as st

from attention_core import AttentionInputError
from attention_core.book import book_parity
from ui import components, editor, lesson, state, views

components.page_setup("Trainable weights", ":material/tune:")
view = state.view()
base = components.compute(view)

st.title("3 · Self-attention with trainable weights")
components.show_messages(view)
if not view.present:
    st.markdown(
        "Real attention does not compare raw embeddings. Three matrices, learned in training, "
        "project every embedding x into a **query** q = x·W_query (what this token looks for), "
        "a **key** k = x·W_key (what it offers to be found by) and a **value** v = x·W_value "
        "(what it passes on). Scores compare queries with keys; context vectors mix values."
    )

source = st.radio(
    "W_query, W_key, W_value come from",
    ["the sidebar", "my own numbers"],
    horizontal=True,
    key="weights_source",
    help="The sidebar draws them with a seed; or type every entry yourself.",
)
config = view.config
if source == "my own numbers":
    saved = state.custom_weights()
    if saved and len(saved[0]) != view.embeddings.d_in:  # the matrix changed width since
        saved = None
    current = saved or tuple(
        tuple(tuple(row) for row in m.tolist()) for m in (base.W_query, base.W_key, base.W_value)
    )
    columns = st.columns(3)
    edited = []
    for column, name, matrix in zip(columns, ("W_query", "W_key", "W_value"), current, strict=True):
        with column:
            frame = pd.DataFrame(matrix, columns=[f"c{j + 1}" for j in range(len(matrix[0]))])
            result = st.data_editor(frame, key=f"edit_{name}", hide_index=True)
            try:
                edited.append(editor.numbers_from_frame(result, name))
            except AttentionInputError as error:
                st.error(f"{error}. Using the last valid {name}.", icon=":material/edit:")
                edited.append(matrix)
    state.set_custom_weights(tuple(edited))
    try:
        config = config.replace(
            init="custom", custom_weights=tuple(edited), d_out=len(edited[0][0])
        )
    except AttentionInputError as error:
        st.error(f"{error}.", icon=":material/warning:")
trace = components.compute_with(view, config)
labels = views.labels_of(trace)
query = view.query

st.subheader("The three matrices and what they make")
if source == "the sidebar":
    names = ("W_query", "W_key", "W_value")
    columns = st.columns(3)
    for column, name in zip(columns, names, strict=True):
        with column:
            matrix = getattr(trace, name)
            st.markdown(f"**{name}** ({matrix.shape[0]} × {matrix.shape[1]})")
            lesson.show_table(
                matrix,
                [f"d{i + 1}" for i in range(matrix.shape[0])],
                [f"c{j + 1}" for j in range(matrix.shape[1])],
            )
views.show_qkv(trace, view.present)

st.subheader(f"For one query: “{labels[query]}”")
for key in range(trace.num_tokens):
    st.latex(lesson.score_latex(trace, query, key))
views.show_focus(trace, query, view.present)

st.subheader("For every token at once")
views.show_heatmap_trio(trace, view.present, 0)
lesson.predict(
    "With trainable weights, is the score of token A against token B the same as B against A?",
    "Not in general: ω_AB = q_A·k_B uses A's query and B's key, while ω_BA = q_B·k_A uses the "
    "other pair. Without weights (the simplified version) queries and keys are the same "
    "vectors, so the score matrix is symmetric. Compare the score heatmap here with page 2.",
    key="weights_symmetry",
)

st.subheader("Book parity")
if not view.present:
    st.markdown(
        "With the book's own initialisations (“Your journey starts with one step”, `torch.rand` "
        "with seed 123, and `nn.Linear` with seed 789) this core reproduces every tensor the "
        "book prints, to its four decimals:"
    )
parity = pd.DataFrame(
    [
        {
            "setting": row.setting,
            "book prints": row.book_name,
            "ours": row.trace_field,
            "max |Δ|": f"{row.max_diff:.1e}",
            "match": "✓" if row.matches else "✗",
        }
        for row in book_parity()
    ]
)
st.dataframe(parity, hide_index=True)
components.finish()
