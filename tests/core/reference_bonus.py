"""The attention classes of the book's chapter 4 bonus material, written again from their
description (rasbt/LLMs-from-scratch: ch04/03_kv-cache, ch04/04_gqa, ch04/06_swa).

Independent references for the core's variants (they share no code with it):

- :class:`MultiHeadAttentionWithCache`: chapter 3's MultiHeadAttention that keeps every key and
  value it has seen when called with ``use_cache=True`` and counts the position of the next
  token, so that a text can be fed one token at a time.
- :class:`GroupedQueryAttention`: the queries have ``num_heads`` heads, the keys and values only
  ``num_kv_groups`` (their projections are ``num_kv_groups * head_dim`` wide); each K/V head is
  repeated for the ``num_heads // num_kv_groups`` query heads of its group, one group after the
  other (``repeat_interleave`` on the head dimension). Its output projection has no bias.
- :class:`MultiHeadAttentionWithSWA`: causal attention in which a query at position q sees the
  keys at positions k with ``0 <= q - k < sliding_window_size``; its cache keeps only the last
  ``sliding_window_size`` keys and values.

Every class projects with ``nn.Linear`` (``x @ W.T + b``), cuts heads with
``view(b, num_tokens, heads, head_dim).transpose(1, 2)``, divides the scores by the square root
of head_dim before the softmax, merges the heads back and applies ``out_proj``. Caches hold
keys and values head-first, (b, kv_heads, tokens, head_dim).

Two additions to GroupedQueryAttention, both off by default so that it stays the book's:
``out_bias=True`` gives ``out_proj`` a bias (the core's linear output projection has one), and
``sliding_window_size`` and ``rope_base`` add the window of MultiHeadAttentionWithSWA and the
rotary position embeddings of the book's Llama chapters (pair i is number i with number
i + head_dim/2, turned by position × base^(−2i/head_dim); keys are turned before they are
cached, at their own positions).

Build them inside :func:`global_seed` when their own initial weights matter; the tests copy the
core's weights in.
"""

from __future__ import annotations

import torch
from torch import nn

from tests.core.reference_book import global_seed

__all__ = [
    "GroupedQueryAttention",
    "MultiHeadAttentionWithCache",
    "MultiHeadAttentionWithSWA",
    "apply_rope",
    "global_seed",
    "rope_tables",
]


def rope_tables(head_dim: int, positions: torch.Tensor, base: float) -> tuple[torch.Tensor, ...]:
    """Cosines and sines of every position's angles, each pair's angle written twice (for
    number i and number i + head_dim/2), as the Llama chapters precompute them.

    Shapes:
        positions: (num_tokens,) -> cos, sin: (num_tokens, head_dim)
    """
    assert head_dim % 2 == 0, "RoPE needs an even head_dim"
    inverse_frequency = 1.0 / (
        base ** (torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)
    )
    angles = positions.to(torch.float64)[:, None] * inverse_frequency[None, :]
    angles = torch.cat((angles, angles), dim=-1)  # (num_tokens, head_dim)
    return angles.cos().float(), angles.sin().float()


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """x cos + rotate_half(x) sin, with rotate_half(x) = (−second half, first half).

    Shapes:
        x: (batch, heads, num_tokens, head_dim); cos, sin: (num_tokens, head_dim) -> like x
    """
    half = x.shape[-1] // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rotated * sin


def _attend(
    queries: torch.Tensor,
    keys: torch.Tensor,
    values: torch.Tensor,
    q_start: int,
    k_start: int,
    window: int | None,
    dropout: nn.Module,
) -> torch.Tensor:
    """Causal (and, with ``window``, sliding-window) attention between absolute positions.

    Queries sit at positions q_start, q_start + 1, ...; keys at k_start, k_start + 1, ...; with
    diff = q_pos − k_pos, a score is hidden where diff < 0 (the future) or diff >= window.

    Shapes:
        queries: (b, heads, num_q, head_dim); keys, values: (b, heads, num_k, head_dim)
        -> (b, heads, num_q, head_dim)
    """
    q_positions = torch.arange(q_start, q_start + queries.shape[-2])
    k_positions = torch.arange(k_start, k_start + keys.shape[-2])
    diff = q_positions[:, None] - k_positions[None, :]
    hidden = diff < 0
    if window is not None:
        hidden = hidden | (diff >= window)
    scores = (queries @ keys.transpose(2, 3)).masked_fill(hidden, -torch.inf)
    weights = dropout(torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1))
    return weights @ values


