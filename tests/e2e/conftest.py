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


@pytest.fixture
def page(browser):
    """A fresh browser context (no shared cookies or storage) at 1280 x 720."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    yield page
    context.close()
