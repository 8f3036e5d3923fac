"""Load a small BERT-style encoder and its tokenizer from the Hugging Face hub or a folder."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MODEL_ENV = "ATTENTION_MODEL"
DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


class ModelLoadError(RuntimeError):
    """The model could not be loaded; the message says why and how to fix it."""


@dataclass(frozen=True)
class LoadedModel:
    """A tokenizer and an encoder in evaluation mode, shared read-only by every session."""

    source: str
    tokenizer: Any
    model: Any

    @property
    def num_layers(self) -> int:
        """Number of transformer layers."""
        return int(self.model.config.num_hidden_layers)

    @property
    def num_heads(self) -> int:
        """Attention heads per layer."""
        return int(self.model.config.num_attention_heads)


def model_source() -> str:
    """Where the model comes from: the ``ATTENTION_MODEL`` setting, else the default hub id."""
    return os.environ.get(MODEL_ENV, "").strip() or DEFAULT_MODEL


def load_model(source: str) -> LoadedModel:
    """Load tokenizer and encoder from a local folder or a hub id.

    Raises:
        ModelLoadError: with a sentence saying what failed and how to fix it.
    """
    try:
        from transformers import AutoModel, AutoTokenizer
    except ImportError as error:
        raise ModelLoadError(
            "the 'transformers' package is not installed: run "
            "python -m pip install -r requirements.txt"
        ) from error
    local = Path(source).expanduser()
    looks_local = source.startswith((".", "/", "~")) or local.exists()
    if looks_local and not local.is_dir():
        raise ModelLoadError(
            f"no model folder at {source}: set {MODEL_ENV} to a folder made with "
            "save_pretrained (config.json, the weights and the tokenizer files)"
        )
    where = str(local) if looks_local else source
    try:
        tokenizer = AutoTokenizer.from_pretrained(where, local_files_only=looks_local)
        model = AutoModel.from_pretrained(
            where, attn_implementation="eager", local_files_only=looks_local
        )
    except Exception as error:  # network, missing files, unknown id: all mean "cannot load"
        hint = (
            f"check the folder {source}"
            if looks_local
            else f"check the network, or download it once and set {MODEL_ENV} to its folder"
        )
        raise ModelLoadError(f"could not load the model {source!r}: {hint}") from error
    if not _is_bert_like(model):
        raise ModelLoadError(f"{source!r} is not a BERT-style encoder; use a BERT or MiniLM model")
    model.eval()
    return LoadedModel(source, tokenizer, model)


def _is_bert_like(model: Any) -> bool:
    try:
        attention = model.encoder.layer[0].attention.self
    except (AttributeError, IndexError, TypeError):
        return False
    return all(hasattr(attention, name) for name in ("query", "key", "value"))
