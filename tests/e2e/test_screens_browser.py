"""A learner's sequence on each supported screen, read back from the screen (issue 37).

- Phone (390×844, touch): the four knobs sit above the weights; a tap on each changes the
  weights while both stay in view, and the page does not scroll.
- Tablet (768×1024, touch): a matrix cell is edited with the finger: tap, tap, type, done.
- Laptop and projector (1280×720, normal and presentation mode): each knob moves without
  any scrolling, and the weights beside them follow.
- Flow on a phone: Previous and Next stay in reach while the picture scrolls.

Every number is compared with ``attention_core`` run on the settings of the page's URL.
"""

from __future__ import annotations

import pytest

from tests.e2e import expected, learner, screen
from tests.e2e.test_page_audit import WORDS
from ui.blocks import heatmaps

pytestmark = pytest.mark.e2e

PHONE = screen.PHONE
TABLET = {"viewport": {"width": 768, "height": 1024}, "is_mobile": True, "has_touch": True}
HEADER = 60  # Streamlit's header bar, opaque on a narrow screen: what lies under it is hidden
WEIGHTS = '[data-testid="stVegaLiteChart"][aria-label^="Attention weights"] svg'
SCROLLED_JS = "() => document.querySelector('[data-testid=stMain]').scrollTop"


@pytest.fixture
def device(browser, request):
    """A tab in a new browser context with the given device's screen and touch."""
    context = browser.new_context(**request.param)
    yield context.new_page()
    context.close()


def weights_now(page) -> dict[str, str]:
    return screen.heatmap(page, "attention weights")


def weights_wanted(page, phone: bool = False) -> dict[str, str]:
    """The core's weights for the URL's settings, printed as the page does; on a phone with
    as many decimals as the chart prints (its type stays 14 px: 2 at the least, the note
    under it says so)."""
    settings = expected.settings_of(page.url)
    decimals = None
    if phone:
        decimals = min(len(t.split(".")[1]) for t in weights_now(page).values() if "." in t)
        assert decimals >= 2
        if decimals < settings["decimals"]:
            note = f"This chart rounds to {decimals} decimals to stay readable on a phone"
            assert note in " ".join(
                page.locator('[data-testid="stCaptionContainer"]').all_inner_texts()
            )
    return expected.weight_cells(settings, expected.trace_of(settings), decimals=decimals)


def in_view(page, selector: str, top: float = 0) -> bool:
    """True when the element lies wholly within the visible part of the screen."""
    box = page.locator(selector).first.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= top - 1 and box["y"] + box["height"] <= height + 1


def changed_weights(page, before: dict[str, str], step: str, phone: bool = False) -> None:
    """Wait for the weights to change; they must then be the core's for the URL's settings."""
    shown = screen.wait_for(page, weights_now, lambda now: now != before)
    screen.wait_for(page, lambda p: weights_now(p) == weights_wanted(p, phone), bool, timeout=10)
    assert shown != before, f"{step}: the weights did not change"
    assert weights_now(page) == weights_wanted(page, phone), step


@pytest.mark.parametrize("device", [PHONE], indirect=True, ids=["phone"])
def test_phone_a_tap_on_each_knob_changes_the_weights_in_view(server, device):
    page = device
    screen.open_page(page, server)
    screen.wait_idle(page)
    knobs = page.locator(".st-key-front_knobs")
    top = knobs.bounding_box()["y"]  # scrolled as a learner would: the knobs under the header
    page.locator('[data-testid="stMain"]').evaluate(
        "(main, by) => main.scrollBy(0, by)", top - HEADER - 8
    )
    scrolled = page.evaluate(SCROLLED_JS)
    assert in_view(page, ".st-key-front_knobs", HEADER) and in_view(page, WEIGHTS, HEADER)

    def slider_at(key: str, fraction: float) -> None:
        rail = page.locator(f".st-key-{key} [role='group'] > [data-orientation]").bounding_box()
        page.touchscreen.tap(rail["x"] + rail["width"] * fraction, rail["y"] + rail["height"] / 2)

    steps = (
        ("scaling ÷ d_k", lambda: page.locator(".st-key-scaling").get_by_text("÷ d_k").tap()),
        ("mask causal", lambda: tap_option(page, "mask", "causal: no peeking")),
        ("dropout", lambda: slider_at("dropout", 0.5)),
        ("d_out", lambda: slider_at("d_out", 0.98)),
    )
    for step, tap in steps:
        before = weights_now(page)
        tap()
        changed_weights(page, before, step, phone=True)
        assert in_view(page, ".st-key-front_knobs", HEADER), f"{step}: the knobs left the screen"
        assert in_view(page, WEIGHTS, HEADER), f"{step}: the weights left the screen"
        assert page.evaluate(SCROLLED_JS) == scrolled, f"{step}: the page scrolled"
    settings = expected.settings_of(page.url)
    assert (settings["scaling"], settings["mask"], settings["d_out"]) == ("d", "causal", 8)
    assert 0.3 <= settings["dropout"] <= 0.6


