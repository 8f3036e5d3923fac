"""The embedding grid in Chromium: consecutive edits all count, refused input keeps the numbers.

Each step is a learner's gesture; what the page then says is compared with ``attention_core``
run on the matrix the learner has typed so far (kept by the test, independently of the app).
"""

from __future__ import annotations

import random

import pytest

from attention_core.knobs.text import as_linked
from tests.e2e import expected, learner, screen

pytestmark = pytest.mark.e2e

BOOK_TOKENS = ["Your", "journey", "starts", "with", "one", "step"]
BOOK_ROWS = [  # the book's inputs (chapter 3): the `journey` preset
    [0.43, 0.15, 0.89],
    [0.55, 0.87, 0.66],
    [0.57, 0.85, 0.64],
    [0.22, 0.58, 0.33],
    [0.77, 0.25, 0.10],
    [0.05, 0.80, 0.55],
]
BOOK_SUMMARY = "journey attends most to journey (0.2264); context vector 0.3061, 0.8210."


class Matrix:
    """The matrix as the learner has typed it so far, and what the core says about it."""

    def __init__(self) -> None:
        self.tokens = list(BOOK_TOKENS)
        self.rows = [list(row) for row in BOOK_ROWS]

    def settings(self):
        return expected.settings_of(expected.matrix_params(self.tokens, self.rows))

    def summary(self) -> str:
        return expected.summary(self.settings())

    def weights(self) -> dict[str, str]:
        settings = self.settings()
        return expected.weight_cells(settings, expected.trace_of(settings))


def check_screen(page, matrix: Matrix, step: str) -> None:
    """The sentence and the weights heatmap equal the core's on the learner's matrix."""
    assert screen.summary_text(page) == matrix.summary(), step
    assert screen.heatmap(page, "attention weights") == matrix.weights(), step


def test_consecutive_edits_of_every_kind_all_count(server, page, browser):
    screen.open_page(page, server)
    matrix = Matrix()
    assert screen.summary_text(page) == BOOK_SUMMARY

    def step(name: str, gesture, change) -> None:
        before = screen.summary_text(page)
        gesture()
        change()
        screen.after_change(page, screen.summary_text, before)
        check_screen(page, matrix, name)

    def set_cell(row: int, column: int, text: str):
        def change() -> None:
            if column == 0:
                matrix.tokens[row] = text
            else:
                matrix.rows[row][column - 1] = float(text)

        return lambda: learner.type_in_cell(page, row, column, text), change

    step("d1 of Your", *set_cell(0, 1, "0.9"))
    step("d2 of starts", *set_cell(2, 2, "-0.4"))
    step("rename journey", *set_cell(1, 0, "trip"))
    step(
        "add a row with +",
        lambda: learner.add_row(page),
        lambda: (matrix.tokens.append("new"), matrix.rows.append([0.0, 0.0, 0.0])),
    )
    step("d3 of the new row", *set_cell(6, 3, "1.5"))
    step(
        "delete with",
        lambda: learner.delete_row(page, 3),
        lambda: (matrix.tokens.pop(3), matrix.rows.pop(3)),
    )
    step("d1 of step", *set_cell(4, 1, "-2"))
    step(
        "type a label in the empty last row",
        lambda: learner.type_in_cell(page, 6, 0, "extra"),
        lambda: (matrix.tokens.append("extra"), matrix.rows.append([0.0, 0.0, 0.0])),
    )
    assert len(matrix.tokens) == 7  # 6 - 1 + 2: every edit was kept

    linked = expected.settings_of(page.url)
    assert "x=" in page.url and "tokens=" in page.url
    assert list(linked.tokens) == matrix.tokens
    assert [list(row) for row in linked.rows] == matrix.rows
    fresh = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        other = fresh.new_page()
        screen.open_page(other, page.url)
        check_screen(other, matrix, "the URL reloaded in a fresh context")
    finally:
        fresh.close()


def _wait_for_alert(page, text: str) -> list[str]:
    found = screen.wait_for(page, screen.alerts, lambda shown: any(text in a for a in shown))
    screen.wait_ready(page)
    return found


def _matrix_alerts(page) -> list[str]:
    return [a for a in screen.alerts(page) if "Matrix:" in a]


