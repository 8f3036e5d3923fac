"""The arithmetic of one score and one context vector, as data a page can render as a formula."""

from __future__ import annotations

from dataclasses import dataclass

from attention_core.errors import AttentionInputError
from attention_core.steps import split_heads
from attention_core.trace import AttentionTrace
from translation import N_, _

# What a refused index says, one sentence per index (a translator orders each whole).
_OUT_OF_RANGE = {
    "query": N_("query must be between 1 and {size}, not {index}"),
    "key": N_("key must be between 1 and {size}, not {index}"),
    "head": N_("head must be between 1 and {size}, not {index}"),
}


@dataclass(frozen=True)
class ScoreBreakdown:
    """score(i, j) = sum over c of query[i, c] * key[j, c], then divided by the scale divisor."""

    query: int
    key: int
    head: int
    query_terms: tuple[float, ...]
    key_terms: tuple[float, ...]
    products: tuple[float, ...]
    total: float
    divisor: float
    scaled: float


@dataclass(frozen=True)
class ContextBreakdown:
    """context[i] = sum over j of weight[i, j] * value[j] (one head, after dropout)."""

    query: int
    head: int
    weights: tuple[float, ...]
    value_rows: tuple[tuple[float, ...], ...]
    result: tuple[float, ...]


def score_terms(trace: AttentionTrace, query: int, key: int, head: int = 0) -> ScoreBreakdown:
    """Each product term of the dot product between query ``query`` and key ``key`` (0-based).

    For cosine scoring the terms are those of the raw dot product; the page says so. With RoPE
    the terms are those of the turned query and key.
    """
    _check_index("query", query, trace.num_tokens)
    _check_index("key", key, trace.num_tokens)
    _check_index("head", head, trace.num_heads)
    scored_queries, scored_keys = trace.scored()  # turned by RoPE when it is on
    queries = scored_queries[head, query]  # (head_dim,)
    keys = scored_keys[head, key]  # (head_dim,)
    products = queries * keys
    return ScoreBreakdown(
        query=query,
        key=key,
        head=head,
        query_terms=tuple(queries.tolist()),
        key_terms=tuple(keys.tolist()),
        products=tuple(products.tolist()),
        total=float(trace.scores[head, query, key]),
        divisor=trace.scale_divisor,
        scaled=float(trace.scaled_scores[head, query, key]),
    )


def context_terms(trace: AttentionTrace, query: int, head: int = 0) -> ContextBreakdown:
    """Each weight x value-row term of the context vector of token ``query`` (0-based)."""
    _check_index("query", query, trace.num_tokens)
    _check_index("head", head, trace.num_heads)
    values = split_heads(trace.values, trace.num_heads)[head]  # (num_tokens, head_dim)
    return ContextBreakdown(
        query=query,
        head=head,
        weights=tuple(trace.weights_after_dropout[head, query].tolist()),
        value_rows=tuple(tuple(row) for row in values.tolist()),
        result=tuple(trace.head_context[head, query].tolist()),
    )


def _check_index(name: str, index: int, size: int) -> None:
    if not 0 <= index < size:
        raise AttentionInputError(_(_OUT_OF_RANGE[name]).format(size=size, index=index + 1))