def tap_option(page, key: str, option: str) -> None:
    """Open a select box with a tap and tap one of its options."""
    page.locator(f'.st-key-{key} input[role="combobox"]').tap()
    page.get_by_role("option", name=option, exact=True).tap()


# The grid's last column is d3: a tap near its right edge lands in it, whatever the widths of
# the columns before it (glide's ids count the row markers as column 0).
D3 = 4


@pytest.mark.parametrize("device", [TABLET, PHONE], indirect=True, ids=["tablet", "phone"])
def test_tablet_a_matrix_cell_is_edited_by_touch(server, device):
    """A tap, a tap again (the path the grid's caption gives), the number typed: on a tablet,
    and on a phone, where the grid comes right under the weights (issue 53)."""
    page = device
    hint = "On a touch screen, tap a cell, then tap it again to type in it."
    screen.open_page(page, server)
    screen.wait_idle(page)
    toolbar_clears_the_heading(page)
    assert page.get_by_text(hint).count() == 1
    grid = learner.grid(page)
    box = grid.bounding_box()
    x = box["x"] + box["width"] - 15
    y = box["y"] + learner.HEADER_HEIGHT + learner.HEADER_HEIGHT / 2  # the first row
    target = f"glide-cell-{D3}-0"
    editing = page.locator(learner.CELL_EDITOR).first
    for _ in range(3):  # the first tap chooses the cell, the second opens it
        page.touchscreen.tap(x, y)  # right after a run, the grid may take a tap only as focus
        chosen = screen.wait_for(
            page, learner.chosen_cell, lambda c: c == target or editing.is_visible(), 2
        )
        if editing.is_visible():  # the grid had chosen it already and took this as the 2nd
            page.keyboard.press("Escape")  # closed unchanged: the cell stays chosen
            chosen = screen.wait_for(page, learner.chosen_cell, lambda c: c == target, 2)
        if chosen == target:
            break
    assert chosen == target
    before = weights_now(page)
    page.touchscreen.tap(x, y)
    editor = page.locator(learner.CELL_EDITOR).first
    editor.wait_for(state="visible", timeout=5_000)
    # The screen keyboard's keys, then its Done (Enter), with no pause between them
    # (ui/session/grid_typing.js keeps every key; without it the grid commits an old value).
    page.keyboard.type("0.2\n")
    phone = page.viewport_size["width"] == PHONE["viewport"]["width"]
    changed_weights(page, before, "cell d3 of row 1", phone=phone)
    assert expected.settings_of(page.url).rows[0][2] == 0.2, screen.grid_texts(page)
    assert screen.grid_texts(page)[1] == ["Your", "0.43", "0.15", "0.2"]


@pytest.mark.parametrize("present", [False, True], ids=["normal", "presentation"])
def test_laptop_each_knob_moves_without_scrolling(server, page, present):
    screen.open_page(page, f"{server}/?present=1" if present else server)
    screen.wait_idle(page)
    for key in ("d_out", "scaling", "mask", "dropout"):
        assert in_view(page, f".st-key-{key}"), f"{key} is not on the first screen"
    assert in_view(page, WEIGHTS), "the weights are not on the first screen"
    steps = (
        ("d_out", lambda: learner.press_slider(page, "d_out")),
        ("scaling", lambda: learner.click_radio(page, "scaling", "none")),
        ("mask", lambda: learner.choose(page, "mask", "causal: no peeking")),
        ("dropout", lambda: learner.press_slider(page, "dropout")),
    )
    for step, move in steps:
        before = weights_now(page)
        move()
        changed_weights(page, before, step)
        assert page.evaluate(SCROLLED_JS) == 0, f"{step}: the page scrolled"
        assert in_view(page, f".st-key-{step}") and in_view(page, WEIGHTS), step
    settings = expected.settings_of(page.url)
    assert (settings["d_out"], settings["scaling"], settings["mask"]) == (3, "none", "causal")
    assert settings["dropout"] == 0.05
    if not present:  # the matrix beside the weights, its grid's toolbar on hover
        toolbar_clears_the_heading(page)
    assert link_text_under_its_copy_button(page) == [], "the link's text runs under its button"


# The lines of the sidebar's link (its text's boxes) that reach under its copy button.
LINK_UNDER_BUTTON_JS = """sel => {
  const block = document.querySelectorAll(sel);
  const code = block[block.length - 1];
  const button = code.querySelector('[data-testid="stElementToolbarButton"] button, button');
  const b = button.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(code.querySelector('pre'));
  return [...range.getClientRects()]
    .filter(r => r.width > 0 && r.right > b.left && r.left < b.right
                 && r.bottom > b.top && r.top < b.bottom)
    .map(r => [Math.round(r.left), Math.round(r.right), Math.round(r.top)]);
}"""