def test_refused_numbers_keep_the_last_valid_matrix_and_name_the_cell(server, browser):
    context = browser.new_context(
        viewport={"width": 1280, "height": 720}, permissions=["clipboard-read", "clipboard-write"]
    )
    page = context.new_page()
    try:
        screen.open_page(page, server)
        matrix = Matrix()
        range_ = "between −10 and 10"
        cases = [  # (row, column, gesture, text, cell named, message says, fix typed after)
            (1, 2, "type", "1000000000", "row 2, column d2", range_, "0.5"),
            # fixed with a number copied from the screen, its minus sign U+2212
            (2, 1, "paste", "123456789012", "row 3, column d1", range_, "−0.25"),
            (3, 3, "type", "-250.5", "row 4, column d3", range_, "-0.75"),
            # the grid's number cells used to drop the comma (5) and the "e" (1e-3 became -13)
            (0, 1, "type", "0,5", "row 1, column d1", "after a point: 0.5", "1e-3"),
            (4, 2, "paste", "12345678901234567890", "row 5, column d2", range_, "-2.5e-1"),
            (5, 3, "type", "2e1", "row 6, column d3", range_, "1E+0"),
            # no float at all (it used to become 0 without a word)
            (2, 2, "type", "1e-400", "row 3, column d2", "too close to 0", "0.125"),
        ]
        for row, column, how, text, where, says, fix in cases:
            before = screen.summary_text(page)
            if how == "paste":
                learner.paste_into_cell(page, row, column, text)
            else:
                learner.type_in_cell(page, row, column, text)
            shown = _wait_for_alert(page, where)
            assert any(where in a for a in shown), (how, text, shown)
            message = next(a for a in shown if where in a)
            assert says in message, message
            assert "last valid matrix" in message
            assert screen.summary_text(page) == before == matrix.summary()
            assert screen.heatmap(page, "attention weights") == matrix.weights()
            linked = expected.settings_of(screen.share_link(page))  # the link gives what is shown
            assert [list(row) for row in linked.rows] == matrix.rows

            (learner.paste_into_cell if how == "paste" else learner.type_in_cell)(
                page, row, column, fix
            )
            matrix.rows[row][column - 1] = float(fix.replace("−", "-"))
            screen.after_change(page, screen.summary_text, before)
            check_screen(page, matrix, f"{where} fixed")
            assert _matrix_alerts(page) == []
    finally:
        context.close()


def test_two_bad_cells_are_both_named_and_fixed_one_after_the_other(server, page):
    """Found in Chromium: with several bad cells only the first was named; the learner met
    the next one only after fixing it. The message names both; fixing the first leaves the
    second named alone; fixing that one brings the numbers of both fixes."""
    screen.open_page(page, server)
    matrix = Matrix()
    start = screen.summary_text(page)
    learner.type_in_cell(page, 1, 1, "abc")  # journey, d1
    _wait_for_alert(page, "row 2, column d1")
    learner.type_in_cell(page, 3, 2, "1e400")  # with, d2
    shown = _wait_for_alert(page, "1 other cell cannot be read either: row 4, column d2")
    message = next(a for a in shown if "Matrix:" in a)
    assert (
        "row 2, column d1 is not a number written with the digits 0-9: 'abc'; 1 other cell"
        " cannot be read either: row 4, column d2." in message
    ), message
    assert screen.summary_text(page) == start == matrix.summary()

    learner.type_in_cell(page, 1, 1, "0.5")
    message = next(a for a in _wait_for_alert(page, "row 4, column d2 must") if "Matrix:" in a)
    assert "row 2" not in message and "other cell" not in message, message
    assert screen.summary_text(page) == start  # still the last valid matrix

    learner.type_in_cell(page, 3, 2, "0.25")
    matrix.rows[1][0], matrix.rows[3][1] = 0.5, 0.25
    screen.after_change(page, screen.summary_text, start)
    check_screen(page, matrix, "both fixed")
    assert _matrix_alerts(page) == []


TYPED = {
    "weights_from": "typed",
    "d_out": "2",
    "wq": "1,0;0,1;0.5,0.5",
    "wk": "0.5,0;0,1;1,1",
    "wv": "1,1;0,1;1,0",
}


