"""Causal mask: four ways to hide the future, the right two and the wrong two, and no peeking."""

import zlib

import pandas as pd
import streamlit as st

from attention_core.formatting import counted, format_number
from attention_core.knobs.table import MASK_STRATEGIES, PARAMS
from attention_core.lessons import max_difference, no_peeking
from attention_core.masks import judge_mask
from attention_core.reference import MATCH_TOLERANCE
from translation import N_, _
from ui import safe
from ui.blocks import check_yourself, heatmaps, page_frame
from ui.session import controls, kept_widgets, run_order, state
from ui.specs import heatmap_chart, tables

# How the sidebar's "Scores → weights" is named in the strategies' titles: the seeds mask around a
# softmax, but the page masks around whichever normalisation the learner picked.
NORM_WORDS = {
    "softmax": "softmax",
    "naive_softmax": N_("naive softmax"),
    "sum": N_("row sum"),
    "none": N_("no normalisation"),
}


def short_titles(norm: str) -> dict[str, str]:
    """The four strategies' chart titles, naming the normalisation in use."""
    word = _(NORM_WORDS[norm])
    return {
        "neg_inf": _("−∞, then {word}").format(word=word),
        "zero_renorm": _("{word}, zero, renormalise").format(word=word),
        "zero_scores": _("scores × mask (pitfall)"),
        "zero_no_renorm": _("{word}, zero (pitfall)").format(word=word),
    }


def row_sum_text(total: float, decimals: int) -> str:
    """A wrong row sum as printed, with more decimals where the page's would print 1."""
    for places in range(decimals, 10):
        text = format_number(total, places)
        if text != format_number(1.0, places):
            return text
    return text


page = run_order.setup(__file__)
titles = short_titles(page.config.norm)
labels = page.labels
causal = {s: page.run(mask="causal", mask_strategy=s, dropout=0.0) for s in MASK_STRATEGIES}
check_yourself.exercises_on(page, causal["neg_inf"])  # no chart prints an answer it asks
page_frame.show_header(
    page,
    _("5 · Causal mask: hiding the future"),
    _(
        "A model that writes text one token at a time must not look at tokens that come later. "
        "So token i may attend only to tokens 1…i: every weight above the diagonal must be "
        "exactly 0, and each row must still sum to 1. There are right and wrong ways to get "
        "there, and notebooks that reimplement the book's code show both."
    ),
    result=causal["neg_inf"],
)

st.header(_("Four strategies on the same scores"))
holders = heatmaps.show_side_by_side(
    page,
    [
        (heatmaps.weights_heatmap(page, trace, title=titles[strategy]), f"hm_{strategy}")
        for strategy, trace in causal.items()
    ],
    per_row=2,
)
for holder, trace in zip(holders, causal.values(), strict=True):
    verdict = judge_mask(trace)
    with holder:
        if verdict.fault == "undefined":
            st.error(_("wrong: undefined weights (0/0 in a row)"), icon=":material/cancel:")
        elif verdict.fault is None:
            st.success(
                _("correct: no future weight, rows sum to 1"), icon=":material/check_circle:"
            )
        elif verdict.fault == "leak":
            st.error(
                _("wrong: a future token gets weight {nonzero}").format(
                    nonzero=heatmaps.nonzero(page, verdict.leaked)
                ),
                icon=":material/cancel:",
            )
        elif verdict.fault == "row_sum":
            st.error(
                _("wrong: a row sums to {row_sum_text} instead of 1").format(
                    row_sum_text=row_sum_text(verdict.worst_row_sum, page.decimals)
                ),
                icon=":material/cancel:",
            )
        else:  # rows sum to 1 only because negative weights cancel positive ones
            st.error(_("wrong: negative weights"), icon=":material/cancel:")
same = max_difference(causal["neg_inf"].weights, causal["zero_renorm"].weights)
if same <= MATCH_TOLERANCE:
    st.caption(
        _(
            "−∞ before the {norm} and zero-then-renormalise give the same weights "
            "(largest difference {difference}): {reason}"
        ).format(
            norm=_(NORM_WORDS[page.config.norm]),
            difference=heatmaps.difference(same),
            reason=_(
                "dividing by the sum over the allowed keys is dividing by the whole row's sum, "
                "then renormalising."
            )
            if page.config.norm == "sum"
            else _("a softmax over the allowed keys is the renormalised softmax."),
        )
    )
else:  # only without a normalisation ("Scores → weights: none")
    st.caption(
        _(
            "Here the two correct strategies differ (largest difference {difference}): "
            "“{label}” is “{choice_label}”, so nothing makes a row sum to 1 and "
            "renormalising changes the weights. With softmax or the row sum they agree."
        ).format(
            difference=heatmaps.difference(same),
            label=_(PARAMS["norm"].label),
            choice_label=PARAMS["norm"].choice_label(page.config.norm),
        )
    )

