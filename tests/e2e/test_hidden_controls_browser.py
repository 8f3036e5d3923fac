"""Real Chromium: a control hidden for a while shows the setting the numbers use when it
comes back, on another page too.

Found by the AppTest session machine, then in Chromium: padding 3 on page 5, the mask made
causal on page 9 (the padding box disappears), page 6 opened, the mask made padding again:
the box showed 0 while the link and the numbers used 3, and its + sent 1.
"""

from __future__ import annotations

import pytest

from tests.e2e import expected, learner, screen

pytestmark = pytest.mark.e2e

EVALUATION = "before dropout (evaluation)"


def evaluation_cells(url: str) -> dict[str, str]:
    settings = expected.settings_of(url)
    return expected.weight_cells(settings, expected.trace_of(settings, dropout=0.0))


def test_the_padding_box_comes_back_with_the_padding_the_numbers_use(server, page):
    screen.open_page(page, f"{server}/Causal_mask?mask=padding&padding=3")
    assert learner.number_value(page, "padding") == "3"
    learner.go_to(page, "Word vectors")
    learner.choose(page, "mask", "causal: no peeking")
    screen.wait_for(page, lambda p: expected.settings_of(p.url)["mask"], "causal".__eq__)
    screen.wait_idle(page)
    assert page.locator(".st-key-padding").count() == 0  # hidden with a causal mask
    learner.go_to(page, "Dropout")
    learner.choose(page, "mask", "padding at the end")
    screen.wait_for(page, lambda p: p.locator(".st-key-padding input").count(), (1).__eq__)
    screen.wait_idle(page)
    assert expected.link_setting(page, "padding", 3) == 3
    assert learner.number_value(page, "padding") == "3"
    assert screen.heatmap(page, EVALUATION) == evaluation_cells(page.url)

    before = screen.heatmap(page, EVALUATION)
    page.locator(".st-key-padding button").last.click()  # the box's "+"
    screen.after_change(page, lambda p: screen.heatmap(p, EVALUATION), before)
    assert expected.link_setting(page, "padding", 4) == 4
    assert learner.number_value(page, "padding") == "4"
    assert screen.heatmap(page, EVALUATION) == evaluation_cells(page.url)


def test_the_head_shown_stays_when_the_learner_chooses_the_heads_twice(server, page):
    """Issue 39, item 4: head 3 of 4, then 2 heads (head 2, said in a notice), then 4 heads
    again: head 2 stays on the radio, in the link and in the numbers, with no notice."""
    screen.open_page(page, f"{server}/?d_out=8&heads=4")
    learner.click_radio(page, "head", "head 3")
    screen.wait_for(page, lambda p: expected.settings_of(p.url)["head"], (3).__eq__)
    for heads, head in ((2, 2), (4, 2)):
        learner.choose(page, "heads", str(heads))
        screen.wait_for(page, lambda p: expected.settings_of(p.url)["heads"], heads.__eq__)
        screen.wait_idle(page)
        settings = expected.settings_of(page.url)
        assert settings["head"] == head
        chosen = page.locator(".st-key-head label:has(input[type=radio]:checked)")
        assert chosen.inner_text().strip() == f"head {head}"
        trace = expected.trace_of(settings)
        shown = screen.heatmap(page, "attention weights")
        assert shown == expected.weight_cells(settings, trace, head - 1)
        said = [w for w in screen.warnings(page) if "chosen before" in w]
        assert said == []
