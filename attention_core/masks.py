"""Numbers that judge a mask: what leaks past it, whether rows sum to 1, and how far
information travels through layers of it."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from attention_core.trace import AttentionTrace

ROW_SUM_TOLERANCE = 1e-5  # float32 sums of a dozen weights stray from 1 by about 1e-7


@dataclass(frozen=True)
class MaskVerdict:
    """How a trace's weights respect its mask."""

    leaked: float  # largest |weight| where attention is not allowed
    worst_row_sum_error: float  # largest |row sum - 1| over rows that may attend somewhere
    negative: bool  # any negative weight
    worst_row_sum: float = 1.0  # the sum of that row: 1 ± worst_row_sum_error

    @property
    def fault(self) -> str | None:
        """The first thing wrong: ``"undefined"`` (a weight is NaN: 0/0, as the row sum
        gives on a row of zeros), ``"leak"`` (a future token has weight), ``"row_sum"`` (a
        row does not sum to 1), ``"negative"`` (rows sum to 1 only because negative weights
        cancel positive ones), or None for a correct mask.

        Any future weight above 0 is a leak: both right strategies give exactly 0, while
        scores multiplied by the mask give exp(0 - largest score) / sum, which large scores
        make as small as 1e-11 (seed 123's random 12 x 16 matrix, d_out 8). Only scores more
        than about 104 above 0 make it round to exactly 0 in float32; the verdict judges the
        weights the page shows, so those are called correct.
        """
        if math.isnan(self.leaked) or math.isnan(self.worst_row_sum_error):
            return "undefined"
        if self.leaked > 0:
            return "leak"
        if self.worst_row_sum_error >= ROW_SUM_TOLERANCE:
            return "row_sum"
        return "negative" if self.negative else None


def judge_mask(trace: AttentionTrace, head: int = 0) -> MaskVerdict:
    """Measure leaks past the mask and broken row sums (before dropout)."""
    weights = trace.weights[head]  # (num_tokens, num_tokens)
    blocked = ~trace.allowed
    leaked = float(weights[blocked].abs().max()) if bool(blocked.any()) else 0.0
    rows = trace.allowed.any(dim=-1)
    sums = weights.sum(dim=-1)[rows]
    if not len(sums):
        return MaskVerdict(leaked, 0.0, bool((weights < 0).any()))
    errors = (sums - 1).abs()
    worst = int(errors.argmax())
    return MaskVerdict(leaked, float(errors[worst]), bool((weights < 0).any()), float(sums[worst]))


def reach(allowed: torch.Tensor, layers: int) -> torch.Tensor:
    """Which tokens' information can reach each token after 1, 2, ... ``layers`` layers of
    attention with this mask: through layer after layer, a token mixes what the tokens it
    attends to had mixed.

    Shapes:
        allowed: (num_tokens, num_tokens) -> (layers, num_tokens, num_tokens), True = reached
    """
    hop = allowed.float()
    reached = [allowed]
    for _layer in range(layers - 1):
        reached.append((reached[-1].float() @ hop) > 0)
    return torch.stack(reached)


def farthest_reach(reached: torch.Tensor) -> list[int]:
    """For each number of layers, the largest distance back that information has travelled.

    Shapes:
        reached: (layers, num_tokens, num_tokens) -> one int per layer
    """
    positions = torch.arange(reached.shape[-1])
    distance = positions[:, None] - positions[None, :]  # query minus key
    return [int(torch.where(layer, distance, 0).max()) for layer in reached]
