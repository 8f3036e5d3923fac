"""Links in Chromium: what "Link to this view" gives reproduces the view.

A learner opens a page through a link that is not the default, changes one control (and on
the Playground edits a cell), copies the link at the foot of the sidebar and opens it in a
fresh browser context: the page shows the same. Three pages, one for each kind of control
(a select box, a slider pressed from the keyboard, a setting under *More settings*); that
every page's copied link reopens its view after one change is checked in AppTest
(tests/ui/test_pages.py), where it costs a second a page. Where the page prints a number the
core can give, it is also compared with ``attention_core`` run on the settings the copied link
holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.budget import in_rotation
from tests.e2e import expected, learner, screen
from tests.e2e.pages import decimals_of, url

pytestmark = pytest.mark.e2e


def test_slider_then_edit_then_copied_link_in_a_fresh_context(server, page, browser):
    screen.open_page(page, url(server, "", "seed=7&query=3&mask=causal"))
    assert screen.summary_text(page) == expected.summary(expected.settings_of(page.url))

    before = screen.summary_text(page)
    learner.press_slider(page, "d_out")  # 2 -> 3, from the keyboard
    screen.after_change(page, screen.summary_text, before)
    assert learner.slider_value(page, "d_out") == "3"
    assert len(screen.shown_context_vector(page)) == 3
    settings = expected.settings_of(page.url)
    assert settings["d_out"] == 3 and settings["seed"] == 7 and settings["mask"] == "causal"
    assert screen.summary_text(page) == expected.summary(settings)

    before = screen.summary_text(page)
    learner.type_in_cell(page, 2, 2, "-1.25")  # d2 of "starts", the focused token
    screen.after_change(page, screen.summary_text, before)
    copied = screen.share_link(page)
    settings = expected.settings_of(copied)
    assert settings["d_out"] == 3 and settings.rows[2][1] == -1.25
    assert screen.summary_text(page) == expected.summary(settings)
    weights = screen.heatmap(page, "attention weights")
    assert weights == expected.weight_cells(settings, expected.trace_of(settings))

    fresh = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        other = fresh.new_page()
        screen.open_page(other, copied)
        assert screen.summary_text(other) == expected.summary(settings)
        assert screen.heatmap(other, "attention weights") == weights
        assert screen.share_link(other) == copied
    finally:
        fresh.close()


def test_a_tiny_number_typed_in_the_grid_survives_the_copied_link(server, page, browser):
    """Cosine scores see a row's direction however short it is: "with" at 0 weighs every
    token alike, at 1e-7 along d1 it does not. The link once wrote 6 decimals, so the copied
    link gave 0 back and showed the other weights."""
    rows = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0, 0, 0]]
    rows += [[0.77, 0.25, 0.1], [0.05, 0.8, 0.55]]
    x = expected.matrix_params(["Your", "journey", "starts", "with", "one", "step"], rows)["x"]
    screen.open_page(page, url(server, "", f"scoring=cosine&query=4&x={x}"))
    start = screen.heatmap(page, "attention weights")
    assert {v for k, v in start.items() if k.startswith("with, ")} == {"0.1667"}

    before = screen.summary_text(page)
    learner.type_in_cell(page, 3, 1, "1e-7")  # d1 of "with", the focused token
    screen.after_change(page, screen.summary_text, before)
    copied = screen.share_link(page)
    settings = expected.settings_of(copied)
    assert settings.rows[3] == (1e-7, 0.0, 0.0)
    weights = screen.heatmap(page, "attention weights")
    assert weights == expected.weight_cells(settings, expected.trace_of(settings))
    assert weights["with, one"] == "0.1691"  # no longer 1/6

    fresh = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        other = fresh.new_page()
        screen.open_page(other, copied)
        assert screen.heatmap(other, "attention weights") == weights
        assert screen.share_link(other) == copied
    finally:
        fresh.close()


def test_a_link_with_undefined_weights_says_so_until_the_normalisation_is_fixed(
    server, page, browser
):
    """Someone's link: every score 0, divided by its row's sum (0/0). The sentence says the
    weights are undefined (it once named the zeros beside them); a stable softmax defines
    them; the pitfall again, and the copied link shows the same in a fresh context."""
    zeros = ";".join(["0,0,0"] * 6)
    screen.open_page(page, url(server, "", f"x={zeros}&norm=sum&mask=causal"))

    def check(page) -> None:
        settings = expected.settings_of(screen.share_link(page))
        trace = expected.trace_of(settings)
        assert screen.summary_text(page) == expected.summary(settings, trace)
        assert screen.heatmap(page, "attention weights") == expected.weight_cells(settings, trace)

    check(page)
    assert screen.summary_text(page).startswith("journey has undefined weights (0/0")
    assert set(screen.heatmap(page, "attention weights").values()) == {"undef."}

    learner.open_more_settings(page)
    pitfall = "÷ the row sum (a pitfall)"
    for option, norm in (("softmax (stable)", "softmax"), (pitfall, "sum")):
        before = screen.summary_text(page)
        learner.choose(page, "norm", option)
        screen.after_change(page, screen.summary_text, before)
        assert expected.link_setting(page, "norm", norm) == norm
        check(page)
    assert "undefined" in screen.summary_text(page)

    copied = screen.share_link(page)
    fresh = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        other = fresh.new_page()
        screen.open_page(other, copied)
        check(other)
        assert screen.summary_text(other) == screen.summary_text(page)
    finally:
        fresh.close()


@dataclass(frozen=True)
class Trip:
    """One page's round trip: the link it is opened with, one control changed, and a check of
    what it prints against the core (given the page and the settings of the copied link)."""

    path: str
    query: str
    change: Callable
    changed: str  # a parameter the copied link must hold after the change
    check: Callable


def _more(key: str, option: str) -> Callable:
    def gesture(page) -> None:
        learner.open_more_settings(page)
        learner.choose(page, key, option)

    return gesture


def _summary(page, settings) -> None:
    assert screen.summary_text(page) == expected.summary(settings)


def _weights(title: str, prefix: bool = False, head: int = 0, **changes) -> Callable:
    def check(page, settings) -> None:
        trace = expected.trace_of(settings, **changes)
        shown = screen.heatmap(page, title, prefix=prefix)
        assert shown == expected.weight_cells(settings, trace, head)

    return check


def _printed_with(decimals: int) -> Callable:
    def check(page, settings) -> None:
        texts = screen.tables(page) + screen.cell_texts(page)
        assert settings["decimals"] == decimals
        assert decimals_of(texts) == {decimals}
        assert "✗" not in "".join(screen.tables(page))  # seed 001's numbers still match

    return check


TRIPS = [
    Trip(
        "",
        "seed=5&d_out=4&query=4",
        lambda p: learner.choose(p, "mask", "causal: no peeking"),
        "mask=causal",
        _summary,
    ),
    Trip(
        "Scaling",
        "d_out=3&seed=11",
        lambda p: learner.press_slider(p, "d_out"),
        "d_out=4",
        _weights("÷ √d_k", prefix=True, scaling="sqrt_d", dropout=0.0),
    ),
    Trip(
        "Word_vectors",
        "sentence=the+ship+sailed+to+the+island&word=island&decimals=3",
        _more("decimals", "2"),
        "decimals=2",
        _printed_with(2),
    ),
]


# The Playground's trip in every run; the other pages' trips (a control of their own, the
# same round trip through the copied link) one in turn (``in_rotation``), all in the thorough
# profile.
TRIPS_IN_TURN = [
    pytest.param(trip, id=trip.path or "Playground")
    for n, trip in enumerate(TRIPS)
    if not trip.path or in_rotation(n)
]


@pytest.mark.parametrize("trip", TRIPS_IN_TURN)
def test_a_changed_view_survives_its_copied_link(server, page, browser, trip):
    screen.open_page(page, url(server, trip.path, trip.query))
    opened = screen.shown(page)
    trip.change(page)
    now = screen.after_change(page, screen.shown, opened)
    assert now != opened, "the control changed nothing on the page"
    copied = screen.share_link(page)
    assert trip.changed in copied
    settings = expected.settings_of(copied)
    trip.check(page, settings)

    fresh = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        other = fresh.new_page()
        screen.open_page(other, copied)
        assert screen.shown(other) == now
        trip.check(other, settings)
    finally:
        fresh.close()
