"""Latent attention, gated attention, gated DeltaNet and FlashAttention's tiles in the core,
against the book's classes (re-written in reference_latest.py, the same weights copied in)
and against F.scaled_dot_product_attention, over random configurations."""

from __future__ import annotations

import random

import pytest
import torch
import torch.nn.functional as F

from attention_core import AttentionConfig, AttentionInputError, preset_embeddings, run_attention
from attention_core.flash_tiles import head_inputs, tiled_attention
from attention_core.gated_deltanet import gated_attention, gated_deltanet
from attention_core.latent_attention import latent_attention
from attention_core.weights import Layer
from tests.core.reference_book import global_seed
from tests.core.reference_latest import (
    GatedDeltaNet,
    GatedMultiHeadAttention,
    MultiHeadLatentAttention,
)
from tests.core.test_variants import random_embeddings

MATCH = 1e-5


def random_cases(count: int, seed: int) -> list[tuple[int, int, int, int, bool, int]]:
    """(num_tokens, d_in, heads, head_dim, qkv_bias, seed) drawn from a fixed seed."""
    draw = random.Random(seed)
    return [
        (
            draw.randint(1, 9),
            draw.randint(1, 6),
            draw.choice((1, 2, 4)),
            draw.choice((1, 2)),
            draw.random() < 0.5,
            draw.randint(0, 10_000),
        )
        for _ in range(count)
    ]


def config_of(heads: int, head_dim: int, bias: bool, seed: int, **extra) -> AttentionConfig:
    return AttentionConfig(
        init="linear",
        seed=seed,
        d_out=heads * head_dim,
        heads=heads,
        qkv_bias=bias,
        out_proj="linear",
        scaling="sqrt_d",
        **extra,
    )


@torch.no_grad()
def put(layer: torch.nn.Linear, ours: Layer) -> None:
    layer.weight.copy_(ours[0].T)
    if ours[1] is not None:
        layer.bias.copy_(ours[1])
    else:
        assert layer.bias is None


@pytest.mark.parametrize("case", random_cases(6, 56))
def test_latent_attention_equals_the_books_class_with_and_without_its_cache(case):
    num_tokens, d_in, heads, head_dim, bias, seed = case
    latent_dim = 1 + seed % 5
    embeddings = random_embeddings(num_tokens, d_in, seed)
    trace = run_attention(embeddings, config_of(heads, head_dim, bias, seed))
    ours = latent_attention(embeddings, trace, latent_dim)
    with global_seed(0):
        book = MultiHeadLatentAttention(d_in, heads * head_dim, 0.0, heads, bias, latent_dim)
    for name in ("W_query", "W_DKV", "W_UK", "W_UV"):
        put(getattr(book, name), getattr(ours.layers, name))
    put(book.out_proj, ours.layers.W_out)
    with torch.no_grad():
        full = book(embeddings.values[None])[0]
        cached = torch.cat(
            [book(embeddings.values[None, t : t + 1], use_cache=True)[0] for t in range(num_tokens)]
        )
        latents = book.cache_c_kv[0]
    torch.testing.assert_close(ours.output, full, atol=MATCH, rtol=0)
    torch.testing.assert_close(
        torch.stack([s.output for s in ours.steps]), cached, atol=MATCH, rtol=0
    )
    torch.testing.assert_close(ours.steps[-1].cache, latents, atol=MATCH, rtol=0)
    assert ours.max_difference < MATCH
    assert ours.steps[-1].cache.shape == (num_tokens, latent_dim)  # the cache holds latents
    assert ours.numbers_per_token(heads) == 2 * heads * head_dim
    assert ours.numbers_per_token() == latent_dim
    assert ours.steps[-1].cache_bytes == num_tokens * latent_dim * 4


@pytest.mark.parametrize("case", random_cases(5, 57))
def test_gated_attention_equals_the_books_class(case):
    num_tokens, d_in, heads, head_dim, bias, seed = case
    embeddings = random_embeddings(num_tokens, d_in, seed)
    config = config_of(heads, head_dim, bias, seed, dropout=0.3, train=True)  # dropout ignored
    ours = gated_attention(embeddings, config)
    trace = run_attention(embeddings, config.replace(mask="causal", train=False))
    with global_seed(0):
        book = GatedMultiHeadAttention(d_in, heads * head_dim, num_tokens, 0.0, heads, bias)
    for name, weight, b in (
        ("W_query", trace.W_query, trace.b_query),
        ("W_key", trace.W_key, trace.b_key),
        ("W_value", trace.W_value, trace.b_value),
        ("out_proj", trace.W_out, trace.b_out),
    ):
        put(getattr(book, name), (weight, b))
    put(book.W_gate, ours.W_gate)
    with torch.no_grad():
        expected = book(embeddings.values[None])[0]
    torch.testing.assert_close(ours.output, expected, atol=MATCH, rtol=0)
    assert bool(((ours.gate > 0) & (ours.gate < 1)).all())


