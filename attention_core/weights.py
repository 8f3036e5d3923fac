"""Projection matrices W_query, W_key, W_value (and W_out), drawn from one local generator."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from attention_core.config import CUSTOM_WEIGHT_LIMIT, AttentionConfig
from attention_core.errors import AttentionInputError


@dataclass(frozen=True)
class Projections:
    """The trainable matrices in the book's orientation: ``queries = inputs @ W_query``.

    Shapes:
        W_query, W_key, W_value: (d_in, inner_dim)
        W_out: (inner_dim, inner_dim), or None when there is no output projection
    """

    W_query: torch.Tensor
    W_key: torch.Tensor
    W_value: torch.Tensor
    W_out: torch.Tensor | None


def inner_dim(config: AttentionConfig, d_in: int) -> int:
    """Width of queries, keys and values: d_in for identity, heads x d_out for the wrapper."""
    if config.init == "identity":
        return d_in
    if config.init == "custom" and config.custom_weights and config.custom_weights[0]:
        return len(config.custom_weights[0][0])
    if config.heads_layout == "wrapper":
        return config.heads * config.d_out
    return config.d_out


def head_dim(config: AttentionConfig, d_in: int) -> int:
    """Width of one head's queries and keys (d_k)."""
    if config.heads_layout == "wrapper" and config.init not in ("identity", "custom"):
        return config.d_out
    return inner_dim(config, d_in) // config.heads


def make_projections(config: AttentionConfig, d_in: int) -> Projections:
    """Create W_query, W_key, W_value and W_out as the config's ``init`` prescribes."""
    width = inner_dim(config, d_in)
    if width % config.heads:
        raise AttentionInputError(
            f"the width of queries must be divisible by heads: {width} is not divisible "
            f"by {config.heads}"
        )
    generator = torch.Generator().manual_seed(config.seed)
    if config.init == "identity":
        eye = torch.eye(d_in)
        return Projections(eye, eye, eye, None if config.heads == 1 else eye)
    if config.init == "custom":
        matrices = _custom_matrices(config, d_in)
    elif config.heads_layout == "wrapper" and config.heads > 1:
        matrices = _wrapper_matrices(config, d_in, generator)
    else:
        matrices = tuple(_draw(config.init, d_in, width, generator) for _ in range(3))
    return Projections(*matrices, W_out=_out_projection(config, width, generator))


def _draw(init: str, rows: int, cols: int, generator: torch.Generator) -> torch.Tensor:
    """One (rows, cols) matrix: ``book`` = torch.rand, ``linear`` = nn.Linear's default init."""
    if init == "book":
        return torch.rand(rows, cols, generator=generator)
    # nn.Linear(rows, cols) stores its weight as (cols, rows) and initialises it with
    # kaiming_uniform_(a=sqrt(5)); drawing the same shape from the same seed matches it exactly.
    weight = torch.empty(cols, rows)
    torch.nn.init.kaiming_uniform_(weight, a=math.sqrt(5), generator=generator)
    return weight.T.contiguous()


def _wrapper_matrices(
    config: AttentionConfig, d_in: int, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    # Independent heads each draw their own query, key and value matrices in turn,
    # like a list of single-head modules; side by side they form one wide matrix.
    per_head = [
        [_draw(config.init, d_in, config.d_out, generator) for _ in range(3)]
        for _ in range(config.heads)
    ]
    query, key, value = (torch.cat([head[i] for head in per_head], dim=1) for i in range(3))
    return query, key, value


def _out_projection(
    config: AttentionConfig, width: int, generator: torch.Generator
) -> torch.Tensor | None:
    if config.heads == 1:
        return None
    if config.heads_layout == "wrapper" or config.out_proj == "identity":
        return torch.eye(width)
    if config.init == "custom":
        return torch.eye(width)
    return _draw(config.init, width, width, generator)


def _custom_matrices(
    config: AttentionConfig, d_in: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    assert config.custom_weights is not None
    matrices = []
    for name, rows in zip(("W_query", "W_key", "W_value"), config.custom_weights, strict=True):
        try:
            matrix = torch.tensor(rows, dtype=torch.float32)
        except (TypeError, ValueError) as error:
            raise AttentionInputError(f"{name} must be rows of numbers of equal length") from error
        if matrix.dim() != 2 or matrix.shape[0] != d_in:
            raise AttentionInputError(
                f"{name} must have {d_in} rows (one per input dimension), "
                f"got shape {tuple(matrix.shape)}"
            )
        if not torch.isfinite(matrix).all() or matrix.abs().max() > CUSTOM_WEIGHT_LIMIT:
            raise AttentionInputError(
                f"{name} must hold finite numbers within ±{CUSTOM_WEIGHT_LIMIT:g}"
            )
        matrices.append(matrix)
    widths = {int(m.shape[1]) for m in matrices}
    if len(widths) != 1:
        raise AttentionInputError("W_query, W_key and W_value must have the same number of columns")
    return matrices[0], matrices[1], matrices[2]
