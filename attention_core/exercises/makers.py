"""Each kind of exercise by its name, and the one way to make one."""

from __future__ import annotations

from collections.abc import Callable

from attention_core.errors import AttentionInputError
from attention_core.exercises.base import KINDS, Exercise
from attention_core.exercises.scores import (
    masked_weight,
    scaled_score,
    score,
    score_variance,
    softmax_weight,
)
from attention_core.exercises.values import cache_size, context_entry, dropout_weight, head_shape
from attention_core.exercises.vectors import cosine, dot_product, vector_length
from attention_core.trace import AttentionTrace
from translation import _

MAKERS: dict[str, Callable[[AttentionTrace, int, int], Exercise]] = {
    "dot_product": dot_product,
    "vector_length": vector_length,
    "cosine": cosine,
    "score": score,
    "scaled_score": scaled_score,
    "score_variance": score_variance,
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
