"""Real sentences: a pretrained encoder's embeddings, one word in two contexts, a real head."""

import streamlit as st

from attention_core import run_attention
from attention_core.embeddings import display_labels
from attention_core.lessons import similarity
from real_model import (
    HEAD_TOLERANCE,
    ModelLoadError,
    model_source,
)
from real_model.analysis import SIMPLIFIED
from real_model.seed001 import AMAZON, ODYSSEY
from translation import _
from ui import safe
from ui.blocks import check_yourself, heatmaps, page_frame, sentences, weights_view
from ui.session import cached, controls, run_order
from ui.specs import heatmap_chart, tables

SENTENCES = {"odyssey": ODYSSEY, "amazon": AMAZON}

page = run_order.setup(__file__)
page_frame.show_header(
    page,
    _("10 · Real sentences, a real model"),
    _(
        "A small pretrained encoder (all-MiniLM-L6-v2, 6 layers of 12 heads, 384 numbers per "
        "token) supplies real embeddings, and one of its real attention heads is recomputed by "
        "the same attention core as every other page."
    ),
)
source = model_source()
if not page.present:  # projected, the first screen is for the cosines
    st.caption(_("Model: {source}.").format(source=safe.md(source, 80)))
try:
    loaded = cached.encoder()
except ModelLoadError as error:
    loaded = None
    st.error(
        safe.sentence(
            _("The model cannot be loaded: {error}").format(error=safe.prose(error, 300))
        ),
        icon=":material/error:",
    )
    st.button(_("Retry"), key="retry_model", on_click=cached.retry_encoder)
    st.caption(_("The other pages do not need this model."))
