"""Real Chromium: page 5's mask of your own, ticked cell by cell with the keyboard.

A learner clicks into the grid, moves with the arrow keys and presses Space on a cell; after
every tick the "your mask" heatmap must show the core's weights for the mask ticked so far,
the link must carry it, and the grid's rows must say which query they are. The browser's Back
and Forward walk through the ticks (each tick is a history entry). At the end the copied link
is opened in a fresh browser: the same ticks and the same numbers.
"""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, precondition, rule

from attention_core.formatting import format_scientific
from tests.e2e import expected, learner, machines, screen

pytestmark = pytest.mark.e2e

SIZE = 6
LABELS = ["Your", "journey", "starts", "with", "one", "step"]


def start_mask() -> list[list[bool]]:
    """The grid's start: causal, with the first query allowed nothing."""
    return [[i > 0 and j <= i for j in range(SIZE)] for i in range(SIZE)]


def grid_rows(page) -> list[list[str]]:
    rows = screen.grid_texts(page)
    return [row for row in rows if row and re.match(r"q\d+ ", row[0])]  # not the header


def wait_for_cells(page, want: dict[str, str], timeout: float = 20.0) -> dict[str, str]:
    """The "your mask" heatmap once it shows ``want`` (or what it shows at the deadline)."""
    deadline = time.monotonic() + timeout
    shown: dict[str, str] = {}
    while time.monotonic() < deadline:
        screen.wait_idle(page)
        shown = screen.heatmap(page, "your mask")
        if shown == want:
            break
        page.wait_for_timeout(50)
    return shown


def expected_cells(url: str, mask: list[list[bool]]) -> dict[str, str]:
    found = expected.settings_of(url)
    trace = expected.trace_of(
        found, mask="custom", custom_mask=tuple(tuple(r) for r in mask), dropout=0.0
    )
    return expected.weight_cells(found, trace)


def ticks(rows: list[list[str]]) -> list[list[bool]]:
    """The ticked cells of the grid's rows (the first column holds the query's name)."""
    return [[cell == "true" for cell in row[1:]] for row in rows]


class TickingTheMask(machines.LearnerMachine):
    """Space on one cell after another; the model is the mask the learner has ticked."""

    def __init__(self) -> None:
        super().__init__()
        self.mask = start_mask()
        self.history = [start_mask()]  # the mask of each history entry since the page opened
        self.at = 0  # the entry the browser shows

    @initialize(walk=machines.WALK)
    def open_the_page(self, walk: int) -> None:
        if self.skipped(walk):
            return
        self.page.goto(f"{self.server}/Causal_mask")
        screen.wait_ready(self.page, 120)
        screen.wait_idle(self.page)

    @precondition(lambda self: not self.skip)
    @rule(row=st.integers(0, SIZE - 1), column=st.integers(0, SIZE - 1))
    def tick(self, row: int, column: int) -> None:
        learner.focus_cell(self.page, row, column + 1, left=40)  # column 0: the query names
        self.page.keyboard.press(" ")
        self.mask[row][column] = not self.mask[row][column]
        want = expected_cells(self.page.url, self.mask)
        assert wait_for_cells(self.page, want) == want
        self.history[self.at + 1 :] = [[list(r) for r in self.mask]]  # a new branch
        self.at += 1

    @precondition(lambda self: not self.skip and self.at > 0)
    @rule()
    def back(self) -> None:
        # Found by a review: Back left the ticks on screen and wrote them over the earlier
        # entry (the grid kept its edits and recorded them again).
        self.walk(-1)

    @precondition(lambda self: not self.skip and self.at < len(self.history) - 1)
    @rule()
    def forward(self) -> None:
        self.walk(+1)

    def walk(self, by: int) -> None:
        self.at += by
        self.mask = [list(r) for r in self.history[self.at]]
        (self.page.go_back if by < 0 else self.page.go_forward)()
        screen.wait_ready(self.page)
        want = expected_cells(self.page.url, self.mask)
        assert wait_for_cells(self.page, want) == want

    @invariant()
    def the_link_and_the_grid_say_the_same_mask(self) -> None:
        if self.skip:
            return
        settings_now = expected.settings_of(self.page.url)
        linked = settings_now["my_mask"]
        if linked is not None:  # nothing in the link while the grid is at its start
            assert [[bool(v) for v in row] for row in linked] == self.mask
        # The grid draws its new ticks a moment after the weights (seen with four workers on
        # two cores): wait for them; ticks that never follow still fail here.
        rows = screen.wait_for(self.page, grid_rows, lambda found: ticks(found) == self.mask)
        assert [row[0] for row in rows] == [f"q{i + 1} {w}" for i, w in enumerate(LABELS)]
        # An intermittent failure here (1 run in 3 to 10 under load) showed the grid without
        # the last tick; say what the rest of the page holds, to tell a grid drawn from an
        # old start from a session that lost the tick.
        assert ticks(rows) == self.mask, {
            "link": self.page.url,
            "heatmap shows the model's mask": screen.heatmap(self.page, "your mask")
            == expected_cells(self.page.url, self.mask),
            "history at": (self.at, len(self.history)),
        }

    def teardown(self) -> None:
        try:
            if self.skip:
                return
            link = screen.share_link(self.page)
            fresh = self.browser.new_context(viewport=machines.VIEWPORT)
            other = fresh.new_page()
            other.goto(link)
            screen.wait_ready(other, 120)
            want = expected_cells(link, self.mask)
            assert wait_for_cells(other, want) == want
            assert [[c == "true" for c in row[1:]] for row in grid_rows(other)] == self.mask
            fresh.close()
        finally:
            super().teardown()


