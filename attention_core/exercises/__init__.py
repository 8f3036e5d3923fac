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


TRIES = 16  # exercise seeds a page's exercise tries after its own, for numbers of its own


def page_set(
    kinds: tuple[str, ...], trace: AttentionTrace, seeds: tuple[int, ...], decimals: int = 4
) -> dict[str, Exercise]:
    """A page's exercises, in its order, each on numbers of its own: no exercise gives a
    number that is another's answer (a softmax row holding the scaled score asked above it, a
    context row holding the weight asked). Each kind takes its seed, or the next seed whose
    exercise keeps clear of those before it (the last tried, if none does: one token)."""
    made: dict[str, Exercise] = {}
    asked: set = set()
    shown: set = set()
    for kind, seed in zip(kinds, seeds, strict=True):
        for step in range(TRIES):
            exercise = make_exercise(kind, trace, (seed + step) % 2**32, decimals)
            if not (exercise.asks & shown or exercise.shows & asked):
                break
        made[kind] = exercise
        asked |= exercise.asks
        shown |= exercise.shows
    return made


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
