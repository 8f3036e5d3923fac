"""Each lesson names, in its title row, the part of the book it follows (issue 53)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.ui.apptest import open_page
from translation import _, speaking
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


HEADER = re.compile(r"show_header\(\s*page,\s*_\(\s*((?:\"[^\"]*\"\s*)+)\)", re.DOTALL)


def _heading(page: nav.PageInfo) -> str | None:
    """The page's title as its file writes it (the first words ``show_header`` gets)."""
    found = HEADER.search(Path(page.path).read_text(encoding="utf-8"))
    return None if found is None else "".join(re.findall(r"\"([^\"]*)\"", found.group(1)))


def test_every_pages_title_starts_with_its_name_in_the_pages_menu():
    """Issue 65: the menu said "1 · Embeddings" and the title "1 · Tokens as vectors"; page 10
    was labelled "The book, §3.6" for a pretrained model's attention. In English and Chinese
    a title now starts with the menu's name (Chinese marks word ends with zero-width spaces,
    which the menu's short names leave out)."""
    headed = [(page, _heading(page)) for page in nav.PAGES if page.path != "streamlit_app.py"]
    assert all(heading for _page, heading in headed), headed
    for code in ("en", "zh_CN"):
        with speaking(code):
            for page, heading in headed:
                title = _(heading).replace("\u200b", "")
                assert title.startswith(_(page.title).replace("\u200b", "")), (code, title)
    assert book_section("10_Real_sentences") == "a pretrained model, all-MiniLM-L6-v2"
