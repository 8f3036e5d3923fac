"""Exercises on the scores and weights: a dot product, the scaling, softmax and the mask."""

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
    distinct,
    divided,
    picker,
    rounded,
    unit,
    weight_cells,
)
from attention_core.formatting import format_number
from attention_core.trace import AttentionTrace
from translation import N_, _, ngettext

# Each question as the page's run has it: its scores divided by a scale (True) or not.
_SOFTMAX_QUESTION = {
    True: N_(
        "Below are row {query} and column {key} of head 1's scaled scores s (rows are "
        "queries, columns are keys). Compute the weight {alpha} that softmax gives."
    ),
    False: N_(
        "Below are row {query} and column {key} of head 1's scores s (rows are queries, "
        "columns are keys; nothing scales them here). Compute the weight {alpha} that "
        "softmax gives."
    ),
}
# ... and under the page's mask: the hidden scores are given as the book sets them, −∞.
_SOFTMAX_MASKED_QUESTION = {
    True: N_(
        "Below are row {query} and column {key} of head 1's scaled scores s after the mask "
        "(−∞ where it hides a key; rows are queries, columns are keys). Compute the weight "
        "{alpha} that softmax gives."
    ),
    False: N_(
        "Below are row {query} and column {key} of head 1's scores s after the mask (−∞ "
        "where it hides a key; rows are queries, columns are keys; nothing scales them "
        "here). Compute the weight {alpha} that softmax gives."
    ),
}
_SCORE_QUESTION = N_(
    "Compute the score {omega} = q({query}) · k({key}): the dot product of token {query}'s "
    "query and token {key}'s key (head 1), before any scaling."
)
# In cross-attention the queries are the target's and the keys the source's: said so.
_CROSS_SCORE_QUESTION = N_(
    "Compute the score {omega} = q({query}) · k({key}): the dot product of target token "
    "{query}'s query (from step 1's output) and source token {key}'s key (head 1), before any "
    "scaling."
)


def _crossed(trace: AttentionTrace) -> bool:
    """Whether ``trace`` is cross-attention: its keys come from another sequence."""
    return trace.source_inputs is not None


# With d_k = 1 the book's scaling divides by √1 = 1: the question takes the heads of a wider
# model, one of these widths, and says so.
WIDER_HEADS = (2, 3, 4, 8, 16)
_MASKED_QUESTION: dict[bool | None, str] = {
    None: N_(
        "Below is row {query} of head 1's scores s. With a single token the mask hides "
        "nothing. Compute the weight {alpha} that the masked softmax gives."
    ),
    True: N_(
        "Below is row {query} of head 1's scaled scores s, before masking. The mask hides "
        "{hidden} from query {query}. Compute the weight {alpha} that the masked softmax "
        "gives."
    ),
    False: N_(
        "Below is row {query} of head 1's scores s (nothing scales them here), before "
        "masking. The mask hides {hidden} from query {query}. Compute the weight {alpha} "
        "that the masked softmax gives."
    ),
}


def score(trace: AttentionTrace, seed: int, decimals: int = 4) -> Exercise:
    """ω(i,j) = q(i) · k(j): one dot product of a query and a key of head 1."""
    pick = picker(trace, seed)
    query, key = pick(trace.num_tokens), pick(trace.num_keys)
    queries, keys = trace.scored()  # turned by RoPE when it is on
    q = rounded(queries[0, query], decimals)
    k = rounded(keys[0, key], decimals)
    answer = math.fsum(a * b for a, b in zip(q, k, strict=True))
    omega = f"ω({query + 1},{key + 1})"
    products = tuple(
        f"{bracketed(a, decimals)} × {bracketed(b, decimals)}" for a, b in zip(q, k, strict=True)
    )
    divisor = trace.scale_divisor
    mistakes = []
    if divisor != 1.0:
        mistakes.append(
            Mistake(
                "scaled_too_early",
                answer / divisor,
                _(
                    "You divided by {divisor}: the score {omega} is the dot product alone; "
                    "scaling comes after it."
                ).format(divisor=format_number(divisor, decimals), omega=omega),
            )
        )
    return Exercise(
        kind="score",
        seed=seed,
        decimals=decimals,
        question=_(_CROSS_SCORE_QUESTION if _crossed(trace) else _SCORE_QUESTION).format(
            omega=omega, query=query + 1, key=key + 1
        ),
        given=(Given(f"q({query + 1})", q), Given(f"k({key + 1})", k)),
        answer=answer,
        tolerance=unit(decimals),
        share=False,
        solution=(Line(omega, products, format_number(answer, decimals)),),
        mistakes=tuple(mistakes),
        hint=_(
            "Multiply the two vectors number by number ({first} first) and add the {count} "
            "products."
        ).format(first=products[0], count=len(products)),
        asks=frozenset({("scores", query, key)}),
    )


