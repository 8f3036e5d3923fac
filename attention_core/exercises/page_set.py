"""A page's exercises, chosen together: none gives away another's answer, none asks about the
token the page works out in full, none has an answer of 0 or one its own numbers print.

Each exercise names the cells it asks (``Exercise.asks``) and the cells its given numbers
are (``Exercise.shows``); a page keeps them apart, and keeps apart any two numbers within
what an answer accepts. Everything is deterministic from the trace, the seeds and the
focus: the same link gives the same exercises.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from attention_core.exercises.base import Exercise
from attention_core.exercises.makers import make_exercise
from attention_core.trace import AttentionTrace

TRIES = 24  # exercise seeds a page's exercise tries after its own, for numbers of its own


def _near(exercise: Exercise) -> float | None:
    """How near a number must be to an exercise's answer to tell it: what the answer
    accepts, and half a printed unit more (None for a shape)."""
    if isinstance(exercise.answer, tuple):
        return None
    return exercise.tolerance + 0.5 * 10.0**-exercise.decimals


def _tells(values: list[float], exercise: Exercise) -> bool:
    """Whether one of ``values`` tells ``exercise``'s answer."""
    near = _near(exercise)
    return near is not None and any(
        math.isfinite(v) and abs(v - float(exercise.answer)) <= near for v in values
    )


def _given(exercise: Exercise) -> list[float]:
    return [v for g in exercise.given for v in g.values]


def _page_numbers(trace: AttentionTrace, focus: int | None) -> list[float]:
    """The numbers every page shows (the learner's matrix) and those it works out in full
    for its focused query (head 1's scores, scaled scores, weights before and after dropout,
    and its context vector)."""
    shown = [float(v) for v in trace.inputs.flatten()]
    if focus is None or not 0 <= focus < trace.num_tokens:
        return shown
    rows = (
        trace.scores[0, focus],
        trace.scaled_scores[0, focus],
        trace.weights[0, focus],
        trace.weights_after_dropout[0, focus],
        trace.context[focus],
    )
    return shown + [float(v) for row in rows for v in row]


def _clear(
    exercise: Exercise, before: list[Exercise], focus: int | None, seen: Sequence[float] = ()
) -> bool:
    """Whether ``exercise`` keeps clear of the page's focused query (its row is worked out
    above, in formulas and in the headline), of the numbers ``seen`` on the page, of its own
    given numbers, and of the exercises ``before`` it: none gives a number that tells the
    other's answer, by its cell or by its value (a symmetric matrix's mirror, a repeated
    word's column). An answer that prints as 0 is no question at all (a score of 0.00 at two
    decimals)."""
    if focus is not None and any(row == focus for _what, row, _column in exercise.asks):
        return False
    if _tells([*seen, 0.0, *_given(exercise)], exercise):  # its own numbers too
        return False
    for other in before:
        if exercise.asks & other.shows or exercise.shows & other.asks:
            return False
        if _tells(_given(other), exercise) or _tells(_given(exercise), other):
            return False
    return True


MOST_DECIMALS = 6  # an exercise whose numbers are too alike asks them with up to this many
ROUNDS = 12  # whole sets tried, each kind from a later seed, when one kind finds no clear choice


def page_set(
    kinds: tuple[str, ...],
    trace: AttentionTrace,
    seeds: tuple[int, ...],
    decimals: int = 4,
    focus: int | None = None,
) -> dict[str, Exercise]:
    """A page's exercises, in its order, each on numbers of its own: no exercise gives a
    number that is another's answer (a softmax row holding the scaled score asked above it, a
    context row holding the weight asked), and none asks about the ``focus`` query, whose
    row the page works out for all to see. Each kind takes its seed, or the next seed whose
    exercise keeps clear of those before it; when a kind finds none (an earlier choice took
    the only row it could ask), the whole set is chosen again from later seeds; numbers too
    alike for any clear set (one token, a matrix of zeros) keep the first round's."""
    focus = focus if trace.num_tokens > 1 else None
    seen = _page_numbers(trace, focus)
    first = None
    for round_ in range(ROUNDS):
        starts = [s + round_ * TRIES for s in seeds]
        made, clear, hopeless = _one_round(kinds, trace, starts, decimals, focus, seen)
        if clear:
            return made
        first = first or made
        if hopeless:  # a kind with no clear choice whatever the others ask: no round helps
            break
    return first or {}


def _one_round(
    kinds: tuple[str, ...],
    trace: AttentionTrace,
    seeds: list[int],
    decimals: int,
    focus: int | None,
    seen: Sequence[float],
) -> tuple[dict[str, Exercise], bool, bool]:
    """Each kind's first clear exercise from its seed on (else at least not the focus's);
    whether every kind found a clear one, and whether one found none even alone."""
    made: dict[str, Exercise] = {}
    clear, hopeless = True, False
    for kind, seed in zip(kinds, seeds, strict=True):
        before = list(made.values())
        found, first, alone = None, None, False
        # numbers too alike at the page's decimals (page 10's scores all 0.00 and weights
        # all 0.08 at two) are asked with more: the question gives two more, then four
        for shown in range(decimals, max(decimals, MOST_DECIMALS) + 1, 2):
            tried = [make_exercise(kind, trace, seed % 2**32, shown)]
            while not _clear(tried[-1], before, focus, seen) and len(tried) < TRIES:
                tried.append(make_exercise(kind, trace, (seed + len(tried)) % 2**32, shown))
            found = next((e for e in tried if _clear(e, before, focus, seen)), None)
            first = first or next((e for e in tried if _clear(e, [], focus)), tried[0])
            alone = alone or any(_clear(e, [], focus, seen) for e in tried)
            if found is not None:
                break
        clear = clear and found is not None
        hopeless = hopeless or not alone
        made[kind] = found or first
    return made, clear, hopeless
