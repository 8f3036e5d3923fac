"""Every page of the app, as a learner reaches it: its deep link and what it prints."""

from __future__ import annotations

import re

from ui.session.nav import PAGES

PATHS = {page.key: page.url_path for page in PAGES}  # page file stem -> deep link path
LESSONS = [path for path in PATHS.values() if path]
BROKEN_NUMBERS = re.compile(r"\bnan\b|\binf\b|traceback", re.IGNORECASE)


def url(server: str, path: str, query: str = "") -> str:
    """A deep link: ``server/path?query``."""
    return f"{server}/{path}" + (f"?{query}" if query else "")


def decimals_of(texts) -> set[int]:
    """How many decimals the numbers among ``texts`` are printed with."""
    found = set()
    for text in texts:
        for number in re.findall(r"(?<![\w.])−?[0-9]+\.([0-9]+)(?![\w.])", text):
            found.add(len(number))
    return found
