"""The parameter table's rows for the lesson on attention that saves memory: the latent width
and FlashAttention's tiles on the learner's matrix, and the memory calculator's model size.

The calculator's knobs carry the names of the book's estimator scripts' arguments (with
``n_kv_heads`` for the K/V heads: the scripts' ``--n_kv_groups`` counts query heads per K/V
head). Their defaults are the MLA script's example in its README.
"""

from __future__ import annotations

from attention_core.knobs.param import MAX_TOKENS, Param
from attention_core.memory_estimates import DTYPE_BYTES, SWA_RATIOS
from translation import N_

PAGE = "13_Saving_memory"
MAX_STEPS = MAX_TOKENS * MAX_TOKENS  # one step per pair of tiles, one-row tiles at most


def _whole(
    name: str, default: int, label: str, help: str, high: int, widget: str, **more: object
) -> Param:
    """A whole number of this lesson from 1 (or ``low``) to ``high``."""
    more.setdefault("low", 1)
    return Param(
        name,
        "int",
        default,
        label,
        help,
        "lesson",
        high=high,
        step=1,
        widget=widget,
        page=PAGE,
        **more,
    )


def _count(name: str, default: int, label: str, help: str, high: int, low: int = 1) -> Param:
    """A whole number the learner types (the calculator's model size)."""
    return _whole(name, default, label, help, high, "number", low=low)


def _choose(name: str, default: int, label: str, help: str, high: int, **more: object) -> Param:
    """A whole number the learner picks from a list, or steps through."""
    return _whole(name, default, label, help, high, "select", **more)


MEMORY_ROWS = (
    _choose(
        "latent_width",
        2,
        N_("latent width"),
        N_(
            "Multi-head latent attention: how many numbers each token's latent holds. Keys and "
            "values are rebuilt from it, and the cache keeps only it."
        ),
        16,
    ),
    _choose(
        "tile_queries",
        2,
        N_("query tile (rows)"),
        N_("FlashAttention: how many queries one tile holds."),
        MAX_TOKENS,
    ),
    _choose(
        "tile_keys",
        2,
        N_("key tile (rows)"),
        N_("FlashAttention: how many keys and values one tile holds."),
        MAX_TOKENS,
    ),
    _choose(
        "tile_step",
        1,
        N_("Tile step"),
        N_(
            "Visit one pair of tiles at a time: the Previous and Next buttons, or the ← and → "
            "keys. The key tiles of a query tile come one after the other."
        ),
        MAX_STEPS,
    ),
    _choose(
        "delta_step",
        1,
        N_("Token"),
        N_(
            "Feed the tokens to gated DeltaNet one at a time: the Previous and Next buttons. "
            "Step n updates the state with token n."
        ),
        MAX_TOKENS,
        tokens="index",
    ),
    _count(
        "context_length",
        8192,
        N_("context length (tokens)"),
        N_("How many tokens the model keeps in its cache."),
        10_000_000,
    ),
    _count("emb_dim", 2048, N_("embedding width"), N_("Numbers per token (emb_dim)."), 1_000_000),
    _count("n_heads", 24, N_("heads"), N_("Attention heads per layer."), 4096),
    _count(
        "n_layers", 48, N_("layers"), N_("Transformer blocks, each with its own cache."), 10_000
    ),
    _count(
        "n_kv_heads",
        6,
        N_("K/V heads (grouped-query attention)"),
        N_("How many key/value heads the heads share; it must divide the heads."),
        4096,
    ),
    _count(
        "latent_dim",
        1024,
        N_("latent width (MLA)"),
        N_("Numbers in each token's latent, cached instead of its keys and values."),
        1_000_000,
    ),
    _count(
        "sliding_window_size",
        1024,
        N_("sliding window (tokens)"),
        N_("How many tokens a sliding-window layer keeps."),
        10_000_000,
    ),
    Param(
        "swa_ratio",
        "choice",
        "1:0",
        N_("sliding-window : full layers"),
        N_(
            "For every a sliding-window layers, b layers see every token (Gemma 3 uses 5:1); "
            "1:0 makes every layer a sliding-window one."
        ),
        "lesson",
        choices=SWA_RATIOS,
        widget="select",
        page=PAGE,
    ),
    Param(
        "dtype",
        "choice",
        "bf16",
        N_("number type"),
        N_("How each number is stored: fp32 takes 4 bytes, bf16 and fp16 2, fp8 and int8 1."),
        "lesson",
        choices=tuple(DTYPE_BYTES),
        choice_labels=(
            N_("fp32 · 4 bytes"),
            N_("bf16 · 2 bytes"),
            N_("fp16 · 2 bytes"),
            N_("fp8 · 1 byte"),
            N_("int8 · 1 byte"),
        ),
        widget="select",
        page=PAGE,
    ),
    _count("batch_size", 1, N_("batch"), N_("Texts generated at once, each with its cache."), 4096),
)
