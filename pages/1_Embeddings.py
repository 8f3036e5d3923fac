"""Embeddings: the tokens as arrows in 3D, and how alike each pair is by dot product and cosine."""

import streamlit as st

from attention_core.lessons import similarity
from translation import _
from ui import safe
from ui.blocks import check_yourself, heatmaps, page_frame
from ui.session import run_order
from ui.specs import embedding_3d, heatmap_chart

page = run_order.setup(__file__)
trace = page.trace
labels = page.labels
focus = labels[page.query]
page_frame.show_header(
    page,
    _("1 · Embeddings: tokens as vectors"),
    _(
        "Before attention can mix anything, each token becomes a list of numbers: its "
        "**embedding**. With three numbers per token you can draw every token as an arrow from "
        "the origin; tokens used in similar ways point in similar directions. Edit the matrix on "
        "the Playground and come back: the arrows follow."
    ),
)
pairs = page.call(similarity, page.embeddings)

matrix = heatmaps.vectors_heatmap(
    page,
    trace.inputs,
    "d",
    _("embeddings x"),
    _("The embedding matrix: {num_tokens} tokens × {shape} numbers.").format(
        num_tokens=trace.num_tokens, shape=trace.inputs.shape[1]
    ),
)
# The matrix beside the plot when it fits there with its numbers; else under it, full width.
beside = heatmaps.share(page, heatmaps.CONTENT_WIDTH * 2 // 5)
if heatmap_chart.fits(matrix, decimals=page.decimals, look=page.look, max_width=beside):
    left, right = st.columns([1.3, 1])
else:
    left, right = st.container(), st.container()
    beside = heatmaps.share(page, heatmaps.CONTENT_WIDTH)
with left:
    st.header(_("The embeddings in 3D"))
    figure = embedding_3d.make_embedding_3d(
        trace.inputs.tolist(),
        labels,
        context=trace.output[page.query].tolist(),
        context_label=_("context of {focus}").format(focus=focus),
        decimals=page.decimals,
        look=page.look,
    )
    st.plotly_chart(figure, key="embedding_3d", config={"displaylogo": False})
    if page.embeddings.d_in != 3:
        st.caption(
            _(
                "These embeddings have {d_in} numbers each; the plot shows the first three (a "
                "missing one is drawn as 0)."
            ).format(d_in=page.embeddings.d_in)
        )
    st.caption(
        _(
            "Dashed black: the context vector of {focus} with the sidebar's settings. Its "
            "axes are the d_out numbers of the values, so compare it with the tokens only "
            "when W_query, W_key and W_value are “none”."
        ).format(focus=safe.md(focus, 24))
    )
with right:
    st.header(_("The matrix"))
    heatmaps.show_heatmap(page, matrix, "hm_inputs", max_width=beside)

st.header(_("How alike are two tokens?"))
if not page.present and page_frame.giveaway(
    page, "embeddings_dot_vs_cos", _("What the dot product and the cosine measure")
):
    st.markdown(
        _(
            "The **dot product** x⁽ⁱ⁾·x⁽ʲ⁾ multiplies matching numbers and adds them up: it grows "
            "when two arrows point the same way *and* when they are long. The **cosine "
            "similarity** divides by both lengths, so it measures direction only: 1 is the same "
            "direction, 0 perpendicular, −1 opposite. Attention scores start from dot products; "
            "Nugues' chapter 15 also builds attention weights straight from cosines."
        )
    )
if pairs is not None:
    size = len(labels)
    heatmaps.show_side_by_side(
        page,
        [
            (
                heatmap_chart.Heatmap(
                    heatmaps.matrix_values(pairs.dot),
                    labels,
                    labels,
                    kind="scores",
                    title=_("dot products x·x"),
                    description=_("Dot products of every pair of the {size} tokens.").format(
                        size=size
                    ),
                ),
                "hm_dot",
            ),
            (
                heatmap_chart.Heatmap(
                    heatmaps.matrix_values(pairs.cosine),
                    labels,
                    labels,
                    kind="scores",
                    title=_("cosine similarity"),
                    bound=1.0,  # cosines lie in [−1, 1]
                    description=_("Cosine similarity of every pair of the {size} tokens.").format(
                        size=size
                    ),
                ),
                "hm_cos",
            ),
        ],
    )
    norms = pairs.norms.tolist()
    asked = check_yourself.answer_cells(page, [norms])  # a length an exercise asks: "?"
    lengths = ", ".join(
        f"{safe.md(label, 20)} {'?' if (0, k) in asked else page.number(n)}"
        for k, (label, n) in enumerate(zip(labels, norms, strict=True))
    )
    st.markdown(_("Lengths ‖x‖: {lengths}.").format(lengths=lengths))
    if asked:
        st.caption(_(heatmap_chart.MARKS["asked"]))

page_frame.predict(
    page,
    _(
        "Which token has the largest dot product with {focus}, and is it the token with "
        "the largest cosine?"
    ).format(focus=safe.md(focus, 24)),
    _(
        "Look at the focused token's row in both heatmaps. The dot product favours long vectors "
        "as well as aligned ones, so a long arrow can win the dot product while a shorter, "
        "better-aligned one wins the cosine. Every token's cosine with itself is exactly 1."
    ),
    key="embeddings_dot_vs_cos",
    choices=(_("Always the same token"), _("Not always: a long vector can win the dot product")),
    correct=1,
)
check_yourself.show_check_yourself(page, trace)
page_frame.finish(page)
