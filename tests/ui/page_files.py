"""The app's entry point and pages, for tests that visit all of them."""

from __future__ import annotations

from pathlib import Path

from ui.session.nav import PAGES

ROOT = Path(__file__).resolve().parents[2]
PAGE_FILES = [page.path for page in PAGES]  # the app's own list, in its order
