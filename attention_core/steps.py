"""One function per step of attention, in the order the math happens.

project -> split heads -> (turn with RoPE, see rope.py) -> score -> scale -> mask -> normalise
-> dropout -> mix values -> merge heads -> out projection. No function edits its input in place.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from attention_core.errors import AttentionInputError, tensor_of
from translation import _


def project(
    inputs: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None = None
) -> torch.Tensor:
    """Project every token through one matrix, then add the bias if there is one.

    Shapes:
        inputs: (num_tokens, d_in); weight: (d_in, width); bias: (width,) -> (num_tokens, width)
    """
    projected = inputs @ weight
    return projected if bias is None else projected + bias


def split_heads(projected: torch.Tensor, num_heads: int) -> torch.Tensor:
    """Cut the columns into ``num_heads`` equal, consecutive slices.

    Shapes:
        projected: (num_tokens, num_heads * head_dim) -> (num_heads, num_tokens, head_dim)
    """
    num_tokens, width = projected.shape
    return projected.reshape(num_tokens, num_heads, width // num_heads).transpose(0, 1)


def score(queries: torch.Tensor, keys: torch.Tensor, scoring: str) -> torch.Tensor:
    """Similarity of every query with every key: dot product or cosine similarity.

    Shapes:
        queries: (num_heads, num_tokens, head_dim); keys: (num_heads, num_keys, head_dim)
        -> (num_heads, num_tokens, num_keys) (num_keys = num_tokens in self-attention)
    """
    if scoring == "cosine":
        queries, keys = F.normalize(queries, dim=-1), F.normalize(keys, dim=-1)
    return queries @ keys.transpose(-2, -1)


def scale_divisor(scaling: str, key_dim: int) -> float:
    """The number the scores are divided by: 1, d_k or the square root of d_k."""
    if scaling == "d":
        return float(key_dim)
    if scaling == "sqrt_d":
        return math.sqrt(key_dim)
    return 1.0


def scale(scores: torch.Tensor, divisor: float) -> torch.Tensor:
    """Divide every score by the same positive number (shape unchanged)."""
    return scores / divisor


def allowed_mask(
    mask: str,
    num_tokens: int,
    padding: int = 0,
    custom: object | None = None,
    num_keys: int | None = None,
) -> torch.Tensor:
    """Which key each query may attend to; True = may attend (the F.scaled_dot_product_attention
    convention).

    Cross-attention has ``num_keys`` source tokens for its ``num_tokens`` target queries: the
    padding then hides the source's last tokens, and the causal mask, which pairs query i with
    key i, is refused when the two counts differ (a score matrix that is not square).

    Shapes:
        returns: (num_tokens, num_keys), rows = queries, columns = keys; num_keys defaults
        to num_tokens
    """
    keys = num_tokens if num_keys is None else num_keys
    ones = torch.ones(num_tokens, keys, dtype=torch.bool)
    if mask == "causal":
        if keys != num_tokens:
            raise AttentionInputError(
                _(
                    "the causal mask needs as many keys as queries: its row i keeps keys 1 to i. "
                    "Here {num_tokens} target tokens query {keys} source tokens, so the score "
                    "matrix is {num_tokens} × {keys}, not square; use no mask or the padding mask"
                ).format(num_tokens=num_tokens, keys=keys)
            )
        return torch.tril(ones)
    if mask == "padding":
        if padding > keys:
            raise AttentionInputError(
                _(
                    "padding must be at most the number of tokens ({num_tokens}), not {padding}"
                ).format(num_tokens=keys, padding=padding)
            )
        keep_keys = torch.arange(keys) < keys - padding
        return ones & keep_keys
    if mask == "custom":
        allowed = tensor_of(custom, torch.bool, _("the custom mask"))
        if allowed.shape != (num_tokens, keys):
            raise AttentionInputError(
                _("the custom mask must be {rows} x {columns}, got {tuple}").format(
                    rows=num_tokens, columns=keys, tuple=tuple(allowed.shape)
                )
            )
        return allowed
    return ones


def window_band(num_tokens: int, window: int) -> torch.Tensor:
    """Which keys lie at most ``window`` − 1 positions before each query, itself included;
    every key when ``window`` is 0. A window looks back only, as in the sliding-window
    attention of Mistral and Gemma: whatever the mask, it is causal.

    Shapes:
        returns: (num_tokens, num_tokens), True = within the window
    """
    positions = torch.arange(num_tokens)
    if window == 0:
        return torch.ones(num_tokens, num_tokens, dtype=torch.bool)
    distance = positions[:, None] - positions[None, :]  # query minus key: (num_tokens, num_tokens)
    return (distance >= 0) & (distance < window)


def mask_scores(scores: torch.Tensor, allowed: torch.Tensor, strategy: str) -> torch.Tensor:
    """Apply the mask before normalising, as the strategy prescribes.

    ``neg_inf`` puts -inf where attention is not allowed; ``zero_scores`` (a pitfall) multiplies
    by the 0/1 mask, so a masked score becomes 0, not -inf; the other two mask after normalising.

    Shapes:
        scores: (num_heads, num_tokens, num_tokens); allowed: (num_tokens, num_tokens)
    """
    if bool(allowed.all()):
        return scores  # nothing to mask
    if strategy == "neg_inf":
        return scores.masked_fill(~allowed, float("-inf"))
    if strategy == "zero_scores":
        return scores * allowed
    return scores  # masked after normalising


def normalise(scores: torch.Tensor, norm: str) -> torch.Tensor:
    """Turn each row of scores into weights; an entry of -inf (excluded) always gets weight 0.

    A row whose entries are all excluded gets all-zero weights, never NaN.

    Shapes:
        scores: (..., num_tokens) -> same shape
    """
    excluded = torch.isneginf(scores)
    if norm == "softmax":
        weights = torch.softmax(scores, dim=-1)
    elif norm == "naive_softmax":
        exponentials = torch.exp(scores)  # overflows to inf for scores above ~88
        weights = exponentials / exponentials.sum(dim=-1, keepdim=True)
    elif norm == "sum":
        kept = scores.masked_fill(excluded, 0.0)
        weights = kept / kept.sum(dim=-1, keepdim=True)
    else:
        weights = scores.masked_fill(excluded, 0.0)
    if not bool(excluded.any()):
        return weights
    empty_rows = excluded.all(dim=-1, keepdim=True)
    return torch.where(empty_rows, torch.zeros_like(weights), weights)


def mask_weights(
    weights: torch.Tensor,
    allowed: torch.Tensor,
    strategy: str,
    scores: torch.Tensor | None = None,
) -> torch.Tensor:
    """Apply the mask after normalising: ``zero_renorm`` zeroes and renormalises each row,
    ``zero_no_renorm`` (a pitfall) only zeroes; other strategies already masked the scores.

    Pass ``scores`` when ``weights`` are their softmax: ``zero_renorm`` is then computed from
    the scores, stably (see :func:`zero_renormalise_softmax`), for any size of score. Without
    them the given weights are zeroed and divided by their row sums as they are.
    A row with nothing left to attend to is all zero, never NaN.

    Shapes:
        weights, scores: (num_heads, num_tokens, num_tokens); allowed: (num_tokens, num_tokens)
    """
    if strategy not in ("zero_renorm", "zero_no_renorm") or bool(allowed.all()):
        return weights  # masked before normalising, or nothing to mask
    if strategy == "zero_renorm" and scores is not None:
        return zero_renormalise_softmax(scores, allowed)
    zeros = torch.zeros_like(weights)
    zeroed = torch.where(allowed, weights, zeros)  # exactly 0 where blocked, even next to NaN
    if strategy == "zero_no_renorm":
        return zeroed
    return torch.where(allowed, _divide_by_row_sums(zeroed), zeros)


def zero_renormalise_softmax(scores: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    """Softmax over every position, zero the blocked weights, renormalise: computed stably.

    Renormalising divides out softmax's denominator and any shift of a row, so each kept
    weight is exp(score - m) / (sum over kept positions of exp(score - m)) with m the row's
    largest KEPT score. Every exponent is then at most 0 and the largest kept weight is 1 before
    dividing, so nothing underflows to an all-zero row or overflows, whatever the scores
    (a softmax over all positions first would let a large blocked score push every kept weight
    to 0). Blocked scores are never exponentiated.

    Shapes:
        scores: (..., num_tokens, num_tokens); allowed: (num_tokens, num_tokens) -> like scores
    """
    kept_scores = scores.masked_fill(~allowed, float("-inf"))
    row_max = kept_scores.amax(dim=-1, keepdim=True)  # -inf for a row that keeps nothing
    shift = torch.where(torch.isfinite(row_max), row_max, torch.zeros_like(row_max))
    return _divide_by_row_sums(torch.exp(kept_scores - shift))  # exp(-inf) = 0 where blocked


def _divide_by_row_sums(weights: torch.Tensor) -> torch.Tensor:
    """Divide each row by its sum; a row summing to 0 stays all zero."""
    row_sums = weights.sum(dim=-1, keepdim=True)
    safe_sums = torch.where(row_sums == 0, torch.ones_like(row_sums), row_sums)
    return weights / safe_sums


def dropout_keep_mask(shape: torch.Size, p: float, generator: torch.Generator) -> torch.Tensor:
    """Draw which weights survive dropout: each is kept with probability 1 - p."""
    return torch.rand(shape, generator=generator) >= p


def apply_dropout(weights: torch.Tensor, keep: torch.Tensor, factor: float) -> torch.Tensor:
    """Zero the dropped weights and multiply the kept ones by ``factor`` = 1 / (1 - p)."""
    return weights * keep * factor


def mix_values(weights: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    """Each context vector is the weighted sum of the value vectors.

    Shapes:
        weights: (num_heads, num_tokens, num_tokens); values: (num_heads, num_tokens, head_dim)
        -> (num_heads, num_tokens, head_dim)
    """
    return weights @ values


def merge_heads(head_context: torch.Tensor) -> torch.Tensor:
    """Put the heads' context vectors side by side.

    Shapes:
        head_context: (num_heads, num_tokens, head_dim) -> (num_tokens, num_heads * head_dim)
    """
    num_heads, num_tokens, width = head_context.shape
    return head_context.transpose(0, 1).reshape(num_tokens, num_heads * width)


def out_project(
    context: torch.Tensor, weight: torch.Tensor | None, bias: torch.Tensor | None = None
) -> torch.Tensor:
    """Mix the merged heads through the output matrix and add its bias (unchanged when none).

    Shapes:
        context: (num_tokens, width); weight: (width, width); bias: (width,)
        -> (num_tokens, width)
    """
    output = context if weight is None else context @ weight
    return output if bias is None else output + bias
