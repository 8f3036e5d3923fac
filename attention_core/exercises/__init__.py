"""Exercises on the learner's own numbers, answered by hand and checked here.

One function per kind (``scores``: a score, a scaled score, a softmax weight, a masked
weight; ``values``: a weight after dropout, a context vector's entry, the shape after a
head split, the numbers in a KV cache), each deterministic from the trace and an exercise
seed; ``answers.check`` reads what a person typed and says what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable

from attention_core.errors import AttentionInputError
from attention_core.exercises.answers import Verdict, check, outcome, outcomes
from attention_core.exercises.base import (
    KIND_NAMES,
    KINDS,
    MISTAKE_NAMES,
    Cell,
    Exercise,
    Given,
    Line,
    Mistake,
)
from attention_core.exercises.scores import masked_weight, scaled_score, score, softmax_weight
from attention_core.exercises.values import cache_size, context_entry, dropout_weight, head_shape
from attention_core.formatting import format_number
from attention_core.trace import AttentionTrace
from translation import _

MAKERS: dict[str, Callable[[AttentionTrace, int, int], Exercise]] = {
    "score": score,
    "scaled_score": scaled_score,
    "softmax_weight": softmax_weight,
    "masked_weight": masked_weight,
    "dropout_weight": dropout_weight,
    "context_entry": context_entry,
    "head_shape": head_shape,
    "cache_size": cache_size,
}


def make_exercise(kind: str, trace: AttentionTrace, seed: int, decimals: int = 4) -> Exercise:
    """The exercise of kind ``kind`` on ``trace`` with exercise seed ``seed``."""
    if kind not in MAKERS:
        raise AttentionInputError(
            _("kind must be one of {kinds}, not {kind}").format(kinds=", ".join(KINDS), kind=kind)
        )
    return MAKERS[kind](trace, seed, decimals)


TRIES = 32  # exercise seeds a page's exercise tries after its own, for numbers of its own


def _numbers(exercise: Exercise) -> set[str]:
    """The numbers an exercise gives, as it prints them."""
    return {format_number(v, exercise.decimals) for g in exercise.given for v in g.values}


def _answer(exercise: Exercise) -> str | None:
    return None if isinstance(exercise.answer, tuple) else exercise.answer_text


def _clear(exercise: Exercise, before: list[Exercise], focus: int | None) -> bool:
    """Whether ``exercise`` keeps clear of the page's focused query (its row is worked out
    above, in formulas and in the headline) and of the exercises ``before`` it: none gives
    a number that is the other's answer, by its cell or by its value (a symmetric matrix's
    mirror, a repeated word's column)."""
    if focus is not None and any(row == focus for _what, row, _column in exercise.asks):
        return False
    mine, given = _answer(exercise), _numbers(exercise)
    for other in before:
        if exercise.asks & other.shows or exercise.shows & other.asks:
            return False
        if (mine is not None and mine in _numbers(other)) or _answer(other) in given:
            return False
    return True


ROUNDS = 8  # whole sets tried, each kind from a later seed, when one kind finds no clear choice


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
    first = None
    for round_ in range(ROUNDS):
        made, clear = _one_round(kinds, trace, [s + round_ * TRIES for s in seeds], decimals, focus)
        if clear:
            return made
        first = first or made
    return first or {}


def _one_round(
    kinds: tuple[str, ...],
    trace: AttentionTrace,
    seeds: list[int],
    decimals: int,
    focus: int | None,
) -> tuple[dict[str, Exercise], bool]:
    """Each kind's first clear exercise from its seed on (else at least not the focus's);
    and whether every kind found a clear one."""
    made: dict[str, Exercise] = {}
    clear = True
    for kind, seed in zip(kinds, seeds, strict=True):
        before = list(made.values())
        tried = [make_exercise(kind, trace, seed % 2**32, decimals)]
        while not _clear(tried[-1], before, focus) and len(tried) < TRIES:
            tried.append(make_exercise(kind, trace, (seed + len(tried)) % 2**32, decimals))
        found = next((e for e in tried if _clear(e, before, focus)), None)
        clear = clear and found is not None
        made[kind] = found or next((e for e in tried if _clear(e, [], focus)), tried[0])
    return made, clear


__all__ = [
    "KINDS",
    "KIND_NAMES",
    "MAKERS",
    "MISTAKE_NAMES",
    "Cell",
    "Exercise",
    "Given",
    "Line",
    "Mistake",
    "Verdict",
    "check",
    "make_exercise",
    "outcome",
    "outcomes",
    "page_set",
]