class _CachedAttention(nn.Module):
    """What the three classes share: heads cut and merged, and a cache with a position."""

    num_heads: int
    head_dim: int
    d_out: int

    def _init_cache(self, window: int | None) -> None:
        self.window = window
        self.cache_k: torch.Tensor | None = None
        self.cache_v: torch.Tensor | None = None
        self.ptr_current_pos = 0

    def reset_cache(self) -> None:
        """Forget every cached key and value; the next token is at position 0 again."""
        self.cache_k = self.cache_v = None
        self.ptr_current_pos = 0

    def _heads(self, projected: torch.Tensor, heads: int) -> torch.Tensor:
        batch, num_tokens, _ = projected.shape
        return projected.view(batch, num_tokens, heads, self.head_dim).transpose(1, 2)

    def _merge(self, context: torch.Tensor) -> torch.Tensor:
        batch, _, num_tokens, _ = context.shape
        return context.transpose(1, 2).contiguous().view(batch, num_tokens, self.d_out)

    def _start(self, use_cache: bool) -> int:
        """The position of the first new token (0 without a cache, which is then emptied)."""
        if not use_cache:
            self.reset_cache()
        return self.ptr_current_pos

    def _remember(
        self, keys_new: torch.Tensor, values_new: torch.Tensor, use_cache: bool
    ) -> tuple[torch.Tensor, torch.Tensor, int, int]:
        """Append the new keys and values to the cache (with ``use_cache``) and return the keys
        and values to attend to, with the positions of the first query and the first key.

        With a window, the cache keeps its last ``window`` rows, and a chunk of new tokens
        attends to up to window − 1 older keys plus the whole chunk.
        """
        num_tokens = keys_new.shape[2]
        if not use_cache:
            return keys_new, values_new, 0, 0
        old_len = 0 if self.cache_k is None else self.cache_k.shape[2]
        if self.cache_k is None or self.cache_v is None:
            combined_k, combined_v = keys_new, values_new
        else:
            combined_k = torch.cat((self.cache_k, keys_new), dim=2)
            combined_v = torch.cat((self.cache_v, values_new), dim=2)
        keys, values = combined_k, combined_v
        if self.window is None:
            self.cache_k, self.cache_v = combined_k, combined_v
        else:
            attend_to = min(combined_k.shape[2], self.window + num_tokens - 1)
            keys, values = keys[:, :, -attend_to:], values[:, :, -attend_to:]
            keep = min(combined_k.shape[2], self.window)
            self.cache_k, self.cache_v = combined_k[:, :, -keep:], combined_v[:, :, -keep:]
        first_cached = self.ptr_current_pos - old_len  # the position of the oldest row kept
        k_start = first_cached + combined_k.shape[2] - keys.shape[2]
        q_start = self.ptr_current_pos
        self.ptr_current_pos += num_tokens
        return keys, values, q_start, k_start


class MultiHeadAttentionWithCache(_CachedAttention):
    """ch04/03_kv-cache: chapter 3's MultiHeadAttention (out_proj with bias) with a KV cache."""

    def __init__(
        self, d_in: int, d_out: int, dropout: float, num_heads: int, qkv_bias: bool = False
    ) -> None:
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out, self.num_heads, self.head_dim = d_out, num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self._init_cache(window=None)

    def forward(self, x: torch.Tensor, use_cache: bool = False) -> torch.Tensor:
        """(b, num_tokens, d_in) -> (b, num_tokens, d_out)"""
        self._start(use_cache)
        queries = self._heads(self.W_query(x), self.num_heads)
        keys_new = self._heads(self.W_key(x), self.num_heads)
        values_new = self._heads(self.W_value(x), self.num_heads)
        keys, values, q_start, k_start = self._remember(keys_new, values_new, use_cache)
        context = _attend(queries, keys, values, q_start, k_start, None, self.dropout)
        return self.out_proj(self._merge(context))