def _typed_weights_on_screen(page, settings) -> None:
    """The lesson's weights heatmap equals the core's run on the link's typed matrices."""
    typed = tuple(settings[name] for name in ("wq", "wk", "wv"))
    trace = expected.trace_of(
        settings, init="custom", custom_weights=typed, d_out=2, heads=1, heads_layout="split"
    )
    assert screen.heatmap(page, "attention weights") == expected.weight_cells(settings, trace)


def _typed_weights_elsewhere(page, browser, copied: str) -> list[str]:
    """Open the copied link in a fresh context: the same weights, and the core's. Returns the
    alerts the other page shows."""
    fresh = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        other = fresh.new_page()
        screen.open_page(other, copied)
        _typed_weights_on_screen(other, expected.settings_of(copied))
        shown = screen.heatmap(other, "attention weights")
        assert shown == screen.heatmap(page, "attention weights")
        return screen.alerts(other)
    finally:
        fresh.close()


def test_one_precise_number_widens_only_its_own_column(server, page, browser):
    """Found in Chromium: after 0.123456 was typed, a copied link (or a reload) showed every
    number of the grid with 6 decimals (0.890000); only that number's column needs them."""
    screen.open_page(page, server)
    before = screen.summary_text(page)
    learner.type_in_cell(page, 4, 2, "0.123456")  # d2 of "one"
    screen.after_change(page, screen.summary_text, before)
    copied = screen.share_link(page)
    assert expected.settings_of(copied).rows[4] == (0.77, 0.123456, 0.1)

    fresh = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        other = fresh.new_page()
        screen.open_page(other, copied)
        rows = {row[-4]: row[-3:] for row in screen.grid_texts(other) if row[-4] in BOOK_TOKENS}
        assert [rows[token][0] for token in BOOK_TOKENS] == [f"{r[0]:.2f}" for r in BOOK_ROWS]
        assert [rows[token][1] for token in BOOK_TOKENS] == [
            f"{r[1]:.6f}" if i != 4 else "0.123456" for i, r in enumerate(BOOK_ROWS)
        ]
        assert [rows[token][2] for token in BOOK_TOKENS] == [f"{r[2]:.2f}" for r in BOOK_ROWS]
    finally:
        fresh.close()


def test_typed_weights_take_an_exponent_and_name_a_decimal_comma(server, page, browser):
    """The W_query grid (the first on the page, numbers only) read as the learner typed it."""
    screen.open_page(page, expected.link(server, "Trainable_weights", **TYPED))
    _typed_weights_on_screen(page, expected.settings_of(screen.share_link(page)))
    steps = [  # (row, column, typed, what W_query's row becomes, or the message's words)
        (0, 0, "1e-1", (0.1, 0.0)),
        (1, 1, "0,25", "W_query, row 2, column c2 is not a number"),
        (1, 1, "2.5E-1", (0.0, 0.25)),
        (2, 0, "12345678901234567890", "W_query, row 3, column c1 must be between −10 and 10"),
        (2, 0, "-.5", (-0.5, 0.5)),
    ]
    for row, column, typed, then in steps:
        before = screen.heatmap(page, "attention weights")
        link = screen.share_link(page)
        learner.type_in_cell(page, row, column, typed, left=15)
        if isinstance(then, str):
            message = next(a for a in _wait_for_alert(page, then) if then in a)
            assert "Using the last valid W_query" in message, message
            if "," in typed:
                assert "after a point: 0.25" in message, message
            assert screen.share_link(page) == link  # the last valid matrices stay
            assert screen.heatmap(page, "attention weights") == before
            continue
        screen.after_change(page, lambda p: screen.heatmap(p, "attention weights"), before)
        settings = expected.settings_of(screen.share_link(page))
        assert settings["wq"][row] == then, (typed, settings["wq"])
        _typed_weights_on_screen(page, settings)
        assert [a for a in screen.alerts(page) if "W_query" in a] == []

    copied = screen.share_link(page)  # what the learner typed, opened elsewhere
    assert expected.settings_of(copied)["wq"] == ((0.1, 0.0), (0.0, 0.25), (-0.5, 0.5))
    _typed_weights_elsewhere(page, browser, copied)


