"""Reusable blocks: page setup, matrix editor, heatmaps, focused query, diagnostics, export."""

from __future__ import annotations

import gc

import pandas as pd
import streamlit as st
import torch

from attention_core import AttentionConfig, AttentionInputError, AttentionTrace, run_attention
from attention_core.export import export_script
from attention_core.reference import check_against_torch
from ui import controls, editor, state
from ui.state import View
from ui.views import labels_of

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
