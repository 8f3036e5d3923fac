"""Computations the lessons show beside the main trace: each returns numbers, never prose."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from attention_core import steps
from attention_core.config import AttentionConfig
from attention_core.embeddings import Embeddings
from attention_core.knobs.table import PARAMS
from attention_core.pipeline import run_attention
from attention_core.trace import AttentionTrace


@dataclass(frozen=True)
class Similarity:
    """Pairwise dot products and cosine similarities of the input embeddings.

    Shapes:
        dot, cosine: (num_tokens, num_tokens); norms: (num_tokens,)
    """

    dot: torch.Tensor
    cosine: torch.Tensor
    norms: torch.Tensor


def similarity(embeddings: Embeddings) -> Similarity:
    """Dot products (size and direction) and cosines (direction only) between all tokens."""
    values = embeddings.values  # (num_tokens, d_in)
    unit = F.normalize(values, dim=-1)
    return Similarity(values @ values.T, unit @ unit.T, values.norm(dim=-1))


def max_difference(first: torch.Tensor, second: torch.Tensor) -> float:
    """Largest absolute difference between two tensors of the same shape."""
    return float((first - second).abs().max())


def scaled_embeddings(embeddings: Embeddings, factor: float) -> Embeddings:
    """The same tokens with every embedding value multiplied by ``factor``."""
    return Embeddings(embeddings.tokens, embeddings.values * factor)


def with_token_shifted(embeddings: Embeddings, index: int, amount: float) -> Embeddings:
    """The same tokens with ``amount`` added to every value of token ``index`` (0-based)."""
    shift = torch.zeros_like(embeddings.values)
    shift[index] = amount
    return Embeddings(embeddings.tokens, embeddings.values + shift)


@dataclass(frozen=True)
class NormalisedRow:
    """One query's weights under one normalisation."""

    norm: str
    weights: tuple[float, ...]
    total: float
    finite: bool


def compare_normalisations(
    embeddings: Embeddings, query: int, input_scale: float = 1.0
) -> list[NormalisedRow]:
    """Simplified attention (no weights, no scaling) under sum, naive softmax and softmax."""
    scaled = scaled_embeddings(embeddings, input_scale)
    rows = []
    for norm in ("sum", "naive_softmax", "softmax"):
        config = AttentionConfig(init="identity", scaling="none", norm=norm)
        weights = run_attention(scaled, config).weights[0, query]
        total = float(weights.sum())
        rows.append(NormalisedRow(norm, tuple(weights.tolist()), total, math.isfinite(total)))
    return rows


def loop_attention(embeddings: Embeddings) -> tuple[torch.Tensor, torch.Tensor, float]:
    """Simplified attention written with Python loops, one dot product at a time.

    Returns:
        The loop's scores and context vectors, and their largest difference to the matrix
        version (``inputs @ inputs.T``, softmax, ``weights @ inputs``).
    """
    inputs = embeddings.values
    num_tokens = inputs.shape[0]
    scores = torch.empty(num_tokens, num_tokens)
    for i in range(num_tokens):
        for j in range(num_tokens):
            scores[i, j] = torch.dot(inputs[i], inputs[j])
    weights = torch.softmax(scores, dim=-1)
    context = torch.zeros_like(inputs)
    for i in range(num_tokens):
        for j in range(num_tokens):
            context[i] = context[i] + weights[i, j] * inputs[j]
    matrix = run_attention(embeddings, AttentionConfig(init="identity", scaling="none"))
    diff = max(
        float((scores - matrix.scores[0]).abs().max()),
        float((context - matrix.context).abs().max()),
    )
    return scores, context, diff