if loaded is not None:
    # Projected, the choices name themselves: no label line above them (a short projector's
    # first screen is for the cosines).
    choice = controls.widget(
        "text", page.settings, label_visibility="collapsed" if page.present else "visible"
    )
    own = controls.widget("own", page.settings) if choice == "own" else None
    sentence = own or SENTENCES.get(choice, ODYSSEY)

    embeddings = page.call(cached.sentence_embeddings, sentence)
    if embeddings is not None:
        labels = display_labels(embeddings.tokens)
        if not page.present:  # projected, the chart's rows and columns show the split
            st.markdown(
                _("**Tokens, as the model splits them:** {tokens}").format(
                    tokens=" · ".join(safe.md(t, 30) for t in embeddings.tokens)
                )
            )
        sentences.show_cut(cached.sentence_length(sentence), _("tokens"))
        if not page.present:  # projected, the chart's title names the section
            st.header(_("Noncontextual embeddings"))
            st.markdown(
                _(
                    "Each token's row of the model's input embedding table ({d_in} numbers): the "
                    "same vector for a word wherever it appears. Their cosine similarities, and "
                    "plain scaled dot-product self-attention on them (no trainable weights, as "
                    "Nugues' chapter 15 does with GloVe vectors):"
                ).format(d_in=embeddings.d_in)
            )
        pairs = page.call(similarity, embeddings)
        simple = page.call(run_attention, embeddings, SIMPLIFIED)
        if simple is not None:  # no chart prints an answer its exercises ask
            check_yourself.exercises_on(page, simple)
        if pairs is not None and simple is not None:
            size = len(labels)
            heatmaps.show_heatmap(
                page,
                heatmap_chart.Heatmap(
                    heatmaps.matrix_values(pairs.cosine),
                    labels,
                    labels,
                    kind="scores",
                    title=(
                        _("Noncontextual embeddings: cosine similarity")
                        if page.present
                        else _("cosine similarity")
                    ),
                    bound=1.0,  # cosines lie in [−1, 1]
                    description=_("Cosine similarity of the {size} tokens' embeddings.").format(
                        size=size
                    ),
                ),
                "hm_real_cos",
            )
            heatmaps.show_heatmap(
                page,
                heatmap_chart.Heatmap(
                    heatmaps.matrix_values(simple.weights[0]),
                    labels,
                    labels,
                    kind="weights",
                    title="softmax(X Xᵀ / √d)",
                    description=_("Scaled softmax weights of the {size} tokens.").format(size=size),
                    scale=page.settings["weight_scale"],
                ),
                "hm_real_attn",
            )

        st.header(_("A real head, recomputed"))
        left, right = st.columns(2)
        with left:
            layer = controls.widget("layer", page.settings, count=loaded.num_layers)
        with right:
            head = controls.widget("model_head", page.settings, count=loaded.num_heads)
        result = page.call(cached.head, sentence, layer - 1, head - 1)
        as_lines = controls.widget("weights_view", page.settings) == "lines"
        if result is not None:
            shown = [
                (
                    result.trace.weights[0],
                    _("the attention core with the head's weights"),
                    "hm_ours",
                    _("The attention core with the head's weights: layer {layer}, head {head}."),
                )
            ]
            if as_lines:
                title = _("layer {layer}, head {head}, recomputed by the attention core").format(
                    layer=layer, head=head
                )
                chart = weights_view.lines_of(result.trace, labels, title)
                weights_view.show_lines(page, chart, "lines_ours", heatmaps.CONTENT_WIDTH)
                shown = []
            model = (
                result.model_weights,
                _("the model's own attention"),
                "hm_model",
                _("The model's own attention: layer {layer}, head {head}."),
            )
            # Reproduced, the model's own heatmap would repeat the core's cell for cell: it is
            # drawn beside lines, or when the two differ.
            for matrix, title, key, describe in (
                *shown,
                *([] if shown and result.matches else [model]),
            ):
                heatmaps.show_heatmap(
                    page,
                    heatmap_chart.Heatmap(
                        heatmaps.matrix_values(matrix),
                        labels,
                        labels,
                        kind="weights",
                        title=title,
                        description=describe.format(layer=layer, head=head),
                        scale=page.settings["weight_scale"],
                    ),
                    key,
                )
            if result.matches:
                st.success(
                    _(
                        "Reproduced: the model's own attention differs from the attention core's "
                        "by {difference} at most (✓ within {tolerance})."
                    ).format(
                        difference=heatmaps.difference(result.max_diff),
                        tolerance=heatmaps.difference(HEAD_TOLERANCE, 0),
                    ),
                    icon=":material/check_circle:",
                )
            else:
                st.error(
                    _("Not reproduced: largest difference {difference}").format(
                        difference=heatmaps.difference(result.max_diff)
                    ),
                    icon=":material/cancel:",
                )
        if not page.present:
            st.markdown(
                _(
                    "How: take this layer's input hidden states, append a 1 to each, and append "
                    "each projection's bias as an extra row of its weight matrix, so "
                    "x·W + b = [x, 1]·[W; b]. The core's typed weights then give exactly the "
                    "model's queries, keys and values; scores are divided by √d_k and softmaxed as "
                    "on every other page."
                )
            )

    st.header(_("One word, two contexts"))
    word = controls.widget("compare", page.settings)
    comparison = page.call(cached.word_in_two_sentences, ODYSSEY, AMAZON, word.lower())
    if comparison is not None and page_frame.giveaway(
        page, "real_ship", _("The two cosines of the word")
    ):
        first, second = st.columns(2)
        first.metric(
            _("cosine of its two contextual vectors"), page.number(comparison.contextual_cosine)
        )
        second.metric(
            _("cosine of its two noncontextual vectors"),
            page.number(comparison.noncontextual_cosine),
        )
        st.markdown(
            tables.markdown_table(
                [_("sentence"), _("attends most to (plain self-attention)")],
                [
                    [text, ", ".join(f"{t} ({page.number(w)})" for t, w in top)]
                    for text, top in ((ODYSSEY, comparison.top_a), (AMAZON, comparison.top_b))
                ],
                labelled_rows=False,
            )
        )
page_frame.predict(
    page,
    _(
        "Is “ship” closer to itself across the two sentences before or after the model adds "
        "context?"
    ),
    _(
        "Before: its noncontextual vectors are the same row of the embedding table (cosine 1). "
        "After the layers mix in the neighbouring words, the two contextual vectors differ, so "
        "their cosine drops below 1."
    ),
    key="real_ship",
    choices=(
        _("Before the model adds context"),
        _("After the model adds context"),
        _("The same before and after"),
    ),
    correct=0,
)
if loaded is not None and embeddings is not None and simple is not None:
    check_yourself.show_check_yourself(page, simple)
page_frame.finish(page)
