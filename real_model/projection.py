"""Real words for the Playground: GloVe vectors projected to a few dimensions by PCA.

The principal axes are fitted once, on the 10 000 most frequent GloVe words (the first 10 000
rows of glove.6B.50d, whose order is by frequency), never on the words a learner picks: the
same word always gets the same coordinates, whatever its neighbours in the matrix.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import torch

from attention_core import AttentionInputError, Embeddings, make_embeddings
from attention_core.knobs.param import MAX_DIMS, MAX_TOKENS
from real_model.glove import GLOVE_DIM, glove_vectors, shared_glove
from translation import _

PCA_WORDS = 10_000
DEFAULT_DECIMALS = 2  # the presets' precision: readable cells and short links


@dataclass(frozen=True)
class GlovePCA:
    """Principal axes of the 10 000 most frequent GloVe words, largest variance first.

    Each axis is signed so that its largest-magnitude loading is positive (an SVD may return
    either sign; this makes the result the same on every machine).

    Shapes:
        mean: (50,); axes: (50, 50), one axis per column; explained_variance_ratio: (50,)
    """

    mean: torch.Tensor
    axes: torch.Tensor
    explained_variance_ratio: torch.Tensor


def fit_pca(vectors: torch.Tensor) -> GlovePCA:
    """Exact PCA by a singular value decomposition in float64 (no random sketching).

    Shapes:
        vectors: (num_words, 50)
    """
    data = vectors.double()
    mean = data.mean(dim=0)  # (50,)
    _left, singular, right = torch.linalg.svd(data - mean, full_matrices=False)
    axes = right.T  # (50, 50): column k is axis k
    largest = axes.abs().argmax(dim=0)  # (50,)
    signs = torch.sign(axes[largest, torch.arange(axes.shape[1])])
    variance = singular**2
    return GlovePCA(mean, axes * signs, variance / variance.sum())


_lock = threading.Lock()
_shared: GlovePCA | None = None


def glove_pca() -> GlovePCA:
    """The PCA of the 10 000 most frequent GloVe words, fitted once per process."""
    global _shared
    with _lock:
        if _shared is None:
            _shared = fit_pca(shared_glove().most_frequent(PCA_WORDS))
        return _shared


@dataclass(frozen=True)
class PlaygroundWords:
    """Words as a Playground matrix: labels, projected rows, and what the projection keeps."""

    embeddings: Embeddings
    unknown: tuple[str, ...]
    explained_variance: float  # share of the 10 000 words' variance kept by these d axes


def playground_words(
    words: Sequence[str], d: int, decimals: int = DEFAULT_DECIMALS
) -> PlaygroundWords:
    """GloVe vectors of ``words`` projected on the first ``d`` principal axes, rounded.

    Coordinate k of a word is (x − mean) · axis_k, with the mean and axes of the 10 000 most
    frequent GloVe words (:func:`glove_pca`), rounded to ``decimals`` decimals. A few axes keep
    only part of the meaning: the first 2 carry 13.3 % of those words' variance, 3 carry
    18.6 %, 16 carry 57.2 % (``explained_variance`` says it for the chosen d). Over all
    400 000 GloVe words no coordinate on the first 16 axes exceeds 5.9 in magnitude, so every
    cell is within the editor's ±10.

    Args:
        words: 1 to 12 words (lowercased); unknown words are left out and named.
        d: the matrix's width, 1 to 16.
        decimals: decimals kept in each cell.

    Raises:
        AttentionInputError: wrong number of words or d, or no word known to GloVe.

    Shapes:
        embeddings.values: (number of known words, d)
    """
    if not 1 <= len(words) <= MAX_TOKENS:
        raise AttentionInputError(
            _("choose 1 to {MAX_TOKENS} words, not {count}").format(
                MAX_TOKENS=MAX_TOKENS, count=len(words)
            )
        )
    if not 1 <= d <= min(MAX_DIMS, GLOVE_DIM):
        raise AttentionInputError(
            _("the width must be 1 to {MAX_DIMS}, not {d}").format(MAX_DIMS=MAX_DIMS, d=d)
        )
    found, unknown = glove_vectors(words)
    pca = glove_pca()
    projected = (found.values.double() - pca.mean) @ pca.axes[:, :d]  # (num_words, d)
    # "+ 0.0" turns a rounded -0.0 into 0.0, so no cell shows "-0.00".
    rows = [[round(value, decimals) + 0.0 for value in row] for row in projected.tolist()]
    return PlaygroundWords(
        embeddings=make_embeddings(found.tokens, rows),
        unknown=tuple(unknown),
        explained_variance=float(pca.explained_variance_ratio[:d].sum()),
    )
