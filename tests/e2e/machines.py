"""Hypothesis state machines that drive one learner's page in Chromium."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, precondition, rule, run_state_machine_as_test

from tests.budget import walk_settings

VIEWPORT = {"width": 1280, "height": 720}


class LearnerMachine(RuleBasedStateMachine):
    """A fresh browser context (its own cookies) at 1280 × 720 for each example, closed at the
    end; :func:`run` sets the server and the browser."""

    server = ""
    browser = None

    def __init__(self) -> None:
        super().__init__()
        self.context = self.browser.new_context(viewport=VIEWPORT)
        self.page = self.context.new_page()

        self.skip = False  # Hypothesis' simplest example: every draw 0, skipped

    def skipped(self, walk: int) -> bool:
        """Whether this example is Hypothesis' simplest (its ``walk`` drawn 0: every draw 0,
        the first rule at its least, every step), which says nothing new each run: a machine
        draws ``walk`` in its first (initialize) rule, and does nothing more if so."""
        self.skip = walk == 0
        return self.skip

    @precondition(lambda self: self.skip)
    @rule()
    def skip_the_simplest_example(self) -> None:
        """Nothing: the walk Hypothesis draws first, all zeros."""

    def teardown(self) -> None:
        self.context.close()


WALK = st.integers(0, 2**31)  # drawn first by each machine: 0 is Hypothesis' simplest example


def run(machine: type[LearnerMachine], server: str, browser, steps: int) -> None:
    """One walk of ``steps`` steps (three in the thorough profile) after Hypothesis' simplest
    example, which the machine skips (:meth:`LearnerMachine.skipped`): every step is a real
    gesture, and slow. No shrinking: a walk is reported with its steps as found."""
    machine.server, machine.browser = server, browser
    run_state_machine_as_test(machine, settings=walk_settings(steps, thorough=3))
