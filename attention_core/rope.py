"""Rotary position embeddings (RoPE): queries and keys turned by angles that grow with position.

The pairing is the one of Llama and of the book's Llama chapters: in a head of width d, number
i and number i + d/2 form pair i, turned by position × base^(−2i/d).
"""

from __future__ import annotations

import torch

from attention_core.errors import AttentionInputError
from translation import _


def check_width(head_dim: int) -> None:
    """Raise the project's error unless a head's width can be cut into pairs."""
    if head_dim % 2:
        raise AttentionInputError(
            _(
                "rope rotates pairs of numbers, so a head's width (d_out ÷ heads) must be even: "
                "{head_dim} is odd"
            ).format(head_dim=head_dim)
        )


def frequencies(head_dim: int, base: float) -> torch.Tensor:
    """How fast each pair turns, in radians per position: base^(−2i/d) for pair i.

    Shapes:
        returns: (head_dim // 2,)
    """
    check_width(head_dim)
    exponents = torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim
    return (float(base) ** -exponents).to(torch.float32)


def angles(num_tokens: int, head_dim: int, base: float, first_position: int = 0) -> torch.Tensor:
    """The angle of every position and pair: position × frequency, positions counted from
    ``first_position`` (0 for the first token of a text).

    Shapes:
        returns: (num_tokens, head_dim // 2)
    """
    positions = torch.arange(first_position, first_position + num_tokens, dtype=torch.float64)
    return (positions[:, None] * frequencies(head_dim, base).double()[None, :]).to(torch.float32)


def rotate(vectors: torch.Tensor, turns: torch.Tensor) -> torch.Tensor:
    """Turn each pair (x_i, x_{i+d/2}) of every row by that row's angle for pair i.

    Shapes:
        vectors: (..., num_tokens, head_dim); turns: (num_tokens, head_dim // 2)
        -> like vectors
    """
    half = vectors.shape[-1] // 2
    first, second = vectors[..., :half], vectors[..., half:]
    cos, sin = turns.cos(), turns.sin()
    return torch.cat((first * cos - second * sin, first * sin + second * cos), dim=-1)
