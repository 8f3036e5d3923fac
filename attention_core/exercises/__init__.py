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


__all__ = [
    "KINDS",
    "KIND_NAMES",
    "MAKERS",
    "MISTAKE_NAMES",
    "Exercise",
    "Given",
    "Line",
    "Mistake",
    "Verdict",
    "check",
    "make_exercise",
    "outcome",
    "outcomes",
]
