"""Three newer attention classes of the book's chapter 4 bonus material, written again from
their description (rasbt/LLMs-from-scratch), sharing no code with the core:

- :class:`MultiHeadLatentAttention` (ch04/05_mla): queries from ``W_query``; each token's
  keys and values from one latent ``W_DKV(x)`` of ``latent_dim`` numbers, up-projected by
  ``W_UK`` and ``W_UV``; causal softmax attention scaled by √head_dim; heads cut with
  ``view(b, T, heads, head_dim).transpose(1, 2)``; ``out_proj`` with a bias. With
  ``use_cache=True`` it keeps the latents (not keys and values) and counts positions.
- :class:`GatedMultiHeadAttention` (ch04/08_deltanet): causal multi-head attention whose
  merged context is multiplied by ``sigmoid(W_gate(x))`` before ``out_proj``; masked scores
  are set to the dtype's smallest number.
- :class:`GatedDeltaNet` (ch04/08_deltanet, without the convolution): per head, queries and
  keys L2-normalised (eps 1e-6 inside the root), queries also divided by √head_dim;
  β = sigmoid(W_beta(x)) per channel, α = exp(−exp(A_log) · softplus(W_alpha(x) + dt_bias))
  per head; a zero state S (head_dim × head_dim) per head; for each token S ← αS, then
  S ← S + k ⊗ ((v − kᵀS) ⊙ β), then y = qᵀS; the ys RMS-normalised per head (eps 1e-6),
  multiplied by SiLU(W_gate(x)), merged and passed through ``out_proj``.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def _heads(x: torch.Tensor, heads: int) -> torch.Tensor:
    batch, tokens, width = x.shape
    return x.view(batch, tokens, heads, width // heads).transpose(1, 2)


def _merge(x: torch.Tensor) -> torch.Tensor:
    batch, heads, tokens, head_dim = x.shape
    return x.transpose(1, 2).contiguous().view(batch, tokens, heads * head_dim)


class MultiHeadLatentAttention(nn.Module):
    def __init__(self, d_in, d_out, dropout, num_heads, qkv_bias=False, latent_dim=None):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.latent_dim = latent_dim or max(16, d_out // 8)
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_DKV = nn.Linear(d_in, self.latent_dim, bias=qkv_bias)
        self.W_UK = nn.Linear(self.latent_dim, d_out, bias=qkv_bias)
        self.W_UV = nn.Linear(self.latent_dim, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.cache_c_kv: torch.Tensor | None = None
        self.ptr_current_pos = 0

    def forward(self, x: torch.Tensor, use_cache: bool = False) -> torch.Tensor:
        latent = self.W_DKV(x)
        if use_cache:
            if self.cache_c_kv is not None:
                latent = torch.cat((self.cache_c_kv, latent), dim=1)
            self.cache_c_kv = latent
            first = self.ptr_current_pos
            self.ptr_current_pos += x.shape[1]
        else:
            first = 0
        queries = _heads(self.W_query(x), self.num_heads)
        keys = _heads(self.W_UK(latent), self.num_heads)
        values = _heads(self.W_UV(latent), self.num_heads)
        q_pos = torch.arange(first, first + x.shape[1])
        k_pos = torch.arange(keys.shape[2])
        scores = (queries @ keys.transpose(-2, -1)).masked_fill(
            q_pos[:, None] < k_pos[None, :], -torch.inf
        )
        weights = self.dropout(torch.softmax(scores / self.head_dim**0.5, dim=-1))
        return self.out_proj(_merge(weights @ values))


class GatedMultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_gate = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.context_length = context_length

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        tokens = x.shape[1]
        queries = _heads(self.W_query(x), self.num_heads)
        keys = _heads(self.W_key(x), self.num_heads)
        values = _heads(self.W_value(x), self.num_heads)
        scores = queries @ keys.transpose(2, 3)
        future = torch.ones(tokens, tokens).triu(diagonal=1).bool()
        scores = scores.masked_fill(future, torch.finfo(scores.dtype).min)
        weights = self.dropout(torch.softmax(scores / self.head_dim**0.5, dim=-1))
        context = _merge(weights @ values) * torch.sigmoid(self.W_gate(x))
        return self.out_proj(context)


def l2_normalised(x: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    return x / torch.sqrt((x**2).sum(dim=-1, keepdim=True) + eps)


class GatedDeltaNet(nn.Module):
    def __init__(self, d_in, d_out, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_gate = nn.Linear(d_in, d_out, bias=False)
        self.W_beta = nn.Linear(d_in, d_out, bias=False)
        self.W_alpha = nn.Linear(d_in, num_heads, bias=False)
        self.dt_bias = nn.Parameter(torch.ones(num_heads))
        self.A_log = nn.Parameter(torch.log(torch.empty(num_heads).uniform_(0, 16)))
        self.norm = nn.RMSNorm(self.head_dim, eps=1e-6)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, tokens, _ = x.shape
        heads, head_dim = self.num_heads, self.head_dim
        queries = l2_normalised(_heads(self.W_query(x), heads)) / head_dim**0.5
        keys = l2_normalised(_heads(self.W_key(x), heads))
        values = _heads(self.W_value(x), heads)
        beta = _heads(torch.sigmoid(self.W_beta(x)), heads)
        gate = self.W_gate(x).view(batch, tokens, heads, head_dim)
        # (b, T, heads): one decay per head and token
        alpha = torch.exp(-torch.exp(self.A_log) * F.softplus(self.W_alpha(x) + self.dt_bias))
        state = x.new_zeros(batch, heads, head_dim, head_dim)
        ys = []
        for t in range(tokens):
            k, q, v = keys[:, :, t], queries[:, :, t], values[:, :, t]
            state = state * alpha[:, t, :, None, None]
            remembered = torch.einsum("bhkv,bhk->bhv", state, k)
            correction = (v - remembered) * beta[:, :, t]
            state = state + torch.einsum("bhk,bhv->bhkv", k, correction)
            ys.append(torch.einsum("bhkv,bhk->bhv", state, q))
        context = torch.stack(ys, dim=1)  # (b, T, heads, head_dim)
        context = self.norm(context) * F.silu(gate)
        return self.out_proj(self.dropout(context.reshape(batch, tokens, heads * head_dim)))
