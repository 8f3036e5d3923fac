"""The app's entry point and pages, for tests that visit all of them."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(
    (str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py")),
    key=lambda name: int(Path(name).stem.split("_", 1)[0]),
)
PAGE_FILES = ["streamlit_app.py", *LESSONS]
