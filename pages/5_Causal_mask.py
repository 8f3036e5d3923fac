"""Causal mask: four ways to hide the future, the right two and the wrong two, and no peeking."""

import pandas as pd
import streamlit as st

from attention_core import AttentionInputError
from attention_core.lessons import max_difference, with_token_shifted
from attention_core.masks import judge_mask, output_shift
from attention_core.pipeline import run_attention
from ui import components, controls, lesson, state, views

SHORT_TITLES = {
    "neg_inf": "−∞, then softmax",
    "zero_renorm": "softmax, zero, renormalise",
    "zero_scores": "scores × mask (pitfall)",
    "zero_no_renorm": "softmax, zero (pitfall)",
}

components.page_setup("Causal mask", ":material/visibility_off:")
view = state.view()
causal = view.config.replace(mask="causal", dropout=0.0)
strategies = {
    s: components.compute_with(view, causal.replace(mask_strategy=s))
    for s in controls.STRATEGY_LABELS
}
labels = views.labels_of(strategies["neg_inf"])

st.title("5 · Hiding the future: the causal mask")
components.show_messages(view)
if not view.present:
    st.markdown(
        "A model that writes text one token at a time must not look at tokens that come "
        "later. So token i may attend only to tokens 1…i: every weight above the diagonal must "
        "be exactly 0, and each row must still sum to 1. There are right and wrong ways to get "
        "there; the seeds show both."
    )

st.subheader("Four strategies on the same scores")
columns = [*st.columns(2), *st.columns(2)]  # a 2 x 2 grid
for column, (strategy, trace) in zip(columns, strategies.items(), strict=True):
    verdict = judge_mask(trace)
    with column:
        views.show_heatmap(
            trace.weights[0],
            labels,
            labels,
            kind="weights",
            title=SHORT_TITLES[strategy],
            key=f"hm_{strategy}",
            present=view.present,
            max_width=300,
        )
        if verdict.leaked < 1e-7 and verdict.worst_row_sum_error < 1e-5:
            st.success("correct: no future weight, rows sum to 1", icon=":material/check_circle:")
        elif verdict.leaked >= 1e-7:
            st.error(
                f"wrong: a future token gets weight {verdict.leaked:.3f}", icon=":material/cancel:"
            )
        else:
            st.error(
                f"wrong: a row sums to 1 ± {verdict.worst_row_sum_error:.3f}",
                icon=":material/cancel:",
            )
same = max_difference(strategies["neg_inf"].weights, strategies["zero_renorm"].weights)
st.caption(
    f"−∞ before softmax and zero-then-renormalise give the same weights "
    f"(max |Δ| = {same:.1e}): softmax over the allowed keys is the renormalised softmax."
)


@st.fragment
def inspect_block() -> None:
    """One strategy in detail; its selector reruns only this block."""
    pick = st.selectbox(
        "Inspect one strategy",
        list(controls.STRATEGY_LABELS),
        key="inspect_strategy",
        format_func=controls.STRATEGY_LABELS.get,
    )
    chosen = strategies[pick]
    verdict = judge_mask(chosen)
    metric_columns = st.columns(3)
    metric_columns[0].metric("largest weight above the diagonal", f"{verdict.leaked:.4f}")
    metric_columns[1].metric("worst row sum error", f"{verdict.worst_row_sum_error:.4f}")
    metric_columns[2].metric("negative weights", "yes" if verdict.negative else "no")
    views.show_heatmap(
        chosen.masked_scores[0],
        labels,
        labels,
        kind="scores",
        title="scores as this strategy feeds them to the normalisation",
        key="hm_inspect_scores",
        present=view.present,
        masked=chosen.blocked if pick == "neg_inf" else None,
    )
    if pick == "zero_scores" and not view.present:
        st.markdown(
            "Multiplying the scores by the 0/1 mask turns hidden scores into **0**, not −∞, and "
            "e⁰ = 1: the future still gets weight. With normalisation by the row sum, as in "
            "seed 002, rows can even contain negative weights (try *More settings → normalise → "
            "divide by row sum* in the sidebar)."
        )


inspect_block()

st.subheader("No peeking")


@st.fragment
def no_peeking_block() -> None:
    """Change a later token; only this block reruns."""
    later = st.selectbox(
        "Change the embedding of token",
        list(range(1, len(labels))),
        index=len(labels) - 2,
        key="peek_token",
        format_func=lambda i: f"{i + 1}: {labels[i]}",
    )
    amount = st.slider("by adding to each of its values", -2.0, 2.0, 0.5, 0.1, key="peek_amount")
    shifted = with_token_shifted(view.embeddings, later, amount)
    moves = {}
    for name, config in (
        ("with the causal mask", causal),
        ("without a mask", causal.replace(mask="none")),
    ):
        moves[name] = output_shift(
            run_attention(view.embeddings, config), run_attention(shifted, config)
        ).tolist()
    st.dataframe(
        pd.DataFrame(
            {
                "token": labels,
                **{f"output moved, {k}": [round(v, 4) for v in m] for k, m in moves.items()},
            }
        ),
        hide_index=True,
    )
    st.caption(
        f"With the mask, only tokens from “{labels[later]}” on can move; every earlier "
        "output stays exactly the same. Without it, every token sees the change."
    )


no_peeking_block()

st.subheader("Padding, and a mask of your own")
pad_col, custom_col = st.columns(2)
with pad_col:
    count = st.slider("padding tokens at the end", 0, len(labels), 1, key="lesson_padding")
    padded = components.compute_with(
        view, view.config.replace(mask="padding", padding=count, dropout=0.0)
    )
    views.show_heatmap(
        padded.weights[0],
        labels,
        labels,
        kind="weights",
        title="padding mask: no one attends to padding",
        key="hm_padding",
        present=view.present,
        max_width=300,
    )
with custom_col:
    default = pd.DataFrame(padded.allowed.tolist(), columns=labels).astype(bool)
    default.iloc[0] = False  # start with one row that may attend to nothing
    grid = st.data_editor(default, key="custom_mask", hide_index=True)
    allowed = tuple(tuple(bool(v) for v in row) for row in grid.itertuples(index=False))
    try:
        mine = run_attention(
            view.embeddings, view.config.replace(mask="custom", custom_mask=allowed, dropout=0.0)
        )
        views.show_heatmap(
            mine.weights[0],
            labels,
            labels,
            kind="weights",
            title="your mask (ticked = may attend)",
            key="hm_custom",
            present=view.present,
            max_width=300,
        )
        empty = mine.diagnostics.fully_masked_rows
        if empty:
            st.info(
                f"{', '.join(labels[i] for i in empty)}: nothing to attend to, so the "
                "weights and the context vector are all zero. A plain softmax would give "
                "NaN here: every score is −∞, e^−∞ = 0, and 0/0 is not a number."
            )
    except AttentionInputError as error:
        st.error(f"{error}.")
lesson.predict(
    "With the causal mask, which token's context vector is simply its own value vector?",
    "The first one: it may attend only to itself, so its single weight is 1 and its context "
    "vector equals its value vector v⁽¹⁾.",
    key="causal_first",
)
components.finish()
