"""Dropout: a random keep-mask over the weights, the 1/(1−p) rescaling, and why it averages out."""

import streamlit as st

from attention_core.experiments import dropout_average
from attention_core.lessons import max_difference
from ui import components, lesson, state, views

components.page_setup("Dropout", ":material/grain:")
view = state.view()
p = view.config.dropout if view.config.dropout > 0 else 0.5
train = components.compute_with(view, view.config.replace(dropout=p, train=True))
evaluation = components.compute_with(view, view.config.replace(dropout=p, train=False))
labels = views.labels_of(train)

st.title("6 · Dropout on the attention weights")
components.show_messages(view)
if view.config.dropout == 0:
    st.info(
        "The dropout rate in the sidebar is 0, so this page uses p = 0.5. Move the "
        "sidebar slider to choose your own."
    )
if not view.present:
    st.markdown(
        f"During training, dropout sets each attention weight to 0 with probability p = {p:g} "
        f"and multiplies the survivors by 1/(1−p) = {train.dropout_factor:.3g}, so that each "
        "weight keeps its value *on average*. The sample here is drawn from the dropout seed "
        f"({view.config.dropout_seed}): the same seed always drops the same cells. In "
        "evaluation mode nothing is dropped."
    )
st.button(
    "New dropout sample",
    key="new_sample",
    on_click=state.bump_dropout_seed,
    help="Use the next dropout seed.",
)

views.show_side_by_side(
    [
        views.Panel("weights before dropout", "hm_before", train.weights[0]),
        views.Panel(
            f"training: dropped ✕, kept × {train.dropout_factor:.3g}",
            "hm_after",
            train.weights_after_dropout[0],
            dropped=train.dropped[0],
        ),
        views.Panel(
            "evaluation mode: nothing dropped", "hm_eval", evaluation.weights_after_dropout[0]
        ),
    ],
    labels,
    view.present,
)
same = max_difference(evaluation.weights_after_dropout, train.weights)
st.caption(f"Evaluation mode equals the weights before dropout (max |Δ| = {same:.1e}).")
row_sums = train.diagnostics.row_sums_after_dropout  # (num_heads, num_tokens)
lesson.show_table(
    row_sums, [f"row sum in training, head {h + 1}" for h in range(len(row_sums))], labels, 3
)
if not view.present:
    st.markdown(
        "After dropout the rows no longer sum to 1: some rows lose most of their "
        "weight, others exceed 1. That is expected; it is noise for training only."
    )

st.subheader("Averaging many samples")


@st.fragment
def average_block() -> None:
    """The average of N samples; its slider reruns only this block."""
    samples = st.slider("number of dropout samples", 1, 5000, 200, key="dropout_samples")
    average, gap = dropout_average(train.weights, p, samples, view.config.dropout_seed)
    left, right = st.columns([1, 1])
    with left:
        views.show_heatmap(
            average[0],
            labels,
            labels,
            kind="weights",
            title=f"average of {samples} samples",
            key="hm_average",
            present=view.present,
            max_width=300,
        )
    with right:
        st.metric("largest |average − weights before dropout|", f"{gap:.4f}")
        st.caption(
            "Because kept weights are scaled by 1/(1−p), the average converges to the "
            "undropped weights as the number of samples grows."
        )


average_block()

lesson.predict(
    f"With p = {p:g}, what is the expected value of one dropped-out weight w?",
    f"(1−p)·w/(1−p) + p·0 = w. A weight survives with probability 1−p = {1 - p:g} and is then "
    f"worth w/(1−p); otherwise it is 0. Seeds 000 and 002 hard-code nn.Dropout(0.5) inside "
    "the module whatever rate is passed in: see the Common mistakes page.",
    key="dropout_expectation",
)
components.finish()
