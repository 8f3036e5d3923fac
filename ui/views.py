"""Views of one trace: heatmaps, queries/keys/values, the focused query and its formula."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st
import torch

from attention_core import AttentionTrace
from attention_core.embeddings import display_labels
from attention_core.explain import context_terms
from ui import charts


def labels_of(trace: AttentionTrace) -> list[str]:
    """Token labels made unique for charts."""
    return display_labels(trace.tokens)


def show_heatmap(
    matrix: torch.Tensor,
    rows: list[str],
    columns: list[str],
    *,
    kind: str,
    title: str,
    key: str,
    present: bool,
    masked: torch.Tensor | None = None,
    dropped: torch.Tensor | None = None,
    decimals: int = 2,
    max_width: int = 300,
    max_cell: int | None = None,
) -> None:
    """One heatmap, drawn with a stable key."""
    chart = charts.make_heatmap(
        matrix.tolist(),
        rows,
        columns,
        kind=kind,
        title=title,
        present=present,
        masked=None if masked is None else masked.tolist(),
        dropped=None if dropped is None else dropped.tolist(),
        decimals=decimals,
        max_width=max_width,
        max_cell=max_cell,
    )
    st.vega_lite_chart(spec=chart, key=key, width="content")


def head_choice(trace: AttentionTrace, key: str) -> int:
    """Which head to show (0-based); no widget for a single head."""
    if trace.num_heads == 1:
        return 0
    return (
        st.radio(
            "head",
            list(range(trace.num_heads)),
            horizontal=True,
            key=key,
            format_func=lambda h: f"head {h + 1}",
        )
        or 0
    )


def show_qkv(trace: AttentionTrace, present: bool) -> None:
    """Queries, keys and values side by side."""
    labels = labels_of(trace)
    columns = st.columns(3)
    for column, name in zip(columns, ("queries", "keys", "values"), strict=True):
        matrix = getattr(trace, name)
        with column:
            show_heatmap(
                matrix,
                labels,
                [f"{name[0]}{c + 1}" for c in range(matrix.shape[1])],
                kind="values",
                title=f"{name} = X · W_{name[:-1]}",
                key=f"hm_{name}",
                present=present,
                max_width=240,
            )


def show_heatmap_trio(trace: AttentionTrace, present: bool, head: int) -> None:
    """Scores (masked cells −∞), weights (dropped cells ✕) and context vectors."""
    labels = labels_of(trace)
    masked = trace.blocked if trace.config.mask_strategy == "neg_inf" else None
    dropped = trace.dropped[head] if trace.config.dropout_active else None
    divisor = {"none": "", "d": " ÷ d_k", "sqrt_d": " ÷ √d_k"}[trace.config.scaling]
    left, middle, right = st.columns([1.15, 1.15, 0.7])
    with left:
        show_heatmap(
            trace.masked_scores[head],
            labels,
            labels,
            kind="scores",
            title=f"scores q·k{divisor}",
            key="hm_scores",
            present=present,
            masked=masked,
        )
    with middle:
        show_heatmap(
            trace.weights_after_dropout[head],
            labels,
            labels,
            kind="weights",
            title="attention weights",
            key="hm_weights",
            present=present,
            dropped=dropped,
        )
    with right:
        output = trace.output
        show_heatmap(
            output,
            labels,
            [f"z{c + 1}" for c in range(output.shape[1])],
            kind="values",
            title="context vectors",
            key="hm_context",
            present=present,
            max_width=200,
            max_cell=charts.cell_size(labels, len(labels), present, 300),
        )


def show_focus(trace: AttentionTrace, query: int, present: bool, head: int = 0) -> None:
    """The focused query's weights as bars and its context vector as a formula with numbers."""
    labels = labels_of(trace)
    bars, formula = st.columns([1, 1.4])
    with bars:
        weights = trace.weights_after_dropout[head, query].tolist()
        st.vega_lite_chart(
            spec=charts.make_weight_bars(
                weights, labels, title=f"weights of query {labels[query]}", present=present
            ),
            key="focus_bars",
            width="content",
        )
    with formula:
        st.latex(context_latex(trace, query, head))
    st.dataframe(focus_table(trace, query, head), hide_index=True)


def context_latex(trace: AttentionTrace, query: int, head: int = 0) -> str:
    """z(i) = Σ_j w_ij v(j), written out with the trace's numbers."""
    terms = context_terms(trace, query, head)
    lines = [
        rf"{w:.4f} \cdot [{', '.join(f'{v:.4f}' for v in row)}]"
        for w, row in zip(terms.weights, terms.value_rows, strict=True)
    ]
    result = ", ".join(f"{v:.4f}" for v in terms.result)
    body = r" \\ &+ ".join(lines)
    suffix = f"_{{\\text{{head {head + 1}}}}}" if trace.num_heads > 1 else ""
    return (
        rf"\begin{{aligned}} z^{{({query + 1})}}{suffix} &= \sum_j \alpha_{{{query + 1}j}}"
        rf"\, v^{{(j)}} \\ &= {body} \\ &= [{result}] \end{{aligned}}"
    )


def focus_table(trace: AttentionTrace, query: int, head: int = 0) -> pd.DataFrame:
    """Every number of one query's row, from score to weight after dropout."""
    table = pd.DataFrame(
        {
            "key": labels_of(trace),
            "score q·k": trace.scores[head, query].tolist(),
            f"÷ {trace.scale_divisor:.4g}": trace.scaled_scores[head, query].tolist(),
            "may attend": trace.allowed[query].tolist(),
            "weight": trace.weights[head, query].tolist(),
        }
    )
    if trace.config.dropout_active:
        table["kept"] = trace.dropout_keep[head, query].tolist()
        table[f"after dropout (× {trace.dropout_factor:.3g})"] = trace.weights_after_dropout[
            head, query
        ].tolist()
    return table.round(4)


@dataclass(frozen=True)
class Panel:
    """One heatmap of a row: its title, widget key, matrix, and optionally dropped cells."""

    title: str
    key: str
    matrix: torch.Tensor
    dropped: torch.Tensor | None = None
    kind: str = "weights"
    decimals: int = 2


def show_side_by_side(
    panels: list[Panel], labels: list[str], present: bool, *, max_width: int = 260
) -> list:
    """Heatmaps in a row over the same tokens; returns their columns for captions."""
    columns = st.columns(len(panels))
    for column, panel in zip(columns, panels, strict=True):
        with column:
            show_heatmap(
                panel.matrix,
                labels,
                labels,
                kind=panel.kind,
                title=panel.title,
                key=panel.key,
                present=present,
                dropped=panel.dropped,
                max_width=max_width,
                decimals=panel.decimals,
            )
    return columns
