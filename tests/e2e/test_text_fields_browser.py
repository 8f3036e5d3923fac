"""Real Chromium: text pasted into a text field is read by the server, whatever its length.

Streamlit's ``max_chars`` made the browser drop a longer paste without a word: the field kept
its old text, and the GloVe import then used the old words. The server now names the problem
and keeps the last valid text, as it does for a link.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from tests.e2e import expected, screen

pytestmark = pytest.mark.e2e

LONG = (
    "The ship sailed across the wine dark sea while the crew slept below deck and the captain "
    "watched the stars turning slowly overhead as the wind rose and fell through the long "
    "night before they finally reached"
)
DEFAULT_SENTENCE = "I must go back to my ship and to my crew"


def linked(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query)


def test_a_sentence_pasted_over_the_limit_is_named_and_the_last_one_kept(server, page):
    screen.open_page(page, f"{server}/Word_vectors")
    field = page.locator(".st-key-sentence input")
    before = screen.cell_texts(page)
    assert len(LONG) == 207 and before

    field.fill(LONG)
    field.press("Enter")
    said = screen.wait_for(page, screen.alerts, lambda a: any("207 characters" in t for t in a))
    notice = [t for t in said if "207 characters" in t]
    assert "Sentence: it has 207 characters; at most 200. Using I must go" in notice[0]
    screen.wait_for(page, lambda p: field.input_value(), lambda v: v == DEFAULT_SENTENCE)
    assert screen.cell_texts(page) == before  # the last valid sentence's numbers
    assert "sentence" not in linked(screen.share_link(page))

    field.fill(LONG[:106])  # within the limit: taken, and the notice goes
    field.press("Enter")
    screen.after_change(page, screen.cell_texts, before)
    assert linked(screen.share_link(page))["sentence"] == [LONG[:106]]
    assert not any("characters" in t for t in screen.alerts(page))


def test_too_many_real_words_are_named_and_the_matrix_kept(server, page):
    screen.open_page(page, server)
    page.locator("summary").filter(has_text="Use real words (GloVe vectors)").click()
    words = page.locator(".st-key-glove_words input")
    words.wait_for(timeout=30_000)
    before = screen.summary_text(page)
    words.fill(f"{LONG} {LONG}")  # 415 characters: once dropped by the browser
    words.press("Enter")
    screen.wait_ready(page)
    page.locator(".st-key-glove_use button").click()
    said = screen.wait_for(page, screen.alerts, lambda a: any("415 characters" in t for t in a))
    assert any("Words: 415 characters; at most 300. The matrix is unchanged." in t for t in said)
    assert screen.summary_text(page) == before

    words.fill(LONG)  # 37 words in 207 characters
    words.press("Enter")
    screen.wait_ready(page)
    page.locator(".st-key-glove_use button").click()
    said = screen.wait_for(page, screen.alerts, lambda a: any("words, not" in t for t in a), 90)
    assert any("choose 1 to 12 words, not 37" in t for t in said), said
    assert screen.summary_text(page) == before
    assert expected.settings_of(screen.share_link(page)).tokens[0] == "Your"

    too_long = [f"{letter * 21}" for letter in "abcdefgh"]  # labels hold 20 characters
    words.fill(" ".join(["king", "queen", *too_long]))  # 194 characters
    words.press("Enter")
    screen.wait_ready(page)
    page.locator(".st-key-glove_use button").click()
    screen.after_change(page, screen.summary_text, before, timeout=90)
    assert expected.settings_of(screen.share_link(page)).tokens == ("king", "queen")
    left_out = [t for t in screen.alerts(page) if "left out" in t.lower()]
    assert sum("Left out " in t for t in left_out) == 5, left_out  # then a count, not 8 boxes
    assert any("3 more words were left out." in t for t in left_out), left_out
