"""The house's rules that import-linter cannot see (its contracts are in pyproject.toml).

Only ``ui/session`` touches the session's state and the link; the app's page list is every
page file; and the tests' tables of pages name the app's pages, so that a page added or
renamed is seen by every test that walks the pages.
"""

from __future__ import annotations

import ast
from pathlib import Path

from attention_core.knobs.table import PARAMS
from tests.ui import oracle, test_pages
from ui.session.nav import BY_KEY, PAGES

ROOT = Path(__file__).resolve().parents[2]
STATE = {"session_state", "query_params"}  # st.session_state, st.query_params


def uses_of_state(path: Path) -> list[str]:
    """Where a file reads or writes ``st.session_state`` or ``st.query_params`` (as an
    attribute, or imported by name), as ``file:line``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        named = isinstance(node, ast.Attribute) and node.attr in STATE
        imported = isinstance(node, ast.ImportFrom) and any(a.name in STATE for a in node.names)
        if named or imported:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def app_files() -> list[Path]:
    folders = ("ui", "pages", "attention_core", "real_model")
    return [ROOT / "streamlit_app.py", *(p for f in folders for p in (ROOT / f).rglob("*.py"))]


def test_only_ui_session_touches_the_session_state_and_the_link():
    session = ROOT / "ui" / "session"
    outside = [use for p in app_files() if session not in p.parents for use in uses_of_state(p)]
    inside = [use for p in session.glob("*.py") for use in uses_of_state(p)]
    assert outside == []
    assert len(inside) > 10  # the search does find them where they belong


def test_the_apps_page_list_is_every_page_file():
    files = {"streamlit_app.py", *(f"pages/{p.name}" for p in (ROOT / "pages").glob("*.py"))}
    assert PAGES[0].path == "streamlit_app.py"  # the home page first
    assert {page.path for page in PAGES} == files
    assert len({page.url_path for page in PAGES}) == len(PAGES)


def test_the_tests_tables_of_pages_name_the_apps_pages():
    pages = set(BY_KEY)
    assert set(oracle.CHECKS) == pages  # every page has its numbers checked
    assert set(test_pages.INTERACTIONS) == pages  # every page is changed through a widget
    assert set(test_pages.ANNOUNCED) <= pages
    with_lesson_knobs = {p.page for p in PARAMS.values() if p.scope == "lesson"}
    assert set(test_pages.LESSON) == with_lesson_knobs  # every lesson knob is in a link
