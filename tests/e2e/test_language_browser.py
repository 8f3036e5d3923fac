"""The app in the learner's language, in Chromium: a link in Chinese, a slider and a cell
edited there with the core's numbers read from the screen, another learner on the same
server still in English, a browser set to Chinese, and the language menu.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e import expected, learner, screen
from tests.e2e.conftest import VIEWPORT

pytestmark = pytest.mark.e2e

CJK = re.compile(r"[\u4e00-\u9fff]")
DECIMAL = re.compile(r"[−-]?\d+\.\d+")
ENGLISH_TITLE = "Self-attention playground"


def decimals(text: str) -> list[str]:
    """The decimal numbers of a sentence, in order, whatever its language."""
    return [n.replace("−", "-") for n in DECIMAL.findall(text)]


def expected_decimals(link: str) -> list[str]:
    """The decimals of the focused query's sentence, computed by the core for this link."""
    return decimals(expected.summary(expected.settings_of(link)))


def title(page) -> str:
    return page.locator("h1").first.inner_text()


def page_language(page) -> str:
    return page.evaluate("() => document.documentElement.lang")


def test_a_learner_works_in_chinese_while_another_stays_in_english(browser, server, page):
    screen.open_page(page, f"{server}/?lang=zh_CN")
    assert CJK.search(title(page)), title(page)
    assert page_language(page) == "zh-CN"
    sidebar = page.locator(screen.SIDEBAR).inner_text()
    assert CJK.search(sidebar) and "Presentation mode" not in sidebar
    assert decimals(screen.summary_text(page)) == expected_decimals(screen.share_link(page))

    # A slider, then a cell: each time the numbers on the screen are the core's.
    before = screen.summary_text(page)
    learner.press_slider(page, "d_out")
    screen.after_change(page, screen.summary_text, before)
    link = screen.share_link(page)
    assert "d_out=3" in link and "lang=zh_CN" in link
    assert decimals(screen.summary_text(page)) == expected_decimals(link)
    before = screen.summary_text(page)
    learner.type_in_cell(page, 0, 1, "0.9")
    screen.after_change(page, screen.summary_text, before)
    link = screen.share_link(page)
    assert "x=" in link and "lang=zh_CN" in link
    assert decimals(screen.summary_text(page)) == expected_decimals(link)
    assert CJK.search(title(page))

    # Another learner on the same server, at the same moment: English.
    other = browser.new_context(viewport=VIEWPORT, locale="en-US")
    try:
        tab = other.new_page()
        screen.open_page(tab, server)
        assert title(tab) == ENGLISH_TITLE
        assert page_language(tab) == "en"
        assert "lang=" not in screen.share_link(tab)
        # ...and the first learner's link, opened there, is in Chinese with the same numbers.
        screen.open_page(tab, link)
        assert CJK.search(title(tab))
        assert decimals(screen.summary_text(tab)) == expected_decimals(link)
    finally:
        other.close()
    assert CJK.search(title(page))  # the first learner's page did not change meanwhile


def test_a_browser_in_chinese_opens_in_chinese_and_the_menu_switches_to_english(browser, server):
    context = browser.new_context(viewport=VIEWPORT, locale="zh-CN")
    try:
        page = context.new_page()
        screen.open_page(page, f"{server}/Scaling")
        assert CJK.search(title(page)), title(page)
        assert "lang=zh_CN" in screen.share_link(page)  # a shared link opens in Chinese
        heading = title(page)
        page.locator(".st-key-language_menu button").first.click()
        page.locator(".st-key-lang").get_by_text("English", exact=True).click()
        screen.after_change(page, title, heading)
        assert not CJK.search(title(page)), title(page)
        assert page_language(page) == "en"
        # English chosen over the browser's Chinese: the link says so.
        assert "lang=en" in screen.share_link(page)
    finally:
        context.close()
