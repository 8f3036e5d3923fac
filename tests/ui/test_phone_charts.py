"""Charts drawn for a phone (issue 53): the app knows a phone from its request, and draws
each chart for a phone's column with no text under 14 px, rather than a laptop's chart
scaled down to 10-12 px. The browser check, every page as drawn on a 390 px phone, is
``tests/e2e/test_page_audit.py``; these check the rules where they are cheapest."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core.embeddings import display_labels
from attention_core.flow import flow_numbers
from tests.ui.test_charts import heatmaps as heatmap_strategy
from tests.ui.test_flow_lines_compare import settings_of, trace_of
from ui.blocks import heatmaps
from ui.blocks.weights_view import MAIN_WIDTH
from ui.session.state import is_phone
from ui.specs import flow_picture, heatmap_chart, sizing

AGENTS = {
    # Chromium on Android, and Safari on an iPhone: phones
    "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/130.0.0.0 Mobile Safari/537.36": True,
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
    "Gecko) Version/17.5 Mobile/15E148 Safari/604.1": True,
    "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0": True,
    # an older iPad says "Mobile" too; an Android tablet does not; laptops
    "Mozilla/5.0 (iPad; CPU OS 12_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Mobile/15E148": False,
    "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/130.0.0.0 Safari/537.36": False,
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/130.0.0.0 Safari/537.36": False,
    "": False,
}


@pytest.mark.parametrize(("agent", "phone"), AGENTS.items())
def test_a_phone_is_known_by_its_user_agent(agent, phone):
    assert is_phone({"User-Agent": agent}) is phone


def test_chromiums_mobile_hint_wins_over_the_user_agent():
    desktop = next(agent for agent, phone in AGENTS.items() if agent and not phone)
    assert is_phone({"User-Agent": desktop, "Sec-CH-UA-Mobile": "?1"})
    assert not is_phone({"User-Agent": desktop, "Sec-CH-UA-Mobile": "?0"})
    assert not is_phone({})


def test_presentation_mode_wins_over_a_phone():
    assert sizing.look_of(present=True, phone=True) is sizing.PROJECTOR
    assert sizing.look_of(present=False, phone=True) is sizing.PHONE
    assert sizing.look_of(present=False, phone=False) is sizing.LAPTOP


def _fonts(spec: dict) -> list[int]:
    """Every font size a heatmap spec sets: its title, axes, legend and printed numbers."""
    config = spec["config"]
    fonts = [spec["title"]["fontSize"]]
    fonts += [config["axis"]["labelFontSize"], config["axis"]["titleFontSize"]]
    fonts += [config["legend"]["labelFontSize"], config["legend"]["titleFontSize"]]
    fonts += [layer["mark"]["fontSize"] for layer in spec["layer"] if "fontSize" in layer["mark"]]
    return fonts


def test_the_books_weights_on_a_phone_are_14_px_with_2_decimals_and_fit_its_column():
    """The Playground's six tokens: 4 decimals at 14 px need about 430 px; a phone's column
    has 328. The chart rounds to 2 decimals (the page says so) and fits."""
    trace = trace_of(settings_of())
    labels = display_labels(trace.tokens)
    values = trace.weights[0].tolist()
    weights = heatmap_chart.Heatmap(values, labels, labels, "weights", "w", "d")
    width = heatmaps.PHONE_WIDTH
    shown = heatmap_chart.shown_decimals(weights, decimals=4, look=sizing.PHONE, max_width=width)
    assert shown == 2
    spec = heatmap_chart.make_heatmap(weights, decimals=shown, look=sizing.PHONE, max_width=width)
    assert min(_fonts(spec)) >= 14
    label_width = spec["encoding"]["y"]["axis"]["labelLimit"]
    assert spec["width"] + label_width + 12 <= width
    texts = {record["text"] for record in spec["data"]["values"]}
    assert "0.15" in texts  # the book's 0.1500, as the chart prints it


@given(heatmap_strategy(), st.integers(1, 6))
@settings(max_examples=60, deadline=None)
def test_no_phone_chart_text_is_under_14_px(heatmap, decimals):
    width = heatmaps.PHONE_WIDTH
    shown = heatmap_chart.shown_decimals(
        heatmap, decimals=decimals, look=sizing.PHONE, max_width=width
    )
    assert sizing.PRESENT_MIN_DECIMALS <= shown <= decimals or shown == decimals
    spec = heatmap_chart.make_heatmap(heatmap, decimals=shown, look=sizing.PHONE, max_width=width)
    assert min(_fonts(spec)) >= 14


def test_flow_on_a_phone_keeps_14_px_and_scrolls_sideways():
    """Flow's picture is wider than a phone: drawn at 14 px in a laptop's width (its box
    scrolls), not at 9 px in the phone's."""
    trace = trace_of(settings_of())
    numbers, labels = flow_numbers(trace, 1), display_labels(trace.tokens)
    fitted = flow_picture.fit(
        numbers, labels, trace.config, decimals=4, look=sizing.PHONE, max_width=MAIN_WIDTH
    )
    assert fitted.size.font >= 14 and fitted.size.arrow_font >= 14
    assert heatmaps.PHONE_WIDTH < fitted.width <= MAIN_WIDTH
    squeezed = flow_picture.fit(
        numbers, labels, trace.config, decimals=4, max_width=heatmaps.PHONE_WIDTH
    )
    assert squeezed.size.font < 14  # why it is not drawn in the phone's width
