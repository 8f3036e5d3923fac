"""Playground: edit the embeddings, move a control, see scores, weights and context change."""

from collections.abc import Callable

import streamlit as st

from attention_core.knobs.table import PARAMS
from translation import _
from ui.blocks import (
    first_steps,
    focus_panel,
    heatmaps,
    page_frame,
    panels,
    sentences,
    weights_view,
)
from ui.blocks.matrix_editor import show_glove_import, show_matrix_editor
from ui.session import controls, kept_widgets, run_order
from ui.session.run_order import Page
from ui.specs import heatmap_chart
from ui.specs.sizing import LAPTOP

SIDE_WIDTH = int(heatmaps.CONTENT_WIDTH * 0.58)
PRESENT_SHARE = 0.75  # projected: the weights' share of the row, the knobs have the rest
PRESENT_SIDE = int(heatmaps.PRESENT_WIDTH * PRESENT_SHARE) - 16


def side_by_side(page: Page) -> bool:
    """The editor beside the weights: a narrow matrix, and weights that fit the column."""
    weights = heatmaps.weights_heatmap(page, page.trace, page.head())
    return (
        page.settings.d_in <= 4
        and not page.present
        and heatmap_chart.fits(
            weights, decimals=page.decimals, look=LAPTOP, max_width=heatmaps.share(page, SIDE_WIDTH)
        )
    )


page = run_order.setup(__file__)
INTRO = _(
    "Each row of the matrix is one token's embedding. Move a knob, edit a number, or rename or "
    "add a token: the attention weights and everything below them are recomputed at once, and "
    "every page shares these settings."
)

status = page_frame.show_title(page, _("Self-attention playground"))
# The editor is drawn once per page run; everything that moves with the settings is drawn by
# show_views, which a change reruns alone (ui.session.run_order.views). The four knobs lead,
# the weights follow, then the matrix: beside the weights when both fit, else under them. A
# narrow screen stacks them in that order, so a phone shows a knob and the weights together;
# the introduction comes after them, so that 12 tokens' weights still fit the first screen.
beside = side_by_side(page)
if page.present:  # projected, the sidebar folded: the knobs stand beside the weights
    top, knobs = st.columns([PRESENT_SHARE, 1 - PRESENT_SHARE], gap="medium")
    with knobs:
        controls.front_knobs(stacked=True)
elif beside:
    controls.front_knobs()
    top, right = st.columns([0.58, 0.42], gap="medium")
    with right:  # beside the weights, never above them
        first_steps.show_first_steps(page)
        st.header(_("Embedding matrix"))
        show_matrix_editor(page)
        show_glove_import(page)
else:
    controls.front_knobs()
    top = st.container()
with top:
    frame = weights_view.weights_frame(page, "hm_weights", scores=True)
    if not beside:
        first_steps.show_first_steps(page)  # under the weights: it never pushes them down
# Beside the editor, the result in words goes under both columns: a phone, which stacks
# the columns, then shows the matrix right under the weights, not a screen below them.
with top if not beside else st.container():
    summary = st.container(key="result_summary")
    if not page.present:
        st.markdown(INTRO)
if not beside:
    with st.expander(_("Embedding matrix (edit me)"), expanded=not page.present):
        show_matrix_editor(page)
    show_glove_import(page)
# The tabs are drawn once per page run too: a change redraws only the open one (choosing
# another tab reruns the whole page, which builds that one).
tabs = controls.tabs("panel", page.settings)
open_tab = next((index for index, tab in enumerate(tabs) if tab.open), 0)
panel = PARAMS["panel"].choices[open_tab]
with tabs[open_tab]:
    panel_slot, rows = st.container(), None
    if panel == "steps":
        label = _("Every number of this row")
        with kept_widgets.section(label, "focus_rows") as section:
            rows = section if section.open else None
link = page_frame.link_slot()


def show_views(page: Page) -> None:
    """The weights, the result in words and the open panel; the link to this view."""
    if side_by_side(page) != beside:
        st.rerun()  # the weights move beside or under the editor: the whole page
    trace = page.trace
    with frame.chart:  # written on every run: the head's choice has no slot of its own
        head = focus_panel.head_choice(page)
    weights = heatmaps.weights_heatmap(page, trace, head)
    side = PRESENT_SIDE if page.present else SIDE_WIDTH  # shares of a column measured narrower
    max_width = heatmaps.share(page, side) if page.present or beside else heatmaps.CONTENT_WIDTH
    weights_view.show_weights(page, trace, weights, frame, "hm_weights", max_width=max_width)
    with status:
        page_frame.show_status(page, announce=False)
        sentences.announce(page, trace, head)
    if frame.scores is not None:
        with frame.scores:
            scores = heatmaps.score_pair(page, trace, head, "hm_front_scores")
            heatmaps.show_side_by_side(page, scores, width=max_width)
    with summary:
        st.markdown(sentences.summary(page, trace, head))
    with panel_slot:
        PANELS[panel](page, head)
    if rows is not None:
        with rows:
            st.markdown(focus_panel.focus_rows(page, trace, head))
    page_frame.finish(page, link)


def show_scores(page: Page, head: int) -> None:
    """The scores beside the context vectors."""
    trace = page.trace
    context = heatmaps.vectors_heatmap(
        page,
        trace.output,
        "z",
        _("context vectors"),
        _("Context vectors: {num_tokens} tokens × {shape} numbers.").format(
            num_tokens=trace.num_tokens, shape=trace.output.shape[1]
        ),
    )
    scores = heatmaps.score_pair(page, trace, head, "hm_scores")
    heatmaps.show_side_by_side(page, [*scores, (context, "hm_context")], per_row=2)


# The open panel (the others are not built), by its choice in the parameter table; the
# steps' "Every number of this row" is drawn by show_views.
PANELS: dict[str, Callable[[Page, int], None]] = {
    "steps": lambda page, head: focus_panel.show_focus(page, page.trace, head, with_summary=False),
    "scores": show_scores,
    "qkv": lambda page, head: focus_panel.show_qkv(page, page.trace),
    "checks": lambda page, head: panels.show_diagnostics(page, page.trace, head),
    "code": lambda page, head: panels.show_code_export(page, page.trace, folded=False),
}
if set(PANELS) != set(PARAMS["panel"].choices):  # a choice renamed in the table: say so
    raise RuntimeError(f"panels {sorted(PANELS)} differ from {PARAMS['panel'].choices}")


run_order.views(page, show_views)
