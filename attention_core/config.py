"""The one frozen configuration that holds every knob of the attention pipeline."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from attention_core.errors import AttentionInputError
from attention_core.knobs.table import CONFIG_PARAMS, DEFAULTS, PARAMS
from translation import _

CUSTOM_WEIGHT_LIMIT = 100.0

Matrix = tuple[tuple[float, ...], ...]
BoolMatrix = tuple[tuple[bool, ...], ...]


@dataclass(frozen=True)
class AttentionConfig:
    """Every knob of one attention run; validates itself on construction.

    Defaults, limits and choices come from the parameter table (:mod:`attention_core.knobs.table`).
    The defaults reproduce the book's chapter 3 (seed 004): ``book`` init with seed 123,
    d_out 2, dot-product scores scaled by the square root of d_k, softmax, no mask, no biases
    and no output projection.
    With ``init="identity"`` the width of queries is d_in, and with ``init="custom"`` it is the
    width of the given matrices; ``d_out`` is then not used.
    """

    d_out: int = DEFAULTS["d_out"]
    init: str = DEFAULTS["init"]
    seed: int = DEFAULTS["seed"]
    heads: int = DEFAULTS["heads"]
    scaling: str = DEFAULTS["scaling"]
    mask: str = DEFAULTS["mask"]
    padding: int = DEFAULTS["padding"]
    dropout: float = DEFAULTS["dropout"]
    train: bool = DEFAULTS["train"]
    dropout_seed: int = DEFAULTS["dropout_seed"]
    scoring: str = DEFAULTS["scoring"]
    norm: str = DEFAULTS["norm"]
    mask_strategy: str = DEFAULTS["mask_strategy"]
    heads_layout: str = DEFAULTS["heads_layout"]
    qkv_bias: bool = DEFAULTS["qkv_bias"]
    out_proj: str = DEFAULTS["out_proj"]
    kv_groups: int = DEFAULTS["kv_groups"]
    window: int = DEFAULTS["window"]
    rope: bool = DEFAULTS["rope"]
    rope_base: int = DEFAULTS["rope_base"]
    custom_weights: tuple[Matrix, Matrix, Matrix] | None = None
    custom_mask: BoolMatrix | None = None

    def __post_init__(self) -> None:
        for name in CONFIG_PARAMS:
            PARAMS[name].check(getattr(self, name))
        if self.init == "custom" and self.custom_weights is None:
            raise AttentionInputError(_("init 'custom' needs W_query, W_key and W_value"))
        if self.mask == "custom" and self.custom_mask is None:
            raise AttentionInputError(_("mask 'custom' needs custom_mask (True = may attend)"))
        # d_out sets the width only for drawn weights (identity and typed ones bring theirs).
        drawn = self.init not in ("identity", "custom")
        if self.heads_layout == "split" and drawn and self.d_out % self.heads:
            raise AttentionInputError(
                _("d_out must be divisible by heads: {d_out} is not divisible by {heads}").format(
                    d_out=self.d_out, heads=self.heads
                )
            )
        if self.kv_groups and self.heads % self.kv_groups:
            raise AttentionInputError(
                _(
                    "kv_groups must divide heads: {heads} heads cannot share keys and values in "
                    "{kv_groups} equal groups"
                ).format(heads=self.heads, kv_groups=self.kv_groups)
            )

    @property
    def dropout_active(self) -> bool:
        """True when dropout will actually zero weights in this run."""
        return self.train and self.dropout > 0.0

    def replace(self, **changes: Any) -> AttentionConfig:
        """Return a copy with some fields changed (validated again)."""
        values = {field.name: getattr(self, field.name) for field in fields(self)}
        unknown = set(changes) - set(values)
        if unknown:
            raise AttentionInputError(_("unknown setting: {name}").format(name=sorted(unknown)[0]))
        values.update(changes)
        return AttentionConfig(**values)
