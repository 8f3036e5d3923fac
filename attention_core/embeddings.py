"""Input embeddings: the validated token matrix, the presets, and strict number parsing."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from attention_core.errors import AttentionInputError, tensor_of
from attention_core.formatting import counted
from attention_core.knobs.param import MAX_DIMS, MAX_TOKENS
from attention_core.knobs.table import SEED_MAX
from attention_core.knobs.text import linked_rows
from translation import _

PRESETS = ("journey", "zh_journey", "nugues", "montreal", "random")

# Seeds 000 and 004: "Your journey starts with one step", 3 dims per token.
JOURNEY_TOKENS = ("Your", "journey", "starts", "with", "one", "step")
JOURNEY_VALUES = (
    (0.43, 0.15, 0.89),
    (0.55, 0.87, 0.66),
    (0.57, 0.85, 0.64),
    (0.22, 0.58, 0.33),
    (0.77, 0.25, 0.10),
    (0.05, 0.80, 0.55),
)
# Cross-attention's starting target (not from a seed): near the source's "Your", "journey"
# and "starts", so that each target token finds its counterpart among the source's keys. Its
# labels in the page's language: a paraphrase in English, the translation in Chinese.
TARGET_VALUES = ((0.40, 0.20, 0.85), (0.52, 0.84, 0.70), (0.60, 0.80, 0.61))
TARGET_LABELS = {"en": ("Your", "trip", "begins"), "zh_CN": ("你的", "旅程", "开始")}
# The book's sentence in Chinese word order, "你的旅程从一步开始", each word with the
# embedding of its English counterpart (Your, journey, with, one, step, starts).
CHINESE_TOKENS = ("你的", "旅程", "从", "一", "步", "开始")
CHINESE_VALUES = tuple(
    JOURNEY_VALUES[JOURNEY_TOKENS.index(word)]
    for word in ("Your", "journey", "with", "one", "step", "starts")
)
# Seed 001: the 3 x 4 test matrix used to check nn.MultiheadAttention.
NUGUES_TOKENS = ("w1", "w2", "w3")
NUGUES_VALUES = ((1.0, 0.0, 0.0, 1.0), (0.0, 1.5, 1.0, 1.0), (0.0, 1.0, 1.0, 1.0))
# Seed 003: four tokens with 8-dimensional standard-normal vectors.
MONTREAL_TOKENS = ("I", "live", "in", "Montreal")


@dataclass(frozen=True)
class Embeddings:
    """Token labels and their embedding matrix, validated on construction.

    Shapes:
        values: (num_tokens, d_in)
    """

    tokens: tuple[str, ...]
    values: torch.Tensor

    def __post_init__(self) -> None:
        if self.values.dtype != torch.float32:
            raise AttentionInputError(
                _("the embedding matrix must be float32 (the weights' type), not {dtype}").format(
                    dtype=self.values.dtype
                )
            )
        if self.values.dim() != 2 or 0 in self.values.shape:
            raise AttentionInputError(
                _("the embedding matrix needs at least one row and one column")
            )
        if len(self.tokens) != self.values.shape[0]:
            raise AttentionInputError(
                _("{counted} for {counted2}: give one label per row").format(
                    counted=counted(len(self.tokens), "token label"),
                    counted2=counted(self.values.shape[0], "row"),
                )
            )
        bad = (~torch.isfinite(self.values)).nonzero()
        if len(bad):
            row, col = (int(i) for i in bad[0])
            raise AttentionInputError(
                _("row {row}, column {col} is not a finite number").format(row=row + 1, col=col + 1)
            )

    @property
    def num_tokens(self) -> int:
        """Number of tokens (rows)."""
        return int(self.values.shape[0])

    @property
    def d_in(self) -> int:
        """Embedding width (columns)."""
        return int(self.values.shape[1])

    def as_rows(self) -> tuple[tuple[float, ...], ...]:
        """The matrix as nested tuples of Python floats, as a link writes them.

        float32 stores 0.89 as 0.8899999857; rounding gives back the number a person typed.
        """
        return linked_rows(self.values.tolist())


def computed_embeddings(tokens: tuple[str, ...], values: torch.Tensor) -> Embeddings:
    """Embeddings the core computed (a layer's output feeding the next), not typed by a person:
    not checked for finite numbers, so that a pitfall's undefined weights carry on as NaN into
    the next layer, as they would in PyTorch, instead of stopping it.

    Shapes:
        values: (num_tokens, width)
    """
    embeddings = object.__new__(Embeddings)
    object.__setattr__(embeddings, "tokens", tuple(tokens))
    object.__setattr__(embeddings, "values", values)
    return embeddings


def make_embeddings(tokens: list[str] | tuple[str, ...], rows: object) -> Embeddings:
    """Build embeddings a person typed: nested numbers, 1-12 tokens and 1-16 dimensions.

    Larger matrices (benchmarks, a real model's hidden states) go straight to ``Embeddings``.
    """
    values = tensor_of(rows, torch.float32, _("the embedding matrix"))
    if values.dim() == 2:
        num_tokens, d_in = values.shape
        if not 1 <= num_tokens <= MAX_TOKENS:
            raise AttentionInputError(
                _("need 1 to {MAX_TOKENS} tokens, got {num_tokens}").format(
                    MAX_TOKENS=MAX_TOKENS, num_tokens=num_tokens
                )
            )
        if not 1 <= d_in <= MAX_DIMS:
            raise AttentionInputError(
                _("need 1 to {MAX_DIMS} dimensions per token, got {d_in}").format(
                    MAX_DIMS=MAX_DIMS, d_in=d_in
                )
            )
    return Embeddings(tuple(str(t) for t in tokens), values)


def preset_embeddings(name: str, seed: int = 123, num_tokens: int = 6, d_in: int = 3) -> Embeddings:
    """Return a named preset; ``montreal`` and ``random`` are drawn from a generator of ``seed``."""
    if name == "journey":
        return make_embeddings(JOURNEY_TOKENS, JOURNEY_VALUES)
    if name == "zh_journey":
        return make_embeddings(CHINESE_TOKENS, CHINESE_VALUES)
    if name == "nugues":
        return make_embeddings(NUGUES_TOKENS, NUGUES_VALUES)
    if not 0 <= seed <= SEED_MAX:
        raise AttentionInputError(
            _("seed must be between 0 and {SEED_MAX}, not {seed}").format(
                SEED_MAX=SEED_MAX, seed=seed
            )
        )
    generator = torch.Generator().manual_seed(seed)
    if name == "montreal":
        values = torch.randn(len(MONTREAL_TOKENS), 8, generator=generator)
        return Embeddings(MONTREAL_TOKENS, _round2(values))
    if name == "random":
        if not 1 <= num_tokens <= MAX_TOKENS or not 1 <= d_in <= MAX_DIMS:
            raise AttentionInputError(
                _(
                    "random preset needs 1-{MAX_TOKENS} tokens and 1-{MAX_DIMS} dims, got "
                    "{num_tokens} x {d_in}"
                ).format(MAX_TOKENS=MAX_TOKENS, MAX_DIMS=MAX_DIMS, num_tokens=num_tokens, d_in=d_in)
            )
        values = torch.rand(num_tokens, d_in, generator=generator)
        return Embeddings(tuple(f"t{i + 1}" for i in range(num_tokens)), _round2(values))
    raise AttentionInputError(
        _("preset must be one of {join}; got {name!r}").format(join=", ".join(PRESETS), name=name)
    )


def _round2(values: torch.Tensor) -> torch.Tensor:
    # Two decimals keep presets readable on screen and compact in a URL.
    return torch.round(values * 100) / 100


def display_labels(tokens: tuple[str, ...] | list[str]) -> list[str]:
    """Labels made unique for charts: a repeated label gets its 1-based position ("to·5")."""
    counts: dict[str, int] = {}
    for token in tokens:
        counts[token] = counts.get(token, 0) + 1
    return [t if counts[t] == 1 else f"{t}·{i + 1}" for i, t in enumerate(tokens)]
