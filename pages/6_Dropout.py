"""Dropout: a random keep-mask over the weights, the 1/(1−p) rescaling, and why it averages out."""

from dataclasses import replace

import streamlit as st

from attention_core.experiments import dropout_average
from attention_core.formatting import counted
from attention_core.lessons import max_difference
from translation import _
from ui.blocks import check_yourself, heatmaps, page_frame
from ui.session import controls, run_order, state

page = run_order.setup(__file__)
chosen = page.config.dropout
p = chosen if chosen > 0 else 0.5
train = page.run(dropout=p, train=True)
evaluation = page.run(dropout=p, train=False)
check_yourself.exercises_on(page, train)  # no chart prints an answer it asks
page_frame.show_header(
    page,
    _("6 · Dropout on the attention weights"),
    _(
        "During training, dropout sets each attention weight to 0 with probability p = "
        "{p:g} and multiplies the survivors by 1/(1−p) = {dropout_factor}, so that each "
        "weight keeps its value *on average*. The sample is drawn from the dropout seed "
        "({seed}): the same seed always drops the same cells. In evaluation mode "
        "nothing is dropped. The sidebar's *training mode* switch chooses the mode of "
        "every other page; this one shows both, side by side."
    ).format(
        p=p,
        dropout_factor=page.number(train.dropout_factor),
        seed=page.settings["dropout_seed"],
    ),
)
# Projected, the notice and the button share a line: the two charts stay on a short
# projector's first screen.
notice, button = st.columns([5, 2], vertical_alignment="center") if page.present else (st, st)
if chosen == 0:
    notice.info(
        _(
            "The dropout rate in the sidebar is 0, so this page uses p = 0.5. Move the sidebar's "
            "slider to choose your own."
        ),
        icon=":material/info:",
    )
button.button(
    _("New dropout sample"),
    key="new_sample",
    help=_("The next dropout seed: another random choice of dropped weights."),
    on_click=state.set_value,
    args=("dropout_seed", (page.settings["dropout_seed"] + 1) % 2**32),
)
heatmaps.show_side_by_side(
    page,
    [
        (
            heatmaps.weights_heatmap(page, evaluation, title=_("before dropout (evaluation)")),
            "hm_eval",
        ),
        (
            heatmaps.weights_heatmap(
                page, train, title=_("training, p = {p:g} (✕ = dropped)").format(p=p)
            ),
            "hm_train",
        ),
    ],
)
unchanged = max_difference(evaluation.weights_after_dropout, evaluation.weights)
row_sums = train.diagnostics.row_sums_after_dropout[0].tolist()
st.caption(
    _(
        "Evaluation mode leaves the weights unchanged (largest difference {difference}). "
        "Row sums in training: {sums}."
    ).format(
        difference=heatmaps.difference(unchanged),
        sums=", ".join(page.number(v) for v in row_sums),
    )
)
if not page.present:
    extent = train.diagnostics.row_sum_range_after_dropout(0)  # a 0/0 row has no sum
    factor = page.number(train.dropout_factor)
    if extent:
        after = _(
            "After dropout the rows no longer sum to 1 (here from {low} to {high}): the dropped "
            "weights are gone and the kept ones are multiplied by {dropout_factor}. That is "
            "expected; it is noise for training only."
        ).format(low=page.number(extent[0]), high=page.number(extent[1]), dropout_factor=factor)
    else:
        after = _(
            "After dropout the rows no longer sum to 1: the dropped weights are gone and the "
            "kept ones are multiplied by {dropout_factor}. That is expected; it is noise for "
            "training only."
        ).format(dropout_factor=factor)
    st.markdown(after)

st.header(_("Averaging many samples"))
samples = controls.widget("samples", page.settings)
averaged = page.call(dropout_average, train.weights, p, samples, page.settings["dropout_seed"])
if averaged is not None and page_frame.giveaway(
    page, "dropout_expectation", _("The average of many samples")
):
    average, gap = averaged
    left, right, half = heatmaps.halves(page, heatmaps.weights_heatmap(page, train))
    with left:
        heatmap = replace(
            heatmaps.weights_heatmap(
                page,
                train,
                title=_("average of {samples}").format(samples=counted(samples, "sample")),
            ),
            values=heatmaps.matrix_values(average[0]),
            dropped=None,
            description=_("The average of {samples} of the weights.").format(
                samples=counted(samples, "dropout sample")
            ),
        )
        heatmaps.show_heatmap(
            page,
            heatmap,
            "hm_average",
            max_width=half,
        )
    with right:
        st.metric(_("largest |average − weights before dropout|"), page.number(gap))
        st.caption(
            _(
                "Because kept weights are scaled by 1/(1−p), the average converges to the "
                "undropped weights as the number of samples grows."
            )
        )

page_frame.predict(
    page,
    _("With p = {p:g}, what is the expected value of one weight w after dropout?").format(p=p),
    _(
        "(1−p)·w/(1−p) + p·0 = w. A weight survives with probability 1−p = {kept:g} and "
        "is then worth w/(1−p); otherwise it is 0. Notebooks that reimplement the book's code "
        "sometimes hard-code nn.Dropout(p=0.5) or nn.Dropout(0.3) inside the module, whatever "
        "rate is passed in: see the Common mistakes page."
    ).format(kept=1 - p),
    key="dropout_expectation",
    choices=("w", "(1−p)·w", "w/(1−p)", "0"),
    correct=0,
)
check_yourself.show_check_yourself(page, train)
page_frame.finish(page)
