"""Exercises after the weights: dropout's rescaling, a context vector, heads and the KV cache."""

from __future__ import annotations

import math
from dataclasses import replace

from attention_core import steps
from attention_core.exercises.base import (
    Exercise,
    Given,
    Line,
    Mistake,
    bracketed,
    divided,
    picker,
    rounded,
    unit,
    weight_cells,
)
from attention_core.formatting import format_number
from attention_core.trace import AttentionTrace
from translation import _

DROPOUT_RATES = (0.1, 0.2, 0.25, 0.5)  # when the sidebar's dropout is 0
TOKEN_COUNTS = (4, 8, 10, 16, 20, 32, 50, 64, 100)


def dropout_weight(trace: AttentionTrace, seed: int, decimals: int = 4) -> Exercise:
    """A kept weight after dropout at rate p: α / (1 − p)."""
    pick = picker(trace, seed)
    n = trace.num_tokens
    # A weight the mask left (a hidden key's 0 stays 0: nothing to compute), and with the
    # page's own dropout, one its draw kept.
    left = [(i, j) for i in range(n) for j in range(n) if float(trace.weights[0, i, j]) > 0]
    kept = [(i, j) for i, j in left if bool(trace.dropout_keep[0, i, j])]
    drawn = trace.config.dropout > 0 and bool(kept)
    cells = kept if drawn else left or [(i, j) for i in range(n) for j in range(n)]
    query, key = cells[pick(len(cells))]
    p = trace.config.dropout or DROPOUT_RATES[pick(len(DROPOUT_RATES))]
    weight = round(float(trace.weights[0, query, key]), decimals)
    alpha = f"α({query + 1},{key + 1})"
    rate = format_number(p, 2)
    keep = format_number(1 - p, 2)
    numbers = {"alpha": alpha, "p": rate, "keep": keep}
    mistakes = (
        Mistake(
            "not_rescaled",
            weight,
            _(
                "That is the weight before dropout. The weights that dropout keeps are "
                "scaled up by 1/(1 − p) = 1/{keep}, so that their average stays the same."
            ).format(**numbers),
        ),
        Mistake(
            "times_keep",
            weight * (1 - p),
            _(
                "You multiplied by 1 − p = {keep}. Dropout divides the kept weights by it, "
                "scaling them up."
            ).format(**numbers),
        ),
    )
    if drawn:
        question = _(
            "This page's dropout, at rate p = {p}, kept the weight {alpha} given below (its "
            "own draw). What does that weight become after dropout?"
        ).format(**numbers)
    else:
        question = _(
            "In training, dropout at rate p = {p} keeps the weight {alpha} given below. "
            "What does that weight become after dropout?"
        ).format(**numbers)
    hint = _("Divide the weight by 1 − p = {keep}.").format(**numbers)
    by = (1 - p, f"(1 − {rate})", keep)
    exercise = divided(
        "dropout_weight", seed, decimals, Given(alpha, (weight,)), by, (question, hint), mistakes
    )
    return replace(
        exercise,
        asks=frozenset({("dropped", query, key)}),
        shows=weight_cells(trace, [(query, key)]),
    )


def context_entry(trace: AttentionTrace, seed: int, decimals: int = 4) -> Exercise:
    """One entry of a context vector: z(i)_c = Σ_j α(i,j) v(j)_c (head 1, after dropout)."""
    pick = picker(trace, seed)
    query, column = pick(trace.num_tokens), pick(trace.head_dim)
    weights = rounded(trace.weights_after_dropout[0, query], decimals)
    values = rounded(steps.split_heads(trace.values, trace.num_heads)[0, :, column], decimals)
    answer = math.fsum(w * v for w, v in zip(weights, values, strict=True))
    entry = f"z({query + 1})[{column + 1}]"
    products = tuple(
        f"{bracketed(w, decimals)} × {bracketed(v, decimals)}"
        for w, v in zip(weights, values, strict=True)
    )
    column_weights = rounded(trace.weights_after_dropout[0, :, query], decimals)
    transposed = math.fsum(w * v for w, v in zip(column_weights, values, strict=True))
    mistakes = []
    if abs(transposed - answer) > 2 * unit(decimals):
        mistakes.append(
            Mistake(
                "wrong_axis",
                transposed,
                _(
                    "You used column {query} of the weights. Token {query}'s weights are row "
                    "{query}: α({query},1), α({query},2), …"
                ).format(query=query + 1),
            )
        )
    return Exercise(
        kind="context_entry",
        seed=seed,
        decimals=decimals,
        question=_(
            "Below are token {query}'s weights (head 1) and entry {column} of every token's "
            "value vector. Compute entry {column} of token {query}'s context vector."
        ).format(query=query + 1, column=column + 1),
        given=(
            Given(f"α({query + 1},·)", weights),
            Given(f"v(·)[{column + 1}]", values),
        ),
        answer=answer,
        tolerance=2 * unit(decimals),
        share=False,
        solution=(Line(entry, products, format_number(answer, decimals)),),
        mistakes=tuple(mistakes),
        hint=_(
            "Multiply each weight by the value entry of the same token ({first} first) and add "
            "the {count} products."
        ).format(first=products[0], count=len(products)),
        asks=frozenset({("context", query, column)}),
        shows=frozenset({("dropped", query, j) for j in range(trace.num_tokens)})
        | (
            weight_cells(trace, [(query, j) for j in range(trace.num_tokens)])
            if trace.config.dropout == 0
            else frozenset()
        ),
    )


