"""A model that cannot be loaded: refused with its reason, fast, and only once per process."""

import shutil
import socket

import pytest

from real_model import ModelLoadError, forget_model, load_model, remembered_failure, shared_model
from real_model import loader as loader_module
from real_model.hub import hub_offline, hub_reachable
from real_model.loader import _check_folder


@pytest.fixture(autouse=True)
def fresh_cache():
    forget_model()
    yield
    forget_model()


@pytest.fixture
def without_tokenizer(tiny_model, tmp_path):
    """A save_pretrained folder with the model's config and weights but no tokenizer files."""
    for name in ("config.json", "model.safetensors"):
        shutil.copyfile(tiny_model / name, tmp_path / name)
    return tmp_path


@pytest.fixture
def calls(monkeypatch):
    """Count how often the real loader runs."""
    counted: list[str] = []
    real = loader_module.load_model

    def counting(source: str):
        counted.append(source)
        return real(source)

    monkeypatch.setattr(loader_module, "load_model", counting)
    return counted


def test_a_folder_without_tokenizer_is_refused_with_that_reason(without_tokenizer):
    with pytest.raises(ModelLoadError, match=r"has no tokenizer .* every word would become"):
        load_model(str(without_tokenizer))


def test_a_tokenizer_that_knows_no_words_is_refused(without_tokenizer):
    from transformers import BertTokenizer

    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    BertTokenizer(vocab={w: i for i, w in enumerate(specials)}).save_pretrained(without_tokenizer)
    assert (without_tokenizer / "tokenizer.json").is_file()  # it passes the file check...
    with pytest.raises(ModelLoadError, match=r"no usable vocabulary: every word .* \[UNK\]"):
        load_model(str(without_tokenizer))  # ...and is refused after loading


def test_a_folder_without_config_is_refused(tmp_path):
    with pytest.raises(ModelLoadError, match=r"has no model configuration \(config\.json\)"):
        _check_folder(tmp_path, str(tmp_path))


@pytest.mark.parametrize("source", ["/no/such/folder", "./missing-model"])
def test_a_bad_path_gives_a_clear_message(source):
    with pytest.raises(ModelLoadError, match="no model folder at"):
        load_model(source)


def test_a_failure_is_remembered_once_and_retried_on_request(without_tokenizer, calls):
    source = str(without_tokenizer)
    with pytest.raises(ModelLoadError, match="has no tokenizer") as first:
        shared_model(source)
    with pytest.raises(ModelLoadError) as second:
        shared_model(source)
    assert calls == [source]  # the second call did not try again
    assert str(second.value) == str(first.value) == remembered_failure(source)
    forget_model(source)  # the Retry button
    assert remembered_failure(source) is None
    with pytest.raises(ModelLoadError):
        shared_model(source)
    assert calls == [source, source]


def test_a_retry_after_the_folder_is_fixed_loads_it(without_tokenizer, tiny_model, calls):
    source = str(without_tokenizer)
    with pytest.raises(ModelLoadError):
        shared_model(source)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copyfile(tiny_model / name, without_tokenizer / name)
    with pytest.raises(ModelLoadError):
        shared_model(source)  # still the remembered failure
    forget_model(source)
    loaded = shared_model(source)
    assert loaded.num_layers == 2 and shared_model(source) is loaded
    assert calls == [source, source]


def test_a_loaded_model_is_shared(tiny_model, calls):
    assert shared_model() is shared_model(str(tiny_model))  # conftest points the app at it
    assert calls == [str(tiny_model)]


def test_offline_a_hub_id_fails_at_once_saying_why(monkeypatch):
    monkeypatch.setattr(loader_module, "hub_reachable", lambda: pytest.fail("no probe offline"))
    with pytest.raises(
        ModelLoadError,
        match=r"not in the local Hugging Face cache, and downloads from the hub are switched off",
    ):
        load_model("someone/not-a-real-model-id")


def test_an_unreachable_hub_is_reported_without_downloading(monkeypatch):
    attempts: list[bool] = []
    real = loader_module._from_pretrained

    def spy(where, source, local_only, origin):
        attempts.append(local_only)
        return real(where, source, local_only, origin)

    monkeypatch.setattr(loader_module, "_from_pretrained", spy)
    monkeypatch.setattr(loader_module, "hub_offline", lambda: False)
    monkeypatch.setattr(loader_module, "hub_reachable", lambda: False)
    with pytest.raises(ModelLoadError, match="hub cannot be reached; check the network"):
        load_model("someone/not-a-real-model-id")
    assert attempts == [True]  # the local cache only; no download with retries


def test_the_hub_probe_answers_for_open_and_closed_ports(monkeypatch):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{server.getsockname()[1]}")
        assert hub_reachable(timeout=2.0)
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    assert not hub_reachable(timeout=2.0)


@pytest.mark.parametrize(("value", "offline"), [("1", True), ("true", True), ("0", False)])
def test_offline_settings(monkeypatch, value, offline):
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", value)
    assert hub_offline() is offline


def test_without_transformers_the_loader_says_how_to_install_it(monkeypatch, tiny_model):
    import sys

    monkeypatch.setitem(sys.modules, "transformers", None)  # makes `import transformers` fail
    with pytest.raises(ModelLoadError, match="'transformers' package is not installed"):
        load_model(str(tiny_model))
