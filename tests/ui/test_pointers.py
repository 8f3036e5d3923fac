"""The teacher's line for each page in presentation mode (issue 52): one table, every page."""

from __future__ import annotations

import translation
from ui.blocks.pointers import POINTERS
from ui.session import nav


def test_every_page_has_a_line_to_point_at():
    """A page added to nav.PAGES without its line here fails this test, not the app (which
    then shows no line)."""
    missing = [page.key for page in nav.PAGES if page.key not in POINTERS]
    assert missing == [], f"add a line to ui/blocks/pointers.py for {missing}"
    assert sorted(POINTERS) == sorted(page.key for page in nav.PAGES)  # no line for no page


def test_each_line_is_one_short_sentence_in_every_language():
    for key, line in POINTERS.items():
        chinese = translation.catalog("zh_CN").get(line)
        assert isinstance(chinese, str) and chinese, (key, "not translated")
        for text in (line, chinese):
            assert "\n" not in text and len(text) <= 110, (key, text)
