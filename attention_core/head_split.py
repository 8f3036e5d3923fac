"""The head split of the book's MultiHeadAttention traced shape by shape, beside the wrong view.

``queries.view(b, num_tokens, num_heads, head_dim).transpose(1, 2)`` gives each head its own
columns of every token. ``queries.view(b, num_heads, num_tokens, head_dim)`` has the same shape
but cuts the flat numbers in the wrong order: a "head" then holds the whole rows of a run of
tokens (the first ones for head 1), so that its row r is a head_dim-wide slice of token
⌊(head × num_tokens + r) / num_heads⌋, not of token r. A row never straddles two tokens
(head_dim divides a token's width); the head does.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from attention_core import rope, steps
from attention_core.trace import AttentionTrace


@dataclass(frozen=True)
class ShapeStep:
    """One line of the forward pass and the shape it leaves (batch of one)."""

    code: str
    shape: tuple[int, ...]


@dataclass(frozen=True)
class HeadSplit:
    """The right split and the wrong one on the same projected numbers.

    Shapes:
        right_queries, wrong_queries: (num_heads, num_tokens, head_dim), each head's queries
        wrong_origin: (num_heads, num_tokens, head_dim, 2), for each number of the wrong split
            the 0-based (token, column) of the queries it was taken from
        right_output, wrong_output: (num_tokens, inner_dim), after merging and out_proj
    """

    steps: tuple[ShapeStep, ...]
    right_queries: torch.Tensor
    wrong_queries: torch.Tensor
    wrong_origin: torch.Tensor
    right_output: torch.Tensor
    wrong_output: torch.Tensor

    @property
    def max_difference(self) -> float:
        """Largest difference the wrong view makes to the output."""
        return float((self.right_output - self.wrong_output).abs().max())


def trace_head_split(trace: AttentionTrace) -> HeadSplit:
    """Replay the trace's attention as the book's batched module does, recording each shape,
    and once more with ``view(b, num_heads, num_tokens, head_dim)``; dropout is left out
    (the same in both). Both use the trace's queries, keys, values, mask and scaling."""
    heads, head_dim = trace.num_heads, trace.head_dim
    num_tokens, width = trace.queries.shape
    batch = (trace.queries[None], trace.keys[None], trace.values[None])  # (1, num_tokens, width)
    right = [part.view(1, num_tokens, heads, head_dim).transpose(1, 2) for part in batch]
    wrong = [part.view(1, heads, num_tokens, head_dim) for part in batch]
    right_context = _attend(trace, *right)  # (1, num_heads, num_tokens, head_dim)
    wrong_context = _attend(trace, *wrong)
    merged = right_context.transpose(1, 2).contiguous().view(1, num_tokens, width)
    wrong_merged = wrong_context.reshape(1, num_tokens, width)  # undoes the wrong view
    flat = torch.arange(num_tokens * width).view(heads, num_tokens, head_dim)
    shapes = (
        ShapeStep("queries = W_query(x)", tuple(batch[0].shape)),
        ShapeStep(
            "queries.view(b, num_tokens, num_heads, head_dim)", (1, num_tokens, heads, head_dim)
        ),
        ShapeStep(".transpose(1, 2)", tuple(right[0].shape)),
        ShapeStep("scores = queries @ keys.transpose(2, 3)", (1, heads, num_tokens, num_tokens)),
        ShapeStep("context = weights @ values", tuple(right_context.shape)),
        ShapeStep("context.transpose(1, 2)", (1, num_tokens, heads, head_dim)),
        ShapeStep(".contiguous().view(b, num_tokens, d_out)", tuple(merged.shape)),
        ShapeStep("out_proj(context)", tuple(merged.shape)),
    )
    return HeadSplit(
        steps=shapes,
        right_queries=right[0][0],
        wrong_queries=wrong[0][0],
        wrong_origin=torch.stack((flat // width, flat % width), dim=-1),
        right_output=steps.out_project(merged[0], trace.W_out, trace.b_out),
        wrong_output=steps.out_project(wrong_merged[0], trace.W_out, trace.b_out),
    )


def _attend(
    trace: AttentionTrace, queries: torch.Tensor, keys: torch.Tensor, values: torch.Tensor
) -> torch.Tensor:
    """Attention per head with the trace's RoPE, scoring, scaling, mask and normalisation.

    Shapes:
        queries, keys, values: (1, num_heads, num_tokens, head_dim) -> the same shape
    """
    config = trace.config
    if trace.rope_angles is not None:
        queries, keys = (
            rope.rotate(queries, trace.rope_angles),
            rope.rotate(keys, trace.rope_angles),
        )
    scores = steps.scale(steps.score(queries, keys, config.scoring), trace.scale_divisor)
    masked = steps.mask_scores(scores, trace.allowed, config.mask_strategy)
    softmax_scores = masked if config.norm == "softmax" else None
    normalised = steps.normalise(masked, config.norm)
    weights = steps.mask_weights(normalised, trace.allowed, config.mask_strategy, softmax_scores)
    return steps.mix_values(weights, values)
