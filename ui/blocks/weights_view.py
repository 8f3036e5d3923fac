"""The weights as a heatmap or as lines (a view row of the parameter table), and the lines chart.

The lines read the trace's weights after dropout, its mask and its dropout keep-mask as they
are: nothing is recomputed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from attention_core import AttentionTrace
from translation import N_, _
from ui import safe
from ui.blocks import heatmaps
from ui.session import controls, kept_widgets, state
from ui.session.run_order import Page
from ui.specs import heatmap_chart, lines, tables

# views.CONTENT_WIDTH (880) is more than the main column at 1280 × 720 with the sidebar open
# (820, measured in Chromium). The Flow picture, the lines and the Compare page's heatmaps have
# no room to spare, so they are fitted to the measured width.
MAIN_WIDTH = 820
MEASURED = MAIN_WIDTH / heatmaps.CONTENT_WIDTH


def lines_of(trace: AttentionTrace, labels: Sequence[str], title: str) -> lines.Lines:
    """Every head's weights after dropout, with the mask and the dropped pairs."""
    heads = trace.num_heads
    described = (
        _("{heads} heads, one colour each").format(heads=heads) if heads > 1 else _("one head")
    )
    return lines.Lines(
        weights=trace.weights_after_dropout.tolist(),
        labels=list(labels),
        title=title,
        description=(
            _(
                "Attention weights as lines from each of the {count} queries (left) to every key "
                "(right), {described}: a thicker, darker line is a larger weight; a masked pair "
                "has no line and a dropped pair is dashed. Hover a token to see only its lines."
            ).format(count=len(labels), described=described)
        ),
        masked=heatmaps.hidden_weights(trace),
        dropped=trace.dropped.tolist() if trace.config.dropout_active else None,
    )


def show_lines(page: Page, chart: lines.Lines, key: str, max_width: int) -> None:
    """The lines chart, and a choice of token whose lines alone are shown (for the keyboard)."""
    names = [safe.plain(label, 24) for label in chart.labels]
    if page.settings["isolate"] > len(names):  # a token of a longer sentence: show them all
        state.set_value("isolate", 0)
    with st.columns(2)[0]:
        isolate = controls.widget(
            "isolate",
            state.current_settings(),
            count=len(names),
            format_func=lambda i: _("every token") if i == 0 else f"{i} · {names[i - 1]}",
        )
    spec = lines.make_lines(
        chart,
        decimals=page.decimals,
        look=page.look,
        isolate=isolate,
        max_width=heatmaps.room(page, heatmaps.share(page, int(max_width * MEASURED))),
    )
    st.vega_lite_chart(spec=heatmaps.vega_spec(spec), key=key, width="content")
    if not page.present:
        st.caption(
            _(
                "Hover a token (or choose it above) to see only its lines. Thicker and darker is "
                "a larger weight; masked pairs have no line, dropped ones are dashed."
            )
        )


@dataclass(frozen=True)
class WeightsFrame:
    """What the weights view draws once per page run, for a views fragment to fill."""

    chart: DeltaGenerator  # the heatmap or the lines
    table: DeltaGenerator | None  # the heatmap's "Show as table" section, when it is open
    scores: DeltaGenerator | None = None  # the scores' section, when there is one and it is open


SCORES_SECTION = N_("Show the scores ω behind these weights")


def weights_frame(page: Page, key: str, scores: bool = False) -> WeightsFrame:
    """A slot for the weights, the heatmap's table section under it and the view choice.

    The choice is drawn under the chart (its value was read at the start of the run), so
    the weights stay on the first screen with 12 tokens. Another choice reruns the whole
    page (``controls.WHOLE_PAGE``): only the heatmap has a table section. With ``scores``, a
    section for the scores the weights come from follows, one click from the first screen.
    """
    chart, table, scores_slot = st.container(), None, None
    if page.settings["weights_view"] != "lines":
        with kept_widgets.section(_("Show as table"), f"{key}_table") as section:
            table = section if section.open else None
    if scores:
        with kept_widgets.section(_(SCORES_SECTION), f"{key}_scores") as section:
            scores_slot = section if section.open else None
    controls.widget("weights_view", page.settings)
    return WeightsFrame(chart, table, scores_slot)


def show_weights(
    page: Page,
    trace: AttentionTrace,
    heatmap: heatmap_chart.Heatmap,
    frame: WeightsFrame,
    key: str,
    max_width: int = heatmaps.CONTENT_WIDTH,
) -> None:
    """The weights as the learner chose to see them, in ``frame``: the heatmap (its numbers
    in the open table section), or lines (all heads)."""
    with frame.chart:
        if page.settings["weights_view"] == "lines":
            chart = lines_of(trace, page.labels, _("attention weights as lines"))
            show_lines(page, chart, f"{key}_lines", max_width)
        else:
            heatmaps.show_heatmap(page, heatmap, key, max_width=max_width, table=False)
    if frame.table is not None:
        with frame.table:
            st.markdown(tables.heatmap_table(heatmaps.hide_answers(page, heatmap), page.decimals))
