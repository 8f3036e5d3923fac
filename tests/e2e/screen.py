"""What a learner sees, read from the rendered page: numbers, messages, and idleness."""

from __future__ import annotations

import re
import time

NUMBER = r"-?[0-9]+\.[0-9]+"
# Charts whose SVG is not drawn yet (Vega draws after the element arrives).
_CHARTS_PENDING_JS = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
  .some(c => !c.querySelector('svg text'))"""


def wait_idle(page, timeout: float = 60.0) -> None:
    """Wait until no script run is in progress, the page stopped growing and every chart is
    drawn (Vega draws after its element arrives, and its code loads on first use)."""
    page.wait_for_selector("h1", timeout=timeout * 1000)
    deadline = time.monotonic() + timeout
    quiet_since, last_count = None, -1
    while time.monotonic() < deadline:
        busy = page.locator('[data-testid="stStatusWidget"]').count() > 0
        stale = page.locator('[data-stale="true"]').count() > 0
        drawing = page.evaluate(_CHARTS_PENDING_JS)
        count = page.locator('[data-testid="stElementContainer"]').count()
        if busy or stale or drawing or count != last_count:
            quiet_since, last_count = None, count
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since > 0.6:
            return
        time.sleep(0.1)
    raise TimeoutError("the app did not become idle")


def summary_text(page) -> str:
    """The focused query's result in words, as the page states it."""
    return page.locator(".st-key-result_summary").first.inner_text()


def shown_context_vector(page) -> list[float]:
    """The focused query's context vector, read from the sentence that states it."""
    text = summary_text(page)
    found = re.search(r"context vector ([-0-9., ]+)\.?$", text.strip())
    assert found, f"no context vector in {text!r}"
    return [float(v) for v in re.findall(NUMBER, found.group(1))]


def shown_top_weight(page) -> float:
    """The weight of the key the focused query attends to most."""
    found = re.search(rf"\(({NUMBER})\)", summary_text(page))
    assert found, summary_text(page)
    return float(found.group(1))


def warnings(page) -> list[str]:
    """Every warning, error and info box on the page."""
    return page.locator('[data-testid="stAlert"]').all_inner_texts()


def wait_for_change(page, before: list[float], timeout: float = 20.0) -> list[float]:
    """Wait until the context vector differs from ``before``; returns it (or the old one)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        wait_idle(page)
        current = shown_context_vector(page)
        if current != before:
            return current
        time.sleep(0.2)
    return shown_context_vector(page)


def _slider(page, label: str):
    return page.locator('[data-testid="stSlider"]').filter(has_text=label).get_by_role("slider")


def slider_value(page, label: str) -> str:
    """The value a slider shows (its range input), e.g. "3" for d_out = 3."""
    return _slider(page, label).input_value()


def step_slider(page, label: str) -> None:
    """Move a slider one step to the right, as a learner does with the arrow key."""
    slider = _slider(page, label)
    slider.focus()
    page.keyboard.press("ArrowRight")
