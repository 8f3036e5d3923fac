"""Real Chromium: four paths on which the widgets, the numbers and the link stopped agreeing
(issue 69), each walked from a fresh tab and checked at its end, and again once the page has
run by itself a few times more (in a class, the teacher's bar reruns every two seconds, and
that rerun is what sent a wrong widget to the whole class):

1. Teaching, the join slide and back to the lesson kept d_out, the scaling, the mask and
   Flow's stage (the page stops before its knobs while the slide is up; drawn again, the
   knobs started at their first values).
2. Teaching, opening the language menu keeps Chinese (the menu's choice, never drawn by the
   browser until opened, came with English).
3. Teaching, the browser's Back leaves the page the Pages menu opened (the class code was
   written into the link after the page opened, one more step for Back).
4. A cell typed in the matrix survives a switch to Chinese, and the next edit keeps it (the
   grid with translated column titles was another grid, drawn from the matrix it started
   from).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError

import translation
from attention_core.knobs.table import PARAMS
from tests.e2e import expected, learner, screen
from tests.e2e.test_flow_browser import picture_stage, url_stage, wait_for_stage
from ui.session import nav

pytestmark = pytest.mark.e2e

FRONT = ("d_out", "scaling", "mask", "dropout")  # the Playground's knobs above its results
# None of them at its first value, the panel's tab included.
LESSON = "?d_out=4&scaling=d&mask=causal&dropout=0.2&panel=scores"
TIMER_REPLIES = 6  # the server's messages of at least two runs of the teacher's bar


def playground_differences(page) -> dict[str, tuple[str, str]]:
    """Where the Playground disagrees with its own link: each front knob's widget, the open
    panel, and the focused query's result against the core's for the link's settings (its
    numbers, in whatever language the page speaks)."""
    found = expected.control_disagreements(screen.controls(page, FRONT), page.url)
    found |= {name: ("not drawn", "") for name in FRONT if name not in screen.controls(page, FRONT)}
    settings = expected.settings_of(page.url)
    tab = page.locator('[data-testid="stTab"][aria-selected="true"]').first.inner_text().strip()
    with translation.speaking(settings["lang"]):
        panel = PARAMS["panel"].choice_label(settings["panel"])
    if tab != panel:
        found["panel"] = (tab, panel)
    numbers = re.compile(screen.NUMBER)
    head = min(int(settings["head"]), int(settings["heads"])) - 1  # the head shown
    summary, wanted = screen.summary_text(page), expected.summary(settings, head=head)
    if numbers.findall(summary) != numbers.findall(wanted):
        found["numbers"] = (summary, wanted)
    return found


def later(page) -> None:
    """Let the page run by itself (the teacher's bar every two seconds): wait until the
    server has sent the messages of at least two more runs, then for the page to settle."""
    before = page.evaluate("() => window.__replies")
    heard = screen.wait_for(
        page,
        lambda p: p.evaluate("() => window.__replies"),
        lambda n: n >= before + TIMER_REPLIES,
    )
    assert heard >= before + TIMER_REPLIES, "the teacher's bar did not run by itself"
    screen.wait_ready(page)


def teach(page) -> str:
    """Start a class from the Class menu; returns its code, once the teacher's bar names it."""
    start = page.get_by_role("dialog").locator(".st-key-class_start button").first
    for _ in range(3):  # a click during a rerun (after Back, the language) can be swallowed
        page.locator(".st-key-class_menu button").first.click()
        try:
            start.wait_for(timeout=10_000)
            break
        except PlaywrightError:
            continue
    start.click()
    screen.wait_for(page, lambda p: "class=" in p.url, bool)
    screen.wait_ready(page)
    return re.search(r"class=(\w+)", page.url).group(1)


def join_slide_and_back(page, opener: str) -> None:
    """Open the join slide with the button ``opener`` (a key), then go back to the lesson."""
    page.locator(f".st-key-{opener} button").first.click()
    back = page.locator(".st-key-join_slide_back button").first
    back.wait_for(timeout=30_000)
    screen.wait_idle(page)
    back.click()
    page.locator(".st-key-join_slide").wait_for(state="detached", timeout=30_000)
    screen.wait_ready(page)


def test_the_join_slide_keeps_the_lesson_its_knobs_and_flows_stage(server, learners_browser):
    page = screen.link_tab(learners_browser, f"{server}/{LESSON}")
    try:
        teach(page)
        assert playground_differences(page) == {}
        join_slide_and_back(page, "class_bar_slide")
        assert "d_out=4" in page.url and "mask=causal" in page.url, page.url
        assert playground_differences(page) == {}
        later(page)
        assert "d_out=4" in page.url and "scaling=d" in page.url, page.url
        assert playground_differences(page) == {}
        # The same from the class dialog's own button.
        page.locator(".st-key-class_menu button").first.click()
        page.get_by_role("dialog").wait_for(state="visible")
        join_slide_and_back(page, "class_slide")
        later(page)
        assert playground_differences(page) == {}
        # Flow's stage, a lesson's own knob.
        learner.go_to(page, "Flow")
        screen.wait_ready(page)
        page.evaluate("document.activeElement?.blur()")
        page.keyboard.press("ArrowRight")
        wait_for_stage(page, 2)
        page.keyboard.press("ArrowRight")
        wait_for_stage(page, 3)
        join_slide_and_back(page, "class_bar_slide")
        later(page)
        assert url_stage(page) == picture_stage(page) == 3
        assert expected.control_disagreements(screen.controls(page, ["stage"]), page.url) == {}
        assert screen.controls(page, ["stage"])["stage"]["value"].startswith("3 ")
        assert "d_out=4" in page.url, page.url
    finally:
        page.close()


def test_teaching_the_language_menu_keeps_chinese_and_back_leaves_the_page(
    server, learners_browser
):
    """Paths 2 and 3 in one class: the language menu opened, then a page of the Pages menu
    and the browser's Back."""
    page = screen.link_tab(learners_browser, f"{server}/Flow?lang=zh_CN")
    try:
        code = teach(page)
        heading = page.locator("h1").first.inner_text()
        menu = learner.open_language_menu(page)
        chosen = menu.locator("label:has(input:checked)").inner_text().strip()
        assert chosen == translation.LANGUAGES["zh_CN"]
        page.keyboard.press("Escape")
        later(page)
        assert "lang=zh_CN" in page.url, page.url
        assert page.locator("h1").first.inner_text() == heading
        assert page.evaluate("document.documentElement.lang") == "zh-CN"
        # Path 3: the Pages menu's 4 · Scaling, then Back to Flow.
        learner.open_page_menu(page).nth(nav.PAGES.index(nav.BY_KEY["4_Scaling"])).click()
        screen.wait_for(page, lambda p: "/Scaling" in p.url, bool)
        screen.wait_ready(page)
        assert f"class={code}" in page.url and "lang=zh_CN" in page.url, page.url
        page.go_back()
        screen.wait_for(page, lambda p: p.locator("h1").first.inner_text(), lambda h: h == heading)
        screen.wait_ready(page)
        assert "/Flow" in page.url and f"class={code}" in page.url, page.url
        later(page)
        assert page.locator("h1").first.inner_text() == heading
        assert expected.control_disagreements(screen.controls(page, ["stage"]), page.url) == {}
    finally:
        page.close()


def test_a_typed_cell_survives_a_switch_to_chinese_and_the_next_edit(server, learners_browser):
    """Path 4, with a panel open that is not the first: its tab stays open in Chinese (the
    browser walk found it fall back to the first tab, whose label had changed)."""
    page = screen.link_tab(learners_browser, server)
    try:
        page.locator('[data-testid="stTab"]').filter(has_text="Reproduce in PyTorch").click()
        screen.wait_for(page, lambda p: "panel=code" in p.url, bool)
        screen.wait_ready(page)
        before = screen.summary_text(page)
        learner.type_in_cell(page, 0, 3, "1.2")
        screen.after_change(page, screen.summary_text, before)
        learner.open_language_menu(page).get_by_text(
            translation.LANGUAGES["zh_CN"], exact=True
        ).click()
        screen.wait_for(page, lambda p: "lang=zh_CN" in p.url, bool)
        screen.wait_ready(page)
        assert float(screen.grid_texts(page)[1][3]) == 1.2
        assert expected.settings_of(page.url).rows[0][2] == 1.2
        # The learner's next edit, in another cell, keeps the first one.
        before = screen.summary_text(page)
        learner.type_in_cell(page, 1, 1, "0.5")
        screen.after_change(page, screen.summary_text, before)
        rows = expected.settings_of(page.url).rows
        assert (rows[0][2], rows[1][0]) == (1.2, 0.5), rows[:2]
        grid = screen.grid_texts(page)
        assert (float(grid[1][3]), float(grid[2][1])) == (1.2, 0.5), grid[:3]
        # The result, in Chinese, states the core's numbers for the link's matrix.
        assert playground_differences(page) == {}
    finally:
        page.close()
