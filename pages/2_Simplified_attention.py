"""Simplified attention: scores as dot products, three ways to normalise, and the context vector."""

import streamlit as st

from attention_core.lessons import compare_normalisations, loop_attention
from translation import N_, _
from ui import safe
from ui.blocks import check_yourself, formula_view, heatmaps, page_frame
from ui.session import controls, run_order
from ui.specs import formulas, tables

NORM_NAMES = {
    "sum": N_("divide by the sum"),
    "naive_softmax": N_("softmax written naively"),
    "softmax": N_("softmax (stable)"),
}

page = run_order.setup(__file__)
simple = page.run(
    init="identity",
    scoring="dot",
    scaling="none",
    norm="softmax",
    mask="none",
    dropout=0.0,
    heads=1,
    heads_layout="split",
    out_proj="none",
    qkv_bias=False,
    kv_groups=0,
    window=0,
    rope=False,  # today's variants change queries and keys: not the simplest attention
)
check_yourself.exercises_on(page, simple)  # no chart prints an answer it asks

labels = page.labels
query = page.query
focus = safe.md(labels[query], 24)
page_frame.show_header(
    page,
    _("2 · Simplified attention: no trainable weights"),
    _(
        "The simplest attention uses the embeddings themselves as queries, keys and "
        "values. To build a new, context-aware vector for {focus}, score every token by "
        "its dot product with {focus}, turn the scores into weights that sum to 1, and "
        "add up the embeddings with those weights. (Choose the focused token in the "
        "sidebar.)"
    ).format(focus=focus),
    result=simple,
)

st.header(_("1. Scores: each token against token {query}").format(query=query + 1))
for key in range(simple.num_tokens):
    formula_view.show(
        lambda width, key=key: formulas.score_latex(page, simple, query, key, width=width),
        f"score_{key}",
    )

st.header(_("2. Three ways to turn scores into weights"))
scale = controls.widget("input_scale", page.settings)
rows = page.call(compare_normalisations, page.embeddings, query, scale) or []
columns = st.columns(3)
for column, row in zip(columns, rows, strict=True):
    with column:
        st.markdown(f"**{_(NORM_NAMES[row.norm])}**")
        table_rows = [[label, page.number(w)] for label, w in zip(labels, row.weights, strict=True)]
        st.markdown(tables.markdown_table([_("key"), _("weight")], table_rows))
        if row.finite:
            st.caption(_("sum = {total}").format(total=page.number(row.total)))
        else:
            st.warning(
                _("Overflow: e^score is larger than float32 can hold (∞), and ∞/∞ is undefined."),
                icon=":material/warning:",
            )
if scale != 1:
    st.caption(
        _(
            "Only these three tables multiply the embeddings by {scale:g}; sections 1, 3 and "
            "4 use them as they are."
        ).format(scale=scale)
    )
if not page.present and page_frame.giveaway(
    page, "simplified_shift", _("What each way of turning scores into weights does")
):
    st.markdown(
        _(
            "Dividing by the sum works only while every score is positive; negative scores give "
            "negative “weights”. Softmax, eˢ / Σ eˢ, is always positive and favours the largest "
            "scores. Written naively, eˢ overflows once a score passes about 88 in float32; the "
            "stable version subtracts the row's largest score first, which changes nothing "
            "mathematically. Push the slider up to see the difference."
        )
    )

page_frame.predict(
    page,
    _(
        "If you add 5 to every score in a row, what happens to the softmax weights? And to the "
        "weights divided by the sum?"
    ),
    _(
        "Softmax weights do not change at all: e^(s+5) = e⁵·eˢ and the common factor cancels. That "
        "is exactly why the stable softmax may subtract the maximum. Weights divided by the sum do "
        "change, because (s+5)/Σ(s+5) is not s/Σs."
    ),
    key="simplified_shift",
    choices=(
        _("Both change"),
        _("Softmax stays; divided by the sum changes"),
        _("Both stay the same"),
        _("Softmax changes; divided by the sum stays"),
    ),
    correct=1,
)

st.header(_("3. The context vector of token {query}").format(query=query + 1))
st.latex(formulas.context_latex(page, simple))

st.header(_("4. All tokens at once"))
if not page.present:
    st.markdown(
        _(
            "Two loops (every query against every key) compute the same numbers as one matrix "
            "product, X Xᵀ, which is what real code uses. Both are computed here on your matrix:"
        )
    )
heatmaps.show_side_by_side(
    page,
    [
        (heatmaps.weights_heatmap(page, simple), "hm_simple_weights"),
        (
            heatmaps.vectors_heatmap(
                page,
                simple.output,
                "z",
                _("context vectors"),
                _("Context vectors: {num_tokens} tokens × {shape} numbers.").format(
                    num_tokens=simple.num_tokens, shape=simple.output.shape[1]
                ),
            ),
            "hm_simple_context",
        ),
    ],
)
loops = page.call(loop_attention, page.embeddings)
if loops is not None:
    st.success(
        _("The loops and the matrix product agree: largest difference {difference}.").format(
            difference=heatmaps.difference(loops[2])
        ),
        icon=":material/check_circle:",
    )
check_yourself.show_check_yourself(page, simple)
page_frame.finish(page)
