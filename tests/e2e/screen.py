"""How a browser test reads the numbers on screen: the one place that knows the page's layout.

The Playground writes the focused query's context vector in a KaTeX formula; a redesign of the
page replaces :func:`shown_context_vector` and nothing else.
"""

from __future__ import annotations

import re
import time

STATUS_WIDGET = '[data-testid="stStatusWidget"]'  # "Running…", "Connecting" while not idle
FORMULA = ".katex-mathml annotation"  # the TeX source of every formula on the page


def wait_idle(page, timeout: float = 60.0) -> None:
    """Wait until a formula is on the page and no run or reconnection is in progress."""
    page.wait_for_selector(FORMULA, state="attached", timeout=timeout * 1000)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator(STATUS_WIDGET).count() == 0:
            time.sleep(0.3)  # a rerun can start right after the widget disappears
            if page.locator(STATUS_WIDGET).count() == 0:
                return
        time.sleep(0.2)
    raise TimeoutError(f"the page was still busy after {timeout:.0f} s")


def shown_context_vector(page, timeout: float = 60.0) -> list[float]:
    """The focused query's context vector as the page shows it, once the page is idle.

    Read from the formula Σⱼ αᵢⱼ v⁽ʲ⁾ = [a, b, …]: the last bracketed list in its TeX source.
    """
    wait_idle(page, timeout)
    for tex in page.locator(FORMULA).all_text_contents():
        if "alpha" in tex:
            last = re.findall(r"\[([-\d., ]+)\]", tex)[-1]
            return [float(v) for v in last.split(",")]
    raise AssertionError("no context-vector formula on the page")


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
