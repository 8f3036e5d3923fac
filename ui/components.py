"""Reusable blocks: page setup, matrix editor, heatmaps, focused query, diagnostics, export."""

from __future__ import annotations

import gc

import pandas as pd
import streamlit as st
import torch

from attention_core import AttentionConfig, AttentionInputError, AttentionTrace, run_attention
from attention_core.embeddings import display_labels
from attention_core.explain import context_terms
from attention_core.export import export_script
from attention_core.reference import check_against_torch
from ui import charts, controls, editor, state
from ui.state import View

# Everything imported so far (torch, pandas, altair, streamlit) lives as long as the process:
# move it out of the collector's generations so that collections stay cheap.
gc.freeze()

PRESENT_CSS = """
<style>
.stApp .stMarkdown p, .stApp .stMarkdown li, .stApp label p { font-size: 1.25rem; }
.stApp h1 { font-size: 2.4rem; } .stApp h2 { font-size: 1.9rem; } .stApp h3 { font-size: 1.5rem; }
.stApp [data-testid="stDataFrame"] { font-size: 1.1rem; }
.block-container { padding-top: 2.2rem; }
</style>
"""
COMPACT_CSS = "<style>.block-container { padding-top: 2.2rem; }</style>"


def page_setup(title: str, icon: str = ":material/hub:") -> None:
    """Configure the page, load shared state (also on a deep link), draw the shared sidebar."""
    st.set_page_config(page_title=f"{title} · Self-attention", page_icon=icon, layout="wide")
    torch.set_num_threads(1)  # tiny tensors: thread pools only add latency in a shared server
    state.init()
    controls.sidebar_controls()
    st.html(PRESENT_CSS if state.is_present() else COMPACT_CSS)


def finish() -> None:
    """Write the view into the URL and show, at the foot of the sidebar, the link to it."""
    state.sync_url()
    with st.sidebar:
        st.caption("Copy link to this view (same numbers on any machine):")
        st.code(state.share_link(), language=None, wrap_lines=True)


def show_messages(current: View) -> None:
    """Problems with the link and invalid setting combinations, named, above the results."""
    for message in state.take_messages():
        st.warning(message, icon=":material/link:")
    if current.config_error:
        st.error(
            f"{current.config_error}. Showing the last valid settings.", icon=":material/warning:"
        )


def compute(current: View) -> AttentionTrace:
    """Run the core on the view; if the inputs and config clash, say so and fall back."""
    try:
        trace = run_attention(current.embeddings, current.config)
        state.remember_good_config(current.config)
        return trace
    except AttentionInputError as error:
        st.error(f"{error}. Showing the last settings that worked.", icon=":material/warning:")
        return run_attention(current.embeddings, state.last_good_config())


def compute_with(current: View, config: AttentionConfig) -> AttentionTrace:
    """Run the core on the learner's matrix with a lesson's own config."""
    try:
        return run_attention(current.embeddings, config)
    except AttentionInputError as error:
        st.error(f"{error}.", icon=":material/warning:")
        st.stop()
        raise  # unreachable: st.stop() ends the run


def show_matrix_editor(present: bool) -> None:
    """The editable embedding matrix; a valid edit becomes current, a bad one is named."""
    tokens, rows = state.matrix()
    frame = editor.to_frame(tokens, rows)
    column_config = {editor.TOKEN_COLUMN: st.column_config.TextColumn("token", max_chars=20)}
    for name in frame.columns[1:]:
        column_config[name] = st.column_config.NumberColumn(
            name, min_value=-10.0, max_value=10.0, step=0.001
        )
    left, right = st.columns([5, 1])
    with left:
        edited = st.data_editor(
            frame,
            key=state.editor_key(),
            num_rows="dynamic",
            hide_index=True,
            column_config=column_config,
            width="content",
        )
    with right:
        if st.button("Reset", help="Back to the preset's matrix", key="reset_matrix"):
            state.reset_matrix()
            st.rerun()
    try:
        new_tokens, new_rows = editor.from_frame(edited, state.MAX_TOKENS)
    except AttentionInputError as error:
        st.error(
            f"Matrix: {error}. The results below still use the last valid matrix.",
            icon=":material/edit:",
        )
        return
    state.accept_matrix(new_tokens, new_rows)
    if len(set(new_tokens)) < len(new_tokens) and not present:
        st.info("Some labels repeat; the charts tell them apart by position (to·5, to·9).")


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
    masked = ~trace.allowed if trace.config.mask_strategy == "neg_inf" else None
    dropped = ~trace.dropout_keep[head] if trace.config.dropout_active else None
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


