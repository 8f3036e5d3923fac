"""The memory calculator's numbers as the command line prints them, with the book's scripts'
equivalent commands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attention_core.memory_estimates import (
    DTYPE_BYTES,
    MemoryEstimate,
    book_commands,
    estimate,
    gigabytes,
    model_size,
)
from translation import _

# The calculator's knobs: the same names as the book's scripts' arguments.
MEMORY_FLAGS = (
    "context_length",
    "emb_dim",
    "n_heads",
    "n_layers",
    "n_kv_heads",
    "latent_dim",
    "sliding_window_size",
    "swa_ratio",
    "dtype",
    "batch_size",
)


def memory_rows(result: MemoryEstimate) -> list[tuple[str, float, float]]:
    """(the kind of attention in the learner's words, bytes, its share of MHA's bytes), in
    the order a page lists them."""
    size = result.size
    rows = [
        (_("multi-head attention (MHA)"), result.mha),
        (_("grouped-query attention ({kv} K/V heads)").format(kv=size.kv_heads), result.gqa),
        (_("latent attention (MLA, latent {width})").format(width=size.latent_dim), result.mla),
        (_("MHA with a sliding window ({ratio})").format(ratio=size.swa_ratio), result.mha_swa),
        (_("GQA with a sliding window ({ratio})").format(ratio=size.swa_ratio), result.gqa_swa),
        (_("gated DeltaNet in every layer (its state)"), result.deltanet),
        (_("3 gated DeltaNet layers : 1 MHA layer"), result.deltanet_mix),
    ]
    return [(name, count, count / result.mha if result.mha else 0.0) for name, count in rows]


def render_memory(values: Mapping[str, Any]) -> str:
    """The calculator's bytes for the knobs in ``values`` and the scripts' commands."""
    result = estimate(model_size(values))
    size = result.size
    lines = [
        _(
            "memory kept while generating {tokens} tokens: all {layers} layers, batch {batch}, "
            "{dtype} ({bytes} bytes a number)"
        ).format(
            tokens=size.context_length,
            layers=size.n_layers,
            batch=size.batch_size,
            dtype=size.dtype,
            bytes=DTYPE_BYTES[size.dtype],
        )
    ]
    rows = memory_rows(result)
    width = max(len(name) for name, _bytes, _share in rows)
    for name, count, _share in rows:
        lines.append(f"  {name.ljust(width)}  {count:>20,.0f} B  {gigabytes(count):>12}")
    lines += ["", _("the same with the book's scripts (chapter 4's bonus material):")]
    lines += [f"  {command}" for command in book_commands(size).values()]
    return "\n".join(lines)
