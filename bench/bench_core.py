"""Benchmark of the attention core against F.scaled_dot_product_attention, measured side by side.

Run: python bench/bench_core.py [--repeats 200]
Prints medians and ratios; timings never go into the test suite.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from attention_core import AttentionConfig, Embeddings, preset_embeddings, run_attention


def median_ms(function: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``function`` in milliseconds, after a short warm-up."""
    for _ in range(5):
        function()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def large_case(num_tokens: int, dims: int) -> tuple[Embeddings, torch.Tensor]:
    generator = torch.Generator().manual_seed(num_tokens)
    values = torch.randn(num_tokens, dims, generator=generator)
    return Embeddings(tuple(f"t{i}" for i in range(num_tokens)), values), values


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=200)
    repeats = parser.parse_args().repeats
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, 1 thread, {platform.processor() or platform.machine()}")

    toy = preset_embeddings("journey")
    config = AttentionConfig()
    toy_ms = median_ms(lambda: run_attention(toy, config), repeats)
    print(f"toy trace (6 tokens x 3 dims, book defaults): median {toy_ms:.3f} ms")

    identity = AttentionConfig(init="identity")  # queries = keys = values = inputs
    for num_tokens in (128, 512):
        embeddings, values = large_case(num_tokens, 64)
        batch = values.unsqueeze(0)
        ours = median_ms(partial(run_attention, embeddings, identity), max(repeats // 4, 1))
        ref = median_ms(
            partial(F.scaled_dot_product_attention, batch, batch, batch), max(repeats // 4, 1)
        )
        print(
            f"{num_tokens} tokens x 64 dims: core {ours:.3f} ms, "
            f"F.scaled_dot_product_attention {ref:.3f} ms, ratio {ours / ref:.2f}x"
        )


if __name__ == "__main__":
    main()