def test_ticking_the_mask_cell_by_cell_shows_the_cores_weights_and_the_link_keeps_it(
    server, browser
):
    machines.run(TickingTheMask, server, browser, steps=5)


def test_a_row_deleted_elsewhere_restarts_the_mask_and_the_page_says_so(server, page):
    """Found in Chromium: tick a cell on page 5, delete a token on the Playground, come back:
    the ticked mask was gone without a word. The page says why the grid starts again, and
    the numbers are the core's on the five-token starting grid."""
    page.goto(f"{server}/Causal_mask")
    screen.wait_ready(page, 120)
    learner.focus_cell(page, 0, 1, left=40)  # q1 may now attend to k1
    page.keyboard.press(" ")
    mask = start_mask()
    mask[0][0] = True
    want = expected_cells(page.url, mask)
    assert wait_for_cells(page, want) == want
    assert expected.settings_of(page.url)["my_mask"] is not None

    learner.go_to(page, "Playground")
    before = screen.summary_text(page)
    learner.delete_row(page, 3)
    screen.after_change(page, screen.summary_text, before)
    assert len(expected.settings_of(page.url).tokens) == 5

    learner.go_to(page, "5 · Causal mask")
    said = screen.wait_for(page, screen.alerts, lambda a: any("Your mask has" in t for t in a))
    assert any(
        "Your mask has 6 rows and the sequence 5 tokens: the grid starts again from the "
        "causal grid with its first row hidden." in text
        for text in said
    ), said
    five = [[i > 0 and j <= i for j in range(5)] for i in range(5)]
    want = expected_cells(page.url, five)
    assert wait_for_cells(page, want) == want


def test_a_tiny_leak_reads_as_a_leak_while_d_out_grows(server, page):
    """Found in Chromium: large scores (a random 12 x 16 matrix) shrink the leak of scores x
    mask below what 4 decimals show: page 5 said "wrong: a future token gets weight 0.0000",
    and from d_out 8 on, below its old tolerance, "correct". At every d_out the pitfall is
    called wrong with its leak printed unrounded, and the two right strategies correct."""
    page.goto(f"{server}/Causal_mask?preset=random&num_tokens=12&d_in=16")
    screen.wait_ready(page, 120)
    for d_out in range(2, 9):
        if d_out > 2:
            before = screen.heatmap(page, "scores × mask (pitfall)")
            learner.press_slider(page, "d_out")
            screen.after_change(
                page, lambda p: screen.heatmap(p, "scores × mask (pitfall)"), before
            )
        assert learner.slider_value(page, "d_out") == str(d_out)
        settings = expected.settings_of(page.url)
        trace = expected.trace_of(settings, mask="causal", mask_strategy="zero_scores", dropout=0)
        leak = float(trace.weights[0][~trace.allowed].max())
        assert 0 < leak < 5e-5, leak  # 0.0000 at 4 decimals
        said = screen.alerts(page)
        shown = format_scientific(leak)  # "4.2e−06", with the minus sign
        assert sum(f"wrong: a future token gets weight {shown}" in t for t in said) == 1, said
        assert sum("correct: no future weight" in t for t in said) == 2, said


def test_undefined_weights_are_called_wrong_in_the_browser(server, page):
    """A row of zero scores under the row-sum normalisation divides 0 by 0: every strategy's
    card says so (they all said "correct" when NaN slipped past the tolerances)."""
    page.goto(f"{server}/Causal_mask?x=0,0;1,2;3,-1&norm=sum")
    screen.wait_ready(page, 120)
    said = screen.alerts(page)
    assert sum("wrong: undefined weights (0/0 in a row)" in t for t in said) == 4, said
    assert not any("correct" in t for t in said), said
