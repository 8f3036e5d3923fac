"""The layout follows the page's width, never the browser's name (issue 66).

Only the browser knows its width: a laptop's browser made 390 px wide (or a phone asking for
the desktop site) must get a phone's layout, an iPad calling itself a Mac a tablet's, and a
window resized across the phone's breakpoint the other layout, with every setting kept. The
phone layout itself (14 px type, fewer decimals when a chart would not fit) is checked where it
is cheapest, ``tests/ui/test_phone_charts.py``; here, that the browser's width chooses it.
"""

from __future__ import annotations

import pytest

from tests.e2e import screen
from tests.e2e.test_screens_browser import weights_now

pytestmark = pytest.mark.e2e

DESKTOP_AGENT = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/130.0.0.0 Safari/537.36"
)
IPAD_AGENT = (  # iPadOS Safari asks for the desktop site by default: it says it is a Mac
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Safari/605.1.15"
)
LINK = "/?d_out=4&scaling=d&query=3"
WEIGHTS_CHART = '[data-testid="stVegaLiteChart"][aria-label^="Attention weights"]'
# Each chart's right edge past its column's (a chart drawn wider than its column is cut by its
# scroll box), and where it starts.
CHARTS_JS = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].map((c) => {
  const svg = c.querySelector('svg');
  const holder = c.closest('[data-testid="stElementContainer"]');
  const box = svg ? svg.getBoundingClientRect() : null;
  return {
    title: c.getAttribute('aria-label') || '',
    past: box ? Math.round(box.right - holder.getBoundingClientRect().right) : null,
    top: box ? Math.round(box.top + window.scrollY) : null,
    left: box ? Math.round(box.left) : null,
  };
})"""
LAYOUT_JS = """(sel) => {
  const chart = document.querySelector(sel);
  const svg = chart && chart.querySelector('svg');
  const main = document.querySelector('[data-testid="stMain"]');
  const texts = svg ? [...svg.querySelectorAll('text')].map(
      (t) => parseFloat(getComputedStyle(t).fontSize) * svg.getBoundingClientRect().width
             / (svg.viewBox.baseVal.width || svg.getBoundingClientRect().width)) : [];
  return {
    chart: svg ? Math.round(svg.getBoundingClientRect().width) : 0,
    least_text: texts.length ? Math.round(Math.min(...texts) * 10) / 10 : 0,
    page_scroll: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    main_scroll: main ? main.scrollWidth - main.clientWidth : 0,
  };
}"""


def layout(page) -> dict:
    """What the layout decides, as drawn: the weights chart's width and least text, its
    decimals, and whether anything scrolls sideways."""
    cells = weights_now(page)
    decimals = {len(t.split(".")[1]) for t in cells.values() if "." in t}
    return {**page.evaluate(LAYOUT_JS, WEIGHTS_CHART), "decimals": sorted(decimals)}


def settled(page) -> dict:
    """The layout once the page has stopped changing (a measured width reruns it once)."""
    screen.wait_ready(page)
    return screen.wait_for(page, layout, lambda seen: seen == layout(page), timeout=20)


def open_as(browser, server: str, **device):
    context = browser.new_context(**device)
    page = context.new_page()
    screen.open_page(page, server + LINK)
    return page


def test_a_390_px_browser_is_laid_out_as_a_phone_whatever_it_calls_itself(server, browser):
    phone = open_as(browser, server, **screen.PHONE)
    desktop = open_as(
        browser, server, viewport={"width": 390, "height": 844}, user_agent=DESKTOP_AGENT
    )
    try:
        as_phone, as_desktop = settled(phone), settled(desktop)
        assert as_desktop == as_phone, (as_desktop, as_phone)
        assert as_phone["decimals"] == [2] and as_phone["least_text"] >= 14, as_phone
        assert as_phone["chart"] <= 390, as_phone
        # Nothing scrolls sideways: an invisible box a column wide once made every page 16 px
        # wider than a phone.
        assert (as_phone["page_scroll"], as_phone["main_scroll"]) == (0, 0), as_phone
        assert screen.share_link(desktop) == screen.share_link(phone)
    finally:
        phone.context.close()
        desktop.context.close()


def test_a_window_resized_across_the_phones_width_changes_layout_and_keeps_its_settings(
    page, server
):
    screen.open_page(page, server + LINK)
    wide = settled(page)
    link = screen.share_link(page)
    assert wide["decimals"] == [4], wide
    page.set_viewport_size({"width": 480, "height": 720})
    narrow = screen.wait_for(page, layout, lambda seen: seen["decimals"] == [2], timeout=20)
    narrow = settled(page)
    assert narrow["decimals"] == [2] and narrow["least_text"] >= 14, narrow
    assert screen.share_link(page) == link  # every setting kept
    page.set_viewport_size({"width": 1280, "height": 720})
    screen.wait_for(page, layout, lambda seen: seen["decimals"] == [4], timeout=20)
    assert settled(page) == wide
    assert screen.share_link(page) == link


def test_an_ipad_that_calls_itself_a_mac_gets_a_tablets_page_with_nothing_cut(server, browser):
    ipad = open_as(
        browser,
        server,
        viewport={"width": 820, "height": 1180},
        user_agent=IPAD_AGENT,
        has_touch=True,
    )
    try:
        seen = settled(ipad)
        assert seen["decimals"] == [4], seen
        assert seen["chart"] <= 820, seen
        assert (seen["page_scroll"], seen["main_scroll"]) == (0, 0), seen
        # Its column (the sidebar open) is 488 px: every chart is drawn for it, none cut.
        assert [c for c in charts(ipad) if c["past"] is None or c["past"] > 1] == []
    finally:
        ipad.context.close()


def charts(page) -> list[dict]:
    """Every chart drawn, with how far it reaches past its column (pixels) and where it is."""
    return page.evaluate(CHARTS_JS)


def test_charts_are_drawn_for_the_column_the_sidebar_leaves_and_again_when_it_folds(page, server):
    """A laptop at 1024 px with the sidebar open leaves a 564 px column: Compare's A and B
    are drawn for it, whole, one under the other, instead of a laptop's pair cut at the edge.
    Folded, the column is a laptop's again: A and B side by side. Every setting kept."""
    page.set_viewport_size({"width": 1024, "height": 768})
    screen.open_page(page, server + "/Compare?pin=seed%3D7%26mask%3Dcausal&d_out=4")
    link = screen.share_link(page)

    def pair(seen: list[dict]) -> tuple[dict, dict] | None:
        found = [
            c
            for c in seen
            if c["title"].startswith(("Attention weights of A", "Attention weights of B"))
        ]
        return (found[0], found[1]) if len(found) == 2 and found[1]["top"] is not None else None

    def stacked(seen: list[dict]) -> bool:
        return pair(seen) is not None and pair(seen)[1]["top"] > pair(seen)[0]["top"]

    screen.wait_for(page, charts, stacked, timeout=20)
    screen.wait_idle(page)
    opened = charts(page)
    assert stacked(opened), opened  # one under the other
    assert [c["title"][:30] for c in opened if c["past"] is None or c["past"] > 1] == []
    page.locator(screen.SIDEBAR).hover()  # its arrow shows on hover
    page.locator('[data-testid="stSidebarCollapseButton"] button').click()
    screen.wait_for(page, charts, lambda seen: pair(seen) is not None and not stacked(seen))
    screen.wait_idle(page)
    folded = charts(page)
    a, b = pair(folded)
    assert (b["top"], b["left"] > a["left"]) == (a["top"], True), (a, b)  # side by side
    assert [c["title"][:30] for c in folded if c["past"] is None or c["past"] > 1] == []
    assert screen.share_link(page) == link
