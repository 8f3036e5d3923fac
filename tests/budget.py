"""How much the randomised tests draw: sized for the 15-minute budget, or thorough.

The default profile is what ``python -m pytest`` runs (on CI and on a contributor's machine).
The thorough profile draws the counts the suite ran before it was sized for the budget (or
more); run it before a release::

    TESTS_PROFILE=thorough python -m pytest

Hypothesis' own ``settings`` profiles hold the same choice for the tests that name no count.
"""

from __future__ import annotations

import os
from datetime import date

from hypothesis import HealthCheck, Phase, settings

PROFILES = ("default", "thorough")
PROFILE = os.environ.get("TESTS_PROFILE", "default").strip() or "default"
if PROFILE not in PROFILES:
    raise RuntimeError(f"TESTS_PROFILE={PROFILE!r} is not a profile: use one of {PROFILES}")
THOROUGH = PROFILE == "thorough"

# No deadline: Hypothesis fails an example that takes over 200 ms, a timing assert that a
# loaded two-core machine breaks now and then (a flaky failure of a test whose checks held).
# Timings belong in bench/; a hanging test is still stopped by pytest-timeout.
settings.register_profile("default", max_examples=100, deadline=None)
settings.register_profile("thorough", max_examples=300, deadline=None)
settings.load_profile(PROFILE)

# The tests that must not share the machine with each other (their own nginx and workers, many
# sessions at once): one xdist group, so one worker runs them one after the other.
ALONE = "alone"


def examples(default: int, thorough: int) -> int:
    """The number of examples (or cases) a randomised test draws under the current profile."""
    if default > thorough:
        raise ValueError(f"the default profile draws more than the thorough one: {default}")
    return thorough if THOROUGH else default


# A rotation: where the default profile checks half of a set of equivalent cases, which half
# changes with the day (``TESTS_ROUND`` sets it), so that two runs on two days cover the set;
# the thorough profile checks all of it. The cases a run skipped are named in its log.
ROUND = int(os.environ.get("TESTS_ROUND", "").strip() or date.today().toordinal()) % 2


def in_rotation(index: int) -> bool:
    """Whether the case at ``index`` of a rotated set is checked in this run."""
    return THOROUGH or index % 2 == ROUND


def walk_settings(steps: int, thorough: int) -> settings:
    """The settings of a random walk (a Hypothesis state machine) of ``steps`` steps: one walk
    (``thorough`` in the thorough profile) after Hypothesis' first example, its simplest (every
    number 0: the first choice everywhere), which the walks skip. No shrinking: a walk is
    reported with its steps as found and the blob that replays it."""
    return settings(
        max_examples=1 + examples(default=1, thorough=thorough),
        stateful_step_count=steps,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=(Phase.explicit, Phase.reuse, Phase.generate),
        report_multiple_bugs=False,
        print_blob=True,
    )


# --- the suite's time, shown at the end of every run ---------------------------------------

BUDGET_MINUTES = 15.0  # the README's test command on two cores
# Checked in this order: the first area whose pattern is in a test's path wins. A new kind of
# test gets a line of its own here, so that every run shows what it costs.
AREAS = (
    ("browser page audit", "tests/e2e/test_page_audit"),
    ("deploy: replicas and isolation", "tests/e2e/test_replicas"),
    ("deploy: replicas and isolation", "tests/e2e/test_isolation"),
    ("browser: class mode", "tests/e2e/test_class_browser"),
    ("other browser tests", "tests/e2e/"),
    ("link fuzz", "tests/ui/test_link_fuzz"),
    ("settings sweep", "tests/ui/test_settings_sweep"),
    ("session state machine", "tests/ui/test_session_machine"),
    ("translation (AppTest and catalogs)", "tests/ui/test_translation"),
    ("translation (AppTest and catalogs)", "tests/translation/"),
    ("other AppTest and ui", "tests/ui/"),
    ("command line", "tests/core/test_cli"),
    ("core", "tests/core/"),
    ("real model", "tests/real_model/"),
    ("class store", "tests/classroom/"),
    ("deploy: files", "tests/deploy/"),
    ("docs", "tests/docs/"),
)


def area_of(path: str) -> str:
    """The area of a test, from its file path or JUnit class name."""
    path = path.replace("\\", "/")
    if "/" not in path:  # a JUnit class name: tests.e2e.test_flow_browser
        path = path.replace(".", "/")
    return next((area for area, pattern in AREAS if pattern in path), "other")


def budget_table(seconds: dict[str, float], counts: dict[str, int], wall: float) -> list[str]:
    """The lines that end a run: the wall time against the budget, and worker-minutes by area."""
    total = sum(seconds.values())
    verdict = "within" if wall <= BUDGET_MINUTES * 60 else "OVER"
    lines = [
        f"suite time {wall / 60:.1f} min, {verdict} its budget of {BUDGET_MINUTES:.0f} min "
        f"on two cores; {total / 60:.1f} worker-minutes in {sum(counts.values())} tests",
        f"{'area':<36} {'tests':>6} {'worker-min':>11}",
    ]
    for area, took in sorted(seconds.items(), key=lambda item: -item[1]):
        lines.append(f"{area:<36} {counts[area]:>6} {took / 60:>11.1f}")
    return lines


# --- the walks' coverage, shown after the budget (issue 64) ---------------------------------

# The walks that record what they reached, and what each counts.
WALKS = {
    "walks": "AppTest walks: controls changed / drawn",
    "browser_walks": "browser walks: ways between views done / offered",
}


def walks_table(walks: dict[str, dict[str, tuple[set[str], set[str]]]]) -> list[str]:
    """Per page, what the walks did out of what the page offered, and what they missed."""
    lines = []
    for name, title in WALKS.items():
        pages = walks.get(name)
        if not pages:
            continue
        done = sum(len(walked & drawn) for drawn, walked in pages.values())
        offered = sum(len(drawn) for drawn, _walked in pages.values())
        lines.append(f"{title}: {done}/{offered} in all")
        for page, (drawn, walked) in sorted(pages.items()):
            missed = sorted(drawn - walked)
            note = f"  not reached: {', '.join(missed)}" if missed else ""
            if not drawn:
                note = "  no whole walk was counted (Hypothesis cut every example short)"
            lines.append(f"  {page:<24} {len(walked & drawn):>3}/{len(drawn):<3}{note}")
    return lines
