"""The memory estimators of the book's chapter 4 bonus material, stated again from their
description (rasbt/LLMs-from-scratch), as plain functions of the scripts' own arguments.

- ``memory_estimator_gqa.py`` / ``memory_estimator_mla.py``: head_dim is emb_dim / n_heads
  rounded up; MHA keeps n_heads K/V heads, GQA n_heads // n_kv_groups of them; each layer
  keeps batch × context × head_dim × kv_heads × 2 (a key and a value) × bytes. MLA keeps one
  latent of latent_dim numbers per token and layer.
- ``memory_estimator_swa.py``: "a:b" gives a sliding-window layers for every b full ones;
  whole blocks first, the rest goes to sliding-window layers first; a sliding-window layer
  keeps min(context, window) tokens.
- ``plot_memory_estimates_gated_deltanet.py``: head width emb_dim // n_heads (rounded down);
  a DeltaNet layer keeps a head_dim × head_dim state per head, no matter the context; the
  3:1 mix has n_layers / 4 full-attention layers (a fraction when 4 does not divide them).
"""

from __future__ import annotations

BYTES = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1}


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def mha_gqa_mla(
    context_length, emb_dim, n_heads, n_layers, n_kv_groups, latent_dim, batch_size, dtype
) -> dict[str, int]:
    """memory_estimator_mla.py's three totals (its MHA and GQA are memory_estimator_gqa.py's)."""
    width = _ceil_div(emb_dim, n_heads)
    per_head_token = batch_size * context_length * width * 2 * BYTES[dtype] * n_layers
    return {
        "mha": per_head_token * n_heads,
        "gqa": per_head_token * (n_heads // n_kv_groups),
        "mla": batch_size * context_length * n_layers * latent_dim * BYTES[dtype],
    }


def swa(
    context_length,
    sliding_window_size,
    emb_dim,
    n_heads,
    n_layers,
    n_kv_groups,
    batch_size,
    dtype,
    swa_ratio,
) -> dict[str, int]:
    """memory_estimator_swa.py's mixed totals."""
    a, b = (int(x) for x in swa_ratio.split(":"))
    n_swa = (n_layers // (a + b)) * a + min(a, n_layers % (a + b))
    n_full = n_layers - n_swa
    width = _ceil_div(emb_dim, n_heads)
    seen = min(context_length, sliding_window_size)
    totals = {}
    for name, kv in (("mha_swa", n_heads), ("gqa_swa", n_heads // n_kv_groups)):
        one = batch_size * width * kv * 2 * BYTES[dtype]
        totals[name] = one * (n_swa * seen + n_full * context_length)
    return totals


def deltanet(batch, context_length, emb_dim, n_heads, n_layers, dtype) -> dict[str, float]:
    """plot_memory_estimates_gated_deltanet.py's DeltaNet line and 3:1 mix at one context."""
    width = emb_dim // n_heads
    state = batch * n_heads * width * width * BYTES[dtype]
    cache = batch * context_length * n_heads * width * 2 * BYTES[dtype]
    full_layers = n_layers / 4
    return {
        "deltanet": state * n_layers,
        "deltanet_mix": cache * full_layers + state * (n_layers - full_layers),
    }
