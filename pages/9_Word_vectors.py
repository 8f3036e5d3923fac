"""Real word vectors: GloVe, Nugues' attention on "ship", checked against his printed numbers."""

import streamlit as st

from attention_core.embeddings import display_labels
from translation import _
from ui import safe
from ui.blocks import check_yourself, heatmaps, page_frame, sentences
from ui.session import cached, controls, kept_widgets, run_order
from ui.specs import heatmap_chart, tables

page = run_order.setup(__file__)
COSINE_ROWS = _(
    "Nugues' first attention uses the cosines themselves as weights: each lies between −1 and "
    "1, and no softmax makes a row sum to 1 (its sum is the sum of its cosines). The softmax "
    "weights below are normalised, and they make the contextual vector."
)


def vector_table(vector: list[float]) -> str:
    """A 50-number vector as a table, ten numbers a row up to 3 decimals (2 in presentation
    mode's larger text), else five: ten negative numbers at 4 decimals already run past the
    column (measured in Chromium)."""
    per_row = 10 if page.decimals + page.present <= 3 else 5
    return tables.markdown_table(
        [_("numbers"), *(f"+{j}" for j in range(1, per_row + 1))],
        [
            [f"{i + 1}–{i + per_row}", *(page.number(v) for v in vector[i : i + per_row])]
            for i in range(0, len(vector), per_row)
        ],
        labelled_rows=False,
    )


page_frame.show_header(
    page,
    _("9 · Real word vectors"),
    _(
        "The toy matrices stand in for what training learns. Here every word is a real GloVe "
        "vector (50 numbers, trained on 6 billion words of Wikipedia and news). As in Nugues' "
        "chapter 15, attention needs no trainable weights yet: the weights are the words' cosine "
        "similarities, or softmax(X Xᵀ / √50), and each word's new **contextual** vector is the "
        "weighted sum of all the words' vectors. The same word, *ship*, gets a different vector "
        "in each sentence."
    ),
)
left, right = st.columns([3, 1])
with left:
    sentence = controls.widget("sentence", page.settings)
with right:
    word = controls.widget("word", page.settings)
with st.spinner(_(cached.GLOVE_SENTENCE_SPINNER)):
    glove = page.call(cached.glove_sentence, sentence)
if glove is not None:
    check_yourself.exercises_on(page, glove.softmax)  # no chart prints an answer it asks
    words = list(glove.words)
    labels = display_labels(words)
    if glove.unknown:
        st.info(
            safe.sentence(
                _("Not in GloVe's 400 000 words, so left out: {words}").format(
                    words=", ".join(safe.md(w, 30) for w in glove.unknown)
                )
            ),
            icon=":material/info:",
        )
    sentences.show_cut(glove.found, _("words found in GloVe"))
    focus = glove.focus_index(word)
    if word.strip().lower() not in words:
        st.info(
            safe.sentence(
                _(
                    "{word} is not among the known words of this sentence; focusing on {focus}"
                ).format(word=safe.md(word, 30), focus=safe.md(words[focus], 30))
            ),
            icon=":material/info:",
        )
    size = len(words)
    heading = _("The vector of {word}").format(word=safe.md(words[focus], 30))
    vector = glove.embeddings.values[focus].tolist()
    if not page.present:
        st.header(heading)
        st.markdown(vector_table(vector))
    cosine = heatmaps.matrix_values(glove.cosine.weights[0])
    heatmaps.show_heatmap(
        page,
        heatmap_chart.Heatmap(
            cosine,
            labels,
            labels,
            kind="scores",
            title=_("cosine similarity as weights"),
            description=_("Cosine similarity of the {size} words, each against each.").format(
                size=size
            ),
            legend=_("cosine similarity"),
            bound=1.0,  # a cosine lies between −1 and 1: the scale ends there
        ),
        "hm_glove_cos",
    )
    st.caption(COSINE_ROWS)
    if page.present:  # projected, the weights the teacher's line points at come first
        with st.expander(heading):
            st.markdown(vector_table(vector))
    heatmaps.show_heatmap(
        page,
        heatmap_chart.Heatmap(
            heatmaps.matrix_values(glove.softmax.weights[0]),
            labels,
            labels,
            kind="weights",
            title="softmax(X Xᵀ / √50)",
            description=_("Scaled softmax weights of the {size} words, each against each.").format(
                size=size
            ),
            scale=page.settings["weight_scale"],
        ),
        "hm_glove_soft",
    )
    st.header(_("The new contextual vector of {word}").format(word=safe.md(words[focus], 30)))
    context = glove.softmax.context[focus].tolist()
    st.markdown(vector_table(context))

with kept_widgets.section(_("Checked against the source"), "glove_checks") as checked:
    if checked.open:  # computed when opened: every tensor Nugues' chapter 15 prints
        st.markdown(
            _(
                "Every tensor Nugues' chapter 15 prints for the two “ship” sentences, recomputed "
                "here and compared to the precision it was printed with:"
            )
        )
        with st.spinner(_(cached.SEED001_SPINNER)):
            checks = page.call(cached.seed001) or []
        st.markdown(
            tables.markdown_table(
                [_("Nugues' chapter 15 prints"), _("ours"), _("largest difference"), _("match")],
                [
                    [
                        c.printed_as,
                        _(c.ours_as),
                        heatmaps.difference(c.max_diff),
                        "✓" if c.matches else "✗",
                    ]
                    for c in checks
                ],
                labelled_rows=False,
            )
        )
page_frame.predict(
    page,
    _("In which sentence does “ship” keep more of its own vector, and why?"),
    _(
        "In the Amazon sentence (weight 0.78 on itself, against 0.55 in the Odyssey sentence): "
        "there its neighbours (we, process, your, order) are far from it, so softmax gives them "
        "little weight; in the Odyssey sentence “crew” is close to “ship” and takes 0.13."
    ),
    key="glove_ship",
    choices=(_("The Amazon sentence"), _("The Odyssey sentence"), _("The same in both")),
    correct=0,
)
if glove is not None:
    check_yourself.show_check_yourself(page, glove.softmax)
page_frame.finish(page)
