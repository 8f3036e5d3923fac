"""Numbers that judge a masking strategy: what leaks past the mask, and whether rows sum to 1."""

from __future__ import annotations

from dataclasses import dataclass

from attention_core.trace import AttentionTrace


@dataclass(frozen=True)
class MaskVerdict:
    """How a trace's weights respect its mask."""

    leaked: float  # largest |weight| where attention is not allowed
    worst_row_sum_error: float  # largest |row sum - 1| over rows that may attend somewhere
    negative: bool  # any negative weight


def judge_mask(trace: AttentionTrace, head: int = 0) -> MaskVerdict:
    """Measure leaks past the mask and broken row sums (before dropout)."""
    weights = trace.weights[head]  # (num_tokens, num_tokens)
    blocked = ~trace.allowed
    leaked = float(weights[blocked].abs().max()) if bool(blocked.any()) else 0.0
    rows = trace.allowed.any(dim=-1)
    errors = (weights.sum(dim=-1)[rows] - 1).abs()
    return MaskVerdict(
        leaked, float(errors.max()) if len(errors) else 0.0, bool((weights < 0).any())
    )
