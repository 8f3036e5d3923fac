"""Fixtures for the real-browser tests: a `streamlit run` server and Debian's Chromium."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.server import start_server, stop_server

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """A real `streamlit run streamlit_app.py`, with the agent API for HTTP-driven sessions."""
    try:
        process, url = start_server(extra=("--server.enableAgentApi", "true"))
    except RuntimeError as error:
        pytest.fail(str(error))
    yield url
    stop_server(process)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright; skipped, with the reason, where it is missing."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.skip(f"no Chromium at {CHROMIUM}: install Debian's 'chromium' to run browser tests")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


VIEWPORT = {"width": 1280, "height": 720}


@pytest.fixture(scope="session")
def learners_browser(browser):
    """One browser profile for the tests' first tabs, as a learner's own browser is: it keeps
    Streamlit's scripts in its cache (a page opens in 0.1 s instead of 0.75 s and is drawn
    about 0.5 s sooner), and nothing else, since each test's cookies and storage are cleared.
    A link "opened elsewhere" still goes to a new context of its own (``fresh_page`` or
    ``browser.new_context``): another machine, with a cold cache."""
    context = browser.new_context(viewport=VIEWPORT)
    context.visited = set()  # the origins its tabs have shown: their storage is cleared

    def follow(tab) -> None:
        tab.on("framenavigated", lambda frame: _visited(context, frame))

    context.on("page", follow)
    yield context
    context.close()


def _visited(context, frame) -> None:
    if frame.parent_frame is None and frame.url.startswith("http"):
        scheme, _, rest = frame.url.partition("://")
        context.visited.add(f"{scheme}://{rest.split('/', 1)[0]}")


def forget_storage(context) -> None:
    """Clear the localStorage and sessionStorage of every origin ``context``'s tabs have shown
    (Chromium's Storage.clearDataForOrigin clears both). Streamlit keeps the sidebar's fold in
    localStorage and every new session of that origin opens with it: s10, r41 and a CI run
    failed on a sidebar box "outside the window" when the page audit's tab (a second tab of
    this browser, kept for its module, never the ``page`` that cleared its own origin) had
    folded the sidebar on the server's origin; the worker's next tests opened folded."""
    if not context.visited or not context.pages:
        return
    cdp = context.new_cdp_session(context.pages[0])
    try:
        for origin in sorted(context.visited):
            cdp.send(
                "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "local_storage"}
            )
    finally:
        cdp.detach()


@pytest.fixture(autouse=True)
def _forget_learners_storage(request) -> Iterator[None]:
    """After every test that used the learner's browser (its worker's tab, or tabs of its own
    in that browser), nothing of its storage is left for the next: on any origin, from any tab.
    (Torn down after ``page``, which has already left the app: no run writes after this.)"""
    yield
    if "learners_browser" in request.fixturenames:
        context = request.getfixturevalue("learners_browser")
        forget_storage(context)
        context.clear_cookies()


@pytest.fixture(scope="session")
def _learners_tab(learners_browser):
    """The worker's one tab, kept from test to test (see ``page``)."""
    holder = {"tab": learners_browser.new_page()}
    yield holder
    if not holder["tab"].is_closed():
        holder["tab"].close()


@pytest.fixture
def page(_learners_tab, learners_browser):
    """The learner's tab at 1280 x 720, with no cookies or storage left by another test.

    One tab serves every test of a worker, as a learner keeps one tab open: a test's first
    ``goto`` is then a new session in a tab whose renderer has already compiled Streamlit's
    scripts (measured: 1.7 s of Chromium's CPU instead of 2.5 s for a new tab,
    ``bench/profile_visit.py``). Each page load is still a new Streamlit session. What a test
    may leave in the tab is undone here: the page itself (the next test opens its own), its
    routes and its window size; its cookies and storage (Streamlit's sidebar width and fold,
    the theme) on every origin by ``_forget_learners_storage``."""
    tab = _learners_tab["tab"]
    if tab.is_closed():
        tab = _learners_tab["tab"] = learners_browser.new_page()
    yield tab
    if tab.is_closed():
        return
    try:
        tab.unroute_all(behavior="ignoreErrors")
        if tab.viewport_size != VIEWPORT:
            tab.set_viewport_size(VIEWPORT)
        # Leave the app, so that its session ends now and nothing of it runs during the next
        # test (an empty document: the next goto loads the app as a learner's link does).
        tab.goto("about:blank")
    except Exception:  # a broken tab is replaced, not reused
        tab.close()


@pytest.fixture
def fresh_page(browser):
    """A tab in a fresh browser context (no cache, cookies or storage) at 1280 x 720: for a
    test that must see every request of a first visit."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    yield page
    context.close()
