"""Cross-attention in a decoder layer: the target attends to itself, then to the source.

The source is the learner's embedding matrix (the encoder's tokens); the target is a second,
shorter matrix (the decoder's tokens so far). A decoder layer runs, in order:

1. masked (causal) self-attention over the target;
2. cross-attention: queries from step 1's output, keys and values from the source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from attention_core.config import AttentionConfig, Matrix
from attention_core.embeddings import (
    TARGET_LABELS,
    TARGET_VALUES,
    Embeddings,
    computed_embeddings,
    make_embeddings,
)
from attention_core.knobs.table import SEED_MAX
from attention_core.pipeline import run_attention
from attention_core.trace import AttentionTrace
from attention_core.weights import identity_width_problem
from translation import ENGLISH

# The causal mask, the sliding window and RoPE pair positions of one sequence: step 2 of a
# decoder layer (two sequences) leaves them out; the padding mask hides the source's end.
SELF_ONLY = {"mask": "none", "window": 0, "rope": False, "custom_mask": None}


def target_labels(count: int, language: str = ENGLISH) -> tuple[str, ...]:
    """The target's labels when none are given: the starting words in ``language`` for the
    starting three rows, else y1, y2, ... (y for the decoder's output side)."""
    words = TARGET_LABELS.get(language, TARGET_LABELS[ENGLISH])
    if count == len(words):
        return words
    return tuple(f"y{i + 1}" for i in range(count))


def target_of(
    rows: Matrix | None, tokens: Sequence[str] | None, language: str = ENGLISH
) -> Embeddings:
    """The target as embeddings: the given rows (the starting ones if None) with the given
    labels (the language's or y1, y2, ... if None or not one per row)."""
    values = TARGET_VALUES if rows is None else rows
    labels = tuple(tokens) if tokens is not None and len(tokens) == len(values) else None
    return make_embeddings(labels or target_labels(len(values), language), values)


@dataclass(frozen=True)
class DecoderLayer:
    """The two attention steps of a decoder layer, in order, on the learner's two matrices.

    ``self_attention``: queries, keys and values from the target, causal mask.
    ``cross_attention``: queries from ``self_attention.output``, keys and values from the
    source; its trace holds the source (``source_inputs``) and its weights are
    (num_heads, target tokens, source tokens).
    ``left_out`` names the settings that step 2 does not apply (see :data:`SELF_ONLY`).
    """

    self_attention: AttentionTrace
    cross_attention: AttentionTrace
    left_out: tuple[str, ...]


def cross_config(config: AttentionConfig) -> tuple[AttentionConfig, tuple[str, ...]]:
    """Step 2's config: the same knobs with its own weights (drawn from the next seed, so
    the two layers' matrices differ), without what only self-attention has; and the names of
    the knobs so left out. The padding mask stays: it hides the source's last tokens."""
    left_out = [name for name in ("window", "rope") if getattr(config, name)]
    changes: dict[str, object] = {k: v for k, v in SELF_ONLY.items() if k != "mask"}
    if config.mask not in ("none", "padding"):
        left_out.insert(0, "mask")
        changes["mask"] = "none"
    changes["seed"] = (config.seed + 1) % (SEED_MAX + 1)
    return config.replace(**changes), tuple(left_out)


def decoder_problem(target: Embeddings, source: Embeddings, config: AttentionConfig) -> str | None:
    """Why the decoder layer cannot run on these two matrices with ``config`` (a sentence), or
    None: without projections step 2 scores the target's width against the source's."""
    if config.init != "identity":
        return None
    return identity_width_problem(target.d_in, source.d_in)


def decoder_layer(target: Embeddings, source: Embeddings, config: AttentionConfig) -> DecoderLayer:
    """Run step 1 (causal self-attention over the target) and step 2 (cross-attention from its
    output to the source) with the learner's knobs.

    Shapes:
        target: (num_target, d_target); source: (num_source, d_source)
        self_attention.weights: (num_heads, num_target, num_target)
        cross_attention.weights: (num_heads, num_target, num_source)
    """
    self_config = config.replace(mask="causal", custom_mask=None)
    first = run_attention(target, self_config)
    queries_input = computed_embeddings(target.tokens, first.output)  # (num_target, inner_dim)
    second_config, left_out = cross_config(config)
    second = run_attention(queries_input, second_config, source=source)
    return DecoderLayer(first, second, left_out)
