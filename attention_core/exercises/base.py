"""What an exercise is (its question, numbers, answer, solution and mistakes) and helpers.

Every exercise is built from a trace (the learner's matrix and settings) and an exercise seed,
through its own ``torch.Generator``: the same settings and seed give the same exercise, so a
link reproduces it. The numbers a question gives are rounded to the decimals shown, and the
answer is computed from those rounded numbers, as a person computes it by hand. Tokens are
named by position only (their labels are the learner's untrusted text).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from attention_core.errors import AttentionInputError
from attention_core.formatting import format_number
from attention_core.trace import AttentionTrace
from translation import N_, _


@dataclass(frozen=True)
class Given:
    """One named vector of numbers the question gives: ``name = [v1, v2, …]``."""

    name: str
    values: tuple[float, ...]


@dataclass(frozen=True)
class Line:
    """One line of a worked solution: ``left = t1 joiner t2 … = result`` (plain math text;
    ``terms`` may be empty)."""

    left: str
    terms: tuple[str, ...]
    result: str
    joiner: str = " + "


@dataclass(frozen=True)
class Mistake:
    """A catalogued mistake: the answer it gives and the hint that names the step missed."""

    key: str
    value: float | tuple[int, ...]
    hint: str


# A cell of head 1's numbers as a page draws them: (what, row, column), what one of
# "scores" (ω), "scaled" (the scores as the page scales them), "weights" (α, after the mask),
# "dropped" (the weights after dropout) and "context" (row: the token; column: an entry of
# head 1's part of its context vector); or of the embeddings' own: "dot" and "cosine" (row and
# column: two tokens) and "length" (row: the token, column 0).
Cell = tuple[str, int, int]


@dataclass(frozen=True)
class Exercise:
    """One exercise: the question, the numbers it gives, the answer and how it is checked.

    ``answer`` is a number, or a shape (a tuple of whole numbers) for the head split.
    ``tolerance`` fits the decimals shown; ``share`` says whether ``22.64%`` may be typed.
    ``asks`` holds the cells where a page's chart would print the answer (a chart of those
    numbers hides one that prints it), ``shows`` the cells the given numbers are: a page
    keeps an exercise's answer out of sight, and out of another exercise's numbers
    (``page_set``).
    """

    kind: str
    seed: int
    decimals: int
    question: str
    given: tuple[Given, ...]
    answer: float | tuple[int, ...]
    tolerance: float
    share: bool
    solution: tuple[Line, ...]
    mistakes: tuple[Mistake, ...]
    hint: str
    asks: frozenset[Cell] = frozenset()
    shows: frozenset[Cell] = frozenset()

    @property
    def answer_text(self) -> str:
        """The answer as a person writes it, "0.2264" or "(1, 2, 6, 1)"."""
        if isinstance(self.answer, tuple):
            return "(" + ", ".join(str(n) for n in self.answer) + ")"
        if float(self.answer).is_integer() and self.tolerance == 0:
            return str(int(self.answer))
        return format_number(self.answer, self.decimals)


# The kinds in the order the lessons teach them, with a short name for menus and handouts.
KIND_NAMES = {
    "dot_product": N_("a dot product of two embeddings"),
    "vector_length": N_("an embedding's length"),
    "cosine": N_("a cosine similarity"),
    "score": N_("a score"),
    "scaled_score": N_("a scaled score"),
    "score_variance": N_("the variance of scaled scores"),
    "softmax_weight": N_("a softmax weight"),
    "masked_weight": N_("a masked weight"),
    "dropout_weight": N_("a weight after dropout"),
    "context_entry": N_("a context vector's entry"),
    "head_shape": N_("the shape after a head split"),
    "cache_size": N_("the numbers in a KV cache"),
}
KINDS = tuple(KIND_NAMES)
# A short name for each way an answer can go wrong, for a class's tally of answers.
MISTAKE_NAMES = {
    "no_square_root": N_("no square root"),
    "added_sizes": N_("added the numbers' sizes"),
    "not_normalised": N_("not divided by the lengths"),
    "scaled_too_early": N_("scaled too early"),
    "forgot_to_scale": N_("forgot to scale"),
    "scaled_by_d": N_("scaled by d, not √d"),
    "variance_by_root": N_("variance divided by √d, not d"),
    "sample_variance": N_("divided by n − 1, not n"),
    "wrong_axis": N_("softmax over the wrong axis"),
    "masked_after_softmax": N_("masked after softmax, not renormalised"),
    "not_rescaled": N_("not rescaled by 1/(1 − p)"),
    "times_keep": N_("multiplied by 1 − p"),
    "no_transpose": N_("no transpose"),
    "not_divided": N_("d_out not divided by the heads"),
    "keys_only": N_("keys only"),
    "with_queries": N_("queries cached too"),
    "every_head": N_("every query head cached"),
    "too_few_decimals": N_("too few decimals"),
    "other": N_("another wrong answer"),
}


def picker(trace: AttentionTrace, seed: int) -> Callable[[int], int]:
    """Draws of 0 … n−1 from a generator seeded with the exercise seed (never a global RNG)."""
    if not 0 <= seed < 2**32:
        raise AttentionInputError(
            _("the exercise number must be between 0 and {high}, not {seed}").format(
                high=2**32 - 1, seed=seed
            )
        )
    generator = torch.Generator().manual_seed(seed * 7919 + trace.num_tokens)

    def pick(n: int) -> int:
        return int(torch.randint(n, (1,), generator=generator))

    return pick


def distinct(mistakes: list[Mistake], answer: float, tolerance: float) -> tuple[Mistake, ...]:
    """The mistakes whose answers differ from the right one and from each earlier one's by
    more than ``tolerance``: where two give the same number, the hint of the first is the one
    an answer can earn."""
    kept: list[Mistake] = []
    for mistake in mistakes:
        taken = [answer, *(m.value for m in kept)]
        if all(abs(_number(mistake.value) - _number(v)) > tolerance for v in taken):
            kept.append(mistake)
    return tuple(kept)


def _number(value: float | tuple[int, ...]) -> float:
    if isinstance(value, tuple):
        raise TypeError("a shape's mistakes are told apart by equality, not by nearness")
    return float(value)


def weight_cells(trace: AttentionTrace, cells: list[tuple[int, int]]) -> frozenset[Cell]:
    """Weights α(i, j) as the page draws them: the weights, and the weights after dropout too
    when no dropout changes them."""
    kinds = ("weights",) if trace.config.dropout > 0 else ("weights", "dropped")
    return frozenset((kind, i, j) for kind in kinds for i, j in cells)


def rounded(values: torch.Tensor | list[float], decimals: int) -> tuple[float, ...]:
    return tuple(round(float(v), decimals) for v in values)


def unit(decimals: int) -> float:
    """One unit of the last decimal shown."""
    return 10.0**-decimals


def divided(
    kind: str,
    seed: int,
    decimals: int,
    given: Given,
    by: tuple[float, str, str],
    words: tuple[str, str],
    mistakes: tuple[Mistake, ...],
) -> Exercise:
    """An exercise that gives one number and asks for it divided by another: a score by
    √d_k, a kept weight by 1 − p. ``by`` is the divisor, then how the solution writes it as
    a formula ("√2") and as a number ("1.4142"); ``words`` are the question and the hint."""
    (value,) = given.values
    divisor, formula, number = by
    answer = value / divisor
    question, hint = words
    return Exercise(
        kind=kind,
        seed=seed,
        decimals=decimals,
        question=question,
        given=(given,),
        answer=answer,
        tolerance=unit(decimals),
        share=False,
        solution=(
            Line(
                f"{given.name} / {formula}",
                (f"{format_number(value, decimals)} / {number}",),
                format_number(answer, decimals),
            ),
        ),
        mistakes=mistakes,
        hint=hint,
    )


def vector_text(values: tuple[float, ...], decimals: int) -> str:
    return "[" + ", ".join(format_number(v, decimals) for v in values) + "]"


def bracketed(value: float, decimals: int) -> str:
    text = format_number(value, decimals)
    return f"({text})" if value < 0 and text.lstrip("−0.") else text