def scaled_score(trace: AttentionTrace, seed: int, decimals: int = 4) -> Exercise:
    """ω(i,j) / √d_k from a given score: the book's scaling, whatever the sidebar's."""
    pick = picker(trace, seed)
    query, key = pick(trace.num_tokens), pick(trace.num_keys)
    d_k = trace.head_dim
    wider = d_k == 1  # √1 = 1: a question with nothing to compute; a wider head's instead
    if wider:
        d_k = WIDER_HEADS[pick(len(WIDER_HEADS))]
    omega_value = round(float(trace.scores[0, query, key]), decimals)
    root = math.sqrt(d_k)
    omega = f"ω({query + 1},{key + 1})"
    numbers = {"omega": omega, "d_k": d_k, "root": format_number(root, decimals)}
    mistakes = (
        Mistake(
            "forgot_to_scale",
            omega_value,
            _(
                "That is {omega} itself: you forgot to scale. Divide it by √d_k = √{d_k} = {root}."
            ).format(**numbers),
        ),
        Mistake(
            "scaled_by_d",
            omega_value / d_k,
            _(
                "You divided by d_k = {d_k}, not by its square root: dividing by d flattens "
                "the weights too much. Divide by √{d_k} = {root}."
            ).format(**numbers),
        ),
    )
    if wider:
        question = _(
            "The score {omega} is given below. Your heads have d_k = 1 number each, and "
            "dividing by √1 changes nothing: suppose instead that each key had d_k = {d_k} "
            "numbers. Compute the scaled score, as the book scales it."
        ).format(**numbers)
    else:
        question = _(
            "The score {omega} is given below, and each key of head 1 has d_k = {d_k} "
            "numbers. Compute the scaled score, as the book scales it."
        ).format(**numbers)
    hint = _("Divide the score by the square root of d_k = {d_k}.").format(d_k=d_k)
    by = (root, f"√{d_k}", numbers["root"])
    exercise = divided(
        "scaled_score", seed, decimals, Given(omega, (omega_value,)), by, (question, hint), mistakes
    )
    return replace(
        exercise,
        asks=frozenset() if wider else frozenset({("scaled", query, key)}),
        shows=frozenset({("scores", query, key)}),
    )


def _softmax(values: tuple[float, ...], index: int) -> float:
    top = max(values)
    return math.exp(values[index] - top) / math.fsum(math.exp(v - top) for v in values)


def softmax_lines(
    alpha: str, row: tuple[float, ...], key: int, keys: range | list[int], decimals: int
) -> tuple[Line, ...]:
    """Σ = exp(s1) + exp(s2) + … over ``keys``, then α = exp(s_key) / Σ."""
    total = math.fsum(math.exp(row[j]) for j in keys)
    numerator = math.exp(row[key])
    return (
        Line(
            "Σ",
            tuple(f"exp({format_number(row[j], decimals)})" for j in keys),
            format_number(total, decimals),
        ),
        Line(
            alpha,
            (
                f"exp({format_number(row[key], decimals)}) / Σ",
                f"{format_number(numerator, decimals)} / {format_number(total, decimals)}",
            ),
            format_number(numerator / total, decimals),
            joiner=" = ",
        ),
    )


