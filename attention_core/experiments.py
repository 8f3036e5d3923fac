"""Seeded experiments the lessons chart: why scale by the square root of d, and dropout averages."""

from __future__ import annotations

import math

import torch

from attention_core import steps
from attention_core.errors import AttentionInputError
from attention_core.knobs.table import SEED_MAX
from translation import N_, _

DEFAULT_DIMS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
SCALING_LABELS = {"none": N_("raw q·k"), "d": "q·k / d", "sqrt_d": "q·k / √d"}


@torch.no_grad()
def scaling_experiment(
    seed: int = 0,
    dims: tuple[int, ...] = DEFAULT_DIMS,
    num_queries: int = 200,
    num_keys: int = 16,
) -> list[dict[str, float | int | str]]:
    """Measure how each scaling keeps q·k and softmax in range as the key width d grows.

    Queries and keys have independent standard-normal entries (variance 1). For every d and
    every scaling it returns one row: the variance of the scaled scores, and the mean over
    queries of the largest softmax weight and of the softmax entropy over ``num_keys`` keys.
    """
    if not 0 <= seed <= SEED_MAX:
        raise AttentionInputError(
            _("seed must be between 0 and {SEED_MAX}, not {seed}").format(
                SEED_MAX=SEED_MAX, seed=seed
            )
        )
    generator = torch.Generator().manual_seed(seed)
    rows: list[dict[str, float | int | str]] = []
    for d in dims:
        queries = torch.randn(num_queries, 1, d, generator=generator)
        keys = torch.randn(num_queries, num_keys, d, generator=generator)
        scores = (queries * keys).sum(dim=-1)  # (num_queries, num_keys)
        for scaling in ("none", "d", "sqrt_d"):
            scaled = steps.scale(scores, steps.scale_divisor(scaling, d))
            weights = torch.softmax(scaled, dim=-1)
            entropy = -(weights * weights.clamp_min(1e-30).log()).sum(dim=-1)
            rows.append(
                {
                    "d": d,
                    "scaling": scaling,
                    # A msgid, translated where it is shown: the rows are cached for every
                    # session, whatever its language.
                    "label": SCALING_LABELS[scaling],
                    "variance": float(scaled.var(correction=0)),
                    "max_weight": float(weights.max(dim=-1).values.mean()),
                    "entropy": float(entropy.mean()),
                    "uniform_entropy": math.log(num_keys),
                }
            )
    return rows


@torch.no_grad()
def dropout_average(
    weights: torch.Tensor, p: float, num_samples: int, seed: int
) -> tuple[torch.Tensor, float]:
    """Average ``num_samples`` dropout samples of ``weights``; return it and its max |Δ| to them.

    Because kept weights are multiplied by 1 / (1 - p), the average tends to the undropped
    weights as the number of samples grows.

    Shapes:
        weights: any shape -> the average has the same shape
    """
    if not 0.0 <= p < 1.0:
        raise AttentionInputError(_("dropout must satisfy 0 <= p < 1, not {p}").format(p=p))
    if num_samples < 1:
        raise AttentionInputError(
            _("need at least 1 sample, not {num_samples}").format(num_samples=num_samples)
        )
    generator = torch.Generator().manual_seed(seed)
    factor = 1.0 / (1.0 - p)
    total = torch.zeros_like(weights)
    for _sample in range(num_samples):
        keep = steps.dropout_keep_mask(weights.shape, p, generator)
        total = total + steps.apply_dropout(weights, keep, factor)
    average = total / num_samples
    return average, float((average - weights).abs().max())
