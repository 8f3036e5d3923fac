"""How many bytes a model's attention keeps while it generates: the KV cache of multi-head,
grouped-query and latent attention, of sliding windows, and gated DeltaNet's fixed state.

The formulas follow the estimator scripts of the book's chapter 4 bonus material
(rasbt/LLMs-from-scratch: ch04/04_gqa, ch04/05_mla, ch04/06_swa and ch04/08_deltanet), so that
the same arguments give the same bytes. Two of the scripts' conventions are kept on purpose:
the K/V cache scripts round head_dim up (``ceil(emb_dim / n_heads)``) while the DeltaNet plot
rounds it down, and the scripts' ``--n_kv_groups`` is the number of query heads that share one
K/V head (``n_kv_heads = n_heads // n_kv_groups``), not the number of K/V heads.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from attention_core.errors import AttentionInputError
from translation import _

# Bytes per number of each data type the scripts accept.
DTYPE_BYTES = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1}
# The SWA script's layer ratios offered ("a:b": a sliding-window layers for every b full ones).
SWA_RATIOS = ("1:0", "5:1", "3:1", "1:1", "1:5", "0:1")
DELTANET_SHARE = 4  # the DeltaNet plot's mix: 3 DeltaNet layers for each full-attention one
GIGABYTE = 1000**3  # the scripts print decimal gigabytes


@dataclass(frozen=True)
class ModelSize:
    """A model's shape as the learner types it; validates itself."""

    context_length: int
    emb_dim: int
    n_heads: int
    n_layers: int
    kv_heads: int  # K/V heads of grouped-query attention
    latent_dim: int  # MLA's per-token latent width
    window: int  # the sliding window's size
    swa_ratio: str  # "a:b", a SWA layers for every b full ones
    dtype: str
    batch_size: int

    def __post_init__(self) -> None:
        if self.n_heads % self.kv_heads:
            raise AttentionInputError(
                _(
                    "n_kv_heads must divide n_heads: {heads} heads cannot share {kv} K/V heads "
                    "equally"
                ).format(heads=self.n_heads, kv=self.kv_heads)
            )
        if self.dtype not in DTYPE_BYTES or self.swa_ratio not in SWA_RATIOS:
            raise AttentionInputError(_("unknown data type or layer ratio"))

    @property
    def bytes_per_number(self) -> int:
        return DTYPE_BYTES[self.dtype]

    @property
    def head_dim(self) -> int:
        """The K/V scripts' head width: emb_dim / n_heads rounded up."""
        return math.ceil(self.emb_dim / self.n_heads)

    @property
    def group_size(self) -> int:
        """Query heads per K/V head: what the scripts call ``--n_kv_groups``."""
        return self.n_heads // self.kv_heads

    @property
    def swa_layers(self) -> tuple[int, int]:
        """(sliding-window layers, full layers): whole blocks of the ratio, then the rest
        filled with sliding-window layers first, as the SWA script distributes them."""
        swa, full = (int(part) for part in self.swa_ratio.split(":"))
        blocks, rest = divmod(self.n_layers, swa + full)
        return blocks * swa + min(swa, rest), blocks * full + max(0, rest - swa)


@dataclass(frozen=True)
class MemoryEstimate:
    """The bytes each kind of attention keeps for the whole model (all layers, the batch)."""

    size: ModelSize
    mha: int  # every head caches its key and value
    gqa: int  # one key and value per K/V head
    mla: int  # one latent per token
    mha_swa: int  # MHA with the sliding-window layers caching only the window
    gqa_swa: int  # the same with grouped K/V heads
    deltanet: int  # every layer a gated DeltaNet: one state matrix per head
    deltanet_mix: float  # 3 DeltaNet layers for each MHA layer (a float, as in the plot)

    def ratio(self, name: str) -> float:
        """How many times smaller than MHA's cache ``name``'s is (∞ for nothing kept)."""
        other = getattr(self, name)
        return self.mha / other if other else math.inf

    def saving(self, name: str) -> float:
        """The share of MHA's cache that ``name`` saves, 0..1."""
        return 1 - getattr(self, name) / self.mha if self.mha else 0.0


def kv_cache_bytes(size: ModelSize, kv_heads: int, tokens: int, layers: float) -> float:
    """A key and a value per K/V head, per cached token, per layer, for the whole batch."""
    per_layer = size.batch_size * tokens * size.head_dim * kv_heads * 2 * size.bytes_per_number
    return per_layer * layers


def estimate(size: ModelSize) -> MemoryEstimate:
    """Every kind of attention's memory for ``size``."""
    full = size.context_length
    window = min(full, size.window)
    swa_layers, full_layers = size.swa_layers
    number = size.bytes_per_number
    mixed = [
        int(
            kv_cache_bytes(size, kv, window, swa_layers)
            + kv_cache_bytes(size, kv, full, full_layers)
        )
        for kv in (size.n_heads, size.kv_heads)
    ]
    state_dim = size.emb_dim // size.n_heads  # the DeltaNet plot rounds down
    state_per_layer = size.batch_size * size.n_heads * state_dim * state_dim * number
    mha_layers = size.n_layers / DELTANET_SHARE
    mha_per_layer = size.batch_size * full * size.n_heads * state_dim * 2 * number
    return MemoryEstimate(
        size=size,
        mha=int(kv_cache_bytes(size, size.n_heads, full, size.n_layers)),
        gqa=int(kv_cache_bytes(size, size.kv_heads, full, size.n_layers)),
        mla=size.batch_size * full * size.n_layers * size.latent_dim * number,
        mha_swa=mixed[0],
        gqa_swa=mixed[1],
        deltanet=state_per_layer * size.n_layers,
        deltanet_mix=mha_per_layer * mha_layers + state_per_layer * (size.n_layers - mha_layers),
    )


def gigabytes(count: float) -> str:
    """Bytes as the scripts print them: decimal gigabytes, two decimals ("3.25 GB")."""
    return f"{count / GIGABYTE:,.2f} GB"


def book_commands(size: ModelSize) -> dict[str, str]:
    """The book's scripts run with the same model, keyed by what they estimate."""
    common = (
        f"--context_length {size.context_length} --emb_dim {size.emb_dim} "
        f"--n_heads {size.n_heads} --n_layers {size.n_layers} "
        f"--n_kv_groups {size.group_size} --batch_size {size.batch_size} --dtype {size.dtype}"
    )
    return {
        "mla": f"uv run memory_estimator_mla.py {common} --latent_dim {size.latent_dim}",
        "swa": (
            f"uv run memory_estimator_swa.py {common} --sliding_window_size {size.window} "
            f"--swa_ratio {size.swa_ratio}"
        ),
        "deltanet": (
            f"uv run plot_memory_estimates_gated_deltanet.py --batch {size.batch_size} "
            f"--emb_dim {size.emb_dim} --n_heads {size.n_heads} --n_layers {size.n_layers} "
            f"--dtype {size.dtype} --max_ctx {size.context_length}"
        ),
    }


def model_size(values: Mapping[str, Any]) -> ModelSize:
    """The calculator's knobs (named as the book's scripts' arguments) as a model size."""
    return ModelSize(
        context_length=values["context_length"],
        emb_dim=values["emb_dim"],
        n_heads=values["n_heads"],
        n_layers=values["n_layers"],
        kv_heads=values["n_kv_heads"],
        latent_dim=values["latent_dim"],
        window=values["sliding_window_size"],
        swa_ratio=values["swa_ratio"],
        dtype=values["dtype"],
        batch_size=values["batch_size"],
    )
