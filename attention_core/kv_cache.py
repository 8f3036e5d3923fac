"""Generation one token at a time with a KV cache, and the memory the cache takes."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from attention_core import rope, steps
from attention_core.config import AttentionConfig
from attention_core.embeddings import Embeddings
from attention_core.pipeline import run_attention
from attention_core.trace import AttentionTrace
from attention_core.weights import Projections, head_dim, make_projections, share_key_value_heads


@dataclass(frozen=True)
class CacheStep:
    """One step of generation: the newest token's query against every key in the cache.

    Shapes:
        cached_keys, cached_values: (kv_heads, cache_length, head_dim), after this step,
            keys turned by RoPE at their own positions when it is on
        weights: (num_heads, cache_length), the newest query's weights over the cache
        output: (inner_dim,), the newest token's output computed from the cache
        uncached: (inner_dim,), the same row when attention is run again over every token
    """

    step: int  # 1-based: how many tokens have been seen
    cached_rows: tuple[int, ...]  # 0-based tokens in the cache after this step, oldest first
    reused: tuple[int, ...]  # rows read back from the cache, not computed again
    dropped: tuple[int, ...]  # rows the window let fall out of the cache at this step
    cached_keys: torch.Tensor
    cached_values: torch.Tensor
    weights: torch.Tensor
    output: torch.Tensor
    uncached: torch.Tensor

    @property
    def cache_bytes(self) -> int:
        """Bytes the cache holds after this step: keys plus values, for one layer."""
        return 2 * self.cached_keys.numel() * self.cached_keys.element_size()

    @property
    def max_difference(self) -> float:
        """Largest difference between the cached and the uncached output."""
        return float((self.output - self.uncached).abs().max())


def generation_config(config: AttentionConfig) -> AttentionConfig:
    """The settings of generation: causal (a token cannot see the tokens after it, which do
    not exist yet), masked the correct way (a cache holds no future key for a pitfall to
    leak), in evaluation mode (no dropout); everything else as given."""
    return config.replace(mask="causal", custom_mask=None, mask_strategy="neg_inf", train=False)


@torch.no_grad()
def generate(embeddings: Embeddings, config: AttentionConfig) -> tuple[CacheStep, ...]:
    """Feed the tokens one at a time, keeping every key and value in a cache.

    Each step projects only the new token, appends its key and value (one head per K/V group)
    to the cache, and attends from its query to the whole cache; a sliding window keeps only
    the last ``window`` rows. Each step's output is compared with :func:`run_attention` run
    again over all the tokens so far.

    Returns:
        One :class:`CacheStep` per token.
    """
    config = generation_config(config)
    inputs = embeddings.values  # (num_tokens, d_in)
    heads = config.heads
    projections = share_key_value_heads(
        make_projections(config, inputs.shape[1]), heads, config.kv_groups
    )
    divisor = steps.scale_divisor(config.scaling, head_dim(config, inputs.shape[1]))
    cache: tuple[torch.Tensor, torch.Tensor] | None = None
    rows: tuple[int, ...] = ()
    result = []
    for row in range(inputs.shape[0]):
        query, key, value = _new_row(inputs[row : row + 1], projections, config, row)
        keys = key if cache is None else torch.cat((cache[0], key), dim=1)
        values = value if cache is None else torch.cat((cache[1], value), dim=1)
        kept = len(rows) + 1 if not config.window else min(len(rows) + 1, config.window)
        before, rows = rows, (*rows, row)[-kept:]
        cache = (keys[:, -kept:], values[:, -kept:])  # (kv_heads, kept, head_dim) each
        weights, output = _attend_to_cache(query, cache, divisor, config, projections)
        result.append(
            CacheStep(
                step=row + 1,
                cached_rows=rows,
                reused=tuple(r for r in before if r in rows),
                dropped=tuple(r for r in (*before, row) if r not in rows),
                cached_keys=cache[0],
                cached_values=cache[1],
                weights=weights,
                output=output,
                uncached=run_attention(_first(embeddings, row + 1), config).output[row],
            )
        )
    return tuple(result)


def _new_row(
    token: torch.Tensor, projections: Projections, config: AttentionConfig, position: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The new token's query (every head) and its key and value (one head per K/V group).

    Shapes:
        token: (1, d_in) -> query (num_heads, 1, head_dim), key and value (kv_heads, 1, head_dim)
    """
    heads = config.heads
    group_size = heads // (config.kv_groups or heads)
    query, key, value = (
        steps.split_heads(steps.project(token, weight, bias), heads)
        for weight, bias in (
            (projections.W_query, projections.b_query),
            (projections.W_key, projections.b_key),
            (projections.W_value, projections.b_value),
        )
    )
    key, value = key[::group_size], value[::group_size]
    if config.rope:
        turns = rope.angles(1, query.shape[-1], config.rope_base, first_position=position)
        query, key = rope.rotate(query, turns), rope.rotate(key, turns)
    return query, key, value


def _attend_to_cache(
    query: torch.Tensor,
    cache: tuple[torch.Tensor, torch.Tensor],
    divisor: float,
    config: AttentionConfig,
    projections: Projections,
) -> tuple[torch.Tensor, torch.Tensor]:
    """The new query against every cached key: its weights and its output row.

    Every cached key may be attended to (the cache holds only the past and the window), so
    there is nothing to mask.

    Shapes:
        query: (num_heads, 1, head_dim); cache: two (kv_heads, length, head_dim)
        -> weights (num_heads, length), output (inner_dim,)
    """
    group_size = query.shape[0] // cache[0].shape[0]
    keys, values = (part.repeat_interleave(group_size, dim=0) for part in cache)
    scores = steps.scale(
        steps.score(query, keys, config.scoring), divisor
    )  # (num_heads, 1, length)
    weights = steps.normalise(scores, config.norm)
    context = steps.merge_heads(steps.mix_values(weights, values))  # (1, inner_dim)
    output = steps.out_project(context, projections.W_out, projections.b_out)
    return weights[:, 0], output[0]


def _first(embeddings: Embeddings, count: int) -> Embeddings:
    """The first ``count`` tokens."""
    return Embeddings(embeddings.tokens[:count], embeddings.values[:count])


@dataclass(frozen=True)
class KVMemory:
    """What a KV cache stores per token and per layer: a key and a value for each K/V head."""

    num_heads: int
    kv_heads: int
    head_dim: int
    bytes_per_number: int

    def numbers_per_token(self, kv_heads: int | None = None) -> int:
        """Numbers per token and layer: a key and a value for each of ``kv_heads`` K/V heads
        (default: this run's)."""
        return 2 * (kv_heads or self.kv_heads) * self.head_dim

    def bytes_per_token(self, kv_heads: int | None = None) -> int:
        """Bytes per token and layer with ``kv_heads`` K/V heads (default: this run's)."""
        return self.numbers_per_token(kv_heads) * self.bytes_per_number


def kv_memory(trace: AttentionTrace) -> KVMemory:
    """The cache's size for this run's shapes, from its tensors' sizes (float32: 4 bytes)."""
    return KVMemory(trace.num_heads, trace.kv_heads, trace.head_dim, trace.keys.element_size())
