"""One query's path through one head, as plain numbers read from the trace (the Flow page)."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from attention_core import steps
from attention_core.errors import AttentionInputError
from attention_core.trace import AttentionTrace
from translation import _

Vector = tuple[float, ...]
Matrix = tuple[Vector, ...]


def _vector(tensor: torch.Tensor) -> Vector:
    return tuple(float(v) for v in tensor.tolist())


def _matrix(tensor: torch.Tensor) -> Matrix:
    return tuple(_vector(row) for row in tensor)


def _head_columns(matrix: torch.Tensor, num_heads: int, head: int) -> torch.Tensor:
    """One head's consecutive slice of the columns (rows, head_dim)."""
    return steps.split_heads(matrix, num_heads)[head]


@dataclass(frozen=True)
class FlowNumbers:
    """Every number on the path of query ``query`` through head ``head``, in the order of the math.

    Shapes:
        inputs: (num_tokens, d_in); W_query, W_key, W_value: (d_in, head_dim), this head's
        columns; b_query, b_key, b_value: (head_dim,) or None; query_vector: (head_dim,), row
        ``query`` of the queries; keys, values: (num_tokens, head_dim); scores, scaled,
        masked, weights, after_dropout: (num_tokens,), row ``query`` of this head; allowed,
        kept: (num_tokens,); head_context: (head_dim,); context, output: (inner_dim,);
        W_out: (inner_dim, inner_dim) or None; b_out: (inner_dim,) or None.
    """

    query: int
    head: int
    num_heads: int
    head_dim: int
    scale_divisor: float
    dropout_factor: float
    inputs: Matrix
    W_query: Matrix
    W_key: Matrix
    W_value: Matrix
    b_query: Vector | None
    b_key: Vector | None
    b_value: Vector | None
    query_vector: Vector
    keys: Matrix
    values: Matrix
    scores: Vector
    scaled: Vector
    masked: Vector
    allowed: tuple[bool, ...]
    weights: Vector
    kept: tuple[bool, ...]
    after_dropout: Vector
    head_context: Vector
    context: Vector
    W_out: Matrix | None
    b_out: Vector | None
    output: Vector

    @property
    def head_columns(self) -> range:
        """Where this head's numbers sit in the merged context (0-based columns)."""
        return range(self.head * self.head_dim, (self.head + 1) * self.head_dim)


def flow_numbers(trace: AttentionTrace, query: int, head: int = 0) -> FlowNumbers:
    """Read the numbers of one query's path through one head from ``trace``.

    Args:
        trace: a finished run.
        query: the focused token, 0-based.
        head: the head, 0-based.

    Returns:
        The numbers, each exactly as the trace holds it (nothing is recomputed).
    """
    if not 0 <= query < trace.num_tokens:
        raise AttentionInputError(
            _("there is no token {query} ({num_tokens} tokens)").format(
                query=query + 1, num_tokens=trace.num_tokens
            )
        )
    if not 0 <= head < trace.num_heads:
        raise AttentionInputError(
            _("there is no head {head} ({num_heads} heads)").format(
                head=head + 1, num_heads=trace.num_heads
            )
        )
    heads = trace.num_heads

    W_query, W_key, W_value = trace.head_projections(head)

    def bias(vector: torch.Tensor | None) -> Vector | None:
        return None if vector is None else _vector(_head_columns(vector[None, :], heads, head)[0])

    return FlowNumbers(
        query=query,
        head=head,
        num_heads=heads,
        head_dim=trace.head_dim,
        scale_divisor=float(trace.scale_divisor),
        dropout_factor=float(trace.dropout_factor),
        inputs=_matrix(trace.inputs),
        W_query=_matrix(W_query),
        W_key=_matrix(W_key),
        W_value=_matrix(W_value),
        b_query=bias(trace.b_query),
        b_key=bias(trace.b_key),
        b_value=bias(trace.b_value),
        query_vector=_vector(_head_columns(trace.queries, heads, head)[query]),
        keys=_matrix(_head_columns(trace.keys, heads, head)),
        values=_matrix(_head_columns(trace.values, heads, head)),
        scores=_vector(trace.scores[head, query]),
        scaled=_vector(trace.scaled_scores[head, query]),
        masked=_vector(trace.masked_scores[head, query]),
        allowed=tuple(bool(v) for v in trace.allowed[query].tolist()),
        weights=_vector(trace.weights[head, query]),
        kept=tuple(bool(v) for v in trace.dropout_keep[head, query].tolist()),
        after_dropout=_vector(trace.weights_after_dropout[head, query]),
        head_context=_vector(trace.head_context[head, query]),
        context=_vector(trace.context[query]),
        W_out=None if trace.W_out is None else _matrix(trace.W_out),
        b_out=None if trace.b_out is None else _vector(trace.b_out),
        output=_vector(trace.output[query]),
    )
