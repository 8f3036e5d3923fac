"""Scaling: why scores are divided by √d_k, measured on your data and on random vectors."""

import streamlit as st

from translation import _
from ui.blocks import check_yourself, heatmaps, page_frame
from ui.session import cached, run_order
from ui.specs import bars_and_curves, tables

page = run_order.setup(__file__)
traces = {s: page.run(scaling=s, dropout=0.0) for s in ("none", "d", "sqrt_d")}
check_yourself.exercises_on(page, traces["sqrt_d"])  # no chart prints an answer it asks
d_k = traces["none"].head_dim
page_frame.show_header(
    page,
    _("4 · Scaling the scores"),
    _(
        "Before the softmax, the scores are divided by a number. Here d_k = {d_k}, the "
        "width of one head's keys. With no division, scores grow with d_k and the "
        "softmax saturates: one weight near 1, the others near 0, and tiny gradients. "
        "Dividing by d_k overcorrects and flattens every row towards uniform. Dividing "
        "by √d_k keeps the scores' spread about the same whatever d_k is."
    ).format(d_k=d_k),
    result=traces["sqrt_d"],
)

st.header(_("On your data"))
divisors = {s: t.scale_divisor for s, t in traces.items()}
titles = {
    "none": _("no scaling"),
    "d": f"÷ d_k = ÷ {page.number(divisors['d'])}",
    "sqrt_d": f"÷ √d_k = ÷ {page.number(divisors['sqrt_d'])}",
}
columns = heatmaps.show_side_by_side(
    page,
    [
        (heatmaps.weights_heatmap(page, t, title=titles[s]), f"hm_scale_{s}")
        for s, t in traces.items()
    ],
)
query = page.query
heads = traces["none"].num_heads
if heads > 1:  # the charts and numbers are one head's: say which
    st.caption(
        _(
            "Head 1 of {heads}: every head's scores are divided by the same number, and "
            "these charts and numbers are head 1's."
        ).format(heads=heads)
    )
for column, trace in zip(columns, traces.values(), strict=True):
    diagnostics = trace.diagnostics
    column.caption(
        _(
            "Token {query}: largest weight {max_weight}, entropy {entropy} nats. All the "
            "scores: variance {scaled_score_variance}."
        ).format(
            query=query + 1,
            max_weight=page.number(diagnostics.max_weight[0, query]),
            entropy=page.number(diagnostics.entropy[0, query]),
            scaled_score_variance=page.number(diagnostics.scaled_score_variance),
        )
    )

QUESTION = "scaling_variance"  # what follows states its answer: hidden while a class answers it
st.header(_("On random vectors, d from 1 to 1024"))
if not page.present and page_frame.giveaway(page, QUESTION, _("The variance of q·k against d")):
    st.markdown(
        _(
            "Queries and keys with independent entries of variance 1 (200 queries × 16 keys for "
            "each d, drawn from the sidebar's seed). The variance of q·k is about d: dividing by "
            "√d brings it back to about 1 for every d."
        )
    )
rows = page.call(cached.scaling_rows, page.settings["seed"]) or []
LINE_CHARTS = (  # (measure, axis title, chart title, log axis)
    ("variance", _("variance of scores"), _("score variance"), True),
    ("max_weight", _("mean largest weight"), _("largest softmax weight"), False),
    ("entropy", _("mean entropy (nats)"), _("softmax entropy"), False),
)
for column, (measure, axis, heading, log_y) in zip(st.columns(3), LINE_CHARTS, strict=True):
    with column:
        if measure == "variance" and not page_frame.giveaway(page, QUESTION, heading.capitalize()):
            continue
        spec = bars_and_curves.make_line_chart(
            rows,
            y=measure,
            y_title=axis,
            title=heading,
            description=_(
                "{heading} against the key dimension d, one line each for no scaling, ÷ d and ÷ √d."
            ).format(heading=heading.capitalize()),
            log_y=log_y,
            look=page.look,
        )
        st.vega_lite_chart(spec=heatmaps.vega_spec(spec), key=f"ch_{measure}", width="stretch")

st.header(_("Why √d and not d? Measured at d = 512"))
at = {r["scaling"]: r for r in rows if r["d"] == 512}
if at and page_frame.giveaway(page, QUESTION, _("The table measured at d = 512")):
    uniform = float(at["none"]["uniform_entropy"])
    effects = {
        "none": _("scores too large: the softmax saturates"),
        "d": _("scores too small: the softmax is nearly uniform"),
        "sqrt_d": _("scores keep a unit spread: the weights still discriminate"),
    }
    names = {"none": _("no scaling"), "d": _("divide by d"), "sqrt_d": _("divide by √d")}
    st.markdown(
        tables.markdown_table(
            [
                _("scale factor"),
                _("variance of scores"),
                _("mean largest weight (of 16)"),
                _("entropy (uniform = {uniform})").format(uniform=page.number(uniform)),
                _("effect"),
            ],
            [
                [
                    names[s],
                    page.number(at[s]["variance"]),
                    page.number(at[s]["max_weight"]),
                    page.number(at[s]["entropy"]),
                    effects[s],
                ]
                for s in ("none", "d", "sqrt_d")
            ],
            labelled_rows=False,
            words=[4],
        )
    )
page_frame.predict(
    page,
    _("If d_k doubles, by how much does the variance of an unscaled score q·k grow?"),
    _(
        "It doubles: q·k is a sum of d_k products, each with variance 1, so the variance is d_k. "
        "Dividing by √d_k divides the variance by d_k and brings it back to 1."
    ),
    key=QUESTION,
    choices=(_("It stays the same"), _("It doubles"), _("It grows by √2"), _("It quadruples")),
    correct=1,
)
check_yourself.show_check_yourself(page, traces["sqrt_d"])
page_frame.finish(page)
