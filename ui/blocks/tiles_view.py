"""Page 13's FlashAttention section: one head's attention stepped tile by tile, with the
running maximum, the running sum and the rescaled partial output."""

from __future__ import annotations

import math

import streamlit as st

from attention_core.flash_tiles import TiledAttention, TileStep, tiled_attention
from translation import _
from ui import safe
from ui.blocks import heatmaps, stepper
from ui.blocks.latent_view import check
from ui.session import controls
from ui.session.run_order import Page
from ui.specs import tables


def _span(labels: list[str], rows: tuple[int, int]) -> str:
    """Tokens first..last (1-based) with their labels."""
    first, last = rows[0], rows[1] - 1
    if first == last:
        return f"{first + 1} ({safe.md(labels[first], 24)})"
    return f"{first + 1}–{last + 1} ({safe.md(labels[first], 24)} … {safe.md(labels[last], 24)})"


def show_tiles(page: Page) -> None:
    """The tile sizes, the stepper, one step's bookkeeping, and tiled = plain."""
    st.header(_("FlashAttention: the same softmax, tile by tile"))
    queries_column, keys_column = st.columns(2)
    with queries_column:
        tile_queries = controls.widget("tile_queries", page.settings)
    with keys_column:
        tile_keys = controls.widget("tile_keys", page.settings)
    head = page.head()
    result = page.call(tiled_attention, page.trace, head, int(tile_queries), int(tile_keys))
    if result is None:
        return
    if not page.present:
        st.markdown(
            _(
                "The plain computation holds every score of a head at once, a tokens × tokens "
                "matrix. FlashAttention reads a tile of queries and then one tile of keys and "
                "values after the other, and never holds more than one tile of scores. Softmax "
                "needs the whole row, so each query keeps a running maximum m and a running sum "
                "l of exp(score − m). When a tile brings a larger score, m rises and the sum and "
                "the partial output so far are multiplied by exp(m_old − m_new), as if they had "
                "counted from the new maximum all along. After the last key tile the partial "
                "output divided by l is the output. Here: head {head} of your run, with its "
                "scaling and mask."
            ).format(head=head + 1)
        )
    step_number = stepper.show_stepper(
        page, "tile_step", "tiles", len(result.steps), count=len(result.steps)
    )
    current = result.steps[min(step_number, len(result.steps)) - 1]
    _show_step(page, current)
    _show_result(page, result)


def _show_step(page: Page, step: TileStep) -> None:
    labels = page.labels
    reads = [_("K and V rows {rows}").format(rows=_span(labels, step.key_rows))]
    if step.reads_queries:
        reads.insert(0, _("Q rows {rows}").format(rows=_span(labels, step.query_rows)))
    written = (
        _("writes output rows {rows}, divided by their sums").format(
            rows=_span(labels, step.query_rows)
        )
        if step.written is not None
        else _("writes nothing yet")
    )
    st.markdown(
        _("**Reads** {reads}; **{written}**.").format(reads=", ".join(reads), written=written)
    )
    if step.all_hidden:
        st.caption(_("The mask hides every score of this tile: a real kernel skips it."))
    key_names = labels[step.key_rows[0] : step.key_rows[1]]
    query_names = labels[step.query_rows[0] : step.query_rows[1]]
    values = [[page.number(v) for v in row] for row in step.scores.tolist()]
    st.markdown(_("**The tile's scores** (rows: queries, columns: keys; −∞: hidden by the mask)"))
    st.markdown(tables.matrix_table(values, query_names, key_names, _("query \\ key")))
    rows = []
    for index, name in enumerate(query_names):
        rows.append(
            [
                name,
                f"{page.number(float(step.max_before[index]))} → "
                f"{page.number(float(step.max_after[index]))}",
                # Nothing counted yet (m was −∞): there is nothing to rescale.
                page.number(float(step.rescale[index]))
                if math.isfinite(float(step.max_before[index]))
                else "—",
                f"{page.number(float(step.sum_before[index]))} → "
                f"{page.number(float(step.sum_after[index]))}",
                page.vector(step.partial_after[index].tolist()),
            ]
        )
    st.markdown(
        tables.markdown_table(
            [
                _("query"),
                _("running max m"),
                _("rescale exp(m_old − m_new)"),
                _("running sum l"),
                _("partial output"),
            ],
            rows,
        )
    )


def _show_result(page: Page, result: TiledAttention) -> None:
    st.markdown(
        _(
            "Tiled output = plain softmax attention, every row of head {head}: largest "
            "difference {check}"
        ).format(head=result.head + 1, check=check(result.max_difference, result.bound))
    )
    if result.largest > 1.0:  # rounding grows with the numbers summed: said, with the bound
        st.caption(
            _(
                "Both outputs are float32 sums, good to about seven significant digits: with "
                "outputs as large as {largest}, a difference under {bound} is rounding, not "
                "another result."
            ).format(largest=page.number(result.largest), bound=heatmaps.difference(result.bound))
        )
    st.markdown(
        tables.markdown_table(
            [_("computation"), _("score entries held at once")],
            [
                [
                    _("tiled: {queries} × {keys}").format(
                        queries=result.tile_queries, keys=result.tile_keys
                    ),
                    str(result.held_tiled),
                ],
                [_("plain: every query × every key"), str(result.held_plain)],
            ],
            labelled_rows=False,
        )
    )
