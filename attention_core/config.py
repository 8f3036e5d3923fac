"""The one frozen configuration that holds every knob of the attention pipeline."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from attention_core.errors import AttentionInputError

INITS = ("book", "linear", "identity", "custom")
SCORINGS = ("dot", "cosine")
SCALINGS = ("none", "d", "sqrt_d")
NORMS = ("softmax", "naive_softmax", "sum", "none")
MASKS = ("none", "causal", "padding", "custom")
MASK_STRATEGIES = ("neg_inf", "zero_renorm", "zero_scores", "zero_no_renorm")
HEADS_LAYOUTS = ("split", "wrapper")
OUT_PROJS = ("seeded", "identity")

SEED_MAX = 2**32 - 1
D_OUT_RANGE = (1, 16)
HEADS_RANGE = (1, 8)
MAX_TOKENS = 32
MAX_DIMS = 16
CUSTOM_WEIGHT_LIMIT = 100.0

Matrix = tuple[tuple[float, ...], ...]
BoolMatrix = tuple[tuple[bool, ...], ...]


@dataclass(frozen=True)
class AttentionConfig:
    """Every knob of one attention run; validates itself on construction.

    Defaults reproduce the book's chapter 3 (seed 004): ``book`` init with seed 123,
    d_out 2, dot-product scores scaled by the square root of d_k, softmax, no mask.
    With ``init="identity"`` the width of queries is d_in, and with ``init="custom"`` it is the
    width of the given matrices; ``d_out`` is then not used.
    """

    d_out: int = 2
    init: str = "book"
    seed: int = 123
    scoring: str = "dot"
    scaling: str = "sqrt_d"
    norm: str = "softmax"
    mask: str = "none"
    mask_strategy: str = "neg_inf"
    padding: int = 0
    dropout: float = 0.0
    dropout_seed: int = 0
    train: bool = True
    heads: int = 1
    heads_layout: str = "split"
    out_proj: str = "seeded"
    custom_weights: tuple[Matrix, Matrix, Matrix] | None = None
    custom_mask: BoolMatrix | None = None

    def __post_init__(self) -> None:
        _check_int("d_out", self.d_out, *D_OUT_RANGE)
        _check_int("heads", self.heads, *HEADS_RANGE)
        _check_int("seed", self.seed, 0, SEED_MAX)
        _check_int("dropout_seed", self.dropout_seed, 0, SEED_MAX)
        _check_int("padding", self.padding, 0, MAX_TOKENS)
        for name, choices in (
            ("init", INITS),
            ("scoring", SCORINGS),
            ("scaling", SCALINGS),
            ("norm", NORMS),
            ("mask", MASKS),
            ("mask_strategy", MASK_STRATEGIES),
            ("heads_layout", HEADS_LAYOUTS),
            ("out_proj", OUT_PROJS),
        ):
            _check_choice(name, getattr(self, name), choices)
        if not isinstance(self.train, bool):
            raise AttentionInputError(f"train must be true or false, not {self.train!r}")
        _check_dropout(self.dropout)
        if self.heads_layout == "split" and self.init != "identity" and self.d_out % self.heads:
            raise AttentionInputError(
                f"d_out must be divisible by heads: {self.d_out} is not divisible by {self.heads}"
            )
        if self.init == "custom" and self.custom_weights is None:
            raise AttentionInputError("init 'custom' needs W_query, W_key and W_value")
        if self.mask == "custom" and self.custom_mask is None:
            raise AttentionInputError("mask 'custom' needs custom_mask (True = may attend)")

    @property
    def dropout_active(self) -> bool:
        """True when dropout will actually zero weights in this run."""
        return self.train and self.dropout > 0.0

    def replace(self, **changes: Any) -> AttentionConfig:
        """Return a copy with some fields changed (validated again)."""
        values = {field.name: getattr(self, field.name) for field in fields(self)}
        unknown = set(changes) - set(values)
        if unknown:
            raise AttentionInputError(f"unknown setting: {sorted(unknown)[0]}")
        values.update(changes)
        return AttentionConfig(**values)


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise AttentionInputError(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise AttentionInputError(f"{name} must be between {low} and {high}, not {value}")


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise AttentionInputError(f"{name} must be one of {', '.join(choices)}; got {value!r}")


def _check_dropout(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise AttentionInputError(f"dropout must be a number, not {value!r}")
    if not 0.0 <= float(value) < 1.0:
        raise AttentionInputError(f"dropout must satisfy 0 <= p < 1, not {value}")
