"""Gated attention and gated DeltaNet on the learner's matrix, as the book's chapter 4 bonus
material writes them (ch04/08_deltanet: ``GatedMultiHeadAttention`` and ``GatedDeltaNet``).

Gated attention is causal multi-head attention whose merged context is multiplied by
sigmoid(x @ W_gate) before out_proj. Gated DeltaNet keeps no keys or values: each head keeps
one head_dim × head_dim state S, decayed by α and corrected towards the new value by the
delta rule with strength β, then read by the query.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from attention_core import steps
from attention_core.config import AttentionConfig
from attention_core.embeddings import Embeddings
from attention_core.kv_cache import generation_config
from attention_core.pipeline import run_attention
from attention_core.trace import AttentionTrace
from attention_core.weights import Layer, linear_layer

NORM_EPS = 1e-6  # l2norm's and RMSNorm's epsilon in the book's GatedDeltaNet
DECAY_RATE_HIGH = 16.0  # A is drawn uniformly in (0, 16), as the book's class does


def _apply(layer: Layer, inputs: torch.Tensor) -> torch.Tensor:
    return steps.project(inputs, layer[0], layer[1])


@dataclass(frozen=True)
class GatedAttention:
    """Causal attention with an output gate.

    Shapes:
        gate: (num_tokens, width), sigmoid(x @ W_gate + b), each number in 0..1
        context, gated: (num_tokens, width), the merged heads before and after the gate
        output: (num_tokens, width), gated @ W_out + b_out
    """

    W_gate: Layer
    gate: torch.Tensor
    context: torch.Tensor
    gated: torch.Tensor
    output: torch.Tensor


@torch.no_grad()
def gated_attention(embeddings: Embeddings, config: AttentionConfig) -> GatedAttention:
    """The gate on the config's attention made causal and dropout-free, as the book's class
    is (its W_out applied after the gate); W_gate is drawn from the seed + 1."""
    causal_trace = run_attention(embeddings, generation_config(config))
    generator = torch.Generator().manual_seed(config.seed + 1)
    width = int(causal_trace.context.shape[1])
    W_gate = linear_layer(int(causal_trace.inputs.shape[1]), width, generator, config.qkv_bias)
    gate = torch.sigmoid(_apply(W_gate, causal_trace.inputs))
    gated = causal_trace.context * gate
    output = (
        gated
        if causal_trace.W_out is None
        else _apply((causal_trace.W_out, causal_trace.b_out), gated)
    )
    return GatedAttention(W_gate, gate, causal_trace.context, gated, output)


@dataclass(frozen=True)
class DeltaNetLayers:
    """GatedDeltaNet's parameters in the book's orientation, in its order of creation.

    Shapes:
        W_query, W_key, W_value, W_gate, W_beta: (d_in, width); W_alpha: (d_in, num_heads)
        dt_bias, A_log: (num_heads,); norm_weight: (head_dim,); W_out: (width, width)
    """

    W_query: Layer
    W_key: Layer
    W_value: Layer
    W_gate: Layer
    W_beta: Layer
    W_alpha: Layer
    dt_bias: torch.Tensor
    A_log: torch.Tensor
    norm_weight: torch.Tensor
    W_out: Layer


def deltanet_layers(seed: int, d_in: int, width: int, heads: int, bias: bool) -> DeltaNetLayers:
    """Every parameter from one generator seeded with ``seed``; dt_bias and the RMSNorm's
    weight start at 1, A uniform in (0, 16) and A_log = log A, as in the book's class."""
    generator = torch.Generator().manual_seed(seed)
    layers = [linear_layer(d_in, width, generator, bias) for _ in range(3)]
    layers += [linear_layer(d_in, width, generator) for _ in range(2)]
    W_alpha = linear_layer(d_in, heads, generator)
    A = torch.empty(heads).uniform_(0.0, DECAY_RATE_HIGH, generator=generator)
    return DeltaNetLayers(
        *layers,
        W_alpha=W_alpha,
        dt_bias=torch.ones(heads),
        A_log=torch.log(A),
        norm_weight=torch.ones(width // heads),
        W_out=linear_layer(width, width, generator, bias=True),
    )


@dataclass(frozen=True)
class DeltaStep:
    """One token through the recurrent state (every head).

    Shapes:
        alpha: (num_heads,), the decay in 0..1; beta: (num_heads, head_dim), the update
        state_before, decayed, state_after: (num_heads, head_dim, head_dim), rows = key dims
        recalled: (num_heads, head_dim), kᵀS: what the decayed state gives for this key
        delta: (num_heads, head_dim), (v − kᵀS) × β
        read_out: (num_heads, head_dim), qᵀS after the update
    """

    step: int  # 1-based
    alpha: torch.Tensor
    beta: torch.Tensor
    state_before: torch.Tensor
    decayed: torch.Tensor
    recalled: torch.Tensor
    delta: torch.Tensor
    state_after: torch.Tensor
    read_out: torch.Tensor

    @property
    def state_bytes(self) -> int:
        """Bytes of the state: the same after every token."""
        return self.state_after.numel() * self.state_after.element_size()

    def kv_cache_bytes(self) -> int:
        """Bytes a KV cache of the same heads would hold after this many tokens."""
        heads, head_dim, _ = self.state_after.shape
        return 2 * self.step * heads * head_dim * self.state_after.element_size()


@dataclass(frozen=True)
class GatedDeltaNet:
    """The layer's steps and its output.

    Shapes:
        output: (num_tokens, width)
    """

    layers: DeltaNetLayers
    steps: tuple[DeltaStep, ...]
    output: torch.Tensor


def _l2norm(x: torch.Tensor) -> torch.Tensor:
    return x * torch.rsqrt((x * x).sum(dim=-1, keepdim=True) + NORM_EPS)


@torch.no_grad()
def gated_deltanet(trace: AttentionTrace) -> GatedDeltaNet:
    """GatedDeltaNet with the trace's width, heads and seed, on its matrix, token by token."""
    inputs, heads = trace.inputs, trace.num_heads  # (num_tokens, d_in)
    width = int(trace.queries.shape[1])
    layers = deltanet_layers(
        trace.config.seed, int(inputs.shape[1]), width, heads, trace.config.qkv_bias
    )
    head_dim = width // heads
    queries, keys, values, gate, beta = (
        steps.split_heads(_apply(layer, inputs), heads)  # (heads, T, head_dim)
        for layer in (layers.W_query, layers.W_key, layers.W_value, layers.W_gate, layers.W_beta)
    )
    beta = torch.sigmoid(beta)
    decay_log = -layers.A_log.exp() * F.softplus(_apply(layers.W_alpha, inputs) + layers.dt_bias)
    alpha = decay_log.exp()  # (T, heads)
    queries, keys = _l2norm(queries) / math.sqrt(head_dim), _l2norm(keys)
    state = torch.zeros(heads, head_dim, head_dim)
    recorded = []
    for row in range(inputs.shape[0]):
        step = _delta_step(
            row, state, alpha[row], beta[:, row], queries[:, row], keys[:, row], values[:, row]
        )
        state = step.state_after
        recorded.append(step)
    read = torch.stack([step.read_out for step in recorded], dim=1)  # (heads, T, head_dim)
    normed = read * torch.rsqrt(read.pow(2).mean(dim=-1, keepdim=True) + NORM_EPS)
    context = steps.merge_heads(normed * layers.norm_weight * F.silu(gate))
    return GatedDeltaNet(layers, tuple(recorded), _apply(layers.W_out, context))


def _delta_step(
    row: int,
    state: torch.Tensor,
    alpha: torch.Tensor,
    beta: torch.Tensor,
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
) -> DeltaStep:
    """S ← αS; S ← S + k ⊗ ((v − kᵀS) β); read qᵀS. Shapes: per-head vectors (heads, head_dim)."""
    decayed = state * alpha[:, None, None]
    recalled = (decayed * key[:, :, None]).sum(dim=1)  # (heads, head_dim)
    delta = (value - recalled) * beta
    after = decayed + key[:, :, None] * delta[:, None, :]
    read_out = (after * query[:, :, None]).sum(dim=1)
    return DeltaStep(row + 1, alpha, beta, state, decayed, recalled, delta, after, read_out)
