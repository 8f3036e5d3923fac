"""How much the randomised tests draw: sized for the 15-minute budget, or thorough.

The default profile is what ``python -m pytest`` runs (on CI and on a contributor's machine).
The thorough profile draws the counts the suite ran before it was sized for the budget (or
more); run it before a release::

    TESTS_PROFILE=thorough python -m pytest

Hypothesis' own ``settings`` profiles hold the same choice for the tests that name no count.
"""

from __future__ import annotations

import os

from hypothesis import settings

PROFILES = ("default", "thorough")
PROFILE = os.environ.get("TESTS_PROFILE", "default").strip() or "default"
if PROFILE not in PROFILES:
    raise RuntimeError(f"TESTS_PROFILE={PROFILE!r} is not a profile: use one of {PROFILES}")
THOROUGH = PROFILE == "thorough"

settings.register_profile("default", max_examples=100)
settings.register_profile("thorough", max_examples=300)
settings.load_profile(PROFILE)

# The tests that must not share the machine with each other (their own nginx and workers, many
# sessions at once): one xdist group, so one worker runs them one after the other.
ALONE = "alone"


def examples(default: int, thorough: int) -> int:
    """The number of examples (or cases) a randomised test draws under the current profile."""
    if default > thorough:
        raise ValueError(f"the default profile draws more than the thorough one: {default}")
    return thorough if THOROUGH else default
