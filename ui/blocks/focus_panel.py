"""The focused query: its result in words, its weights as bars, its context as a sum, every
number of its row, and the queries, keys and values it came from.
"""

from __future__ import annotations

import streamlit as st

from attention_core import AttentionTrace
from translation import N_, _
from ui import safe
from ui.blocks import sentences
from ui.blocks.heatmaps import show_side_by_side, vectors_heatmap, vega_spec
from ui.session import controls
from ui.session.run_order import Page
from ui.specs import bars_and_curves, formulas, tables

# The title and the text alternative of each heatmap of show_qkv ("queries" is a word).
QKV_TITLES = {
    "queries": N_("queries = X · W_query"),
    "keys": N_("keys = X · W_key"),
    "values": N_("values = X · W_value"),
}
QKV_DESCRIPTIONS = {
    "queries": N_("The queries: {tokens} tokens × {numbers} numbers."),
    "keys": N_("The keys: {tokens} tokens × {numbers} numbers."),
    "values": N_("The values: {tokens} tokens × {numbers} numbers."),
}


def head_choice(page: Page) -> int:
    """Which head to show (0-based); no widget for a single head."""
    if page.trace.num_heads == 1:
        return 0
    return int(controls.widget("head", page.settings)) - 1


def show_focus(page: Page, trace: AttentionTrace, head: int = 0, with_summary: bool = True) -> None:
    """The focused query: its result in words, its weights as bars, its context as a sum."""
    query = page.query
    labels = page.labels
    if with_summary:
        with st.container(key="result_summary"):
            st.markdown(sentences.summary(page, trace, head))

    bars, formula = st.columns([1, 1.3])
    with bars:
        weights = trace.weights_after_dropout[head, query].tolist()
        spec = bars_and_curves.make_weight_bars(
            weights,
            labels,
            title=_("weights of {labels}").format(labels=safe.plain(labels[query], 20)),
            description=_("Attention weights of query {query} over {count} keys.").format(
                query=query + 1, count=len(labels)
            ),
            decimals=page.decimals,
            look=page.look,
        )
        st.vega_lite_chart(spec=vega_spec(spec), key="focus_bars", width="stretch")
    with formula:
        st.latex(formulas.context_latex(page, trace, head, formulas.COLUMN_WIDTH))


def focus_rows(page: Page, trace: AttentionTrace, head: int = 0) -> str:
    """Every number of the focused query's row, from score to weight after dropout."""
    query = page.query
    header = [
        _("key"),
        _("score q·k"),
        f"÷ {page.number(trace.scale_divisor)}",
        _("may attend"),
        _("weight"),
    ]
    columns = [
        trace.scores[head, query].tolist(),
        trace.scaled_scores[head, query].tolist(),
        [_("yes") if v else _("no") for v in trace.allowed[query].tolist()],
        trace.weights[head, query].tolist(),
    ]
    if trace.config.dropout_active:
        header += [_("kept"), f"× {page.number(trace.dropout_factor)}"]
        columns += [
            [_("yes") if v else _("no") for v in trace.dropout_keep[head, query].tolist()],
            trace.weights_after_dropout[head, query].tolist(),
        ]
    rows = [
        [label, *(c[j] if isinstance(c[j], str) else page.number(c[j]) for c in columns)]
        for j, label in enumerate(page.labels)
    ]
    return tables.markdown_table(header, rows)


def show_qkv(page: Page, trace: AttentionTrace) -> None:
    """Queries, keys and values side by side."""
    heatmaps = []
    for name in ("queries", "keys", "values"):
        matrix = getattr(trace, name)
        heatmap = vectors_heatmap(
            page,
            matrix,
            name[0],
            _(QKV_TITLES[name]),
            _(QKV_DESCRIPTIONS[name]).format(tokens=matrix.shape[0], numbers=matrix.shape[1]),
        )
        heatmaps.append((heatmap, f"hm_{name}"))
    show_side_by_side(page, heatmaps)