def test_typed_weights_start_from_the_first_head_when_six_heads_sit_side_by_side(
    server, page, browser
):
    """Six heads of 2 side by side make W 12 columns wide, more than a grid may be: choosing
    typed weights starts the grids from the first head (they once started 12 wide and the page
    said "d_out must be between 1 and 8, not 12"). One edit, then the copied link elsewhere."""
    screen.open_page(
        page, expected.link(server, "Trainable_weights", heads="6", heads_layout="wrapper")
    )
    sidebar = expected.settings_of(screen.share_link(page))
    assert (sidebar["heads"], sidebar["heads_layout"]) == (6, "wrapper")
    first_head = expected.weight_cells(sidebar, expected.trace_of(sidebar), head=0)

    before = screen.heatmap(page, "attention weights")
    learner.click_radio(page, "weights_from", "typed by me")
    screen.wait_for(page, screen.share_link, lambda link: "weights_from=typed" in link)
    screen.wait_ready(page)
    assert [a for a in screen.alerts(page) if "d_out" in a] == []
    settings = expected.settings_of(screen.share_link(page))
    assert [len(settings[name][0]) for name in ("wq", "wk", "wv")] == [2, 2, 2]
    _typed_weights_on_screen(page, settings)
    assert screen.heatmap(page, "attention weights") == first_head, before

    before = screen.heatmap(page, "attention weights")
    learner.type_in_cell(page, 0, 0, "2", left=15)
    screen.after_change(page, lambda p: screen.heatmap(p, "attention weights"), before)
    settings = expected.settings_of(screen.share_link(page))
    assert settings["wq"][0][0] == 2.0
    _typed_weights_on_screen(page, settings)

    other_alerts = _typed_weights_elsewhere(page, browser, screen.share_link(page))
    assert [a for a in other_alerts if "d_out" in a] == []


def test_renaming_a_token_renames_it_in_the_focus_select_box(server, page):
    screen.open_page(page, server)
    matrix = Matrix()
    before = screen.summary_text(page)
    learner.type_in_cell(page, 1, 0, "trip")  # the focused token
    matrix.tokens[1] = "trip"
    screen.after_change(page, screen.summary_text, before)
    check_screen(page, matrix, "rename the focused token")
    assert learner.chosen(page, "query") == "x(2) trip"

    before = screen.summary_text(page)
    learner.press_slider(page, "d_out")  # any control: the browser sends every widget's value
    screen.after_change(page, screen.summary_text, before)
    assert [a for a in screen.alerts(page) if "Focus on token" in a] == []
    settings = expected.settings_of(screen.share_link(page))
    assert settings.tokens[1] == "trip" and settings["d_out"] == 3 and settings["query"] == 2
    assert screen.summary_text(page) == expected.summary(settings)


def test_an_edit_survives_a_seed_change_and_a_page_switch_until_reset(server, page):
    screen.open_page(page, expected.link(server, "", preset="random", seed="3"))
    generated = expected.settings_of({"preset": "random", "seed": "3"})
    assert screen.summary_text(page) == expected.summary(generated)

    before = screen.summary_text(page)
    learner.type_in_cell(page, 0, 1, "0.77")
    screen.after_change(page, screen.summary_text, before)
    before = screen.summary_text(page)
    learner.type_number(page, "seed", "5")  # new weights; the edited matrix stays
    screen.after_change(page, screen.summary_text, before)
    edited = expected.settings_of(page.url)
    assert edited["seed"] == 5 and edited.rows[0][0] == 0.77
    assert edited.rows[1:] == generated.rows[1:]
    assert screen.summary_text(page) == expected.summary(edited)

    learner.go_to(page, "5 · Causal mask")
    causal = expected.trace_of(edited, mask="causal", mask_strategy="neg_inf", dropout=0.0)
    assert screen.heatmap(page, "−∞, then softmax") == expected.weight_cells(edited, causal)
    learner.go_to(page, "Playground")
    assert screen.summary_text(page) == expected.summary(edited)

    before = screen.summary_text(page)
    page.get_by_role("button", name="Reset").click()
    screen.after_change(page, screen.summary_text, before)
    regenerated = expected.settings_of({"preset": "random", "seed": "5"})
    assert expected.settings_of(page.url).rows == regenerated.rows
    assert screen.summary_text(page) == expected.summary(regenerated)


