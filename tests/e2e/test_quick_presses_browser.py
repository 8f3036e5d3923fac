"""Real Chromium: quick presses on the sidebar's sliders, mixed with edits of the matrix.

A learner presses an arrow key several times without waiting, on d_out or on the dropout
rate, right after choosing another weights view or just before typing a number into the
matrix. Each press sends a change while the runs of the earlier ones are still on their way.
Whatever the order in which they arrive, the slider must end where the learner left it, the
link and the numbers must say the same, and no press or edit may be lost. (A run used to draw
the slider with the value it started from: the slider jumped back while the numbers followed
the last press, and the next change sent the old value. And Streamlit's message cache sent a
reference to an element the browser had already forgotten: the connection failed and the page
went blank, or a control vanished. .streamlit/config.toml turns that cache off.)
"""

from __future__ import annotations

import time

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, precondition, rule

from attention_core.knobs.table import PARAMS
from tests.e2e import expected, learner, machines, screen

pytestmark = pytest.mark.e2e

D_OUT, DROPOUT = PARAMS["d_out"], PARAMS["dropout"]
STEPS = round((DROPOUT.high - DROPOUT.low) / DROPOUT.step)  # the dropout slider's positions


def presses(page, key: str, count: int, right: bool) -> None:
    """``count`` arrow presses on a slider, one right after the other."""
    page.locator(f'.st-key-{key} input[type="range"]').focus()
    for _ in range(count):
        page.keyboard.press("ArrowRight" if right else "ArrowLeft")


def thumb(page, key: str) -> str:
    """The number shown on a slider's thumb."""
    return page.locator(f'.st-key-{key} [data-testid="stSliderThumbValue"]').inner_text()


class QuickPresses(machines.LearnerMachine):
    """The model: d_out, the dropout rate (in steps) and the matrix's cells the learner set."""

    def __init__(self) -> None:
        super().__init__()
        # What the page's script logged as an error: a failed message or a broken element tree
        # (it once lost the connection with "Cached ForwardMsg MISS", and the page went blank).
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        start = expected.settings_of("")
        self.d_out, self.dropout_steps = start["d_out"], 0
        self.rows = [list(row) for row in start.rows]
        self.lines = False  # the weights shown as lines instead of the heatmap

    @initialize(walk=machines.WALK, count=st.integers(2, 4))
    def first_change_is_a_burst(self, walk: int, count: int) -> None:
        """A session's first change reruns the whole page, which draws every slider."""
        if self.skipped(walk):
            return
        screen.open_page(self.page, self.server)
        screen.wait_idle(self.page)
        self.press_d_out(count, True)

    @precondition(lambda self: not self.skip)
    @rule(count=st.integers(1, 4), right=st.booleans())
    def switch_the_view_then_press_d_out(self, count: int, right: bool) -> None:
        """Another weights view reruns the whole page; the presses come while it runs."""
        self.lines = not self.lines
        learner.click_radio(self.page, "weights_view", "lines" if self.lines else "heatmap")
        self.press_d_out(count, right)

    @precondition(lambda self: not self.skip)
    @rule(count=st.integers(1, 4), right=st.booleans())
    def press_d_out(self, count: int, right: bool) -> None:
        presses(self.page, "d_out", count, right)
        step = count if right else -count
        self.d_out = min(max(self.d_out + step, int(D_OUT.low)), int(D_OUT.high))
        self._settle()

    @precondition(lambda self: not self.skip)
    @rule(count=st.integers(1, 4), right=st.booleans(), edit=st.none() | st.integers(0, 5))
    def press_dropout_then_edit(self, count: int, right: bool, edit: int | None) -> None:
        """Presses on the dropout rate, then at once a number typed into row ``edit``'s
        first cell: the edit's run carries the slider's value too. (The dropout rate moves
        nothing on the page, so the grid stays under the pointer; an edit typed *before*
        quick presses is not tried: the grid takes the focus back a moment after Enter.)"""
        presses(self.page, "dropout", count, right)
        step = count if right else -count
        self.dropout_steps = min(max(self.dropout_steps + step, 0), STEPS)
        if edit is not None:
            value = round(0.1 * (edit + 1) + self.d_out / 100, 2)  # differs from the cell's
            learner.type_in_cell(self.page, edit, 1, str(value))
            self.rows[edit][0] = value
        self._settle()

    def _settle(self, timeout: float = 30.0) -> None:
        """Until the page's link holds the model (the last press's run has come back)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen.wait_idle(self.page)
            if self._linked() == self._model():
                return
            self.page.wait_for_timeout(50)

    def _model(self) -> tuple[int, float, list[list[float]]]:
        return self.d_out, round(self.dropout_steps * DROPOUT.step, 2), self.rows

    def _linked(self) -> tuple[int, float, list[list[float]]]:
        found = expected.settings_of(screen.share_link(self.page))
        return found["d_out"], round(found["dropout"], 2), [list(row) for row in found.rows]

    @invariant()
    def every_press_and_edit_counts_and_the_sliders_show_them(self) -> None:
        if self.skip:
            return
        page = self.page
        assert self.errors == []
        assert self._linked() == self._model()  # no press and no edit lost
        linked_view = expected.settings_of(screen.share_link(page))["weights_view"]
        assert linked_view == ("lines" if self.lines else "heatmap")
        assert expected.settings_of(page.url) == expected.settings_of(screen.share_link(page))
        assert learner.slider_value(page, "d_out") == str(self.d_out)
        assert thumb(page, "d_out") == str(self.d_out)
        assert thumb(page, "dropout") == f"{self._model()[1]:.2f}"
        found = expected.settings_of(page.url)
        assert screen.summary_text(page) == expected.summary(found)  # the numbers follow
        assert len(screen.shown_context_vector(page)) == self.d_out
        assert screen.exceptions(page) == [] and screen.warnings(page) == []


def test_quick_presses_and_an_edit_at_once_leave_slider_link_and_numbers_agreeing(server, browser):
    machines.run(QuickPresses, server, browser, steps=8)


def test_quick_d_out_presses_with_heads_chosen_name_no_choice_never_made(server, page):
    """Found in Chromium: with 4 heads, three quick presses from d_out 4 to 1 said "heads
    must be a whole number, not '4'. Using 3.": the heads' box, whose choices each press
    changed, sent its old choice as text. Now the notices name only real head counts, the
    end state is d_out 1 with 1 head, and three quick presses back bring the 4 heads back."""
    screen.open_page(page, f"{server}/?d_out=4&heads=4")
    screen.wait_idle(page)
    for right, d_out, heads in ((False, 1, 1), (True, 4, 4)):
        presses(page, "d_out", 3, right)
        screen.wait_for(page, lambda p: expected.settings_of(p.url)["d_out"], d_out.__eq__)
        screen.wait_for(page, lambda p: expected.settings_of(p.url)["heads"], heads.__eq__)
        screen.wait_idle(page)
        settings = expected.settings_of(page.url)
        assert (settings["d_out"], settings["heads"]) == (d_out, heads)
        assert learner.chosen(page, "heads") == str(heads)
        assert screen.summary_text(page) == expected.summary(settings)
        notices = " ".join(screen.warnings(page))
        assert "whole number" not in notices, notices