class GroupedQueryAttention(_CachedAttention):
    """ch04/04_gqa: ``num_kv_groups`` key/value heads shared by ``num_heads`` query heads,
    with a KV cache; see the module's docstring for the additions (off by default)."""

    def __init__(
        self,
        d_in: int,
        d_out: int,
        dropout: float,
        num_heads: int,
        num_kv_groups: int,
        qkv_bias: bool = False,
        out_bias: bool = False,
        sliding_window_size: int | None = None,
        rope_base: float | None = None,
    ) -> None:
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        assert num_heads % num_kv_groups == 0, "num_heads must be divisible by num_kv_groups"
        self.d_out, self.num_heads, self.head_dim = d_out, num_heads, d_out // num_heads
        self.num_kv_groups = num_kv_groups
        self.group_size = num_heads // num_kv_groups
        # The book creates the key and value layers first, then the queries and out_proj.
        self.W_key = nn.Linear(d_in, num_kv_groups * self.head_dim, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, num_kv_groups * self.head_dim, bias=qkv_bias)
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out, bias=out_bias)
        self.dropout = nn.Dropout(dropout)
        self.rope_base = rope_base
        self._init_cache(sliding_window_size)

    def forward(self, x: torch.Tensor, use_cache: bool = False) -> torch.Tensor:
        """(b, num_tokens, d_in) -> (b, num_tokens, d_out)"""
        num_tokens = x.shape[1]
        start = self._start(use_cache)
        queries = self._heads(self.W_query(x), self.num_heads)
        keys_new = self._heads(self.W_key(x), self.num_kv_groups)
        values_new = self._heads(self.W_value(x), self.num_kv_groups)
        if self.rope_base is not None:
            positions = torch.arange(start, start + num_tokens)
            cos, sin = rope_tables(self.head_dim, positions, self.rope_base)
            queries, keys_new = apply_rope(queries, cos, sin), apply_rope(keys_new, cos, sin)
        keys, values, q_start, k_start = self._remember(keys_new, values_new, use_cache)
        # [K1, K2] -> [K1, K1, K2, K2]: each K/V head serves its group's query heads.
        keys = keys.repeat_interleave(self.group_size, dim=1)
        values = values.repeat_interleave(self.group_size, dim=1)
        context = _attend(queries, keys, values, q_start, k_start, self.window, self.dropout)
        return self.out_proj(self._merge(context))


class MultiHeadAttentionWithSWA(_CachedAttention):
    """ch04/06_swa: multi-head attention with a causal sliding window (None: no window)."""

    def __init__(
        self,
        d_in: int,
        d_out: int,
        dropout: float,
        num_heads: int,
        qkv_bias: bool = False,
        sliding_window_size: int | None = None,
    ) -> None:
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out, self.num_heads, self.head_dim = d_out, num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self._init_cache(sliding_window_size)

    def forward(self, x: torch.Tensor, use_cache: bool = False) -> torch.Tensor:
        """(b, num_tokens, d_in) -> (b, num_tokens, d_out)"""
        self._start(use_cache)
        queries = self._heads(self.W_query(x), self.num_heads)
        keys_new = self._heads(self.W_key(x), self.num_heads)
        values_new = self._heads(self.W_value(x), self.num_heads)
        keys, values, q_start, k_start = self._remember(keys_new, values_new, use_cache)
        context = _attend(queries, keys, values, q_start, k_start, self.window, self.dropout)
        return self.out_proj(self._merge(context))
