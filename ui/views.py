"""Blocks every page draws from one trace: header, heatmaps, the focused query, Q/K/V.

Each ``show_*`` draws one block with ``st`` calls; the numbers come from the trace (no tensor
arithmetic here) and every number goes through the page's one format.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import streamlit as st
import torch
from streamlit.delta_generator import DeltaGenerator

from attention_core import AttentionTrace
from attention_core.formatting import format_number
from attention_core.params import PARAMS
from ui import charts, controls, formulas, plots, safe, sections, sentences, state, tables
from ui.page import Page

SCALING_TEXT = {"none": "", "d": " ÷ d_k", "sqrt_d": " ÷ √d_k"}
CONTENT_WIDTH = 800  # the main column at 1280 × 720 with the sidebar open (pixels)


# The lessons cite the notebooks the app grew from as "seed 000" to "seed 004" (a review: a
# learner cannot know what they are).
SEEDS_NOTE = "“Seed 000” to “seed 004” name the five notebooks these lessons were written from."


def show_header(
    page: Page,
    title: str,
    intro: str = "",
    result: AttentionTrace | None = None,
    announce: bool = True,
) -> None:
    """Title, what the page takes from the sidebar, the run's notices, and the introduction.

    The hidden live region states the focused query's result in ``result``: the run the page
    shows (the sidebar's by default). A page that knows its run only later passes
    ``announce=False`` and calls :func:`sentences.announce` itself.
    """
    with show_title(page, title, intro):
        show_status(page, result, announce)


def show_title(page: Page, title: str, intro: str = "") -> DeltaGenerator:
    """Title, what the page takes from the sidebar and the introduction, with an empty slot
    (returned) between them for :func:`show_status`, which a page's views fragment fills."""
    st.title(title)
    uses = f"Uses {page.info.uses}."
    if page.info.ignores:
        uses += f" Ignores {page.info.ignores}."
    if title[:1].isdigit():  # a lesson: its text cites the notebooks by number
        uses += f" {SEEDS_NOTE}"
    st.caption(uses)
    slot = st.container()
    if intro and not page.present:
        st.markdown(intro)
    return slot


def show_status(page: Page, result: AttentionTrace | None = None, announce: bool = True) -> None:
    """The run's notices and the live region that states the result of ``result``."""
    show_notices(page)
    if announce and page.info.key not in ("9_Word_vectors", "10_Real_sentences"):
        shown = result or page.trace
        sentences.announce(page, shown, page.head(shown))


def show_notices(page: Page) -> None:
    """Problems with the link, a clash between settings, or an edit that was refused."""
    for text in page.notices:
        st.warning(text, icon=":material/info:")


def difference(value: float) -> str:
    """A largest difference in scientific notation (1.2e-08); an undefined one in words."""
    return f"{value:.1e}" if math.isfinite(value) else format_number(value)


def vega_spec(spec: dict) -> dict:
    """A chart's spec as the app sends it: axis and legend text in the theme's text colour
    (.streamlit/config.toml), records as an Arrow table (``ui.charts``)."""
    return charts.with_table(charts.with_text_color(spec, st.get_option("theme.textColor")))


def nonzero(page: Page, value: float) -> str:
    """A number in the app's format, or in scientific notation (2.8e-06) when that format
    would round a number that is not 0 to 0 (a leak must not read 0.0000)."""
    text = page.number(value)
    rounded_away = value != 0 and math.isfinite(value) and round(value, page.decimals) == 0
    return difference(value) if rounded_away else text


def matrix_values(matrix: torch.Tensor) -> list[list[float]]:
    """A 2-D tensor as nested floats (chart data)."""
    return [[float(v) for v in row] for row in matrix.tolist()]


def show_heatmap(
    page: Page,
    heatmap: charts.Heatmap,
    key: str,
    max_width: int = CONTENT_WIDTH,
    table: bool = True,
) -> None:
    """One heatmap, what its colours mean, and (unless ``table`` is False: the caller shows
    it) its numbers as a table on request."""
    decimals = charts.shown_decimals(
        heatmap, decimals=page.decimals, present=page.present, max_width=max_width
    )
    spec = charts.make_heatmap(
        heatmap, decimals=decimals, present=page.present, max_width=max_width
    )
    st.vega_lite_chart(spec=vega_spec(spec), key=key, width="content")
    if decimals < page.decimals:
        st.caption(rounding_note("This chart", decimals, page.decimals, "its table"))
    if table:
        show_tables(page, [(heatmap, key)], "Show as table", f"{key}_table")


def rounding_note(what: str, shown: int, decimals: int, tables: str) -> str:
    """Why a projected picture prints fewer decimals than the page's, and where they all are."""
    return (
        f"{what} rounds to {shown} decimals so that its type stays large enough to read when "
        f"projected; {tables} gives every number to {decimals}."
    )


def show_tables(
    page: Page, heatmaps: Sequence[tuple[charts.Heatmap, str]], label: str, key: str
) -> None:
    """The heatmaps' numbers as tables, built only when the learner opens them; each named
    by its chart's title when there are several."""
    with sections.section(label, key) as tables_open:
        if tables_open.open:
            for heatmap, _ in heatmaps:
                if len(heatmaps) > 1:
                    st.markdown(safe.md(heatmap.title, 80))
                st.markdown(tables.heatmap_table(heatmap, page.decimals))


def hidden_weights(trace: AttentionTrace) -> list[list[bool]] | None:
    """The (query, key) pairs the mask gives no weight, to draw as masked; None when none.

    Multiplying the scores by the mask (a pitfall) leaves weight on hidden keys, so under that
    strategy nothing is drawn as masked: the weight it leaves is shown.
    """
    if trace.config.mask_strategy == "zero_scores" or not bool(trace.blocked.any()):
        return None
    return trace.blocked.tolist()


def weights_heatmap(
    page: Page, trace: AttentionTrace, head: int = 0, title: str = "attention weights"
) -> charts.Heatmap:
    """The weights after dropout of one head: rows are queries, columns keys."""
    labels = page.labels
    dropped = trace.dropped[head].tolist() if trace.config.dropout_active else None
    rows_sum = "each row sums to 1" if not trace.config.dropout_active else "after dropout"
    return charts.Heatmap(
        matrix_values(trace.weights_after_dropout[head]),
        labels,
        labels,
        kind="weights",
        title=title,
        description=f"Attention weights, {len(labels)} queries × {len(labels)} keys, {rows_sum}.",
        masked=hidden_weights(trace),
        dropped=dropped,
        scale=page.settings["weight_scale"],
    )


def scores_heatmap(page: Page, trace: AttentionTrace, head: int = 0) -> charts.Heatmap:
    """The scaled, masked scores of one head (−∞ where the mask hides a key)."""
    labels = page.labels
    scaling = SCALING_TEXT[trace.config.scaling]
    masked = trace.blocked.tolist() if trace.config.mask_strategy == "neg_inf" else None
    return charts.Heatmap(
        matrix_values(trace.masked_scores[head]),
        labels,
        labels,
        kind="scores",
        title=f"scores q·k{scaling}",
        description=f"Scores{scaling}, {len(labels)} queries × {len(labels)} keys.",
        masked=masked if masked is not None and bool(trace.blocked.any()) else None,
    )


def vectors_heatmap(
    page: Page,
    matrix: torch.Tensor,
    prefix: str,
    title: str,
    description: str,
    row_names: Sequence[str] | None = None,
) -> charts.Heatmap:
    """One vector per row: per token (queries, keys, values, context) or per input number."""
    columns = [f"{prefix}{c + 1}" for c in range(matrix.shape[1])]
    return charts.Heatmap(
        matrix_values(matrix),
        list(row_names) if row_names is not None else page.labels,
        columns,
        kind="values",
        title=title,
        description=description,
    )


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
        spec = plots.make_weight_bars(
            weights,
            labels,
            title=f"weights of {safe.plain(labels[query], 20)}",
            description=f"Attention weights of query {query + 1} over {len(labels)} keys.",
            decimals=page.decimals,
            present=page.present,
        )
        st.vega_lite_chart(spec=vega_spec(spec), key="focus_bars", width="stretch")
    with formula:
        st.latex(formulas.context_latex(page, trace, head, formulas.COLUMN_WIDTH))


def focus_rows(page: Page, trace: AttentionTrace, head: int = 0) -> str:
    """Every number of the focused query's row, from score to weight after dropout."""
    query = page.query
    header = ["key", "score q·k", f"÷ {page.number(trace.scale_divisor)}", "may attend", "weight"]
    columns = [
        trace.scores[head, query].tolist(),
        trace.scaled_scores[head, query].tolist(),
        ["yes" if v else "no" for v in trace.allowed[query].tolist()],
        trace.weights[head, query].tolist(),
    ]
    if trace.config.dropout_active:
        header += ["kept", f"× {page.number(trace.dropout_factor)}"]
        columns += [
            ["yes" if v else "no" for v in trace.dropout_keep[head, query].tolist()],
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
            f"{name} = X · W_{name[:-1].replace('querie', 'query')}",
            f"The {name}: {matrix.shape[0]} tokens × {matrix.shape[1]} numbers.",
        )
        heatmaps.append((heatmap, f"hm_{name}"))
    show_side_by_side(page, heatmaps)


def halves(page: Page, heatmap: charts.Heatmap) -> tuple[DeltaGenerator, DeltaGenerator, int]:
    """Two columns when ``heatmap`` fits half the width at full size, else two rows; and the
    width a chart has in one of them (a chart in rows keeps the full width: in presentation
    mode, its type at full size)."""
    half = column_width(CONTENT_WIDTH, 2)
    if charts.fits(heatmap, decimals=page.decimals, present=page.present, max_width=half):
        left, right = st.columns(2)
        return left, right, half
    return st.container(), st.container(), CONTENT_WIDTH


def column_width(width: int, count: int) -> int:
    """The width of one of ``count`` columns sharing ``width`` (Streamlit's gap is 1 rem)."""
    return (width - 16 * (count - 1)) // count


def show_side_by_side(
    page: Page,
    heatmaps: Sequence[tuple[charts.Heatmap, str]],
    width: int = CONTENT_WIDTH,
    per_row: int | None = None,
) -> list:
    """Heatmaps in rows of ``per_row`` (all in one row by default), fewer per row when they
    would not fit at full size; returns one container per heatmap, for what goes under it."""
    heatmaps = charts.share_fitted_range(heatmaps)
    per_row = per_row or len(heatmaps)
    while per_row > 1 and not all(
        charts.fits(
            h,
            decimals=page.decimals,
            present=page.present,
            max_width=column_width(width, per_row),
            shrink=2,
        )
        for h, _ in heatmaps
    ):
        per_row -= 1
    holders = []
    for start in range(0, len(heatmaps), per_row):
        row = heatmaps[start : start + per_row]
        columns = st.columns(per_row) if per_row > 1 else [st.container() for _ in row]
        for column, (heatmap, key) in zip(columns, row, strict=False):
            with column:
                width_each = column_width(width, per_row)
                show_heatmap(page, heatmap, key, max_width=width_each, table=per_row == 1)
            holders.append(column)
        if per_row > 1:  # a table is wider than its chart: the row's tables go under the row
            show_tables(page, row, "Show these as tables", f"{row[0][1]}_tables")
    return holders


def predict(question: str, answer: str, key: str) -> None:
    """Ask first; the answer is not on the page until the learner clicks."""
    st.markdown(f"**Predict, then reveal.** {question}")
    if state.is_revealed(key):
        st.success(answer, icon=":material/lightbulb:")
    else:
        st.button("Reveal the answer", key=f"reveal_{key}", on_click=state.reveal, args=(key,))


def link_slot() -> DeltaGenerator:
    """The foot of the sidebar: what the link to this view is, and a slot for the link."""
    with st.sidebar:
        st.markdown(
            "**Link to this view**  \nThe same numbers on any machine: copy it with the button "
            "at its right."
        )
        return st.container()


def finish(page: Page, slot: DeltaGenerator | None = None) -> None:
    """Write the view into the URL and give, at the foot of the sidebar, the link to it
    (in ``slot`` from :func:`link_slot` when the page made one before)."""
    settings = state.current_settings()  # with anything the page recorded since it began
    state.sync_url(settings, page.info.key)
    with slot if slot is not None else link_slot():
        st.code(
            state.share_link(settings, page.info.key, page.info.url_path),
            language=None,
            wrap_lines=True,
        )


def label_of(name: str) -> str:
    """A setting's name in the learner's words."""
    return PARAMS[name].label
