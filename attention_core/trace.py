"""The frozen record of one attention run: every intermediate tensor in order, plus diagnostics."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import torch

from attention_core import steps
from attention_core.config import AttentionConfig


@dataclass(frozen=True)
class Diagnostics:
    """Numbers that tell whether the weights behave.

    Shapes:
        row_sums, row_sums_after_dropout, entropy, max_weight: (num_heads, num_tokens)
    """

    row_sums: torch.Tensor
    row_sums_after_dropout: torch.Tensor
    score_variance: float
    scaled_score_variance: float
    entropy: torch.Tensor
    max_weight: torch.Tensor
    fully_masked_rows: tuple[int, ...]
    nonfinite_weights: bool

    def row_sum_range_after_dropout(self, head: int = 0) -> tuple[float, float] | None:
        """The smallest and largest row sum of one head's weights after dropout, over the
        rows where it is defined (a row with nothing to attend to has none); None if none is."""
        sums = self.row_sums_after_dropout[head]  # (num_tokens,)
        defined = sums[torch.isfinite(sums)]
        if defined.numel() == 0:
            return None
        return float(defined.min()), float(defined.max())


@dataclass(frozen=True)
class AttentionTrace:
    """Every intermediate of one run, in the order the math happens.

    Per-head tensors always carry the head dimension first, also for a single head. In
    self-attention num_keys is num_tokens; in cross-attention the keys and values come from
    ``source_inputs`` and num_keys is the source's number of tokens.

    Shapes:
        inputs: (num_tokens, d_in)
        source_inputs: (num_keys, d_source), or None in self-attention
        W_query: (d_in, inner_dim); W_key, W_value: (d_source, inner_dim), d_source = d_in in
            self-attention
        b_query, b_key, b_value: (inner_dim,), or None without qkv_bias
        W_out: (inner_dim, inner_dim), or None without an output projection
        b_out: (inner_dim,), or None unless the output projection is ``linear``
        queries: (num_tokens, inner_dim); keys, values: (num_keys, inner_dim), biases
            included; with K/V groups,
            a group's heads all hold its first head's keys and values
        rope_angles: (num_tokens, head_dim // 2), or None without RoPE
        rotated_queries, rotated_keys: (num_heads, num_tokens, head_dim), the queries and keys
            the scores are computed from when RoPE turns them; None without RoPE
        scores, scaled_scores, masked_scores, weights, dropout_keep, weights_after_dropout:
            (num_heads, num_tokens, num_keys)
        allowed: (num_tokens, num_keys), True = may attend
        head_context: (num_heads, num_tokens, head_dim)
        context: (num_tokens, inner_dim), the heads' outputs side by side
        output: (num_tokens, inner_dim), context after the output projection (context @ W_out
            + b_out), or context itself without one
        mean_weights: (num_tokens, num_keys), weights after dropout averaged over heads
    """

    config: AttentionConfig
    tokens: tuple[str, ...]
    inputs: torch.Tensor
    W_query: torch.Tensor
    W_key: torch.Tensor
    W_value: torch.Tensor
    b_query: torch.Tensor | None
    b_key: torch.Tensor | None
    b_value: torch.Tensor | None
    queries: torch.Tensor
    keys: torch.Tensor
    values: torch.Tensor
    rope_angles: torch.Tensor | None
    rotated_queries: torch.Tensor | None
    rotated_keys: torch.Tensor | None
    scores: torch.Tensor
    scale_divisor: float
    scaled_scores: torch.Tensor
    allowed: torch.Tensor
    masked_scores: torch.Tensor
    weights: torch.Tensor
    dropout_keep: torch.Tensor
    dropout_factor: float
    weights_after_dropout: torch.Tensor
    head_context: torch.Tensor
    context: torch.Tensor
    W_out: torch.Tensor | None
    b_out: torch.Tensor | None
    output: torch.Tensor
    mean_weights: torch.Tensor
    diagnostics: Diagnostics
    source_tokens: tuple[str, ...] | None = None
    source_inputs: torch.Tensor | None = None

    @property
    def num_tokens(self) -> int:
        """Number of tokens: the queries' (the target's, in cross-attention)."""
        return int(self.inputs.shape[0])

    @property
    def is_cross(self) -> bool:
        """True for cross-attention: the keys and values came from another sequence."""
        return self.source_inputs is not None

    @property
    def num_keys(self) -> int:
        """Number of keys: the source's tokens in cross-attention, else the tokens."""
        return int(self.keys.shape[0])

    @property
    def key_tokens(self) -> tuple[str, ...]:
        """The labels of the keys' tokens: the source's in cross-attention."""
        return self.tokens if self.source_tokens is None else self.source_tokens

    @property
    def input_shapes(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The shapes of the queries' input and of the keys' and values' input (the same one
        in self-attention): ((num_tokens, d_in), (num_keys, d_source))."""
        kv_inputs = self.inputs if self.source_inputs is None else self.source_inputs
        rows, width = self.inputs.shape
        kv_rows, kv_width = kv_inputs.shape
        return (int(rows), int(width)), (int(kv_rows), int(kv_width))

    @property
    def num_heads(self) -> int:
        """Number of heads."""
        return int(self.scores.shape[0])

    @property
    def head_dim(self) -> int:
        """Width of one head's queries and keys (d_k)."""
        return int(self.head_context.shape[-1])

    @property
    def kv_heads(self) -> int:
        """How many different key/value heads there are (what a KV cache stores)."""
        return self.config.kv_groups or self.num_heads

    def scored(self) -> tuple[torch.Tensor, torch.Tensor]:
        """The queries and keys the scores come from, per head: turned by RoPE when it is on.

        Shapes:
            returns: two (num_heads, num_tokens, head_dim)
        """
        if self.rotated_queries is not None and self.rotated_keys is not None:
            return self.rotated_queries, self.rotated_keys
        heads = self.num_heads
        return steps.split_heads(self.queries, heads), steps.split_heads(self.keys, heads)

    def cached_keys_values(self) -> tuple[torch.Tensor, torch.Tensor]:
        """The keys and values a KV cache holds: one head per K/V group, before RoPE.

        Shapes:
            returns: two (kv_heads, num_tokens, head_dim)
        """
        step = self.num_heads // self.kv_heads
        keys = steps.split_heads(self.keys, self.num_heads)[::step]
        return keys, steps.split_heads(self.values, self.num_heads)[::step]

    @property
    def blocked(self) -> torch.Tensor:
        """Where attention is not allowed (num_tokens, num_tokens): the mask's complement."""
        return ~self.allowed

    @property
    def hidden_by_mask(self) -> torch.Tensor:
        """The (query, key) pairs the mask leaves with no weight (num_tokens, num_tokens).

        Every blocked pair, except under the ``zero_scores`` pitfall: multiplying the scores
        by the mask leaves weight on blocked keys, so there no pair is hidden.
        """
        if self.config.mask_strategy == "zero_scores":
            return torch.zeros_like(self.allowed)
        return self.blocked

    @property
    def dropped(self) -> torch.Tensor:
        """Which weights dropout zeroed (num_heads, num_tokens, num_tokens)."""
        return ~self.dropout_keep

    def rows_without_weight(self, head: int = 0) -> tuple[tuple[int, str], ...]:
        """The queries of one head left with no weight after dropout, each with why: ``mask``
        when the mask leaves it no key, ``dropout`` when dropout dropped every weight it had.

        A weight is there when it is a number other than 0 (an undefined row has none)."""
        weights = self.weights_after_dropout[head]  # (num_tokens, num_tokens)
        kept = (weights != 0) & torch.isfinite(weights)
        hidden = self.hidden_by_mask.all(dim=-1)  # (num_tokens,)
        dropped = (self.dropped[head] | self.hidden_by_mask).all(dim=-1)
        found = []
        for row in (~kept.any(dim=-1)).nonzero().flatten().tolist():
            if bool(hidden[row]):
                found.append((row, "mask"))
            elif self.config.dropout_active and bool(dropped[row]):
                found.append((row, "dropout"))
        return tuple(found)

    def head_projections(self, head: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """W_query, W_key and W_value of one head (d_in, head width each).

        The pipeline cuts heads from the projected columns in order (``steps.split_heads``), so
        a head's matrices are the same consecutive slice of the columns, whether the heads
        share one projection ("split") or sit side by side ("wrapper").
        """
        if not 0 <= head < self.num_heads:
            raise IndexError(f"there is no head {head + 1} ({self.num_heads} heads)")
        matrices = (self.W_query, self.W_key, self.W_value)
        W_query, W_key, W_value = (steps.split_heads(m, self.num_heads)[head] for m in matrices)
        return W_query, W_key, W_value

    def to_dict(self) -> dict[str, Any]:
        """Plain Python values (tensors as nested lists), ready for JSON."""
        result: dict[str, Any] = {}
        for field in fields(self):
            value = getattr(self, field.name)
            if field.name == "config":
                value = {f.name: getattr(value, f.name) for f in fields(value)}
            elif field.name == "diagnostics":
                value = {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
            result[field.name] = _plain(value)
        return result


def _plain(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.tolist()
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value
