"""Every page of the app, as a learner reaches it: its deep link and what it prints."""

from __future__ import annotations

import re

from tests.budget import in_rotation
from ui.session.nav import PAGES

PATHS = {page.key: page.url_path for page in PAGES}  # page file stem -> deep link path
LESSONS = [path for path in PATHS.values() if path]
# One page per way of drawing a link's text in the browser, for the browser's per-page link
# tests: pages 2, 3, 4, 6 and 8 draw theirs with the Playground's heatmaps, formulas and
# notices, so their links are checked in AppTest on every page (tests/ui/test_escaping.py,
# tests/ui/test_link_fuzz.py) and in the browser through those pages.
SAME_AS_PLAYGROUND = {
    "2_Simplified_attention",
    "3_Trainable_weights",
    "4_Scaling",
    "6_Dropout",
    "8_Common_mistakes",
}
DRAWN_APART = {key: path for key, path in PATHS.items() if key not in SAME_AS_PLAYGROUND}
# The Playground and half the others in turn (``tests.budget.in_rotation``: the other half the
# next day, all of them in the thorough profile), for the browser's checks of each kind of page.
DRAWN_APART_IN_TURN = {
    key: path for n, (key, path) in enumerate(DRAWN_APART.items()) if n == 0 or in_rotation(n)
}
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
