"""What the real-sentences page shows: embeddings, two contexts, and one head reproduced."""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from attention_core import AttentionConfig, AttentionInputError, Embeddings, run_attention
from attention_core.knobs.table import SENTENCE_TOKENS
from attention_core.trace import AttentionTrace
from real_model.loader import LoadedModel
from translation import _

HEAD_TOLERANCE = 1e-5  # float32 recomputation: MiniLM heads agree to ~4e-7
SIMPLIFIED = AttentionConfig(init="identity", scaling="sqrt_d")  # seed 001's self-attention


def encode(loaded: LoadedModel, sentence: str) -> tuple[list[str], dict[str, torch.Tensor]]:
    """The model's own tokens (with its special tokens): the first ``SENTENCE_TOKENS`` (the
    parameter table's limit, as page 9 cuts its words), [SEP] last."""
    batch = loaded.tokenizer(
        sentence, return_tensors="pt", truncation=True, max_length=SENTENCE_TOKENS
    )
    tokens = loaded.tokenizer.convert_ids_to_tokens(batch["input_ids"][0].tolist())
    return list(tokens), dict(batch)


def token_count(loaded: LoadedModel, sentence: str) -> int:
    """How many tokens the model splits ``sentence`` into, its special tokens included, before
    :func:`encode` cuts it."""
    return len(loaded.tokenizer(sentence)["input_ids"])


@torch.inference_mode()
def _run(loaded: LoadedModel, batch: dict[str, torch.Tensor]):
    return loaded.model(**batch, output_attentions=True, output_hidden_states=True)


@torch.inference_mode()
def noncontextual_embeddings(loaded: LoadedModel, sentence: str) -> Embeddings:
    """Rows of the model's input embedding table for the sentence's tokens (no context yet).

    Shapes:
        values: (num_tokens, hidden_size)
    """
    tokens, batch = encode(loaded, sentence)
    table = loaded.model.get_input_embeddings().weight  # (vocab_size, hidden_size)
    return Embeddings(tuple(tokens), table[batch["input_ids"][0]].detach().clone().float())


@dataclass(frozen=True)
class WordComparison:
    """One word in two sentences: how far context moved it, and what it attends to."""

    word: str
    contextual_cosine: float
    noncontextual_cosine: float
    top_a: tuple[tuple[str, float], ...]
    top_b: tuple[tuple[str, float], ...]


def compare_word(
    loaded: LoadedModel, sentence_a: str, sentence_b: str, word: str
) -> WordComparison:
    """Cosine of a word's contextual vectors in two sentences, and its top-3 attended tokens.

    Raises:
        AttentionInputError: when the word is not one of the model's tokens in both sentences.
    """
    contextual, noncontextual, tops = [], [], []
    for sentence in (sentence_a, sentence_b):
        tokens, batch = encode(loaded, sentence)
        if word not in tokens:
            raise AttentionInputError(
                _("“{word}” is not one of the model's tokens in “{sentence}”").format(
                    word=word, sentence=sentence
                )
            )
        index = tokens.index(word)
        contextual.append(_run(loaded, batch).last_hidden_state[0, index])
        embeddings = noncontextual_embeddings(loaded, sentence)
        noncontextual.append(embeddings.values[index])
        weights = run_attention(embeddings, SIMPLIFIED).weights[0, index]
        best = torch.topk(weights, k=min(3, len(tokens)))
        tops.append(
            tuple(
                (tokens[i], float(w))
                for w, i in zip(best.values.tolist(), best.indices.tolist(), strict=True)
            )
        )
    return WordComparison(
        word,
        float(F.cosine_similarity(contextual[0], contextual[1], dim=0)),
        float(F.cosine_similarity(noncontextual[0], noncontextual[1], dim=0)),
        tops[0],
        tops[1],
    )


@dataclass(frozen=True)
class HeadReproduction:
    """One real head recomputed by the core, beside the attention the model reports."""

    layer: int
    head: int
    tokens: tuple[str, ...]
    trace: AttentionTrace
    model_weights: torch.Tensor  # (num_tokens, num_tokens)

    @property
    def max_diff(self) -> float:
        """Largest absolute difference between our weights and the model's."""
        return float((self.trace.weights[0] - self.model_weights).abs().max())

    @property
    def matches(self) -> bool:
        """True only when every weight agrees to 1e-5 (False for NaN)."""
        return self.max_diff <= HEAD_TOLERANCE


@torch.inference_mode()
def reproduce_head(loaded: LoadedModel, sentence: str, layer: int, head: int) -> HeadReproduction:
    """Recompute head ``head`` of layer ``layer`` (0-based) with ``attention_core``.

    The layer's input hidden states get a column of ones, and each of the head's weight
    matrices gets its bias as an extra row, so x·W + b becomes [x, 1]·[W; b]: the core's
    custom init then computes exactly the model's queries, keys and values.
    """
    tokens, batch = encode(loaded, sentence)
    outputs = _run(loaded, batch)
    hidden = outputs.hidden_states[layer][0]  # (num_tokens, hidden_size)
    attention = loaded.model.encoder.layer[layer].attention.self
    head_dim = hidden.shape[1] // loaded.num_heads
    rows = slice(head * head_dim, (head + 1) * head_dim)
    matrices = tuple(
        _with_bias(getattr(attention, name), rows) for name in ("query", "key", "value")
    )
    inputs = torch.cat([hidden, torch.ones(hidden.shape[0], 1)], dim=1)  # (tokens, hidden + 1)
    config = AttentionConfig(init="custom", custom_weights=matrices, scaling="sqrt_d")
    trace = run_attention(Embeddings(tuple(tokens), inputs.float()), config)
    return HeadReproduction(layer, head, tuple(tokens), trace, outputs.attentions[layer][0, head])


def _with_bias(linear: torch.nn.Linear, rows: slice) -> tuple[tuple[float, ...], ...]:
    """One head's slice of a projection as a (hidden + 1, head_dim) matrix, bias last."""
    weight = linear.weight[rows].T  # (hidden_size, head_dim)
    bias = (
        linear.bias[rows].unsqueeze(0)
        if linear.bias is not None
        else torch.zeros(1, weight.shape[1])
    )
    return tuple(tuple(row) for row in torch.cat([weight, bias]).tolist())
