"""The attention classes of the book's chapter 3, written again from its description.

Independent references for the core (they share no code with it). Each class creates its
parameters in the order the book's module does, from PyTorch's global generator, so that
``torch.manual_seed(seed)`` before construction gives the book's tensors. Build them inside
:func:`global_seed`, which puts the global generator back afterwards.

Two additions, both off by default so that the classes stay the book's: ``causal=False``
leaves the mask out (``SelfAttention_v2``'s attention inside the other classes), and
``MultiHeadAttention(..., out_proj=False)`` drops its output projection.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torch import nn


@contextmanager
def global_seed(seed: int) -> Iterator[None]:
    """Seed PyTorch's global generator as the book does, and restore its state on exit."""
    state = torch.random.get_rng_state()
    try:
        torch.manual_seed(seed)
        yield
    finally:
        torch.random.set_rng_state(state)


def attend(
    queries: torch.Tensor,
    keys: torch.Tensor,
    values: torch.Tensor,
    causal: bool,
    dropout: nn.Module | None = None,
) -> torch.Tensor:
    """Scaled dot-product attention as the chapter writes it, for any leading dimensions.

    Scores are queries times keys transposed; with ``causal`` every score above the diagonal
    becomes -inf; softmax of the scores divided by the square root of the keys' width gives
    the weights (then dropout, if given), and the weights times the values the context vectors.

    Shapes:
        queries, keys, values: (..., num_tokens, head_dim) -> (..., num_tokens, head_dim)
    """
    scores = queries @ keys.transpose(-2, -1)
    if causal:
        num_tokens = scores.shape[-1]
        future = torch.triu(torch.ones(num_tokens, num_tokens, dtype=torch.bool), diagonal=1)
        scores = scores.masked_fill(future, -torch.inf)
    weights = torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1)
    if dropout is not None:
        weights = dropout(weights)
    return weights @ values


class SelfAttentionV1(nn.Module):
    """Section 3.4.2: W_query, W_key, W_value as torch.rand parameters, used as ``x @ W``."""

    def __init__(self, d_in: int, d_out: int) -> None:
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        """(num_tokens, d_in) -> (num_tokens, d_out)"""
        queries = inputs @ self.W_query
        keys = inputs @ self.W_key
        values = inputs @ self.W_value
        return attend(queries, keys, values, causal=False)


class SelfAttentionV2(nn.Module):
    """Section 3.4.2: the same with three nn.Linear layers (bias only with ``qkv_bias``)."""

    def __init__(self, d_in: int, d_out: int, qkv_bias: bool = False) -> None:
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        """(num_tokens, d_in) -> (num_tokens, d_out)"""
        queries = self.W_query(inputs)
        keys = self.W_key(inputs)
        values = self.W_value(inputs)
        return attend(queries, keys, values, causal=False)


class CausalAttention(nn.Module):
    """Section 3.5.3: SelfAttention_v2 on batches, with the causal mask and dropout."""

    def __init__(
        self,
        d_in: int,
        d_out: int,
        context_length: int,
        dropout: float,
        qkv_bias: bool = False,
        causal: bool = True,
    ) -> None:
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.causal = causal
        self.context_length = context_length

    def forward(self, batch: torch.Tensor) -> torch.Tensor:
        """(batch_size, num_tokens, d_in) -> (batch_size, num_tokens, d_out)"""
        assert batch.shape[1] <= self.context_length
        queries = self.W_query(batch)
        keys = self.W_key(batch)
        values = self.W_value(batch)
        return attend(queries, keys, values, self.causal, self.dropout)


class MultiHeadAttentionWrapper(nn.Module):
    """Section 3.6.1: ``num_heads`` CausalAttention modules, their outputs side by side."""

    def __init__(
        self,
        d_in: int,
        d_out: int,
        context_length: int,
        dropout: float,
        num_heads: int,
        qkv_bias: bool = False,
        causal: bool = True,
    ) -> None:
        super().__init__()
        self.heads = nn.ModuleList(
            CausalAttention(d_in, d_out, context_length, dropout, qkv_bias, causal)
            for _ in range(num_heads)
        )

    def forward(self, batch: torch.Tensor) -> torch.Tensor:
        """(batch_size, num_tokens, d_in) -> (batch_size, num_tokens, num_heads * d_out)"""
        return torch.cat([head(batch) for head in self.heads], dim=-1)


class MultiHeadAttention(nn.Module):
    """Section 3.6.2: one d_out-wide projection each for queries, keys and values, cut into
    ``num_heads`` heads of d_out / num_heads, then ``out_proj = nn.Linear(d_out, d_out)``."""

    def __init__(
        self,
        d_in: int,
        d_out: int,
        context_length: int,
        dropout: float,
        num_heads: int,
        qkv_bias: bool = False,
        causal: bool = True,
        out_proj: bool = True,
    ) -> None:
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out) if out_proj else nn.Identity()
        self.dropout = nn.Dropout(dropout)
        self.causal = causal
        self.context_length = context_length

    def _split(self, projected: torch.Tensor) -> torch.Tensor:
        batch_size, num_tokens, _ = projected.shape
        heads = projected.view(batch_size, num_tokens, self.num_heads, self.head_dim)
        return heads.transpose(1, 2)  # (batch_size, num_heads, num_tokens, head_dim)

    def forward(self, batch: torch.Tensor) -> torch.Tensor:
        """(batch_size, num_tokens, d_in) -> (batch_size, num_tokens, d_out)"""
        batch_size, num_tokens, _ = batch.shape
        assert num_tokens <= self.context_length
        queries = self._split(self.W_query(batch))
        keys = self._split(self.W_key(batch))
        values = self._split(self.W_value(batch))
        context = attend(queries, keys, values, self.causal, self.dropout).transpose(1, 2)
        merged = context.contiguous().view(batch_size, num_tokens, self.num_heads * self.head_dim)
        return self.out_proj(merged)
