"""Trainable weights: W_query, W_key, W_value turn each token into a query, a key and a value."""

import streamlit as st

from attention_core.book import book_parity
from translation import _
from ui.blocks import check_yourself, focus_panel, formula_view, heatmaps, page_frame, sentences
from ui.blocks.typed_weights import typed_weights
from ui.session import controls, run_order
from ui.specs import formulas, tables

page = run_order.setup(__file__)
page_frame.show_header(
    page,
    _("3 · Trainable weights: queries, keys and values"),
    _(
        "Real attention does not compare raw embeddings. Three matrices, learned in training, "
        "project every embedding x into a **query** q = x·W_query (what this token looks for), a "
        "**key** k = x·W_key (what it offers to be found by) and a **value** v = x·W_value (what "
        "it passes on). Scores compare queries with keys; context vectors mix values."
    ),
    announce=False,  # stated below, from the matrices the page uses
)
source = controls.widget("weights_from", page.settings)
trace = page.trace
if source == "typed":
    typed = typed_weights(page, page.trace)
    trace = page.run(
        init="custom", custom_weights=typed, heads=1, heads_layout="split", kv_groups=0
    )
    st.caption(_("With typed matrices the page shows one head; d_out is the grids' width."))
else:
    st.header(_("The three matrices"))
    heatmaps.show_side_by_side(
        page,
        [
            (
                heatmaps.vectors_heatmap(
                    page,
                    getattr(trace, name),
                    "c",
                    name,
                    _("{name}: {inputs} input numbers × {outputs} output numbers.").format(
                        name=name,
                        inputs=trace.inputs.shape[1],
                        outputs=getattr(trace, name).shape[1],
                    ),
                    row_names=[f"d{i + 1}" for i in range(trace.inputs.shape[1])],
                ),
                f"hm_{name}",
            )
            for name in ("W_query", "W_key", "W_value")
        ],
    )

check_yourself.exercises_on(page, trace)  # no chart prints an answer it asks
st.header(_("What they make: queries, keys and values"))
focus_panel.show_qkv(page, trace)

query = page.query
st.header(_("For one query: token {query}").format(query=query + 1))
head = focus_panel.head_choice(page) if trace.num_heads > 1 else 0  # typed weights: one head
for key in range(trace.num_tokens):
    formula_view.show(
        lambda width, key=key: formulas.score_latex(page, trace, query, key, head, width),
        f"score_{key}",
    )
focus_panel.show_focus(page, trace, head)
sentences.announce(page, trace, head)

st.header(_("For every token at once"))
if page_frame.giveaway(page, "weights_symmetry", _("The scores and weights of every token")):
    heatmaps.show_side_by_side(
        page,
        [
            (heatmaps.scores_heatmap(page, trace, head), "hm_tw_scores"),
            (heatmaps.weights_heatmap(page, trace, head), "hm_tw_weights"),
        ],
    )
page_frame.predict(
    page,
    _("With trainable weights, is the score of token A against token B the same as B against A?"),
    _(
        "Not in general: ω_AB = q_A·k_B uses A's query and B's key, while ω_BA = q_B·k_A uses the "
        "other pair. Without weights (page 2) queries and keys are the same vectors, so the score "
        "matrix is symmetric. Compare the score heatmap here with page 2."
    ),
    key="weights_symmetry",
    choices=(_("Yes, always"), _("Not in general")),
    correct=1,
)

st.header(_("Book parity"))
if not page.present:
    st.markdown(
        _(
            "With the book's own initialisations (“Your journey starts with one step”, "
            "`torch.rand` with seed 123, and `nn.Linear` with seed 789) this core reproduces "
            "every tensor the book prints, to its four decimals:"
        )
    )
parity = page.call(book_parity) or []
st.markdown(
    tables.markdown_table(
        [
            _("setting"),
            _("the book prints"),
            _("ours"),
            _("largest difference"),
            _("match"),
        ],
        [
            [
                row.setting,
                row.book_name,
                row.trace_field,
                heatmaps.difference(row.max_diff),
                "✓" if row.matches else "✗",
            ]
            for row in parity
        ],
        labelled_rows=False,
    )
)
check_yourself.show_check_yourself(page, trace)
page_frame.finish(page)