def link_text_under_its_copy_button(page) -> list[list[int]]:
    return page.evaluate(LINK_UNDER_BUTTON_JS, screen.LINK_CODE)


def stage_of(page) -> str:
    return page.locator(".st-key-flow_stage_text").inner_text()


@pytest.mark.parametrize("device", [PHONE], indirect=True, ids=["phone"])
def test_phone_flow_steps_with_buttons_in_reach(server, device):
    page = device
    screen.open_page(page, f"{server}/Flow")
    screen.wait_idle(page)
    nxt = page.locator(".st-key-stage_next button")
    for stage in (2, 3):
        before = stage_of(page)
        nxt.tap()
        assert screen.after_change(page, stage_of, before).startswith(f"Stage {stage}.")
    # Scrolled down to read the picture: the buttons are still on the screen.
    page.locator('[data-testid="stMain"]').evaluate("main => main.scrollBy(0, 600)")
    assert page.evaluate(SCROLLED_JS) > 0
    assert in_view(page, ".st-key-stage_next", HEADER)
    assert in_view(page, ".st-key-stage_previous", HEADER)
    before = stage_of(page)
    page.locator(".st-key-stage_previous button").tap()
    assert screen.after_change(page, stage_of, before).startswith("Stage 2.")
    assert "stage=2" in page.url


@pytest.mark.parametrize("device", [PHONE], indirect=True, ids=["phone"])
def test_phone_a_tap_on_a_colour_only_cell_prints_its_number(server, device):
    """Page 10 with 26 tokens: too many cells to print their numbers, which a note says.
    A tap prints the tapped cell's number over it: a token's cosine with itself is 1, and
    so is that of two copies of one word (their embeddings are the same); [CLS] and a word
    have another."""
    page = device
    sentence = "+".join((WORDS * 2)[:24])  # [CLS], 24 words, [SEP]
    screen.open_page(page, f"{server}/Real_sentences?text=own&own={sentence}")
    screen.wait_idle(page)
    notes = page.locator('[data-testid="stCaptionContainer"]').all_inner_texts()
    assert heatmaps.COLOUR_ONLY in notes
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    assert "cosine" in chart.get_attribute("aria-label").lower()
    cells = chart.locator("g.mark-rect.role-mark path")
    tokens = 26
    assert cells.count() == tokens * tokens

    def tap(row: int, column: int) -> str:
        cell = cells.nth(row * tokens + column)  # the cells are drawn row by row
        cell.scroll_into_view_if_needed()
        box = cell.bounding_box()
        before = printed(chart)
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        # Vega may move the old text before it writes the new: wait for two equal reads.
        reads: list[list[tuple[str, str]]] = [before]

        def settled(now: list[tuple[str, str]]) -> bool:
            reads.append(now)
            return now != before and now == reads[-2]

        return screen.wait_for(page, lambda p: printed(chart), settled, 5)

    first = tap(1, 1)  # "the" with itself: the halo, then the ink, at the cell
    assert [text for text, _ in first] == ["1.0000", "1.0000"]
    second = tap(1, 4)  # "the" (2nd token) with "the" (5th): one row, three cells on
    assert [text for text, _ in second] == ["1.0000", "1.0000"]
    assert second[0][1] != first[0][1]
    other = [text for text, _ in tap(0, 1)]  # [CLS] with "the" (the test model knows few words)
    assert len(other) == 2 and other[0] == other[1] and other[0] != "1.0000"
    assert -1 <= float(other[0].replace("−", "-")) < 1


def printed(chart) -> list[tuple[str, str]]:
    """The numbers printed over a colour-only heatmap's cells (those of a tapped cell), each
    with where it is drawn."""
    return [
        tuple(pair)
        for pair in chart.evaluate(
            "c => [...c.querySelectorAll('.mark-text text')]"
            ".filter(t => t.getAttribute('font-weight') === 'bold')"
            ".map(t => [t.textContent, t.getAttribute('transform')])"
        )
    ]


def toolbar_clears_the_heading(tab) -> None:
    """Issue 39, item 11: the grid's toolbar shows above it on hover (always, on a touch
    screen) and covered the "Embedding matrix" heading."""
    grid = learner.grid(tab)
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    tab.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    toolbar = tab.locator(
        '[data-testid="stElementContainer"]:has([data-testid="stDataFrame"]) '
        '[data-testid="stElementToolbar"]'
    ).first
    toolbar.wait_for(state="visible", timeout=5_000)
    bar = toolbar.bounding_box()
    heading = tab.get_by_role("heading", name="Embedding matrix").bounding_box()
    assert bar["y"] >= heading["y"] + heading["height"], (bar, heading)