def test_real_words_are_split_as_page_9_splits_them(server, page, browser):
    """ "Use real words" with punctuation and an unknown word: a full stop is a word of its
    own, as on page 9 (the Playground once left out "ship," and "crew."); a comma cannot be a
    label (it separates tokens in links, whose tokens it once broke) and is left out with the
    reason; the numbers on screen are the core's, and the copied link shows the same."""
    screen.open_page(page, server)
    page.locator("summary").filter(has_text="Use real words (GloVe vectors)").click()
    words = page.locator(".st-key-glove_words input")
    words.wait_for(timeout=30_000)
    words.fill("King queen zzqq ship, crew.")
    words.press("Enter")
    screen.wait_ready(page)
    before = screen.summary_text(page)
    page.locator(".st-key-glove_use button").click()
    screen.after_change(page, screen.summary_text, before, timeout=90)
    settings = expected.settings_of(screen.share_link(page))
    assert settings.tokens == ("king", "queen", "ship", "crew", ".")
    notes = _wait_for_alert(page, "Not in GloVe")
    assert "Not in GloVe, left out: zzqq." in notes[-2:][0], notes
    assert "Left out ,: a label contains ',' or ';', which separate tokens in links" in notes[-1]
    assert screen.summary_text(page) == expected.summary(settings)
    fresh = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        other = fresh.new_page()
        screen.open_page(other, screen.share_link(page))
        assert screen.summary_text(other) == screen.summary_text(page)
    finally:
        fresh.close()


def _live_region(page) -> str:
    return page.locator('[role="status"][aria-live="polite"]').first.inner_text().strip()


def test_the_hidden_sentence_states_the_typed_weights_result_edit_after_edit(server, page):
    """Found in Chromium: a screen reader heard the sidebar's result (0.2264) while page 3
    showed the typed matrices' (0.2784). Typed by me, a W_query cell, then the d_out slider
    (which typed weights ignore): the live region says what the page shows each time."""
    screen.open_page(page, expected.link(server, "Trainable_weights"))
    assert _live_region(page) == screen.summary_text(page)
    learner.click_radio(page, "weights_from", "typed by me")
    screen.wait_for(page, screen.share_link, lambda link: "weights_from=typed" in link)
    screen.wait_ready(page)
    for step in ("cell", "slider"):
        before = screen.summary_text(page)
        if step == "cell":
            learner.type_in_cell(page, 0, 0, "2.5", left=15)
            screen.after_change(page, screen.summary_text, before)
        else:
            learner.press_slider(page, "d_out")
            screen.wait_for(page, screen.share_link, lambda link: "d_out=3" in link)
            screen.wait_ready(page)
            assert screen.summary_text(page) == before  # typed weights bring their own width
        settings = expected.settings_of(screen.share_link(page))
        typed = tuple(settings[name] for name in ("wq", "wk", "wv"))
        trace = expected.trace_of(
            settings, init="custom", custom_weights=typed, heads=1, heads_layout="split"
        )
        shown = screen.summary_text(page)
        assert shown == expected.summary(settings, trace)
        assert screen.wait_for(page, _live_region, shown.__eq__) == shown


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        (
            {"wq": "1,2;3,4", "wk": "1,0;0,1;1,1", "wv": "1,0;0,1;1,1"},
            "W_query must have 3 rows (one per input dimension), got shape (2, 2)",
        ),
        (
            {"wq": "1,0;0,1;1,1", "wk": "1,0,0;0,1,0;0,0,1", "wv": "1,0;0,1;1,1"},
            "W_query, W_key and W_value must have the same number of columns",
        ),
        ({"wq": "1,0;0,1;1,1"}, "W_key is missing"),
    ],
)
def test_typed_matrices_that_do_not_fit_are_named_not_dropped_silently(server, page, typed, why):
    """Found in Chromium: a link's typed matrices of the wrong shape were replaced by the
    sidebar's without a word. The page says why; the grids and the copied link then hold the
    sidebar's matrices, and the numbers are the core's on them."""
    link = expected.link(server, "Trainable_weights", weights_from="typed", **typed)
    screen.open_page(page, link)
    said = screen.wait_for(page, screen.alerts, lambda alerts: any(why in a for a in alerts))
    assert any(f"The typed matrices do not fit: {why}." in a for a in said), said
    settings = expected.settings_of(screen.share_link(page))
    sidebar = expected.trace_of(settings)  # the sidebar's run: its W_query
    assert settings["wq"] == tuple(tuple(as_linked(v) for v in r) for r in sidebar.W_query.tolist())
    _typed_weights_on_screen(page, settings)


