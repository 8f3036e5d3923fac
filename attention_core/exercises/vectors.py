"""Exercises on the embeddings themselves (page 1, before any attention): the dot product of
two tokens' embeddings, an embedding's length, and the cosine similarity of two.

They use the learner's matrix only: no query, key, head or scaling, which the book introduces
later (§3.3 uses the dot product of two inputs as its first attention score).
"""

from __future__ import annotations

import math

from attention_core.exercises.base import (
    Exercise,
    Given,
    Line,
    Mistake,
    bracketed,
    picker,
    rounded,
    unit,
)
from attention_core.formatting import format_number
from attention_core.trace import AttentionTrace
from translation import _


def _pair(trace: AttentionTrace, seed: int) -> tuple[int, int]:
    """Two tokens drawn with the exercise seed, different ones whenever there are two."""
    pick = picker(trace, seed)
    first = pick(trace.num_tokens)
    if trace.num_tokens == 1:
        return first, first
    second = (first + 1 + pick(trace.num_tokens - 1)) % trace.num_tokens
    return first, second


def _embedding(trace: AttentionTrace, token: int, decimals: int) -> Given:
    return Given(f"x({token + 1})", rounded(trace.inputs[token], decimals))


def _products(first: Given, second: Given, decimals: int) -> tuple[str, ...]:
    return tuple(
        f"{bracketed(a, decimals)} × {bracketed(b, decimals)}"
        for a, b in zip(first.values, second.values, strict=True)
    )


def _dot(first: Given, second: Given) -> float:
    return math.fsum(a * b for a, b in zip(first.values, second.values, strict=True))


def _symmetric(kind: str, first: int, second: int) -> frozenset[tuple[str, int, int]]:
    return frozenset({(kind, first, second), (kind, second, first)})


def dot_product(trace: AttentionTrace, seed: int, decimals: int = 4) -> Exercise:
    """x(i) · x(j): how alike two tokens' embeddings are, by size and direction."""
    i, j = _pair(trace, seed)
    first, second = _embedding(trace, i, decimals), _embedding(trace, j, decimals)
    answer = _dot(first, second)
    name = f"{first.name} · {second.name}"
    products = _products(first, second, decimals)
    return Exercise(
        kind="dot_product",
        seed=seed,
        decimals=decimals,
        question=_(
            "Compute the dot product {name} of token {i}'s and token {j}'s embeddings."
        ).format(name=name, i=i + 1, j=j + 1),
        given=(first, second),
        answer=answer,
        tolerance=unit(decimals),
        share=False,
        solution=(Line(name, products, format_number(answer, decimals)),),
        mistakes=(),
        hint=_(
            "Multiply the two vectors number by number ({first} first) and add the {count} "
            "products."
        ).format(first=products[0], count=len(products)),
        asks=_symmetric("dot", i, j),
    )


def _length_lines(given: Given, decimals: int) -> tuple[tuple[Line, Line], float, float]:
    """The two lines that work out ``given``'s length (its squares added, then the root),
    the sum of squares and the length."""
    squares = math.fsum(v * v for v in given.values)
    length = math.sqrt(squares)
    lines = (
        Line(
            f"‖{given.name}‖^2",
            _products(given, given, decimals),
            format_number(squares, decimals),
        ),
        Line(
            f"‖{given.name}‖",
            (f"√{format_number(squares, decimals)}",),
            format_number(length, decimals),
        ),
    )
    return lines, squares, length


def vector_length(trace: AttentionTrace, seed: int, decimals: int = 4) -> Exercise:
    """‖x(i)‖: the length of one token's embedding, the arrow the 3D chart draws."""
    i = picker(trace, seed)(trace.num_tokens)
    given = _embedding(trace, i, decimals)
    lines, squares, length = _length_lines(given, decimals)
    mistakes = []
    if abs(squares - length) > unit(decimals):  # a length of 0 or 1 is its own square
        mistakes.append(
            Mistake(
                "no_square_root",
                squares,
                _(
                    "That is the sum of the squares, ‖{name}‖²: the length is its square root."
                ).format(name=given.name),
            )
        )
    absolute = math.fsum(abs(v) for v in given.values)
    if abs(absolute - length) > unit(decimals):
        mistakes.append(
            Mistake(
                "added_sizes",
                absolute,
                _(
                    "You added the numbers' sizes: the length squares each number, adds the "
                    "squares and takes the square root."
                ),
            )
        )
    return Exercise(
        kind="vector_length",
        seed=seed,
        decimals=decimals,
        question=_("Compute the length ‖{name}‖ of token {i}'s embedding.").format(
            name=given.name, i=i + 1
        ),
        given=(given,),
        answer=length,
        tolerance=2 * unit(decimals),  # several steps
        share=False,
        solution=lines,
        mistakes=tuple(mistakes),
        hint=_("Square each number, add the squares, then take the square root of the sum."),
        asks=frozenset({("length", i, 0)}),
    )


def cosine(trace: AttentionTrace, seed: int, decimals: int = 4) -> Exercise:
    """cos(x(i), x(j)) = x(i)·x(j) / (‖x(i)‖ ‖x(j)‖): how alike two directions are."""
    i, j = _pair(trace, seed)
    first, second = _embedding(trace, i, decimals), _embedding(trace, j, decimals)
    dot = _dot(first, second)
    first_lines, _squares, first_length = _length_lines(first, decimals)
    second_lines, _squares, second_length = _length_lines(second, decimals)
    lengths = first_length * second_length
    answer = dot / lengths if lengths > 0 else 0.0
    cos = f"cos({first.name}, {second.name})"
    mistakes = []
    if abs(dot - answer) > unit(decimals):
        mistakes.append(
            Mistake(
                "not_normalised",
                dot,
                _("That is the dot product: the cosine divides it by both embeddings' lengths."),
            )
        )
    squared = dot / lengths**2 if lengths > 0 else 0.0
    if abs(squared - answer) > unit(decimals):
        mistakes.append(
            Mistake(
                "no_square_root",
                squared,
                _(
                    "You divided by the sums of squares: a length is the square root of its "
                    "sum of squares."
                ),
            )
        )
    name = f"{first.name} · {second.name}"
    return Exercise(
        kind="cosine",
        seed=seed,
        decimals=decimals,
        question=_(
            "Compute the cosine similarity {cos} of token {i}'s and token {j}'s embeddings."
        ).format(cos=cos, i=i + 1, j=j + 1),
        given=(first, second),
        answer=answer,
        tolerance=2 * unit(decimals),  # several steps
        share=False,
        solution=(
            Line(name, _products(first, second, decimals), format_number(dot, decimals)),
            *first_lines,
            *second_lines,
            Line(
                cos,
                (
                    f"{bracketed(dot, decimals)} / ({format_number(first_length, decimals)}"
                    f" × {format_number(second_length, decimals)})",
                ),
                format_number(answer, decimals),
            ),
        ),
        mistakes=tuple(mistakes),
        hint=_(
            "Divide the dot product of the two embeddings by the product of their lengths "
            "(a length is the square root of the sum of the squares)."
        ),
        asks=_symmetric("cosine", i, j),
    )
