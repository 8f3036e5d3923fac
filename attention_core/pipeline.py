"""The one entry point: run every step of attention and return the frozen trace."""

from __future__ import annotations

import torch

from attention_core import rope, steps
from attention_core.config import AttentionConfig
from attention_core.embeddings import Embeddings
from attention_core.errors import AttentionInputError
from attention_core.trace import AttentionTrace, Diagnostics
from attention_core.weights import head_dim, make_projections, share_key_value_heads
from translation import _


@torch.no_grad()
def run_attention(
    embeddings: Embeddings,
    config: AttentionConfig,
    first_position: int = 0,
    source: Embeddings | None = None,
) -> AttentionTrace:
    """Run the whole pipeline on ``embeddings`` with ``config``.

    Args:
        embeddings: token labels and their (num_tokens, d_in) matrix; the queries' input.
        config: every knob; the same config and embeddings always give a bit-identical trace.
        first_position: the position of the first token, which only RoPE reads (a text that
            starts later in a longer one; generation with a KV cache).
        source: cross-attention's other sequence, (num_keys, d_source): the keys and values
            come from it while the queries come from ``embeddings`` (the target). None is
            self-attention. The mask then applies to the source's keys; the causal mask
            needs a square score matrix, and RoPE and the sliding window are refused.

    Returns:
        The frozen trace with every intermediate tensor and the diagnostics.

    Raises:
        AttentionInputError: when the inputs and the config do not fit together.
    """
    inputs = embeddings.values
    num_tokens, d_in = inputs.shape
    kv_inputs = inputs if source is None else source.values  # (num_keys, d_source)
    if source is not None:
        _check_cross(config)
    num_keys, d_kv = kv_inputs.shape
    heads = config.heads
    projections = share_key_value_heads(
        make_projections(config, d_in, d_kv), heads, config.kv_groups
    )
    queries = steps.project(inputs, projections.W_query, projections.b_query)
    keys = steps.project(kv_inputs, projections.W_key, projections.b_key)  # (num_keys, inner_dim)
    values = steps.project(kv_inputs, projections.W_value, projections.b_value)

    head_queries = steps.split_heads(queries, heads)  # (num_heads, num_tokens, head_dim)
    head_keys = steps.split_heads(keys, heads)
    turns = rotated_queries = rotated_keys = None
    if config.rope:
        turns = rope.angles(num_tokens, head_queries.shape[-1], config.rope_base, first_position)
        rotated_queries = rope.rotate(head_queries, turns)
        rotated_keys = rope.rotate(head_keys, turns)
        head_queries, head_keys = rotated_queries, rotated_keys
    scores = steps.score(head_queries, head_keys, config.scoring)
    divisor = steps.scale_divisor(config.scaling, head_dim(config, d_in))
    scaled_scores = steps.scale(scores, divisor)
    allowed = steps.allowed_mask(
        config.mask, num_tokens, config.padding, config.custom_mask, num_keys
    )
    if config.window:
        allowed = allowed & steps.window_band(num_tokens, config.window)
    masked_scores = steps.mask_scores(scaled_scores, allowed, config.mask_strategy)
    normalised = steps.normalise(masked_scores, config.norm)
    # Softmax weights are zeroed and renormalised from their scores: no score can underflow them.
    softmax_scores = masked_scores if config.norm == "softmax" else None
    weights = steps.mask_weights(normalised, allowed, config.mask_strategy, softmax_scores)

    keep, factor = _dropout_draw(config, weights.shape)
    weights_after_dropout = (
        steps.apply_dropout(weights, keep, factor) if config.dropout_active else weights
    )
    head_context = steps.mix_values(weights_after_dropout, steps.split_heads(values, heads))
    context = steps.merge_heads(head_context)  # (num_tokens, inner_dim)
    output = steps.out_project(context, projections.W_out, projections.b_out)

    return AttentionTrace(
        config=config,
        tokens=embeddings.tokens,
        inputs=inputs,
        W_query=projections.W_query,
        W_key=projections.W_key,
        W_value=projections.W_value,
        b_query=projections.b_query,
        b_key=projections.b_key,
        b_value=projections.b_value,
        queries=queries,
        keys=keys,
        values=values,
        rope_angles=turns,
        rotated_queries=rotated_queries,
        rotated_keys=rotated_keys,
        scores=scores,
        scale_divisor=divisor,
        scaled_scores=scaled_scores,
        allowed=allowed,
        masked_scores=masked_scores,
        weights=weights,
        dropout_keep=keep,
        dropout_factor=factor,
        weights_after_dropout=weights_after_dropout,
        head_context=head_context,
        context=context,
        W_out=projections.W_out,
        b_out=projections.b_out,
        output=output,
        mean_weights=weights_after_dropout.mean(dim=0) if heads > 1 else weights_after_dropout[0],
        diagnostics=diagnose(scores, scaled_scores, allowed, weights, weights_after_dropout),
        source_tokens=None if source is None else source.tokens,
        source_inputs=None if source is None else source.values,
    )


def _check_cross(config: AttentionConfig) -> None:
    """Refuse what only self-attention has: positions shared by the queries and the keys."""
    if config.rope:
        raise AttentionInputError(
            _(
                "RoPE turns a query and a key by their positions in one sequence; in "
                "cross-attention they stand in two sequences, so turn RoPE off"
            )
        )
    if config.window:
        raise AttentionInputError(
            _(
                "a sliding window looks back along one sequence; in cross-attention the keys "
                "stand in another sequence, so use no window (0)"
            )
        )


def _dropout_draw(config: AttentionConfig, shape: torch.Size) -> tuple[torch.Tensor, float]:
    """The keep-mask and rescaling factor; everything is kept when dropout is inactive."""
    if not config.dropout_active:
        return torch.ones(shape, dtype=torch.bool), 1.0
    generator = torch.Generator().manual_seed(config.dropout_seed)
    keep = steps.dropout_keep_mask(shape, config.dropout, generator)
    return keep, 1.0 / (1.0 - config.dropout)


def diagnose(
    scores: torch.Tensor,
    scaled_scores: torch.Tensor,
    allowed: torch.Tensor,
    weights: torch.Tensor,
    weights_after_dropout: torch.Tensor,
) -> Diagnostics:
    """Row sums, score variances, entropy and largest weight per row, and empty rows.

    Shapes:
        scores, scaled_scores, weights, weights_after_dropout: (num_heads, num_tokens, num_keys)
        allowed: (num_tokens, num_keys)
    """
    row_sums = weights.sum(dim=-1)
    dropped = weights_after_dropout is not weights
    empty = (~allowed.any(dim=-1)).nonzero().flatten().tolist()
    return Diagnostics(
        row_sums=row_sums,
        row_sums_after_dropout=weights_after_dropout.sum(dim=-1) if dropped else row_sums,
        score_variance=float(scores.var(correction=0)),
        scaled_score_variance=float(scaled_scores.var(correction=0)),
        entropy=torch.special.entr(weights).sum(dim=-1),  # -sum w log w, with 0 log 0 = 0
        max_weight=weights.amax(dim=-1),
        fully_masked_rows=tuple(int(i) for i in empty),
        # A NaN or inf anywhere makes the total non-finite: one reduction instead of a mask.
        nonfinite_weights=not bool(torch.isfinite(row_sums.sum())),
    )
