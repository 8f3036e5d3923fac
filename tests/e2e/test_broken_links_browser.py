"""Links that used to break pages (issue 11) open a working page in Chromium.

Padding larger than the number of tokens, the row-sum normalisation, duplicate labels and
labels equal to the app's internal names (``query``, ``key``, ``token``), the identity
initialisation on the Common-mistakes page and a single token on the Causal-mask page: no
exception box, no nan, inf or traceback anywhere on the page, and the link's other values
kept on screen. Each kind of page in the browser: the Playground and half the others in turn
(``pages.DRAWN_APART_IN_TURN``); AppTest opens every page.
"""

from __future__ import annotations

import pytest

from attention_core.embeddings import display_labels
from attention_core.lessons import common_mistakes
from tests.e2e import expected, learner, screen
from tests.e2e.pages import BROKEN_NUMBERS, DRAWN_APART_IN_TURN, url

pytestmark = pytest.mark.e2e

HAZARDS = "mask=padding&padding=9&norm=sum&tokens=query,key,token,key,a,a&seed=77&d_out=3"


def assert_working(page) -> str:
    """No exception box and no broken number anywhere on the page; returns the page's text."""
    assert screen.exceptions(page) == []
    text = page.locator("body").inner_text()
    assert BROKEN_NUMBERS.findall(text) == []
    return text


@pytest.mark.parametrize("path", DRAWN_APART_IN_TURN.values(), ids=DRAWN_APART_IN_TURN.keys())
def test_a_link_with_every_old_hazard_opens_a_working_page_of_each_kind(server, page, path):
    screen.open_page(page, url(server, path, HAZARDS))
    assert_working(page)
    assert learner.number_value(page, "seed") == "77"
    assert learner.slider_value(page, "d_out") == "3"
    assert learner.chosen(page, "mask") == "padding at the end"
    padding = [a for a in screen.alerts(page) if "padding tokens at the end" in a]
    assert padding and "Using 6" in padding[0], screen.alerts(page)


def test_the_playground_under_the_hazards_shows_the_core_numbers(server, page):
    screen.open_page(page, url(server, "", HAZARDS))
    settings = expected.settings_of(HAZARDS)
    assert settings["padding"] == 6 and settings.tokens[0] == "query"
    assert screen.summary_text(page) == expected.summary(settings)
    assert "key·2" in screen.summary_text(page)  # duplicates told apart by position


def test_identity_weights_on_common_mistakes(server, page):
    query = "init=identity&seed=5&mask=causal&query=3"
    screen.open_page(page, url(server, "Common_mistakes", query))
    assert_working(page)
    assert learner.chosen(page, "init") == "none: q = k = v = x"
    settings = expected.settings_of(query)
    first = common_mistakes(settings.embeddings(), settings.config())[0]
    labels = display_labels(settings.tokens)
    assert screen.heatmap(page, "correct") == expected.cells(
        first.right_weights[0], labels, labels, settings["decimals"]
    )


def test_a_single_token_on_the_causal_mask_page(server, page):
    query = "x=0.5,0.2,0.1&tokens=a&seed=9"
    screen.open_page(page, url(server, "Causal_mask", query))
    assert_working(page)
    assert learner.number_value(page, "seed") == "9"
    settings = expected.settings_of(query)
    trace = expected.trace_of(settings, mask="causal", mask_strategy="neg_inf", dropout=0.0)
    shown = screen.heatmap(page, "−∞, then softmax")
    assert shown == expected.weight_cells(settings, trace) == {"a, a": "1.0000"}


def test_a_layer_and_head_beyond_the_model_are_named_then_a_choice_works(server, page):
    """A link made for a larger encoder: the page names both values it cannot show and uses
    the model's last layer and head (the tests' encoder has 2 layers of 4 heads)."""
    screen.open_page(page, url(server, "Real_sentences", "layer=40&model_head=60"))
    assert_working(page)
    told = [a.split("\n")[-1] for a in screen.alerts(page) if "the choices are" in a]
    assert told == [
        "layer: there is no layer 40 here, the choices are 1 to 2. Using 2.",
        "head: there is no head 60 here, the choices are 1 to 4. Using 4.",
    ]
    assert (learner.chosen(page, "layer"), learner.chosen(page, "model_head")) == (
        "layer 2",
        "head 4",
    )
    settings = expected.settings_of(screen.share_link(page))
    assert (settings["layer"], settings["model_head"]) == (2, 4)
    learner.choose(page, "layer", "layer 1")
    screen.wait_for(page, screen.share_link, lambda link: "layer=" not in link)
    screen.wait_ready(page)
    assert [a for a in screen.alerts(page) if "the choices are" in a] == []
    assert expected.settings_of(screen.share_link(page))["model_head"] == 4
    assert learner.chosen(page, "layer") == "layer 1"


def test_one_label_for_two_rows_is_named_in_plain_words(server, page):
    """Found in Chromium: "1 token labels for 2 rows"; the matrix is kept, the labels not."""
    query = "x=1,2,3;4,5,6&tokens=a"
    screen.open_page(page, url(server, "", query))
    said = [a for a in screen.alerts(page) if "for 2 rows" in a]
    assert said and "1 token label for 2 rows of the matrix. Using t1, t2." in said[0], said
    settings = expected.settings_of(screen.share_link(page))
    assert settings.tokens == ("t1", "t2") and settings.rows == ((1, 2, 3), (4, 5, 6))
    assert screen.summary_text(page) == expected.summary(settings)


def test_a_bad_value_for_another_pages_lesson_is_named_where_the_link_opens(server, page):
    """Found by a review: ``/?layer=99`` opened the Playground without a word, and page 10
    then used layer 1 without one either (a link is read once, where it opens)."""
    screen.open_page(page, url(server, "", "layer=99&d_out=3"))
    said = [a for a in screen.alerts(page) if "layer" in a]
    assert len(said) == 1, screen.alerts(page)
    assert "not 99 (a setting of 10 · Real sentences)" in said[0] and "Using 1" in said[0]
    assert screen.summary_text(page) == expected.summary(expected.settings_of("d_out=3"))
    learner.go_to(page, "10 · Real sentences")
    screen.wait_idle(page)
    assert learner.chosen(page, "layer") == "layer 1"
    assert not [a for a in screen.alerts(page) if "layer" in a]  # told once, where it opened
