"""Hostile labels and link values in Chromium (issue 12): shown as text, never as markup.

Every page that draws a link's text its own way (``pages.DRAWN_APART``; the others draw it
as the Playground does, and AppTest checks every page; the Playground and half the others in
turn, ``pages.DRAWN_APART_IN_TURN``) is opened through one link carrying
twelve hostile labels (Markdown images and
links, raw HTML, headings, emphasis, LaTeX specials, Streamlit directives, autolinks), bad
values of other settings that the notices echo, a parameter name that is HTML, and hostile
sentences for the two pages that take text. Every request is recorded: none may leave the
app's host. No link, image, heading or script element may hold the hostile text; accepted
labels are found on the page exactly as written; refused values are repeated literally.
"""

from __future__ import annotations

import pytest

from tests.budget import in_rotation
from tests.e2e import expected, learner, screen
from tests.e2e.hostile import (
    BAD_VALUES,
    LABELS,
    NEEDLES,
    REFUSED_LABELS,
    SENTENCE,
    UNKNOWN_NAME,
    Requests,
    echoed,
)
from tests.e2e.pages import BROKEN_NUMBERS, DRAWN_APART_IN_TURN
from ui.session.nav import PAGES

pytestmark = pytest.mark.e2e

ROWS = [[round(0.1 * i, 1), 0.5, round(0.3 - 0.05 * i, 2)] for i in range(len(LABELS))]
HOSTILE_LINK = {
    **expected.matrix_params(LABELS, ROWS),
    **BAD_VALUES,
    UNKNOWN_NAME: "1",
    "sentence": SENTENCE,
    "word": "<h1>H1!</h1>",
    "text": "own",
    "own": SENTENCE,
}
# Pages that show every token's label as itself: not the pages of sentences' words, not Flow
# (it draws the focused token's path: its label and a few others) and not Compare (nothing
# is drawn until A is pinned). Those are checked to be inert all the same.
PARTIAL = {"0_Flow", "0_Compare"}
SHOWS_LABELS = [page.url_path for page in PAGES if not page.words and page.key not in PARTIAL]


def watch(page, server: str) -> tuple[Requests, list[str]]:
    """Record requests and dialogs of a page from now on."""
    requests = Requests(page, server)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    return requests, dialogs


def assert_inert(page, requests: Requests, dialogs: list[str]) -> None:
    """Nothing left the host, nothing ran, no markup holds user text, nothing broke."""
    assert requests.off_host() == []
    assert dialogs == []
    assert page.evaluate("() => window.__pwned === undefined")
    assert screen.markup_from(page, NEEDLES) == []
    assert screen.exceptions(page) == []
    assert BROKEN_NUMBERS.findall(page.locator("body").inner_text()) == []


@pytest.mark.parametrize("path", DRAWN_APART_IN_TURN.values(), ids=DRAWN_APART_IN_TURN.keys())
def test_a_hostile_link_is_shown_as_text_on_each_kind_of_page(server, fresh_page, path):
    page = fresh_page  # a first visit: every request of the page load is recorded
    requests, dialogs = watch(page, server)
    screen.open_page(page, expected.link(server, path, **HOSTILE_LINK))
    assert_inert(page, requests, dialogs)
    assert len(requests.seen) > 10  # the recorder did see the page load

    alerts = "\n".join(screen.alerts(page))
    for name, value in BAD_VALUES.items():
        assert echoed(value) in alerts, name
    assert f"{echoed(UNKNOWN_NAME)} is not a setting" in alerts
    if path in SHOWS_LABELS:
        shown = screen.literally(page, LABELS)
        assert [label for label, count in shown.items() if count == 0] == []
    if path == "Flow":  # the focused token (the second) is named as itself
        assert screen.literally(page, [LABELS[1]])[LABELS[1]] >= 1
    if path == "Word_vectors":
        assert page.locator(".st-key-sentence input").input_value() == SENTENCE
        assert "x.zz" in screen.main_text(page)  # the unknown words, named as text
    if path == "Real_sentences":
        assert page.locator(".st-key-own input").input_value() == SENTENCE


# The refused labels are alike to the page (each is refused by the same check, named in the
# same notice): two of the four in turn (``in_rotation``), all four in the thorough profile.
REFUSED_IDS = ["bidi", "zero-width", "bell", "1000"]
REFUSED_IN_TURN = [
    pytest.param(label, id=name)
    for n, (label, name) in enumerate(zip(REFUSED_LABELS, REFUSED_IDS, strict=True))
    if in_rotation(n)
]


@pytest.mark.parametrize("label", REFUSED_IN_TURN)
def test_a_refused_label_in_a_link_is_named_and_the_others_kept(server, fresh_page, label):
    page = fresh_page  # a first visit: every request of the page load is recorded
    requests, dialogs = watch(page, server)
    tokens = ["Your", "journey", label, "with", "one", "step"]
    screen.open_page(page, expected.link(server, "", tokens=",".join(tokens), seed="42"))
    assert_inert(page, requests, dialogs)
    message = [a for a in screen.alerts(page) if "token labels" in a]
    assert message and "token 3" in message[0] and REFUSED_LABELS[label] in message[0]
    assert learner.number_value(page, "seed") == "42"
    settings = expected.settings_of({"seed": "42"})  # the preset's labels, the seed kept
    assert screen.summary_text(page) == expected.summary(settings)


def test_hostile_labels_typed_into_the_grid(server, fresh_page):
    page = fresh_page  # a first visit: every request of the page load is recorded
    requests, dialogs = watch(page, server)
    screen.open_page(page, server)
    tokens = ["Your", "journey", "starts", "with", "one", "step"]
    typed = [LABELS[0], LABELS[1], LABELS[2], LABELS[8]]  # image, link, HTML, :material/...:
    for row, label in enumerate(typed):
        before = screen.share_link(page)  # the link carries the labels
        learner.type_in_cell(page, row, 0, label)
        tokens[row] = label
        screen.after_change(page, screen.share_link, before)
    settings = expected.settings_of(screen.share_link(page))
    assert list(settings.tokens) == tokens
    assert screen.summary_text(page) == expected.summary(settings)
    shown = screen.literally(page, typed)
    assert [label for label, count in shown.items() if count == 0] == []
    assert_inert(page, requests, dialogs)

    for label in ("a\u202eb", "L" * 1000):  # a direction override; too long for a label
        words = REFUSED_LABELS[label]
        learner.type_in_cell(page, 3, 0, label)
        found = screen.wait_for(
            page,
            screen.alerts,
            lambda alerts, words=words: any("row 4, token" in a and words in a for a in alerts),
        )
        screen.wait_ready(page)
        assert any("row 4, token" in a and words in a for a in found), (label[:30], found)
        assert screen.summary_text(page) == expected.summary(settings)
        assert expected.settings_of(screen.share_link(page)).tokens[3] == typed[3]
    assert_inert(page, requests, dialogs)
