"""Projections W_query, W_key, W_value (with biases) and W_out, drawn from one local generator."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import torch

from attention_core.config import CUSTOM_WEIGHT_LIMIT, AttentionConfig
from attention_core.errors import AttentionInputError, tensor_of
from translation import _


@dataclass(frozen=True)
class Projections:
    """The trainable matrices in the book's orientation: ``queries = inputs @ W_query + b_query``.

    Shapes:
        W_query, W_key, W_value: (d_in, inner_dim); b_query, b_key, b_value: (inner_dim,) or None
        W_out: (inner_dim, inner_dim), b_out: (inner_dim,); None when there is no output
        projection (b_out also None for the identity one)
    """

    W_query: torch.Tensor
    W_key: torch.Tensor
    W_value: torch.Tensor
    b_query: torch.Tensor | None
    b_key: torch.Tensor | None
    b_value: torch.Tensor | None
    W_out: torch.Tensor | None
    b_out: torch.Tensor | None


Layer = tuple[torch.Tensor, torch.Tensor | None]  # a matrix and its bias (None: no bias)


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


def make_projections(config: AttentionConfig, d_in: int, d_kv: int | None = None) -> Projections:
    """Create W_query, W_key, W_value, their biases and the output projection.

    Everything random is drawn from one generator seeded with ``config.seed``, in the order
    the book's modules create their parameters: W_query (matrix, then bias), W_key, W_value,
    one head after the other for independent heads, then the output projection.
    In cross-attention the keys and values come from another input, ``d_kv`` numbers wide
    (nn.MultiheadAttention's kdim and vdim): W_key and W_value then have ``d_kv`` rows.
    """
    d_kv = d_in if d_kv is None else d_kv
    width = inner_dim(config, d_in)
    if width % config.heads:
        raise AttentionInputError(
            _(
                "the width of queries must be divisible by heads: {width} is not divisible by "
                "{heads}"
            ).format(width=width, heads=config.heads)
        )
    generator = torch.Generator().manual_seed(config.seed)
    if config.init == "identity":
        problem = identity_width_problem(d_in, d_kv)
        if problem is not None:
            raise AttentionInputError(problem)
        eye = torch.eye(d_in)
        layers: tuple[Layer, Layer, Layer] = ((eye, None), (eye, None), (eye, None))
    elif config.init == "custom":
        assert config.custom_weights is not None
        query, key, value = typed_matrices(config.custom_weights, d_in, d_kv)
        layers = ((query, None), (key, None), (value, None))
    else:
        layers = _drawn_layers(config, (d_in, d_kv, d_kv), width, generator)
    (W_query, b_query), (W_key, b_key), (W_value, b_value) = layers
    W_out, b_out = _out_projection(config.out_proj, width, generator)
    return Projections(W_query, W_key, W_value, b_query, b_key, b_value, W_out, b_out)


def identity_width_problem(d_in: int, d_kv: int) -> str | None:
    """Why cross-attention without projections cannot score a target of width ``d_in``
    against a source of width ``d_kv``, or None when the widths agree."""
    if d_in == d_kv:
        return None
    return _(
        "without projections the queries are the target's rows and the keys the source's, so "
        "both need the same width: {d_in} is not {d_kv}"
    ).format(d_in=d_in, d_kv=d_kv)


def share_key_value_heads(projections: Projections, num_heads: int, kv_groups: int) -> Projections:
    """Grouped-query attention: the heads of each of ``kv_groups`` consecutive groups all use the
    key and value columns of the group's first head (0 groups: every head keeps its own).

    Keeping the leaders' own columns makes every group's first head the same as in standard
    multi-head attention, so a page can show what sharing changes. The shared columns are
    repeated in place, as ``repeat_interleave`` repeats a cached key head for its group.

    Shapes:
        W_key, W_value: (d_in, inner_dim) -> same; b_key, b_value: (inner_dim,) -> same
    """
    if kv_groups in (0, num_heads):
        return projections
    group_size = num_heads // kv_groups

    def shared(tensor: torch.Tensor | None) -> torch.Tensor | None:
        if tensor is None:
            return None
        heads = tensor.unflatten(-1, (num_heads, -1))  # (..., num_heads, head_dim)
        leaders = heads[..., ::group_size, :]  # (..., kv_groups, head_dim)
        return leaders.repeat_interleave(group_size, dim=-2).flatten(-2)

    return replace(
        projections,
        W_key=shared(projections.W_key),
        W_value=shared(projections.W_value),
        b_key=shared(projections.b_key),
        b_value=shared(projections.b_value),
    )


def _draw(init: str, rows: int, cols: int, generator: torch.Generator, bias: bool = False) -> Layer:
    """One (rows, cols) matrix, then its bias if asked for.

    ``book`` draws the matrix with torch.rand, ``linear`` as nn.Linear's default does; a bias
    is always drawn as nn.Linear's: uniform in ±1/√rows.
    """
    if init == "book":
        matrix = torch.rand(rows, cols, generator=generator)
    else:
        # nn.Linear(rows, cols) stores its weight as (cols, rows) and initialises it with
        # kaiming_uniform_(a=sqrt(5)); drawing the same shape from the same seed matches it.
        weight = torch.empty(cols, rows)
        torch.nn.init.kaiming_uniform_(weight, a=math.sqrt(5), generator=generator)
        matrix = weight.T.contiguous()
    if not bias:
        return matrix, None
    bound = 1.0 / math.sqrt(rows)
    return matrix, torch.empty(cols).uniform_(-bound, bound, generator=generator)


def _drawn_layers(
    config: AttentionConfig,
    rows: tuple[int, int, int],
    width: int,
    generator: torch.Generator,
) -> tuple[Layer, Layer, Layer]:
    # Independent heads each draw their own query, key and value layers in turn, like a list
    # of single-head modules; side by side they form one wide matrix (and bias). ``rows`` are
    # the input widths of the query, key and value layers (all d_in in self-attention).
    copies = config.heads if config.heads_layout == "wrapper" else 1
    per_head = [
        [_draw(config.init, d, width // copies, generator, config.qkv_bias) for d in rows]
        for _ in range(copies)
    ]
    layers = []
    for index in range(3):
        matrix = torch.cat([head[index][0] for head in per_head], dim=1)
        biases = [head[index][1] for head in per_head if head[index][1] is not None]
        layers.append((matrix, torch.cat(biases) if biases else None))
    return layers[0], layers[1], layers[2]


def _out_projection(
    out_proj: str, width: int, generator: torch.Generator
) -> Layer | tuple[None, None]:
    """The output projection: nn.Linear(width, width) with bias, the identity, or none."""
    if out_proj == "linear":
        return _draw("linear", width, width, generator, bias=True)
    if out_proj == "identity":
        return torch.eye(width), None
    return None, None


def typed_matrices(
    typed: Sequence[Any], d_in: int, d_kv: int | None = None
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """W_query, W_key and W_value typed by a person, checked: ``d_in`` rows each (``d_kv`` for
    W_key and W_value in cross-attention), the same width, finite numbers within the limit;
    raises the project's error naming the problem."""
    matrices = []
    d_kv = d_in if d_kv is None else d_kv
    names = ("W_query", "W_key", "W_value")
    for name, rows, expected in zip(names, typed, (d_in, d_kv, d_kv), strict=True):
        matrix = tensor_of(rows, torch.float32, name)
        if matrix.dim() != 2 or matrix.shape[0] != expected:
            raise AttentionInputError(
                _(
                    "{name} must have {d_in} rows (one per input dimension), got shape {tuple}"
                ).format(name=name, d_in=expected, tuple=tuple(matrix.shape))
            )
        if not torch.isfinite(matrix).all() or matrix.abs().max() > CUSTOM_WEIGHT_LIMIT:
            raise AttentionInputError(
                _("{name} must hold finite numbers within ±{CUSTOM_WEIGHT_LIMIT:g}").format(
                    name=name, CUSTOM_WEIGHT_LIMIT=CUSTOM_WEIGHT_LIMIT
                )
            )
        matrices.append(matrix)
    widths = {int(m.shape[1]) for m in matrices}
    if len(widths) != 1:
        raise AttentionInputError(
            _("W_query, W_key and W_value must have the same number of columns")
        )
    return matrices[0], matrices[1], matrices[2]


def linear_layer(rows: int, cols: int, generator: torch.Generator, bias: bool = False) -> Layer:
    """One (rows, cols) matrix drawn as ``nn.Linear(rows, cols)`` draws its weight, then its
    bias if asked for: the layers of the book's newer attention classes."""
    return _draw("linear", rows, cols, generator, bias)
