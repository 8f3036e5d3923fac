"""Numbers as real tables: Markdown tables a screen reader can walk, cheap to build and send.

Every label goes through ``ui.safe``; a pipe inside a cell is escaped as GitHub's tables ask.
"""

from __future__ import annotations

from collections.abc import Sequence

from translation import _
from ui import safe
from ui.specs import heatmap_chart


def _label(text: str) -> str:
    return safe.md(text, 40).replace("|", "\\|")


def _own(text: str) -> str:
    """The app's own text (numbers, words): only pipes need escaping inside a table."""
    return text.replace("|", "\\|")


def markdown_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    labelled_rows: bool = True,
    labelled_columns: bool = False,
    words: Sequence[int] = (),
) -> str:
    """A Markdown table whose first column names each row with a token label (escaped).

    The other cells and the header are the app's own text, except that with
    ``labelled_columns`` the header's columns are token labels too (escaped), and without
    ``labelled_rows`` the first column is the app's own text as well. The first column and the
    columns numbered in ``words`` (sentences, not numbers) are aligned left, the numbers right.
    """
    first = _label if labelled_rows else _own
    head = [_own(header[0]), *(_label(h) if labelled_columns else _own(h) for h in header[1:])]
    align = [":---" if i == 0 or i in words else "---:" for i in range(len(header))]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(align) + "|"]
    for row in rows:
        lines.append("| " + " | ".join([first(row[0]), *(_own(c) for c in row[1:])]) + " |")
    return "\n".join(lines)


def matrix_table(
    values: Sequence[Sequence[str]],
    rows: Sequence[str],
    columns: Sequence[str],
    corner: str,
    *,
    labelled_columns: bool = True,
) -> str:
    """A matrix of formatted numbers with its row labels and column names."""
    return markdown_table(
        [corner, *columns],
        [[r, *v] for r, v in zip(rows, values, strict=True)],
        labelled_columns=labelled_columns,
    )


def heatmap_table(heatmap: heatmap_chart.Heatmap, decimals: int) -> str:
    """A heatmap's numbers as a Markdown table, each cell printed as the chart prints it."""
    labelled = heatmap.kind in ("weights", "scores", "difference")
    return matrix_table(
        heatmap_chart.cell_texts(heatmap, decimals),
        heatmap.rows,
        heatmap.columns,
        _("query \\ key") if labelled else _("token"),
        labelled_columns=labelled,
    )