def softmax_weight(trace: AttentionTrace, seed: int, decimals: int = 4) -> Exercise:
    """α(i,j) = softmax over row i of the scaled scores; the column is given too."""
    pick = picker(trace, seed)
    n, keys = trace.num_tokens, trace.num_keys
    allowed = trace.allowed
    rows = _seeing_rows(allowed)
    masked = not bool(allowed.all()) and bool(rows)
    if masked:  # the page's mask: a query that sees two keys or more, and a key it sees
        query = rows[pick(len(rows))]
        visible = [j for j in range(keys) if bool(allowed[query, j])]
        key = visible[pick(len(visible))]
    else:
        query, key = pick(n), pick(keys)
    scaled = trace.scaled_scores[0]  # (num_tokens, num_keys), before the mask
    row = rounded(scaled[query], decimals)
    column = rounded(scaled[:, key], decimals)
    if masked:
        row = tuple(v if bool(allowed[query, j]) else -math.inf for j, v in enumerate(row))
        column = tuple(v if bool(allowed[i, key]) else -math.inf for i, v in enumerate(column))
    answer = _softmax(row, key)
    visible_keys = [j for j in range(keys) if row[j] != -math.inf]
    alpha = f"α({query + 1},{key + 1})"
    mistakes = (
        Mistake(
            "wrong_axis",
            _softmax(column, query),
            _(
                "You took the softmax down column {key}, over the queries. Each query's "
                "weights sum to 1 along its row: divide exp(s({query},{key})) by the sum of "
                "exp over row {query}."
            ).format(query=query + 1, key=key + 1),
        ),
    )
    return Exercise(
        kind="softmax_weight",
        seed=seed,
        decimals=decimals,
        question=_(
            (_SOFTMAX_MASKED_QUESTION if masked else _SOFTMAX_QUESTION)[trace.scale_divisor != 1.0]
        ).format(query=query + 1, key=key + 1, alpha=alpha)
        + (
            " " + _("Its rows are the target's tokens, its columns the source's.")
            if _crossed(trace)
            else ""
        ),
        given=(
            Given(f"s({query + 1},·)", row),
            Given(f"s(·,{key + 1})", column),
        ),
        answer=answer,
        tolerance=2 * unit(decimals),
        share=True,
        solution=softmax_lines(alpha, row, key, visible_keys, decimals),
        mistakes=mistakes,
        hint=_(
            "Take exp of every score in row {query}, then divide exp(s({query},{key})) by "
            "their sum."
        ).format(query=query + 1, key=key + 1)
        + (" " + _("exp(−∞) is 0: a hidden key adds nothing.") if masked else ""),
        asks=weight_cells(trace, [(query, key)]),
        shows=frozenset(
            {("scaled", query, j) for j in range(keys)} | {("scaled", i, key) for i in range(n)}
        ),
    )


def _seeing_rows(allowed) -> list[int]:
    """The queries the mask lets see two keys or more, or one if none does (none if the
    mask hides every key of every query)."""
    size = allowed.shape[0]  # the queries (the target's, in cross-attention)
    counts = [int(allowed[i].sum()) for i in range(size)]
    return [i for i in range(size) if counts[i] > 1] or [i for i in range(size) if counts[i]]


def _keys(indices: list[int]) -> str:
    """ "key 3" or "keys 3, 4": 0-based ``indices`` as the page numbers them."""
    numbers = ", ".join(str(j + 1) for j in indices)
    return ngettext("key {keys}", "keys {keys}", len(indices)).format(keys=numbers)


def _masked_rows(allowed) -> list[int]:
    """The queries whose mask hides some keys and leaves some: those that leave two or more
    if any do (a weight over one key is 1)."""
    size = allowed.shape[-1]
    rows = [i for i in range(size) if 0 < int(allowed[i].sum()) < size]
    return [i for i in rows if int(allowed[i].sum()) > 1] or rows


def masked_weight(trace: AttentionTrace, seed: int, decimals: int = 4) -> Exercise:
    """α(i,j) after the mask, renormalised over the keys query i may see (the sidebar's mask,
    or the causal mask when the sidebar has none, hides nothing, or hides every key of every
    query: padding as long as the sequence)."""
    pick = picker(trace, seed)
    allowed = trace.allowed
    rows = _masked_rows(allowed)
    if bool(allowed.all()) or trace.num_tokens < 2 or not rows:
        allowed = steps.allowed_mask("causal", trace.num_tokens)
        rows = _masked_rows(allowed)
    query = rows[pick(len(rows))] if rows else 0
    visible = [j for j in range(trace.num_tokens) if bool(allowed[query, j])]
    hidden = [j for j in range(trace.num_tokens) if not bool(allowed[query, j])]
    key = visible[pick(len(visible))]
    row = rounded(trace.scaled_scores[0, query], decimals)
    seen = tuple(row[j] for j in visible)
    answer = _softmax(seen, visible.index(key))
    alpha = f"α({query + 1},{key + 1})"
    return Exercise(
        kind="masked_weight",
        seed=seed,
        decimals=decimals,
        question=_(_MASKED_QUESTION[trace.scale_divisor != 1.0 if hidden else None]).format(
            query=query + 1, hidden=_keys(hidden), alpha=alpha
        ),
        given=(Given(f"s({query + 1},·)", row),),
        answer=answer,
        tolerance=2 * unit(decimals),
        share=True,
        solution=softmax_lines(alpha, row, key, visible, decimals),
        mistakes=(
            Mistake(
                "masked_after_softmax",
                _softmax(row, key),
                _(
                    "That is the softmax over the whole row: you masked after the softmax "
                    "without renormalising. Leave {hidden} out of the sum (or divide by the sum "
                    "of the weights that remain)."
                ).format(hidden=_keys(hidden)),
            ),
        ),
        hint=_(
            "Take exp of the scores of {visible} only, and divide exp(s({query},{key})) by "
            "their sum."
        ).format(visible=_keys(visible), query=query + 1, key=key + 1),
        asks=weight_cells(trace, [(query, key)]),
        shows=frozenset({("scaled", query, j) for j in range(trace.num_tokens)}),
    )