GRID_TEXT = (  # Glide draws on a canvas and mirrors the grid as an accessible table
    "() => [...document.querySelectorAll('[data-testid=stDataFrame] table tr')]"
    ".map(r => [...r.querySelectorAll('th, td')].map(c => c.innerText.trim()))"
    ".filter(cells => cells.some(c => /^[0-9.-]+$/.test(c)))"  # not the header
)


def test_deleting_the_only_token_is_refused_and_the_grid_keeps_it(server, page):
    """The message says the last token stays: the grid must show it too, so that the next
    edit (a new row) is made to the matrix the results use. The one-token link itself opens
    without a notice: its focus is the default, which no one chose."""
    screen.open_page(page, f"{server}/?x=0.5,0.2&tokens=solo")
    solo = expected.summary(expected.settings_of("x=0.5,0.2&tokens=solo"))
    assert screen.summary_text(page) == solo
    assert screen.alerts(page) == []  # once "there is no token 2": the link never asked
    learner.delete_row(page, 0, refused=True)
    shown = _wait_for_alert(page, "at least one token")
    assert any("the last one stays" in a for a in shown), shown
    grid = screen.wait_for(page, lambda p: p.evaluate(GRID_TEXT), lambda rows: len(rows) == 1)
    assert [row[-3:] for row in grid] == [["solo", "0.50", "0.20"]]
    assert screen.summary_text(page) == solo
    assert expected.settings_of(screen.share_link(page)).tokens == ("solo",)

    screen.wait_idle(page)
    learner.add_row(page)
    screen.after_change(page, screen.summary_text, solo)
    assert expected.settings_of(screen.share_link(page)).tokens == ("solo", "new")
    assert _matrix_alerts(page) == []
    assert screen.summary_text(page) == expected.summary(expected.settings_of(page.url))


def test_the_focused_token_and_its_lines_follow_it_when_rows_above_are_deleted(server, page):
    """Focused on "one" with its lines alone shown, the learner deletes tokens above it: the
    explanation, the sidebar's choice, the lines and the link stay on "one"; then a slider
    step keeps it there. Then "one" itself is deleted: the focus moves to the token that
    took its place, the lines go back to every token, and the page says both (it once moved
    the focus without a word, and the lines silently when the last row went)."""
    screen.open_page(page, f"{server}/?query=5&weights_view=lines&isolate=5")
    tokens = list(BOOK_TOKENS)

    def check(query: int, step: str) -> None:
        settings = expected.settings_of(screen.share_link(page))
        assert (settings["query"], settings["isolate"]) == (query, query), step
        assert settings.tokens == tuple(tokens), step
        assert screen.summary_text(page) == expected.summary(settings), step
        assert screen.summary_text(page).startswith("one attends most to"), step
        assert learner.chosen(page, "query") == f"x({query}) one", step
        assert learner.chosen(page, "isolate") == f"{query} · one", step

    check(5, "opened")
    for row, query in ((0, 4), (1, 3)):  # "Your", then "starts" (now the second row)
        before = screen.summary_text(page)
        screen.wait_idle(page)
        learner.delete_row(page, row)
        del tokens[row]
        screen.after_change(page, screen.summary_text, before)
        screen.wait_for(
            page, screen.share_link, lambda link, q=query: expected.settings_of(link)["query"] == q
        )
        check(query, f"row {row} deleted")
    before = screen.summary_text(page)
    learner.press_slider(page, "d_out")
    screen.after_change(page, screen.summary_text, before)
    check(3, "d_out stepped")
    assert expected.settings_of(screen.share_link(page))["d_out"] == 3
    assert _matrix_alerts(page) == []

    before = screen.summary_text(page)
    screen.wait_idle(page)
    learner.delete_row(page, 2)  # "one" itself
    del tokens[2]
    screen.after_change(page, screen.summary_text, before)
    settings = expected.settings_of(screen.share_link(page))
    assert settings.tokens == tuple(tokens) == ("journey", "with", "step")
    assert (settings["query"], settings["isolate"]) == (3, 0)
    assert screen.summary_text(page) == expected.summary(settings)
    assert screen.summary_text(page).startswith("step attends most to")
    assert learner.chosen(page, "query") == "x(3) step"
    assert learner.chosen(page, "isolate") == "every token"
    shown = " | ".join(screen.alerts(page))
    assert "token 3 (one) was deleted. Using 3 (step)." in shown, shown
    assert "token 3 (one) was deleted, so every token's lines are shown." in shown, shown


