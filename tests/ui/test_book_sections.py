"""Each lesson names, in its title row, the part of the book it follows (issue 53)."""

from __future__ import annotations

from tests.ui.apptest import open_page
from ui.blocks.book_section import OTHER, SECTIONS, book_section
from ui.session import nav


def test_every_lesson_of_the_chapter_names_its_section_and_no_other_page_does():
    keys = {page.key for page in nav.PAGES}
    assert set(SECTIONS) | set(OTHER) <= keys  # no section names a page that is gone
    lessons = [f"{n}_" for n in range(1, 14)]  # every lesson follows the book (or Nugues)
    for key in keys:
        named = book_section(key)
        if any(key.startswith(number) for number in lessons):
            assert named, key
        elif not key[:1].isdigit():
            assert named is None, key  # the Playground, Flow and Compare follow no one section


def test_the_causal_mask_lesson_shows_section_3_5_1_in_both_languages():
    for lang, text in (("en", "The book, §3.5.1"), ("zh_CN", "书中 §3.5.1")):
        at = open_page("5_Causal_mask", {"lang": lang})
        assert [m.value for m in at.markdown if "§" in m.value] == [f":blue-badge[{text}]"]
