"""The numbers page 11 shows beside the main trace: how grouped K/V heads, a sliding window and
RoPE change attention, each measured against the plain computation. Numbers only, no prose."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from attention_core.config import AttentionConfig
from attention_core.embeddings import Embeddings
from attention_core.kv_cache import KVMemory, kv_memory
from attention_core.masks import farthest_reach, reach
from attention_core.pipeline import run_attention
from attention_core.trace import AttentionTrace

REACH_LAYERS = 4  # how many stacked layers the window lesson follows
ROPE_SHIFTS = (1, 10, 1000)  # how far every position is moved to show scores do not change


@dataclass(frozen=True)
class Grouped:
    """Grouped K/V heads beside every head keeping its own.

    Shapes:
        standard: the trace with one K/V head per query head (kv_groups 0)
        weight_change: (num_heads,), each head's largest weight change from sharing
    """

    trace: AttentionTrace
    standard: AttentionTrace
    kv_head_of: tuple[int, ...]  # for each query head, 0-based, the K/V head it reads
    weight_change: torch.Tensor
    memory: KVMemory


def grouped(embeddings: Embeddings, config: AttentionConfig) -> Grouped:
    """The run with the config's K/V groups, and the same run with one K/V head per head."""
    trace = run_attention(embeddings, config)
    standard = run_attention(embeddings, config.replace(kv_groups=0))
    group_size = trace.num_heads // trace.kv_heads
    change = (trace.weights_after_dropout - standard.weights_after_dropout).abs()
    return Grouped(
        trace=trace,
        standard=standard,
        kv_head_of=tuple(head // group_size for head in range(trace.num_heads)),
        weight_change=change.flatten(1).amax(dim=1),  # (num_heads,)
        memory=kv_memory(trace),
    )


@dataclass(frozen=True)
class Window:
    """Sliding-window attention: the causal mask cut to a band, and how far information
    travels through stacked layers of it.

    Shapes:
        reached: (REACH_LAYERS, num_tokens, num_tokens), True = token j's information has
            reached query i after that many layers
    """

    trace: AttentionTrace  # causal mask and the config's window
    reached: torch.Tensor
    farthest: tuple[int, ...]  # per layer: how many positions back information came from
    full_window_is_causal: bool  # a window as long as the text gives exactly causal attention


def sliding_window(embeddings: Embeddings, config: AttentionConfig) -> Window:
    """The config with the causal mask (and its own window), its reach, and the check that a
    window of every token changes nothing."""
    causal = config.replace(mask="causal", custom_mask=None)
    trace = run_attention(embeddings, causal)
    full = run_attention(embeddings, causal.replace(window=trace.num_tokens))
    plain = run_attention(embeddings, causal.replace(window=0))
    reached = reach(trace.allowed, REACH_LAYERS)
    return Window(
        trace=trace,
        reached=reached,
        farthest=tuple(farthest_reach(reached)),
        full_window_is_causal=torch.equal(full.weights_after_dropout, plain.weights_after_dropout)
        and torch.equal(full.output, plain.output),
    )


@dataclass(frozen=True)
class RopeShift:
    """RoPE's scores after every position is moved by ``shift``: the rotated queries change,
    the scores do not, since a score depends only on how far apart two tokens are."""

    shift: int
    query_change: float  # largest change of a rotated query
    score_change: float  # largest change of a score


def rope_shifts(embeddings: Embeddings, config: AttentionConfig) -> tuple[RopeShift, ...]:
    """Run with RoPE from position 0 and from each of ``ROPE_SHIFTS``; compare."""
    config = config.replace(rope=True)
    base = run_attention(embeddings, config)
    assert base.rotated_queries is not None
    result = []
    for shift in ROPE_SHIFTS:
        moved = run_attention(embeddings, config, first_position=shift)
        assert moved.rotated_queries is not None
        result.append(
            RopeShift(
                shift=shift,
                query_change=float((moved.rotated_queries - base.rotated_queries).abs().max()),
                score_change=float((moved.scores - base.scores).abs().max()),
            )
        )
    return tuple(result)