def _signed_decimals(count: int, seed: int) -> list[str]:
    """Numbers as a learner types them: a sign or none, up to three decimals, never two
    typings of one number alike in a row (so a lost key shows)."""
    rng = random.Random(seed)
    typed = []
    while len(typed) < count:
        sign = rng.choice(["-", "-", ""])
        whole = rng.randrange(10)
        decimals = rng.choice(
            ["", ".5", f".{rng.randrange(1, 100):02d}", f".{rng.randrange(1, 1000):03d}"]
        )
        text = f"{sign}{whole}{decimals}"
        if float(text) != 0 and (not typed or text != typed[-1]):
            typed.append(text)
    return typed


def test_fifty_signed_decimals_typed_at_machine_speed_are_stored_as_typed(server, page):
    """Issue 39, item 1: keys typed with no pause, Enter included, all reach the cell.

    Five numbers at a time go down a column in one burst of keys (number, Enter, number, ...),
    the first burst into the page's first opened cell editor. Without ``grid_typing.js`` the
    grid lost leading keys ("1.25" became "25") and whole edits.
    """
    screen.open_page(page, server)
    matrix = Matrix()
    typed = [[f"{v:.2f}" for v in row] for row in BOOK_ROWS]
    numbers = _signed_decimals(50, seed=39)
    learner.focus_cell(page, 0, 0)
    learner.arrow_to_cell(page, 2, 0)  # d1 of the first row (the grid counts its row markers)
    for burst in range(10):
        column = 1 + burst % 3
        values = numbers[burst * 5 : burst * 5 + 5]
        page.keyboard.type("".join(f"{value}\n" for value in values))
        for row, value in enumerate(values):
            typed[row][column - 1] = value
            matrix.rows[row][column - 1] = float(value)
        bottom = f"glide-cell-{column + 1}-5"  # Enter moved the cursor down five rows
        cursor = screen.wait_for(page, learner.chosen_cell, lambda c, b=bottom: c == b)
        assert cursor == bottom, (burst, values, cursor, screen.grid_texts(page))
        if burst < 9:  # to the top of the next column
            for key in ["ArrowUp"] * 5 + (["ArrowRight"] if column < 3 else ["ArrowLeft"] * 2):
                page.keyboard.press(key)
            next_column = 1 + (burst + 1) % 3
            learner.arrow_to_cell(page, next_column + 1, 0)
    # The cursor is on the last row of d1: a typo mended with Backspace, then Tab, at once.
    page.keyboard.type("-2.59")
    page.keyboard.press("Backspace")
    page.keyboard.type("7")
    page.keyboard.press("Tab")
    typed[5][0], matrix.rows[5][0] = "-2.57", -2.57
    right = f"glide-cell-{1 + 2}-5"  # Tab moved the cursor to d2
    assert screen.wait_for(page, learner.chosen_cell, lambda c: c == right) == right
    stored = screen.wait_for(
        page, lambda p: [list(row) for row in expected.settings_of(p.url).rows], matrix.rows.__eq__
    )
    assert stored == matrix.rows
    shown = [row[1:] for row in screen.grid_texts(page)[1:]]
    assert shown == typed
    screen.wait_ready(page)
    check_screen(page, matrix, "fifty numbers typed at machine speed")
    assert _matrix_alerts(page) == []
