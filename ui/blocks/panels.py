"""Panels below the results: diagnostics, the check against PyTorch, and the code export."""

from __future__ import annotations

import csv
import io

import streamlit as st

from attention_core import AttentionTrace
from attention_core.export import export_script
from attention_core.formatting import format_scientific
from attention_core.reference import check_against_torch
from translation import _
from ui import safe
from ui.session import kept_widgets
from ui.session.run_order import Page
from ui.specs import tables

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
# A spreadsheet runs a cell that starts with one of these as a formula (OWASP's CSV rule).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def show_diagnostics(page: Page, trace: AttentionTrace, head: int = 0) -> None:
    """Row sums, variance, entropy and largest weight per row, and the check against PyTorch."""
    diagnostics = trace.diagnostics
    check = check_against_torch(trace)
    if check.sdpa_max_diff is None:
        st.info(
            _(
                "Not compared with torch.nn.functional.scaled_dot_product_attention: {sdpa_reason}."
            ).format(sdpa_reason=check.sdpa_reason),
            icon=":material/info:",
        )
    elif check.sdpa_matches:
        st.success(
            _(
                "Matches torch.nn.functional.scaled_dot_product_attention (largest difference "
                "{difference})"
            ).format(difference=format_scientific(check.sdpa_max_diff)),
            icon=":material/check_circle:",
        )
    else:
        st.error(
            _("Differs from scaled_dot_product_attention: largest difference {difference}").format(
                difference=format_scientific(check.sdpa_max_diff)
            ),
            icon=":material/error:",
        )
    if diagnostics.fully_masked_rows:
        rows = ", ".join(safe.md(page.labels[i], 24) for i in diagnostics.fully_masked_rows)
        st.warning(
            _("Nothing to attend to for {rows}: their weights and context are zero.").format(
                rows=rows
            )
        )
    if diagnostics.nonfinite_weights:
        st.warning(
            _(
                "Some weights are undefined (0/0, or ∞/∞ after an overflow): the cells marked "
                "“undef.” come from the normalisation chosen under More settings."
            ),
            icon=":material/warning:",
        )
    number = page.number
    st.caption(
        _("Score variance: raw {score_variance}, scaled {scaled_score_variance}").format(
            score_variance=number(diagnostics.score_variance),
            scaled_score_variance=number(diagnostics.scaled_score_variance),
        )
    )
    header = [
        _("query"),
        _("row sum"),
        _("row sum after dropout"),
        _("largest weight"),
        _("entropy (nats)"),
    ]
    rows = [
        [
            label,
            number(diagnostics.row_sums[head, i]),
            number(diagnostics.row_sums_after_dropout[head, i]),
            number(diagnostics.max_weight[head, i]),
            number(diagnostics.entropy[head, i]),
        ]
        for i, label in enumerate(page.labels)
    ]
    st.markdown(tables.markdown_table(header, rows))


def show_code_export(page: Page, trace: AttentionTrace, folded: bool = True) -> None:
    """The PyTorch script that reproduces this view, and CSV downloads (built when opened)."""
    if folded:
        with kept_widgets.section(_("Reproduce in PyTorch"), "export_open") as panel:
            if panel.open:
                _code_export(trace)
    else:
        _code_export(trace)


def _code_export(trace: AttentionTrace) -> None:
    script = export_script(trace)
    st.code(script, language="python")
    st.download_button(
        _("Download attention.py"),
        script,
        file_name="attention.py",
        mime="text/x-python",
        key="download_script",
    )
    name = st.selectbox(
        _("Matrix as CSV"), CSV_MATRICES, format_func=lambda n: f"{n}.csv", key="csv_choice"
    )
    st.download_button(
        _("Download {name}.csv").format(name=name),
        matrix_csv(trace, name),
        file_name=f"{name}.csv",
        mime="text/csv",
        key="download_csv",
    )


def csv_cell(text: str) -> str:
    """A label as a spreadsheet must see it: text, never a formula (a leading quote)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def matrix_csv(trace: AttentionTrace, name: str) -> str:
    """One matrix of the trace as CSV (head 1 for per-head matrices), with token labels where
    rows are tokens. Numbers are written in full; −∞ and undefined cells are empty."""
    matrix = getattr(trace, name)
    if matrix.dim() == 3:
        matrix = matrix[0]
    with_labels = matrix.shape[0] == trace.num_tokens and not name.startswith("W_")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header = [f"c{j + 1}" for j in range(matrix.shape[1])]
    writer.writerow(["token", *header] if with_labels else header)
    for i, row in enumerate(matrix.tolist()):
        cells = [repr(float(v)) if v == v and abs(v) != float("inf") else "" for v in row]
        writer.writerow([csv_cell(trace.tokens[i]), *cells] if with_labels else cells)
    return buffer.getvalue()