def score_variance(trace: AttentionTrace, seed: int, decimals: int = 4) -> Exercise:
    """Var(ω(i,·) / √d_k) = Var(ω(i,·)) / d_k: what the book's scaling does to one query's
    scores (the mean of the squared differences from their mean, over all its keys)."""
    pick = picker(trace, seed)
    query = pick(trace.num_tokens)
    d_k = trace.head_dim
    wider = d_k == 1  # √1 = 1 changes nothing: a wider head's, as for the scaled score
    if wider:
        d_k = WIDER_HEADS[pick(len(WIDER_HEADS))]
    row = rounded(trace.scores[0, query], decimals)
    n = len(row)
    mean = math.fsum(row) / n
    squares = math.fsum((v - mean) ** 2 for v in row)
    variance = squares / n
    answer = variance / d_k
    root = math.sqrt(d_k)
    numbers = {"query": query + 1, "d_k": d_k, "n": n, "root": format_number(root, decimals)}
    mistakes = [
        Mistake(
            "forgot_to_scale",
            variance,
            _(
                "That is the variance of the scores themselves: dividing every score by "
                "√d_k = {root} divides their variance by d_k = {d_k}."
            ).format(**numbers),
        ),
        Mistake(
            "variance_by_root",
            variance / root,
            _(
                "You divided the variance by √d_k: dividing the scores by √d_k divides their "
                "variance by (√d_k)² = d_k = {d_k}."
            ).format(**numbers),
        ),
    ]
    if n > 1:
        mistakes.append(
            Mistake(
                "sample_variance",
                squares / (n - 1) / d_k,
                _(
                    "You divided the squared differences by n − 1: here the variance is their "
                    "mean, a division by n = {n}."
                ).format(**numbers),
            )
        )
    if wider:
        question = _(
            "Below is row {query} of head 1's scores ω, before scaling. Your heads have "
            "d_k = 1 number each, and dividing by √1 changes nothing: suppose instead that "
            "d_k = {d_k}. Compute the variance of the row's scaled scores ω / √d_k: the mean "
            "of their squared differences from their mean."
        ).format(**numbers)
    else:
        question = _(
            "Below is row {query} of head 1's scores ω, before scaling, and d_k = {d_k}. "
            "Compute the variance of the row's scaled scores ω / √d_k: the mean of their "
            "squared differences from their mean."
        ).format(**numbers)
    name = f"ω({query + 1},·)"
    text = {
        name: format_number(value, decimals)
        for name, value in (
            ("sum", math.fsum(row)),
            ("mean", mean),
            ("squares", squares),
            ("variance", variance),
            ("answer", answer),
        )
    }
    return Exercise(
        kind="score_variance",
        seed=seed,
        decimals=decimals,
        question=question,
        given=(Given(name, row),),
        answer=answer,
        tolerance=2 * unit(decimals),  # several steps
        share=False,
        solution=(
            Line(f"Σ {name}", tuple(format_number(v, decimals) for v in row), text["sum"]),
            Line("mean", (f"{text['sum']} / {n}",), text["mean"]),
            Line(
                "Σ (ω − mean)^2",
                tuple(
                    f"({format_number(v, decimals)} − {bracketed(mean, decimals)})^2" for v in row
                ),
                text["squares"],
            ),
            Line(f"Var({name})", (f"{text['squares']} / {n}",), text["variance"]),
            Line(f"Var({name} / √{d_k})", (f"{text['variance']} / {d_k}",), text["answer"]),
        ),
        mistakes=distinct(mistakes, answer, unit(decimals)),  # n = 2: n − 1 may be n / d_k
        hint=_(
            "Find the row's variance (the mean of the squared differences from the mean), "
            "then divide it by d_k = {d_k}: dividing every score by √d_k divides the variance "
            "by d_k."
        ).format(**numbers),
        # no chart draws a row's variance; the cell keeps the question off the focused row
        asks=frozenset({("variance", query, 0)}),
        shows=frozenset({("scores", query, j) for j in range(n)}),
    )
