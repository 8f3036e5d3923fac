"""Shared helpers for the AppTest suites."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py"))


def open_app(page: str = "streamlit_app.py", params: dict[str, str] | None = None) -> AppTest:
    """Run a page from a fresh session (as after a deep link, when params are given)."""
    app = AppTest.from_file(str(ROOT / page), default_timeout=30)
    for key, value in (params or {}).items():
        app.query_params[key] = value
    app.run()
    return app


def edit_matrix(app: AppTest, edited_rows=None, added_rows=None, deleted_rows=None) -> AppTest:
    """Simulate an edit of the data editor by seeding its session-state key, then rerun."""
    key = f"matrix_editor_{app.session_state['_editor_version']}"
    app.session_state[key] = {
        "edited_rows": edited_rows or {},
        "added_rows": added_rows or [],
        "deleted_rows": deleted_rows or [],
    }
    return app.run()


def latex_vector(app: AppTest, index: int = 0) -> list[float]:
    """The result vector at the end of a context formula: [a, b, ...]."""
    text = app.latex[index].value
    last = re.findall(r"\[([-\d., ]+)\]", text)[-1]
    return [float(v) for v in last.split(",")]


def messages(app: AppTest) -> list[str]:
    """Every error, warning and info text on the page."""
    return [e.value for e in (*app.error, *app.warning, *app.info)]


def table_with(app: AppTest, column: str):
    """The first table on the page that has ``column``."""
    for frame in app.dataframe:
        if column in frame.value.columns:
            return frame.value
    raise AssertionError(f"no table with a column {column!r}")
