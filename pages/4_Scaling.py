"""Scaling: why scores are divided by √d_k, measured on your data and on random vectors."""

import pandas as pd
import streamlit as st

from ui import charts, components, lesson, state, views

components.page_setup("Scaling", ":material/straighten:")
view = state.view()
traces = {
    s: components.compute_with(view, view.config.replace(scaling=s))
    for s in ("none", "d", "sqrt_d")
}
labels = views.labels_of(traces["none"])
query = view.query
d_k = traces["none"].head_dim

st.title("4 · Scaling the scores")
components.show_messages(view)
if not view.present:
    st.markdown(
        f"Before the softmax, the scores are divided by a number. Here d_k = {d_k} (the width "
        "of one head's keys). With no division, scores grow with d_k and the softmax "
        "saturates: one weight near 1, the rest near 0, and tiny gradients. Dividing by d_k "
        "overcorrects and flattens every row towards uniform. Dividing by √d_k keeps the "
        "scores' spread about the same whatever d_k is."
    )

st.subheader("On your data")
titles = {"none": "no scaling", "d": f"÷ d_k = ÷ {d_k}", "sqrt_d": f"÷ √d_k = ÷ {d_k**0.5:.3f}"}
columns = views.show_side_by_side(
    [views.Panel(titles[s], f"hm_scale_{s}", t.weights[0]) for s, t in traces.items()],
    labels,
    view.present,
)
for column, trace in zip(columns, traces.values(), strict=True):
    diagnostics = trace.diagnostics
    column.caption(
        f"row “{labels[query]}”: max weight {float(diagnostics.max_weight[0, query]):.3f}, "
        f"entropy {float(diagnostics.entropy[0, query]):.3f} nats; "
        f"score variance {diagnostics.scaled_score_variance:.3f}"
    )

st.subheader("On random vectors, d from 1 to 1024")
if not view.present:
    st.markdown(
        "Queries and keys with independent entries of variance 1 (200 queries × 16 keys for "
        "each d, drawn from the seed in the sidebar). The variance of q·k is about d: "
        "dividing by √d brings it back to about 1 for every d."
    )
rows = components.scaling_rows(view.config.seed)
LINE_CHARTS = (  # (measure, axis title, chart title, log axis)
    ("variance", "variance of scores", "score variance", True),
    ("max_weight", "mean max weight", "largest softmax weight", False),
    ("entropy", "mean entropy (nats)", "softmax entropy", False),
)
for column, (measure, axis, heading, log_y) in zip(st.columns(3), LINE_CHARTS, strict=True):
    with column:
        chart = charts.make_line_chart(
            rows, y=measure, y_title=axis, title=heading, log_y=log_y, present=view.present
        )
        st.altair_chart(chart, key=f"ch_{measure}")

st.subheader("Why √d and not d? Measured at d = 512")
at = {r["scaling"]: r for r in rows if r["d"] == 512}
uniform = at["none"]["uniform_entropy"]
effects = {
    "none": "scores too large: softmax saturates",
    "d": "scores too small: softmax nearly uniform",
    "sqrt_d": "scores keep unit spread: weights still discriminate",
}
table = pd.DataFrame(
    [
        {
            "scale factor": {"none": "no scaling", "d": "divide by d", "sqrt_d": "divide by √d"}[s],
            "variance of scores": round(float(at[s]["variance"]), 4),
            "mean max weight (of 16)": round(float(at[s]["max_weight"]), 4),
            "entropy / uniform": f"{float(at[s]['entropy']):.3f} / {uniform:.3f}",
            "effect": effects[s],
        }
        for s in ("none", "d", "sqrt_d")
    ]
)
st.dataframe(table, hide_index=True)
lesson.predict(
    "If d_k doubles, by how much does the variance of an unscaled score q·k grow?",
    "It doubles: q·k is a sum of d_k products, each with variance 1, so the variance is d_k. "
    "Dividing by √d_k divides the variance by d_k and brings it back to 1.",
    key="scaling_variance",
)
components.finish()