pick = controls.widget("inspect", page.settings)
chosen = causal[pick]
verdict = judge_mask(chosen)
metrics = st.columns(3)
metrics[0].metric(
    _("largest future weight"),  # fits its third of the page in presentation mode
    heatmaps.nonzero(page, verdict.leaked),
    help=_("The largest weight above the diagonal: a query's weight on a token after it."),
)
worst = verdict.worst_row_sum_error  # float32's own error shows as 0 when the rows are right
shown = heatmaps.nonzero(page, worst) if verdict.fault == "row_sum" else page.number(worst)
metrics[1].metric(_("worst row-sum error"), shown)
metrics[2].metric(_("negative weights"), _("yes") if verdict.negative else _("no"))
inspected = heatmaps.scores_heatmap(page, chosen)
heatmaps.show_heatmap(
    page,
    heatmap_chart.Heatmap(
        inspected.values,
        inspected.rows,
        inspected.columns,
        kind="scores",
        title=_("the scores this strategy hands to the normalisation"),
        description=_("Scores after this strategy's masking step, before the normalisation."),
        masked=inspected.masked,
    ),
    "hm_inspect_scores",
)
if pick == "zero_scores" and not page.present:
    st.markdown(
        _(
            "Multiplying the scores by the 0/1 mask turns hidden scores into **0**, not −∞, and "
            "e⁰ = 1: after softmax the future still gets weight. Some notebooks divide by the "
            "row sum instead: a hidden 0 then weighs 0, but negative scores give negative weights "
            "and a row whose scores nearly cancel explodes (one of them prints −12.66). Try it in "
            "the sidebar: *More settings*, “Scores → weights”, “divide by the row sum”, with the "
            "random normal example (“I live in Montreal”), whose scores have both signs: every "
            "strategy then gives negative weights, since the row sum itself is a mistake "
            "(see Common mistakes)."
        )
    )

st.header(_("No peeking"))
left, right = st.columns(2)
with left:
    later = controls.widget("peek_token", page.settings)
with right:
    amount = controls.widget("peek_amount", page.settings)
peek = page.call(no_peeking, page.embeddings, page.config, later - 1, amount)
if peek is not None:
    st.markdown(
        tables.markdown_table(
            [_("token"), _("output moved, causal mask"), _("output moved, no mask")],
            [
                [label, page.number(a), page.number(b)]
                for label, a, b in zip(labels, peek.with_mask, peek.without_mask, strict=True)
            ],
        )
    )
    st.caption(
        _(
            "With the mask, only tokens from {token} on can move; every earlier output "
            "stays exactly the same. Without it, every token sees the change."
        ).format(token=safe.md(labels[later - 1], 24))
    )

st.header(_("Padding, and a mask of your own"))
pad_col, custom_col, half = heatmaps.halves(page, heatmaps.weights_heatmap(page, page.trace))
with pad_col:
    count = controls.widget("lesson_padding", page.settings)
    padded = page.run(mask="padding", padding=count, dropout=0.0)
    heatmaps.show_heatmap(
        page,
        heatmaps.weights_heatmap(page, padded, title=_("padding mask: no one attends to padding")),
        "hm_padding",
        max_width=half,
    )
with custom_col:
    size = len(labels)
    linked = page.settings["my_mask"]
    fits = bool(linked) and len(linked) == size and all(len(row) == size for row in linked)
    if linked and not fits:  # said, never dropped silently (a row deleted, a link's mask)
        st.info(
            _(
                "Your mask has {rows} and the sequence {tokens}: the grid starts again from "
                "{unset}."
            ).format(
                rows=counted(len(linked), "row"),
                tokens=counted(size, "token"),
                unset=_(PARAMS["my_mask"].unset),
            ),
            icon=":material/info:",
        )

    def start() -> pd.DataFrame:
        if fits:
            grid = [[bool(v) for v in row] for row in linked]
        else:
            grid = [[j <= i for j in range(size)] for i in range(size)]
            grid[0] = [False] * size  # one row that may attend to nothing
        queries = [f"q{i + 1} {safe.plain(label, 12)}" for i, label in enumerate(labels)]
        return pd.DataFrame(grid, index=queries, columns=[f"k{j + 1}" for j in range(size)])

    st.markdown(
        _(
            "Tick what each query (row q1, q2, …) may attend to (columns k1, k2, … are the keys, "
            "in the same order). The grid starts as the causal mask with row q1 left empty, so "
            "that q1 has nothing to attend to: see what that does below, then tick its k1."
        )
    )
    # A grid per sequence: its row names are the tokens, so other tokens get another grid.
    named = zlib.crc32("\x1f".join(labels).encode())
    ticked = kept_widgets.stable_grid(
        f"custom_mask_{size}_{named:08x}",
        start,
        column_config={"_index": st.column_config.TextColumn(_("query"), disabled=True)},
    )
    allowed = tuple(tuple(bool(v) for v in row) for row in ticked.itertuples(index=False))
    typed = tuple(tuple(1.0 if v else 0.0 for v in row) for row in allowed)
    default = tuple(
        tuple(1.0 if v else 0.0 for v in row) for row in start().itertuples(index=False)
    )
    state.record("my_mask", typed if typed != default or page.settings["my_mask"] else None)

    mine = page.run(mask="custom", custom_mask=allowed, dropout=0.0)
    heatmaps.show_heatmap(
        page,
        heatmaps.weights_heatmap(page, mine, title=_("your mask")),
        "hm_custom",
        max_width=half,
    )
    empty = mine.diagnostics.fully_masked_rows
    if empty:
        names = ", ".join(safe.md(labels[i], 20) for i in empty)
        st.info(
            _(
                "{names}: nothing to attend to, so the weights and the context vector are all "
                "zero. A plain softmax would give an undefined result here: every score is −∞, "
                "e^−∞ = 0, and 0/0 is not a number."
            ).format(names=names),
            icon=":material/info:",
        )
page_frame.predict(
    page,
    _("With the causal mask, which token's context vector is simply its own value vector?"),
    _(
        "The first one: it may attend only to itself, so its single weight is 1 and its context "
        "vector equals its value vector v⁽¹⁾."
    ),
    key="causal_first",
    choices=(_("The first token's"), _("The last token's"), _("Every token's"), _("No token's")),
    correct=0,
)
check_yourself.show_check_yourself(page, causal["neg_inf"])
page_frame.finish(page)