def _heads(trace: AttentionTrace) -> tuple[int, int]:
    """(heads, d_out) of the split asked about: the learner's, or two heads of an even
    width when they have one head."""
    width = trace.queries.shape[1]
    if trace.num_heads > 1:
        return trace.num_heads, int(width)
    return 2, int(width + width % 2)


def head_shape(trace: AttentionTrace, seed: int, decimals: int = 4) -> Exercise:
    """The shape of the queries after ``view(b, num_tokens, num_heads, head_dim)`` and
    ``transpose(1, 2)`` in the book's MultiHeadAttention (a batch of ``b`` texts)."""
    pick = picker(trace, seed)
    batch = 1 + pick(4)
    heads, d_out = _heads(trace)
    tokens, head_dim = trace.num_tokens, d_out // heads
    answer = (batch, heads, tokens, head_dim)
    numbers = {"b": batch, "tokens": tokens, "d_out": d_out, "heads": heads, "hd": head_dim}
    return Exercise(
        kind="head_shape",
        seed=seed,
        decimals=decimals,
        question=_(
            "The book's MultiHeadAttention gets queries of shape (b, num_tokens, d_out) = "
            "({b}, {tokens}, {d_out}) and num_heads = {heads}. They go through "
            "view(b, num_tokens, num_heads, head_dim) and then transpose(1, 2). What is their "
            "shape then? Type it like (2, 3, 4, 5)."
        ).format(**numbers),
        given=(),
        answer=answer,
        tolerance=0.0,
        share=False,
        solution=(
            Line("head_dim", (f"{d_out} / {heads}",), str(head_dim)),
            Line("view", (), f"({batch}, {tokens}, {heads}, {head_dim})"),
            Line("transpose(1, 2)", (), f"({batch}, {heads}, {tokens}, {head_dim})"),
        ),
        mistakes=(
            Mistake(
                "no_transpose",
                (batch, tokens, heads, head_dim),
                _(
                    "That is the shape after view. transpose(1, 2) then swaps the tokens and "
                    "the heads, so that each head holds all {tokens} tokens."
                ).format(**numbers),
            ),
            Mistake(
                "not_divided",
                (batch, heads, tokens, d_out),
                _(
                    "Each head gets head_dim = d_out / num_heads = {d_out} / {heads} = {hd} "
                    "numbers of each token, not all {d_out}."
                ).format(**numbers),
            ),
        ),
        hint=_(
            "head_dim = d_out / num_heads; view cuts each token's {d_out} numbers into "
            "{heads} heads, and transpose(1, 2) swaps the second and third places."
        ).format(**numbers),
    )


def cache_size(trace: AttentionTrace, seed: int, decimals: int = 4) -> Exercise:
    """How many numbers a KV cache holds for one layer after a number of tokens:
    a key and a value per K/V head, head_dim numbers each."""
    pick = picker(trace, seed)
    tokens = TOKEN_COUNTS[pick(len(TOKEN_COUNTS))]
    kv_heads, head_dim = trace.kv_heads, trace.head_dim
    answer = 2 * tokens * kv_heads * head_dim
    numbers = {
        "tokens": tokens,
        "heads": trace.num_heads,
        "kv": kv_heads,
        "hd": head_dim,
        "half": answer // 2,
    }
    mistakes = [
        Mistake(
            "keys_only",
            answer // 2,
            _("{half} is the keys alone: the cache keeps a value for every key too.").format(
                **numbers
            ),
        ),
        Mistake(
            "with_queries",
            3 * answer // 2,
            _("The cache keeps no queries: a new token's query is used once, at its own step."),
        ),
    ]
    if kv_heads != trace.num_heads:
        mistakes.append(
            Mistake(
                "every_head",
                2 * tokens * trace.num_heads * head_dim,
                _(
                    "The {heads} query heads share {kv} key/value heads: the cache stores "
                    "only those {kv}."
                ).format(**numbers),
            )
        )
    return Exercise(
        kind="cache_size",
        seed=seed,
        decimals=decimals,
        question=_(
            "With your settings (num_heads = {heads}, head_dim = {hd}, key/value heads = "
            "{kv}), how many numbers does one layer's KV cache hold after {tokens} tokens?"
        ).format(**numbers),
        given=(),
        answer=float(answer),
        tolerance=0.0,
        share=False,
        solution=(
            Line(
                "N",
                ("2 × tokens × kv_heads × head_dim", f"2 × {tokens} × {kv_heads} × {head_dim}"),
                str(answer),
                joiner=" = ",
            ),
        ),
        mistakes=tuple(mistakes),
        hint=_(
            "Each token leaves a key and a value in the cache for each of the {kv} key/value "
            "heads, {hd} numbers each."
        ).format(**numbers),
    )
