"""Hypothesis state machines that drive one learner's page in Chromium."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import RuleBasedStateMachine, run_state_machine_as_test

from tests.budget import examples

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

    def teardown(self) -> None:
        self.context.close()


def run(machine: type[LearnerMachine], server: str, browser, steps: int) -> None:
    """One example of ``steps`` steps (three in the thorough profile): every step is a real
    gesture, and slow; a second example mostly repeats the first one's page load."""
    machine.server, machine.browser = server, browser
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=examples(default=1, thorough=3),
            stateful_step_count=steps,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            # No shrinking: each replay costs a minute of browser time, and a failure found
            # on a loaded machine may not fail the same way again (Hypothesis then reports
            # "Flaky" instead of the steps). The steps as found are reported as they are.
            phases=(Phase.explicit, Phase.reuse, Phase.generate),
            report_multiple_bugs=False,
        ),
    )
