"""Multi-head latent attention (MLA) on the learner's matrix, as the book's
``MultiHeadLatentAttention`` computes it (ch04/05_mla): each token's keys and values come from
one small latent, ``latent = x @ W_DKV``, up-projected by ``W_UK`` and ``W_UV``; a KV cache
holds only the latents. Attention is causal, scaled by √head_dim, without dropout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from attention_core import steps
from attention_core.config import AttentionConfig
from attention_core.embeddings import Embeddings
from attention_core.trace import AttentionTrace
from attention_core.weights import Layer, linear_layer


@dataclass(frozen=True)
class LatentWeights:
    """MLA's layers in the book's orientation (``x @ W + b``), drawn in the order the class
    creates them: W_query, W_DKV, W_UK, W_UV, then out_proj (always with a bias).

    Shapes:
        W_query: (d_in, width); W_DKV: (d_in, latent_dim); W_UK, W_UV: (latent_dim, width);
        W_out: (width, width); biases: their layer's columns, or None
    """

    W_query: Layer
    W_DKV: Layer
    W_UK: Layer
    W_UV: Layer
    W_out: Layer


@dataclass(frozen=True)
class LatentStep:
    """One generated token: its latent appended to the cache, keys and values rebuilt from it.

    Shapes:
        cache: (step, latent_dim), the latents kept so far
        weights: (num_heads, step), the new query's weights over the cached tokens
        output: (width,), the new token's output from the cache
    """

    step: int  # 1-based
    cache: torch.Tensor
    weights: torch.Tensor
    output: torch.Tensor

    @property
    def cache_bytes(self) -> int:
        """Bytes the latent cache holds after this step, for one layer."""
        return self.cache.numel() * self.cache.element_size()


@dataclass(frozen=True)
class LatentAttention:
    """MLA run on every token at once and token by token with a latent cache.

    Shapes:
        latents: (num_tokens, latent_dim); keys, values: (num_heads, num_tokens, head_dim)
        weights: (num_heads, num_tokens, num_tokens); output: (num_tokens, width)
    """

    layers: LatentWeights
    num_heads: int
    latents: torch.Tensor
    keys: torch.Tensor
    values: torch.Tensor
    weights: torch.Tensor
    output: torch.Tensor
    steps: tuple[LatentStep, ...]

    @property
    def latent_dim(self) -> int:
        return int(self.latents.shape[1])

    @property
    def max_difference(self) -> float:
        """Largest difference between the cached, token-by-token outputs and the full run."""
        cached = torch.stack([step.output for step in self.steps])
        return float((cached - self.output).abs().max())

    @property
    def head_dim(self) -> int:
        return int(self.keys.shape[-1])

    def numbers_per_token(self, kv_heads: int | None = None) -> int:
        """Numbers cached per token and layer: a key and a value for each of ``kv_heads``
        K/V heads (MHA: one per head, GQA fewer), or MLA's latent when ``kv_heads`` is None."""
        if kv_heads is None:
            return self.latent_dim
        return 2 * kv_heads * self.head_dim


def latent_weights(
    config: AttentionConfig, d_in: int, width: int, latent_dim: int
) -> LatentWeights:
    """MLA's layers drawn from a generator seeded with the config's seed."""
    generator = torch.Generator().manual_seed(config.seed)
    bias = config.qkv_bias
    return LatentWeights(
        W_query=linear_layer(d_in, width, generator, bias),
        W_DKV=linear_layer(d_in, latent_dim, generator, bias),
        W_UK=linear_layer(latent_dim, width, generator, bias),
        W_UV=linear_layer(latent_dim, width, generator, bias),
        W_out=linear_layer(width, width, generator, bias=True),
    )


def _apply(layer: Layer, inputs: torch.Tensor) -> torch.Tensor:
    matrix, bias = layer
    return steps.project(inputs, matrix, bias)


@torch.no_grad()
def latent_attention(
    embeddings: Embeddings, trace: AttentionTrace, latent_dim: int
) -> LatentAttention:
    """MLA with the trace's width and heads, its own layers, on the learner's matrix."""
    inputs = embeddings.values  # (num_tokens, d_in)
    heads, width = trace.num_heads, int(trace.queries.shape[1])
    layers = latent_weights(trace.config, int(inputs.shape[1]), width, latent_dim)
    queries = steps.split_heads(_apply(layers.W_query, inputs), heads)  # (heads, T, head_dim)
    latents = _apply(layers.W_DKV, inputs)  # (T, latent_dim)
    keys, values, weights, output = _attend(layers, heads, queries, latents, causal=True)
    generated = []
    for row in range(inputs.shape[0]):
        cache = latents[: row + 1]
        _k, _v, step_weights, step_output = _attend(
            layers, heads, queries[:, row : row + 1], cache, causal=False
        )
        generated.append(LatentStep(row + 1, cache, step_weights[:, 0], step_output[0]))
    return LatentAttention(layers, heads, latents, keys, values, weights, output, tuple(generated))


def _attend(
    layers: LatentWeights,
    heads: int,
    queries: torch.Tensor,
    latents: torch.Tensor,
    causal: bool,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Keys and values rebuilt from the latents, then scaled dot-product attention (a newest
    query sees the whole cache: nothing to mask).

    Shapes:
        queries: (heads, num_q, head_dim); latents: (num_k, latent_dim)
        -> keys, values (heads, num_k, head_dim), weights (heads, num_q, num_k),
        output (num_q, width)
    """
    keys = steps.split_heads(_apply(layers.W_UK, latents), heads)
    values = steps.split_heads(_apply(layers.W_UV, latents), heads)
    scores = steps.score(queries, keys, "dot") / math.sqrt(keys.shape[-1])
    if causal:
        hidden = ~steps.allowed_mask("causal", queries.shape[1])
        scores = torch.where(hidden, torch.tensor(float("-inf")), scores)
    weights = torch.softmax(scores, dim=-1)
    context = steps.merge_heads(steps.mix_values(weights, values))
    return keys, values, weights, _apply(layers.W_out, context)