@pytest.mark.parametrize("case", random_cases(6, 58))
def test_gated_deltanet_equals_the_books_class_token_by_token(case):
    num_tokens, d_in, heads, head_dim, bias, seed = case
    embeddings = random_embeddings(num_tokens, d_in, seed)
    trace = run_attention(embeddings, config_of(heads, head_dim, bias, seed))
    ours = gated_deltanet(trace)
    with global_seed(0):
        book = GatedDeltaNet(d_in, heads * head_dim, 0.0, heads, bias)
    layers = ours.layers
    for name in ("W_query", "W_key", "W_value", "W_gate", "W_beta", "W_alpha"):
        put(getattr(book, name), getattr(layers, name))
    put(book.out_proj, layers.W_out)
    with torch.no_grad():
        book.A_log.copy_(layers.A_log)
        expected = book(embeddings.values[None])[0]
    torch.testing.assert_close(ours.output, expected, atol=MATCH, rtol=0)
    # The state keeps its size; the KV cache it replaces grows by a key and a value per token.
    sizes = {step.state_bytes for step in ours.steps}
    assert sizes == {heads * head_dim * head_dim * 4}
    assert [s.kv_cache_bytes() for s in ours.steps] == [
        2 * t * heads * head_dim * 4 for t in range(1, num_tokens + 1)
    ]
    assert all(bool(((s.alpha > 0) & (s.alpha < 1)).all()) for s in ours.steps)


def test_deltanet_state_follows_the_delta_rule_by_hand():
    trace = run_attention(preset_embeddings("journey"), config_of(1, 2, False, 123))
    steps = gated_deltanet(trace).steps
    second = steps[1]
    torch.testing.assert_close(second.state_before, steps[0].state_after)
    torch.testing.assert_close(second.decayed, second.state_before * second.alpha[0])
    # After the first token from a zero state: S = k ⊗ (v β), nothing recalled.
    assert float(steps[0].recalled.abs().max()) == 0.0


@pytest.mark.parametrize("case", random_cases(8, 59))
def test_tiled_attention_equals_sdpa_and_holds_one_tile(case):
    num_tokens, d_in, heads, head_dim, bias, seed = case
    mask = ("none", "causal")[seed % 2]
    embeddings = random_embeddings(num_tokens, d_in, seed)
    trace = run_attention(embeddings, config_of(heads, head_dim, bias, seed, mask=mask))
    tile_q, tile_k = 1 + seed % 3, 1 + (seed // 3) % 4
    head = seed % heads
    tiled = tiled_attention(trace, head, tile_q, tile_k)
    queries, keys, values = (
        t.unflatten(-1, (heads, head_dim)).transpose(0, 1)[head]
        for t in (trace.queries, trace.keys, trace.values)
    )
    expected = F.scaled_dot_product_attention(queries, keys, values, is_causal=mask == "causal")
    torch.testing.assert_close(tiled.output, expected, atol=MATCH, rtol=0)
    assert tiled.max_difference < MATCH
    assert tiled.held_plain == num_tokens**2
    assert tiled.held_tiled == min(tile_q, num_tokens) * min(tile_k, num_tokens)
    query_tiles, key_tiles = -(-num_tokens // tile_q), -(-num_tokens // tile_k)
    assert len(tiled.steps) == query_tiles * key_tiles
    assert sum(step.written is not None for step in tiled.steps) == query_tiles


def test_the_running_max_and_sum_rescale_as_online_softmax_does():
    trace = run_attention(preset_embeddings("journey"), config_of(1, 2, False, 123))
    tiled = tiled_attention(trace, 0, 2, 2)
    first, second = tiled.steps[0], tiled.steps[1]
    assert torch.equal(second.max_before, first.max_after)
    torch.testing.assert_close(second.rescale, torch.exp(second.max_before - second.max_after))
    torch.testing.assert_close(
        second.sum_after,
        second.rescale * first.sum_after
        + torch.exp(second.scores - second.max_after[:, None]).sum(-1),
    )
    assert first.reads_queries and not second.reads_queries
    # The last step of a query tile writes its rows: the plain output's.
    last = tiled.steps[2]
    assert last.written is not None
    torch.testing.assert_close(last.written, tiled.plain[0:2], atol=MATCH, rtol=0)


def test_fully_hidden_rows_stay_zero_not_undefined():
    config = config_of(1, 2, False, 5, mask="padding", padding=6)
    trace = run_attention(preset_embeddings("journey"), config)
    tiled = tiled_attention(trace, 0, 4, 4)
    assert bool(torch.isfinite(tiled.output).all()) and tiled.max_difference == 0.0
    with pytest.raises(AttentionInputError):
        tiled_attention(trace, 0, 0, 2)


def test_tiles_are_judged_by_float32_rounding_for_the_size_of_their_numbers():
    """Large inputs (a learner's link: numbers near ±10, d_out 4) gave outputs near 200 and a
    "largest difference 4.1e−05 ✗" under an absolute 1e−5 bound, though the tiled output was
    nearer the exact (float64) result than the plain one. The bound grows with the output."""
    from dataclasses import replace

    from attention_core.knobs.links import read_params

    settings, notices = read_params(
        {"x": ["8,-7,9.9,9.9;8,-8,10,-7;-10,8,9.9,7"], "d_out": ["4"]}, strict=True
    )
    assert notices == []
    trace = run_attention(settings.embeddings(), settings.config())
    for tile_q, tile_k in ((1, 1), (2, 2), (2, 3), (3, 1)):
        tiled = tiled_attention(trace, 0, tile_q, tile_k)
        assert tiled.largest > 1.0 and tiled.bound > MATCH  # numbers larger than 1
        queries, keys, values = (t.double() for t in head_inputs(trace, 0))
        scores = queries @ keys.T / trace.scale_divisor
        exact = torch.softmax(scores, dim=-1) @ values
        for output in (tiled.output, tiled.plain):  # each is rounding away from the exact
            assert float((output.double() - exact).abs().max()) <= tiled.bound
        assert tiled.matches
        off = replace(tiled, output=tiled.output + 2 * tiled.bound)  # another result
        assert not off.matches
    small = tiled_attention(run_attention(preset_embeddings("journey"), AttentionConfig()), 0, 2, 2)
    assert small.bound == MATCH  # outputs under 1: the absolute bound, as before
