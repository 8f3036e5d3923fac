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
# What a test may leave in the learner's browser for the next: Streamlit keeps the sidebar's
# width and state and the theme in localStorage.
_FORGET_JS = "() => { localStorage.clear(); sessionStorage.clear(); }"


@pytest.fixture(scope="session")
def learners_browser(browser):
    """One browser profile for the tests' first tabs, as a learner's own browser is: it keeps
    Streamlit's scripts in its cache (a page opens in 0.1 s instead of 0.75 s and is drawn
    about 0.5 s sooner), and nothing else, since each test's cookies and storage are cleared.
    A link "opened elsewhere" still goes to a new context of its own (``fresh_page`` or
    ``browser.new_context``): another machine, with a cold cache."""
    context = browser.new_context(viewport=VIEWPORT)
    yield context
    context.close()


@pytest.fixture
def page(learners_browser):
    """A new tab at 1280 x 720 in the learner's browser, with no cookies or storage left by
    another test (each page load is a new Streamlit session)."""
    page = learners_browser.new_page()
    yield page
    try:
        if page.url.startswith("http"):
            page.evaluate(_FORGET_JS)
    finally:
        page.close()
        learners_browser.clear_cookies()


@pytest.fixture
def fresh_page(browser):
    """A tab in a fresh browser context (no cache, cookies or storage) at 1280 x 720: for a
    test that must see every request of a first visit."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    yield page
    context.close()
