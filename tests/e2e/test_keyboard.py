"""A whole lesson with the keyboard alone, in Chromium: every step by key presses, read back.

Each step's numbers are compared with ``attention_core`` run on the settings the page's URL
now carries, so a step that silently did nothing, or did something else, fails.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from attention_core import run_attention
from attention_core.knobs.links import read_params
from tests.e2e.learner import arrow_to_cell, chosen_cell
from tests.e2e.screen import (
    open_page,
    shown_context_vector,
    wait_for,
    wait_for_change,
    wait_idle,
)

pytestmark = pytest.mark.e2e

ACTIVE_JS = """() => {
  const a = document.activeElement;
  const keyed = a.closest('[class*="st-key-"]');
  const style = getComputedStyle(a);
  return {tag: a.tagName, label: a.getAttribute('aria-label') || '', text: (a.innerText || '')
    .slice(0, 40), key: keyed ? keyed.className.match(/st-key-(\\S+)/)[1] : '',
    outline: style.outlineStyle, outlineWidth: parseFloat(style.outlineWidth)};
}"""


def tab_to(page, wanted, backwards: bool = False, limit: int = 400) -> dict:
    """Press Tab (or Shift+Tab) until the focused element matches ``wanted``.

    The limit covers a whole round of the Playground's focusable elements: once, in CI, 120
    presses from wherever the focus started did not reach the sidebar's d_out slider.
    """
    seen = []
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        active = page.evaluate(ACTIVE_JS)
        if wanted(active):
            return active
        seen.append(active["key"] or active["label"] or active["tag"])
    status = page.locator('[data-testid="stStatusWidget"]').all_inner_texts()
    disabled = page.locator("input:disabled").count()
    raise AssertionError(
        f"the keyboard never reached the element; last: {seen[-12:]}; "
        f"status {status}, {disabled} disabled inputs"
    )


def expected_vector(url: str) -> list[float]:
    """The focused context vector the core computes for the settings in ``url``."""
    settings, _ = read_params(parse_qs(urlsplit(url).query))
    trace = run_attention(settings.embeddings(), settings.config())
    return [round(v, 4) for v in trace.output[settings.query_index].tolist()]


def assert_shows_core(page) -> list[float]:
    shown = shown_context_vector(page)
    assert shown == pytest.approx(expected_vector(page.url), abs=1e-4)
    return shown


def test_a_lesson_with_the_keyboard_alone(server, browser):
    context = browser.new_context(
        viewport={"width": 1280, "height": 720}, permissions=["clipboard-read", "clipboard-write"]
    )
    try:
        page = context.new_page()
        open_page(page, server)
        before = assert_shows_core(page)

        # A sidebar slider: focus it with Tab from the top of the page, move it with an arrow.
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        slider = tab_to(page, lambda a: a["key"] == "d_out" and a["tag"] == "INPUT")
        assert slider["outline"] != "none" and slider["outlineWidth"] >= 2  # visible focus
        page.keyboard.press("ArrowRight")
        after = wait_for_change(page, before)
        assert len(after) == 3 and "d_out=3" in page.url
        before = assert_shows_core(page)
        live = page.locator('[role="status"][aria-live="polite"]').first.inner_text()
        assert ", ".join(f"{v:.4f}" for v in before) in live  # the change is announced

        # A cell of the matrix: into the grid, arrows to the cell, Enter, type, Enter.
        tab_to(page, lambda a: a["tag"] == "CANVAS")
        arrow_to_cell(page, column=2, row=1)  # column d1 of journey's row
        page.keyboard.press("Enter")
        cell = page.locator("#portal input, #portal textarea").first
        cell.wait_for(state="visible", timeout=5_000)
        cell.fill("0.9")
        cell.press("Enter")
        before = wait_for_change(page, before)
        assert "0.9%2C0.87%2C0.66" in page.url  # journey's first number is now 0.9
        before = assert_shows_core(page)

        # Delete a token: select its row, Shift+Space, Delete.
        tab_to(page, lambda a: a["tag"] == "CANVAS", backwards=True)
        chosen = chosen_cell(page)
        page.keyboard.press("ArrowDown")
        # The grid chooses the cell a frame later; Shift+Space before that selects no row.
        assert wait_for(page, chosen_cell, lambda now: now != chosen, timeout=5) != chosen
        page.keyboard.press("Shift+Space")
        page.keyboard.press("Delete")
        before = wait_for_change(page, before)
        tokens = parse_qs(urlsplit(page.url).query)["tokens"][0].split(",")
        assert len(tokens) == 5
        before = assert_shows_core(page)

        # Add a token with the grid's toolbar button.
        add = tab_to(page, lambda a: a["label"] == "Add row", backwards=True)
        assert add["outline"] != "none"
        page.keyboard.press("Enter")
        before = wait_for_change(page, before)
        assert parse_qs(urlsplit(page.url).query)["tokens"][0].endswith(",new")
        before = assert_shows_core(page)

        # Copy the link to this view, and open it elsewhere.
        tab_to(page, lambda a: a["label"] == "Copy to clipboard", backwards=True)
        page.keyboard.press("Enter")
        link = wait_for(
            page, lambda p: p.evaluate("() => navigator.clipboard.readText()"), bool, timeout=5
        )
        assert link.startswith(server) and "tokens=" in link
        other = context.new_page()
        other.goto(link)
        wait_idle(other)
        assert shown_context_vector(other) == before
        other.close()

        # Another page, through the page menu beside the title: Enter opens it, Tab goes
        # down its links.
        page.keyboard.press("Shift+Tab")
        tab_to(page, lambda a: a["key"] == "page_menu", backwards=True)
        page.keyboard.press("Enter")
        tab_to(page, lambda a: "5 · Causal mask" in a["text"])
        page.keyboard.press("Enter")
        page.wait_for_url("**/Causal_mask**")
        wait_idle(page)
        assert page.locator("h1").first.inner_text().startswith("5 · Causal mask")
        assert "tokens=" in page.url  # the edited matrix came along
    finally:
        context.close()


FOCUSED_LABEL_JS = """() => {
  const label = document.activeElement.closest('label');
  const style = getComputedStyle(label);
  return {outline: style.outlineStyle, width: parseFloat(style.outlineWidth),
          text: label.innerText.trim()};
}"""


@pytest.mark.parametrize(("key", "kind"), [("scaling", "radio"), ("present", "checkbox")])
def test_a_radio_button_and_a_toggle_show_where_the_keyboard_is(server, page, key, kind):
    """A review: Tab onto the scaling radio showed only a faint grey background (the ring
    went on the hidden input)."""
    open_page(page, server)
    # Streamlit disables every widget while its connection is down: once in CI the page lost it
    # right after loading, and 400 presses went round the links and folds only.
    target = page.locator(f".st-key-{key} input").first
    assert wait_for(page, lambda _: target.is_enabled(), bool, timeout=60), "still disabled"
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    tab_to(page, lambda a: a["key"] == key and a["tag"] == "INPUT")
    assert page.evaluate("() => document.activeElement.type") == kind
    ring = page.evaluate(FOCUSED_LABEL_JS)
    assert ring["outline"] == "solid" and ring["width"] >= 2, ring
    if kind == "radio":
        assert ring["text"] == "÷ √d_k"  # the chosen option, the one the keys move from
