"""Real words into the Playground: PCA fitted on the 10 000 most frequent GloVe words."""

import numpy as np
import pytest
import torch

from attention_core import AttentionInputError
from real_model import glove_pca, playground_words, shared_glove
from real_model.projection import PCA_WORDS, fit_pca


@pytest.fixture(scope="module")
def pca():
    return glove_pca()


def test_the_fit_is_exact_and_deterministic(pca):
    again = fit_pca(shared_glove().most_frequent(PCA_WORDS))
    assert torch.equal(again.axes, pca.axes) and torch.equal(again.mean, pca.mean)
    # An independent exact PCA (numpy's covariance eigendecomposition) finds the same axes.
    data = shared_glove().most_frequent(PCA_WORDS).double().numpy()
    eigenvalues, eigenvectors = np.linalg.eigh(np.cov(data, rowvar=False))
    top = eigenvectors[:, ::-1][:, :16]  # largest first
    alignment = np.abs(np.sum(top * pca.axes[:, :16].numpy(), axis=0))
    assert np.allclose(alignment, 1.0, atol=1e-6)
    ratio = eigenvalues[::-1] / eigenvalues.sum()
    assert np.allclose(pca.explained_variance_ratio.numpy(), ratio, atol=1e-9)


def test_axes_are_orthonormal_and_signed_by_their_largest_loading(pca):
    assert torch.allclose(pca.axes.T @ pca.axes, torch.eye(50, dtype=torch.float64), atol=1e-10)
    largest = pca.axes.abs().argmax(dim=0)
    assert (pca.axes[largest, torch.arange(50)] > 0).all()


def test_the_documented_variances(pca):
    ratio = pca.explained_variance_ratio
    assert float(ratio.sum()) == pytest.approx(1.0)
    assert (ratio[:-1] >= ratio[1:]).all()
    assert float(ratio[:2].sum()) == pytest.approx(0.133, abs=1e-3)
    assert float(ratio[:3].sum()) == pytest.approx(0.186, abs=1e-3)
    assert float(ratio[:16].sum()) == pytest.approx(0.572, abs=1e-3)
    assert playground_words(["ship"], 3).explained_variance == pytest.approx(float(ratio[:3].sum()))


def test_the_fitting_words_are_centred_and_decorrelated(pca):
    data = shared_glove().most_frequent(PCA_WORDS).double()
    projected = (data - pca.mean) @ pca.axes  # (10000, 50)
    assert projected.mean(dim=0).abs().max() < 1e-10
    covariance = projected.T @ projected / (PCA_WORDS - 1)
    off_diagonal = covariance - torch.diag(torch.diagonal(covariance))
    assert off_diagonal.abs().max() < 1e-8


def test_no_glove_word_leaves_the_editor_range_on_16_axes(pca):
    everything = torch.tensor(np.ascontiguousarray(shared_glove().vectors), dtype=torch.float64)
    largest = ((everything - pca.mean) @ pca.axes[:, :16]).abs().max()
    assert 5.0 < float(largest) < 5.9  # the docstring's bound, and well inside ±10


def test_words_become_a_rounded_labelled_matrix():
    result = playground_words(["King", "queen", "qzxqzx", "ship"], 4)
    assert result.embeddings.tokens == ("king", "queen", "ship")
    assert result.unknown == ("qzxqzx",)
    rows = result.embeddings.as_rows()
    assert len(rows) == 3 and all(len(row) == 4 for row in rows)
    assert all(round(v, 2) == v and abs(v) <= 10 for row in rows for v in row)
    assert "-0.0" not in repr(rows)
    # The exact projection, rounded: row k of "ship" is (x − mean) · axis_k.
    pca = glove_pca()
    ship = shared_glove().rows([shared_glove().row_of("ship")])[0].double()
    exact = (ship - pca.mean) @ pca.axes[:, :4]
    assert torch.allclose(result.embeddings.values[2].double(), exact, atol=0.005 + 1e-6)


def test_a_words_coordinates_do_not_depend_on_the_other_words():
    alone = playground_words(["ship"], 8).embeddings.values[0]
    together = playground_words(["crew", "ship", "order"], 8).embeddings.values[1]
    assert torch.equal(alone, together)
    assert not torch.equal(alone, playground_words(["crew"], 8).embeddings.values[0])


def test_the_same_words_give_bit_identical_matrices():
    first = playground_words(["we", "process", "and", "ship", "your", "order"], 16)
    second = playground_words(["we", "process", "and", "ship", "your", "order"], 16)
    assert torch.equal(first.embeddings.values, second.embeddings.values)


@pytest.mark.parametrize(
    ("words", "d", "message"),
    [
        ([], 3, "choose 1 to 12 words"),
        (["ship"] * 13, 3, "choose 1 to 12 words"),
        (["ship"], 0, "width must be 1 to 16"),
        (["ship"], 17, "width must be 1 to 16"),
        (["qzxqzx"], 3, "“qzxqzx”"),
    ],
)
def test_bad_requests_are_explained(words, d, message):
    with pytest.raises(AttentionInputError, match=message):
        playground_words(words, d)