def reweigh(trace: AttentionTrace, divisor: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Recompute weights and outputs of ``trace`` with another scale divisor (no dropout).

    Returns:
        weights (num_heads, num_tokens, num_tokens) and output (num_tokens, inner_dim).
    """
    config = trace.config
    masked = steps.mask_scores(trace.scores / divisor, trace.allowed, config.mask_strategy)
    softmax_scores = masked if config.norm == "softmax" else None
    weights = steps.mask_weights(
        steps.normalise(masked, config.norm), trace.allowed, config.mask_strategy, softmax_scores
    )
    values = steps.split_heads(trace.values, trace.num_heads)
    context = steps.merge_heads(steps.mix_values(weights, values))
    return weights, steps.out_project(context, trace.W_out, trace.b_out)


@dataclass(frozen=True)
class MistakeRun:
    """A mistake found in the seeds, computed beside the correct version on the same data."""

    key: str
    wrong_weights: torch.Tensor
    right_weights: torch.Tensor
    wrong_output: torch.Tensor
    right_output: torch.Tensor

    @property
    def weight_difference(self) -> torch.Tensor:
        """Wrong minus right weights (num_heads, num_tokens, num_tokens)."""
        return self.wrong_weights - self.right_weights

    @property
    def max_diff(self) -> float:
        """Largest absolute difference between the wrong and the right output."""
        return float((self.wrong_output - self.right_output).abs().max())

    @property
    def max_weight_diff(self) -> float:
        """Largest absolute difference between the wrong and the right weights."""
        return float(self.weight_difference.abs().max())


def mistakes_baseline(config: AttentionConfig) -> AttentionConfig:
    """The correct version every mistake is set beside: √d_k, softmax, −∞ masking, no
    dropout, and one head (each mistake is about one head's attention), so no key/value groups
    (a learner's kv_groups divides their heads, not one)."""
    return config.replace(
        scaling="sqrt_d",
        norm="softmax",
        mask_strategy="neg_inf",
        dropout=0.0,
        heads=1,
        heads_layout="split",
        kv_groups=0,
    )


def common_mistakes(embeddings: Embeddings, config: AttentionConfig) -> list[MistakeRun]:
    """Each seed mistake on the learner's data and config, beside its correct version."""
    base = mistakes_baseline(config)
    right = run_attention(embeddings, base)
    runs = []
    for key, divisor in (
        ("sqrt_d_in", math.sqrt(embeddings.d_in)),
        ("num_tokens", float(embeddings.num_tokens)),
    ):
        weights, output = reweigh(right, divisor)
        runs.append(MistakeRun(key, weights, right.weights, output, right.output))
    pairs = {
        "hardcoded_dropout": base.replace(dropout=0.5, train=True),
        "multiply_mask": base.replace(mask="causal", mask_strategy="zero_scores"),
        "sum_normalise": base.replace(norm="sum"),
    }
    other = _other_module(base, embeddings.d_in)
    if other is not None:
        pairs["wrong_module"] = other
    corrected = {"multiply_mask": base.replace(mask="causal")}
    for key, wrong_config in pairs.items():
        wrong = run_attention(embeddings, wrong_config)
        good = run_attention(embeddings, corrected.get(key, base))
        runs.append(
            MistakeRun(key, wrong.weights_after_dropout, good.weights, wrong.output, good.output)
        )
    return runs


def _other_module(config: AttentionConfig, d_in: int) -> AttentionConfig | None:
    """The same module with the other initialisation, its outputs as wide as ``config``'s.

    Without projections (identity) the outputs are d_in wide, so the module drawn instead
    gets d_out = d_in; None when d_in is wider than d_out may be (nothing comparable).
    """
    if config.init != "identity":
        return config.replace(init="book" if config.init == "linear" else "linear")
    if d_in > PARAMS["d_out"].high:
        return None
    return config.replace(init="linear", d_out=d_in)


@dataclass(frozen=True)
class Peek:
    """How far each token's output moves when one later token's embedding changes."""

    token: int  # 0-based
    with_mask: tuple[float, ...]  # largest |change| of each output, causal mask
    without_mask: tuple[float, ...]  # the same without any mask


def no_peeking(embeddings: Embeddings, config: AttentionConfig, token: int, amount: float) -> Peek:
    """Add ``amount`` to every number of token ``token`` and measure how every output moves,
    with the causal mask and without a mask (dropout off).
    """
    shifted = with_token_shifted(embeddings, token, amount)
    moves = []
    for mask in ("causal", "none"):
        run_config = config.replace(mask=mask, dropout=0.0)
        before = run_attention(embeddings, run_config).output
        after = run_attention(shifted, run_config).output
        moves.append(tuple((after - before).abs().amax(dim=-1).tolist()))
    return Peek(token, moves[0], moves[1])


def several_heads(config: AttentionConfig, d_in: int) -> AttentionConfig | None:
    """The config itself if it has several heads, else the nearest one with two or more.

    d_out is made even when it is odd (and one more fits); without projections the heads
    must divide d_in, so three are used for d_in = 3. With RoPE, which turns pairs of numbers,
    each head's width must be even too (d_out 2 becomes 4). None when no split fits (d_in = 1).
    """
    if config.heads > 1:
        return config
    pair = 2 if config.rope else 1  # the width each head's numbers must be a multiple of
    if config.init == "identity":
        most = int(PARAMS["heads"].limits()[1])
        fits = (h for h in range(2, most + 1) if d_in % (h * pair) == 0)
        heads = next(fits, None)
        return None if heads is None else config.replace(heads=heads)
    if config.heads_layout == "wrapper":
        return config.replace(heads=2)
    step = 2 * pair  # two heads, each of a width that is a multiple of ``pair``
    highest = int(PARAMS["d_out"].limits()[1])
    d_out = -(-config.d_out // step) * step  # rounded up to a multiple of step
    if d_out > highest:
        d_out = config.d_out // step * step
    return config.replace(heads=2, d_out=d_out)
