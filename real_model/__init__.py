"""A real pretrained encoder: load it, read its embeddings, and reproduce its heads with the core.

Needs the optional ``transformers`` package, imported only when a model is loaded, so the rest
of the app works without it.
"""

from real_model.analysis import (
    HeadReproduction,
    WordComparison,
    compare_word,
    noncontextual_embeddings,
    reproduce_head,
)
from real_model.loader import (
    DEFAULT_MODEL,
    MODEL_ENV,
    LoadedModel,
    ModelLoadError,
    load_model,
    model_source,
)

__all__ = [
    "DEFAULT_MODEL",
    "MODEL_ENV",
    "HeadReproduction",
    "LoadedModel",
    "ModelLoadError",
    "WordComparison",
    "compare_word",
    "load_model",
    "model_source",
    "noncontextual_embeddings",
    "reproduce_head",
]