def show_diagnostics(trace: AttentionTrace, head: int = 0) -> None:
    """Row sums, variance, entropy and max weight per row, and the check against PyTorch."""
    diagnostics = trace.diagnostics
    check = check_against_torch(trace)
    if check.sdpa_max_diff is None:
        st.info(
            f"Not compared with torch.nn.functional.scaled_dot_product_attention: "
            f"{check.sdpa_reason}."
        )
    elif check.sdpa_matches:
        st.success(
            "Matches torch.nn.functional.scaled_dot_product_attention "
            f"(max |Δ| = {check.sdpa_max_diff:.1e})",
            icon=":material/check_circle:",
        )
    else:
        st.error(f"Differs from scaled_dot_product_attention: max |Δ| = {check.sdpa_max_diff:.2e}")
    if diagnostics.fully_masked_rows:
        rows = ", ".join(labels_of(trace)[i] for i in diagnostics.fully_masked_rows)
        st.warning(f"Nothing to attend to for: {rows}. Their weights and context are zero.")
    if diagnostics.nonfinite_weights:
        st.error("Some weights are not finite numbers (NaN or ∞): see the normalisation.")
    table = pd.DataFrame(
        {
            "query": labels_of(trace),
            "row sum": diagnostics.row_sums[head].tolist(),
            "row sum after dropout": diagnostics.row_sums_after_dropout[head].tolist(),
            "max weight": diagnostics.max_weight[head].tolist(),
            "entropy (nats)": diagnostics.entropy[head].tolist(),
        }
    ).round(4)
    st.caption(
        f"Score variance: raw {diagnostics.score_variance:.4f}, "
        f"scaled {diagnostics.scaled_score_variance:.4f}"
    )
    st.dataframe(table, hide_index=True)


CSV_MATRICES = (
    "inputs",
    "W_query",
    "W_key",
    "W_value",
    "queries",
    "keys",
    "values",
    "scores",
    "weights_after_dropout",
    "output",
)


def show_code_export(trace: AttentionTrace) -> None:
    """The PyTorch script that reproduces this view, and CSV downloads of every matrix."""
    with st.expander("Reproduce in PyTorch"):
        script = export_script(trace)
        st.code(script, language="python")
        st.download_button(
            "Download attention.py",
            script,
            file_name="attention.py",
            mime="text/x-python",
            key="download_script",
        )
        name = st.selectbox("Matrix as CSV", CSV_MATRICES, key="csv_choice")
        st.download_button(
            f"Download {name}.csv",
            matrix_csv(trace, name),
            file_name=f"{name}.csv",
            mime="text/csv",
            key="download_csv",
        )


def matrix_csv(trace: AttentionTrace, name: str) -> str:
    """One matrix of the trace as CSV, with token labels where rows are tokens."""
    matrix = getattr(trace, name)
    if matrix.dim() == 3:
        matrix = matrix[0]
    frame = pd.DataFrame(matrix.tolist())
    if matrix.shape[0] == trace.num_tokens and not name.startswith("W_"):
        frame.insert(0, "token", list(trace.tokens))
    return frame.to_csv(index=False)


@st.cache_data(max_entries=64, show_spinner=False)
def scaling_rows(seed: int) -> list[dict[str, float | int | str]]:
    """The core's scaling experiment, cached per seed (plain values in and out)."""
    from attention_core.experiments import scaling_experiment

    return scaling_experiment(seed=seed)


def show_side_by_side(
    panels: list[tuple[str, str, torch.Tensor, torch.Tensor | None]],
    labels: list[str],
    present: bool,
    *,
    kind: str = "weights",
    max_width: int = 260,
    decimals: int = 2,
) -> list:
    """Heatmaps in a row, one per (title, key, matrix, dropped); returns their columns."""
    columns = st.columns(len(panels))
    for column, (title, key, matrix, dropped) in zip(columns, panels, strict=True):
        with column:
            show_heatmap(
                matrix,
                labels,
                labels,
                kind=kind,
                title=title,
                key=key,
                present=present,
                dropped=dropped,
                max_width=max_width,
                decimals=decimals,
            )
    return columns
