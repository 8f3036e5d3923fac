"""Seed 001's attention on real GloVe vectors, computed by ``attention_core``.

Seed 001 takes a sentence's GloVe vectors X (one 50-number row per word) and computes, with no
trainable weights:

- the cosine similarity of every pair of words, used directly as attention weights, and the
  contextual vectors (cos X Xᵀ) X;
- the scaled softmax weights softmax(X Xᵀ / √50) and the contextual vectors softmax(...) X.

Both are one ``run_attention`` call with the identity projection (queries = keys = values = X).
"""

from __future__ import annotations

from dataclasses import dataclass

from attention_core import AttentionConfig, Embeddings, run_attention
from attention_core.knobs.table import SENTENCE_TOKENS
from attention_core.trace import AttentionTrace
from real_model.glove import glove_vectors, split_words

# Cosine similarities as weights: cosine scores, not scaled, not normalised (rows do not sum to 1).
COSINE_AS_WEIGHTS = AttentionConfig(init="identity", scoring="cosine", scaling="none", norm="none")
# softmax(X Xᵀ / √d_k) with d_k = 50, the width of a GloVe vector.
SCALED_SOFTMAX = AttentionConfig(init="identity", scoring="dot", scaling="sqrt_d", norm="softmax")


@dataclass(frozen=True)
class GloveAttention:
    """One sentence's GloVe vectors and seed 001's two attentions over them.

    ``cosine.weights[0]`` is the cosine-similarity matrix and ``cosine.context`` its
    contextual vectors; ``softmax.weights[0]`` holds softmax(X Xᵀ / √50) and
    ``softmax.context`` the new contextual vectors. Row i is the word ``words[i]``.
    ``found`` counts the sentence's words found in GloVe: more than ``words`` when the
    sentence was cut.

    Shapes:
        embeddings.values: (num_words, 50)
        cosine.weights, softmax.weights: (1, num_words, num_words)
        cosine.context, softmax.context: (num_words, 50)
    """

    sentence: str
    words: tuple[str, ...]
    unknown: tuple[str, ...]
    found: int
    embeddings: Embeddings
    cosine: AttentionTrace
    softmax: AttentionTrace

    def focus_index(self, word: str) -> int:
        """Position of the first occurrence of ``word`` (any case), or 0 when it is absent."""
        lowered = word.strip().lower()
        return self.words.index(lowered) if lowered in self.words else 0


def glove_attention(sentence: str) -> GloveAttention:
    """Split ``sentence`` as seed 001 does, look its words up in GloVe, run both attentions.

    Unknown words are left out of the matrices and listed in ``unknown``; of the known words,
    the first ``SENTENCE_TOKENS`` (the parameter table's limit, as page 10 cuts its tokens)
    are used.

    Raises:
        AttentionInputError: when the sentence has no word GloVe knows.
    """
    every, unknown = glove_vectors(split_words(sentence))
    embeddings = Embeddings(
        every.tokens[:SENTENCE_TOKENS], every.values[:SENTENCE_TOKENS]
    )  # (min(found, SENTENCE_TOKENS), 50)
    return GloveAttention(
        sentence=sentence,
        words=embeddings.tokens,
        unknown=tuple(unknown),
        found=every.num_tokens,
        embeddings=embeddings,
        cosine=run_attention(embeddings, COSINE_AS_WEIGHTS),
        softmax=run_attention(embeddings, SCALED_SOFTMAX),
    )
