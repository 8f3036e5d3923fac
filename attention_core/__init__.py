"""attention_core: one traced, seeded, pure-PyTorch implementation of self-attention.

Importing this package changes nothing process-wide: no thread settings, no global seed.
"""

from attention_core.config import AttentionConfig
from attention_core.embeddings import Embeddings, make_embeddings, preset_embeddings
from attention_core.errors import AttentionInputError
from attention_core.pipeline import run_attention
from attention_core.trace import AttentionTrace, Diagnostics

__all__ = [
    "AttentionConfig",
    "AttentionInputError",
    "AttentionTrace",
    "Diagnostics",
    "Embeddings",
    "make_embeddings",
    "preset_embeddings",
    "run_attention",
]
