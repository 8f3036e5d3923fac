"""The attention of today's LLMs in the core, against the book's chapter 4 bonus classes
(re-implemented in reference_bonus.py) and against hand-written arithmetic: grouped-query
attention, sliding windows, the KV cache, RoPE, the head split, and the knobs' settling."""

from __future__ import annotations

import math
from dataclasses import fields

import pytest
import torch

from attention_core import (
    AttentionConfig,
    AttentionInputError,
    Embeddings,
    preset_embeddings,
    run_attention,
)
from attention_core.head_split import trace_head_split
from attention_core.knobs.settings import default_settings
from attention_core.knobs.settle import restore, settle, wishes_after
from attention_core.kv_cache import generate, generation_config, kv_memory
from attention_core.masks import farthest_reach, reach
from attention_core.reference import check_against_torch
from attention_core.trace import AttentionTrace
from tests.core.reference_bonus import (
    GroupedQueryAttention,
    MultiHeadAttentionWithCache,
    MultiHeadAttentionWithSWA,
    global_seed,
)

MATCH = 1e-5  # the core against a reference run on the same numbers


def random_embeddings(num_tokens: int, d_in: int, seed: int) -> Embeddings:
    generator = torch.Generator().manual_seed(seed)
    values = torch.randn(num_tokens, d_in, generator=generator)
    return Embeddings(tuple(f"t{i}" for i in range(num_tokens)), values)


def close(actual: torch.Tensor, expected: torch.Tensor, tol: float = MATCH) -> None:
    torch.testing.assert_close(actual, expected.to(actual.dtype), atol=tol, rtol=0)


def head_columns(heads: list[int], head_dim: int) -> list[int]:
    """The columns of these heads in a (d_in, heads * head_dim) matrix, head after head."""
    return [head * head_dim + column for head in heads for column in range(head_dim)]


def leaders(num_heads: int, kv_heads: int) -> list[int]:
    """The first head of each of ``kv_heads`` consecutive groups: 0, group_size, ..."""
    group_size = num_heads // kv_heads
    return list(range(0, num_heads, group_size))


@torch.no_grad()
def copy_into(module: torch.nn.Module, trace: AttentionTrace, kv_source: AttentionTrace) -> None:
    """The trace's queries and output projection, and ``kv_source``'s key and value columns of
    the module's K/V heads (the leaders' columns when it has fewer K/V heads than heads),
    copied into the nn.Linear layers (their weight is our matrix transposed)."""
    head_dim = trace.head_dim
    kv_heads = module.W_key.out_features // head_dim
    columns = head_columns(leaders(trace.num_heads, kv_heads), head_dim)
    module.W_query.weight.copy_(trace.W_query.T)
    if trace.b_query is not None:
        module.W_query.bias.copy_(trace.b_query)
    for part in ("key", "value"):
        layer = getattr(module, f"W_{part}")
        layer.weight.copy_(getattr(kv_source, f"W_{part}")[:, columns].T)
        bias = getattr(kv_source, f"b_{part}")
        assert (bias is None) == (layer.bias is None)
        if bias is not None:
            layer.bias.copy_(bias[columns])
    assert trace.W_out is not None and trace.b_out is not None
    module.out_proj.weight.copy_(trace.W_out.T)
    module.out_proj.bias.copy_(trace.b_out)


def tensor_fields_equal(first: AttentionTrace, second: AttentionTrace) -> None:
    for field in fields(first):
        value = getattr(first, field.name)
        if isinstance(value, torch.Tensor):
            assert torch.equal(value, getattr(second, field.name)), field.name


# --- grouped-query attention -----------------------------------------------------------------

# heads, kv_groups, d_out, init, qkv_bias, num_tokens, d_in, seed
GQA_CASES = [
    (2, 1, 4, "linear", False, 5, 3, 11),
    (4, 2, 8, "book", True, 7, 5, 12),
    (4, 1, 8, "linear", True, 6, 4, 13),
    (8, 2, 8, "linear", False, 9, 6, 14),
    (8, 4, 8, "book", False, 4, 2, 15),
    (6, 3, 6, "linear", True, 8, 3, 16),
]


def gqa_config(heads, kv_groups, d_out, init, qkv_bias, seed, **extra) -> AttentionConfig:
    return AttentionConfig(
        init=init,
        seed=seed,
        d_out=d_out,
        heads=heads,
        kv_groups=kv_groups,
        qkv_bias=qkv_bias,
        out_proj="linear",
        mask="causal",
        scaling="sqrt_d",
        **extra,
    )


@pytest.mark.parametrize(
    ("heads", "kv_groups", "d_out", "init", "qkv_bias", "num_tokens", "d_in", "seed"), GQA_CASES
)
def test_grouped_query_attention_equals_the_books_class(
    heads, kv_groups, d_out, init, qkv_bias, num_tokens, d_in, seed
):
    embeddings = random_embeddings(num_tokens, d_in, seed)
    config = gqa_config(heads, kv_groups, d_out, init, qkv_bias, seed)
    trace = run_attention(embeddings, config)
    standard = run_attention(embeddings, config.replace(kv_groups=0))
    # Sharing changes only the keys and values: the queries and out_proj are standard's.
    for name in ("W_query", "b_query", "W_out", "b_out", "queries"):
        ours, theirs = getattr(trace, name), getattr(standard, name)
        assert (ours is None and theirs is None) or torch.equal(ours, theirs), name
    with global_seed(0):
        module = GroupedQueryAttention(d_in, d_out, 0.0, heads, kv_groups, qkv_bias, out_bias=True)
    assert module.W_key.out_features == kv_groups * (d_out // heads)
    copy_into(module, trace, kv_source=standard)  # the leaders' own columns, before sharing
    with torch.no_grad():
        expected = module(embeddings.values[None])[0]
    close(trace.output, expected)
    assert trace.kv_heads == kv_groups


def test_every_head_its_own_group_is_standard_attention_bit_for_bit():
    embeddings = random_embeddings(6, 4, seed=3)
    config = gqa_config(4, 0, 8, "linear", True, seed=5)
    standard = run_attention(embeddings, config)
    grouped = run_attention(embeddings, config.replace(kv_groups=4))
    tensor_fields_equal(standard, grouped)
    assert standard.kv_heads == grouped.kv_heads == 4


@pytest.mark.parametrize(("heads", "kv_groups"), [(4, 1), (4, 2), (8, 2), (2, 1)])
def test_each_group_uses_its_first_heads_keys_and_values(heads, kv_groups):
    embeddings = random_embeddings(5, 3, seed=heads + kv_groups)
    config = gqa_config(heads, kv_groups, 8, "book", True, seed=9)
    grouped = run_attention(embeddings, config)
    standard = run_attention(embeddings, config.replace(kv_groups=0))
    head_dim = 8 // heads
    group_size = heads // kv_groups
    for part in ("keys", "values"):
        ours = getattr(grouped, part).view(5, heads, head_dim)
        theirs = getattr(standard, part).view(5, heads, head_dim)
        for head in range(heads):
            leader = head - head % group_size
            assert torch.equal(ours[:, head], theirs[:, leader]), (part, head)
    if kv_groups == 1:  # multi-query attention: one key head for all
        keys = grouped.keys.view(5, heads, head_dim)
        assert all(torch.equal(keys[:, head], keys[:, 0]) for head in range(heads))
    cached_keys, cached_values = grouped.cached_keys_values()
    assert cached_keys.shape == cached_values.shape == (kv_groups, 5, head_dim)
    close(cached_keys, standard.keys.view(5, heads, head_dim)[:, ::group_size].transpose(0, 1), 0)


# Every case without RoPE, and with it where a head's width is even.
SDPA_CASES = [(*case, False) for case in GQA_CASES]
SDPA_CASES += [(*case, True) for case in GQA_CASES if (case[2] // case[0]) % 2 == 0]


@pytest.mark.parametrize(
    ("heads", "kv_groups", "d_out", "init", "qkv_bias", "num_tokens", "d_in", "seed", "rope"),
    SDPA_CASES,
)
def test_grouped_query_attention_matches_sdpa_with_enable_gqa(
    heads, kv_groups, d_out, init, qkv_bias, num_tokens, d_in, seed, rope
):
    config = gqa_config(heads, kv_groups, d_out, init, qkv_bias, seed, rope=rope)
    trace = run_attention(random_embeddings(num_tokens, d_in, seed), config)
    check = check_against_torch(trace)
    assert check.sdpa_max_diff is not None and check.sdpa_max_diff < MATCH


# --- sliding-window attention ----------------------------------------------------------------

# heads, d_out, window, num_tokens, d_in, init, qkv_bias, seed
SWA_CASES = [
    (1, 2, 2, 6, 3, "linear", False, 21),
    (2, 4, 3, 8, 3, "book", True, 22),
    (4, 8, 1, 5, 4, "linear", True, 23),
    (2, 8, 5, 12, 6, "linear", False, 24),
    (4, 4, 12, 12, 2, "book", False, 25),
]


def swa_config(heads, d_out, window, init, qkv_bias, seed) -> AttentionConfig:
    return gqa_config(heads, 0, d_out, init, qkv_bias, seed, window=window)


@pytest.mark.parametrize(
    ("heads", "d_out", "window", "num_tokens", "d_in", "init", "qkv_bias", "seed"), SWA_CASES
)
def test_sliding_window_equals_the_books_class(
    heads, d_out, window, num_tokens, d_in, init, qkv_bias, seed
):
    embeddings = random_embeddings(num_tokens, d_in, seed)
    trace = run_attention(embeddings, swa_config(heads, d_out, window, init, qkv_bias, seed))
    with global_seed(0):
        module = MultiHeadAttentionWithSWA(
            d_in, d_out, 0.0, heads, qkv_bias, sliding_window_size=window
        )
    copy_into(module, trace, kv_source=trace)
    batch = embeddings.values[None]
    with torch.no_grad():
        expected = module(batch)[0]
        # The same module with its cache: a chunk of three tokens, then one token at a time.
        chunks = [module(batch[:, :3], use_cache=True)]
        chunks += [module(batch[:, row : row + 1], use_cache=True) for row in range(3, num_tokens)]
    close(trace.output, expected)
    close(trace.output, torch.cat(chunks, dim=1)[0])
    assert module.cache_k is not None and module.cache_k.shape[2] == min(window, num_tokens)
    check = check_against_torch(trace)
    assert check.sdpa_max_diff is not None and check.sdpa_max_diff < MATCH


@pytest.mark.parametrize("num_tokens", [1, 4, 9])
def test_a_window_as_long_as_the_text_is_the_causal_mask(num_tokens):
    embeddings = random_embeddings(num_tokens, 3, seed=num_tokens)
    config = swa_config(2, 4, 0, "linear", True, seed=4)
    causal = run_attention(embeddings, config)
    for window in (num_tokens, num_tokens + 3):
        windowed = run_attention(embeddings, config.replace(window=window))
        assert torch.equal(windowed.weights, causal.weights)
        assert torch.equal(windowed.output, causal.output)


@pytest.mark.parametrize("mask", ["causal", "none"])
def test_a_window_of_one_leaves_each_token_only_itself(mask):
    embeddings = random_embeddings(7, 3, seed=8)
    trace = run_attention(embeddings, AttentionConfig(d_out=4, heads=2, mask=mask, window=1))
    assert torch.equal(trace.weights, torch.eye(7).expand(2, 7, 7))
    assert torch.equal(trace.head_context, trace.values.view(7, 2, 2).transpose(0, 1))


def test_without_the_causal_mask_a_window_still_looks_back_only():
    trace = run_attention(random_embeddings(6, 3, seed=1), AttentionConfig(mask="none", window=2))
    expected = [[0 <= i - j < 2 for j in range(6)] for i in range(6)]
    assert trace.allowed.tolist() == expected
    assert (trace.weights[0][~trace.allowed] == 0).all()
    check = check_against_torch(trace)
    assert check.sdpa_max_diff is not None and check.sdpa_max_diff < MATCH


@pytest.mark.parametrize(("num_tokens", "window"), [(8, 2), (8, 3), (12, 4), (5, 5), (6, 1)])
def test_information_travels_window_minus_one_tokens_per_layer(num_tokens, window):
    trace = run_attention(
        random_embeddings(num_tokens, 2, seed=0), AttentionConfig(mask="causal", window=window)
    )
    layers = 6
    reached = reach(trace.allowed, layers)
    assert reached.shape == (layers, num_tokens, num_tokens)
    assert torch.equal(reached[0], trace.allowed)
    expected = [min(k * (window - 1), num_tokens - 1) for k in range(1, layers + 1)]
    assert farthest_reach(reached) == expected
    for k in range(layers):  # causal: nothing from the future ever arrives
        assert not reached[k].triu(diagonal=1).any()


# --- the KV cache ----------------------------------------------------------------------------

KV_CASES = [
    {"heads": 1, "d_out": 4},
    {"heads": 2, "d_out": 4, "kv_groups": 1},
    {"heads": 4, "d_out": 8, "kv_groups": 2, "window": 3},
    {"heads": 2, "d_out": 8, "rope": True},
    {"heads": 4, "d_out": 8, "kv_groups": 2, "window": 2, "rope": True, "rope_base": 100},
    {"heads": 4, "d_out": 8, "window": 4, "init": "book", "qkv_bias": True},
    {"heads": 8, "d_out": 8, "kv_groups": 1, "qkv_bias": True, "window": 5},
]


def kv_config(case: dict, seed: int) -> AttentionConfig:
    settings = {"init": "linear", "seed": seed, "out_proj": "linear", "mask": "causal"}
    return AttentionConfig(**{**settings, **case})


@pytest.mark.parametrize("case", KV_CASES)
def test_generation_with_a_cache_equals_the_books_cached_module(case):
    seed = 100 + KV_CASES.index(case)
    num_tokens, d_in = 7, 3 + seed % 3
    embeddings = random_embeddings(num_tokens, d_in, seed)
    config = kv_config(case, seed)
    steps = generate(embeddings, config)
    trace = run_attention(embeddings, config)
    standard = run_attention(embeddings, config.replace(kv_groups=0))
    modules = []
    with global_seed(0):
        modules.append(
            GroupedQueryAttention(
                d_in,
                config.d_out,
                0.0,
                config.heads,
                config.kv_groups or config.heads,
                config.qkv_bias,
                out_bias=True,
                sliding_window_size=config.window or None,
                rope_base=config.rope_base if config.rope else None,
            )
        )
        if not config.kv_groups and not config.rope:
            modules.append(
                MultiHeadAttentionWithSWA(
                    d_in,
                    config.d_out,
                    0.0,
                    config.heads,
                    config.qkv_bias,
                    sliding_window_size=config.window or None,
                )
            )
            if not config.window:
                modules.append(
                    MultiHeadAttentionWithCache(
                        d_in, config.d_out, 0.0, config.heads, config.qkv_bias
                    )
                )
    for module in modules:
        copy_into(module, trace, kv_source=standard)
    assert len(steps) == num_tokens
    for row, step in enumerate(steps):
        assert step.step == row + 1
        assert step.max_difference < MATCH, (row, step.max_difference)
        close(step.output, trace.output[row])  # the last row of the first row + 1 tokens
        for module in modules:
            with torch.no_grad():
                expected = module(embeddings.values[None, row : row + 1], use_cache=True)
            close(step.output, expected[0, 0])
            # The book's cache holds the same rows (keys turned by RoPE, one per K/V head).
            assert module.cache_k is not None and module.cache_v is not None
            close(step.cached_keys, module.cache_k[0])
            close(step.cached_values, module.cache_v[0])
            assert module.cache_k.shape[2] == len(step.cached_rows)
        close(step.weights.sum(dim=-1), torch.ones(config.heads))


@pytest.mark.parametrize("window", [0, 1, 2, 3])
def test_the_cache_keeps_reuses_and_drops_the_right_rows(window):
    embeddings = random_embeddings(6, 3, seed=window)
    config = AttentionConfig(d_out=8, heads=4, kv_groups=2, mask="causal", window=window)
    steps = generate(embeddings, config)
    for row, step in enumerate(steps):
        first = 0 if not window else max(0, row + 1 - window)
        kept = tuple(range(first, row + 1))
        before = tuple(range(0, row)) if not window else tuple(range(max(0, row - window), row))
        assert step.cached_rows == kept
        assert step.reused == tuple(r for r in before if r in kept)
        assert step.dropped == tuple(r for r in before if r not in kept)
        assert step.cached_keys.shape == step.cached_values.shape == (2, len(kept), 2)
        assert step.cache_bytes == 2 * len(kept) * 2 * 2 * 4
        assert step.max_difference < MATCH
    if window == 2:  # the fourth token
        assert steps[3].cached_rows == (2, 3)
        assert steps[3].reused == (2,)
        assert steps[3].dropped == (1,)
        assert steps[3].cache_bytes == 2 * 2 * 2 * 2 * 4


def test_generation_is_causal_and_in_evaluation_mode():
    embeddings = random_embeddings(5, 3, seed=2)
    config = AttentionConfig(d_out=4, heads=2, mask="none", dropout=0.5, train=True)
    assert generation_config(config) == config.replace(mask="causal", train=False)
    loose, strict = generate(embeddings, config), generate(embeddings, generation_config(config))
    for first, second in zip(loose, strict, strict=True):
        assert torch.equal(first.output, second.output)
        assert first.max_difference < MATCH


@pytest.mark.parametrize(("kv_groups", "expected"), [(2, 32), (0, 64), (1, 16), (4, 64)])
def test_kv_memory_per_token_is_keys_and_values_of_each_kv_head(kv_groups, expected):
    config = AttentionConfig(heads=4, d_out=8, kv_groups=kv_groups)
    memory = kv_memory(run_attention(preset_embeddings("journey"), config))
    assert memory.bytes_per_token() == expected  # 2 × kv_heads × head_dim 2 × 4 bytes
    assert memory.bytes_per_token(kv_heads=4) == 64
    assert memory.numbers_per_token() * 4 == expected  # float32: 4 bytes a number


# --- RoPE ------------------------------------------------------------------------------------


def hand_rotated(
    projected: torch.Tensor, heads: int, base: float, first_position: int
) -> torch.Tensor:
    """Turn each pair (x_i, x_{i+d/2}) of each head of each token by position × base^(−2i/d)
    with the 2 × 2 rotation matrix [[cos, −sin], [sin, cos]], one pair at a time.

    Shapes:
        projected: (num_tokens, heads * d) -> (heads, num_tokens, d), float64
    """
    num_tokens, width = projected.shape
    d = width // heads
    half = d // 2
    turned = torch.zeros(heads, num_tokens, d, dtype=torch.float64)
    for head in range(heads):
        for token in range(num_tokens):
            numbers = projected[token, head * d : (head + 1) * d].double()
            position = first_position + token
            for i in range(half):
                angle = position * base ** (-2 * i / d)
                rotation = torch.tensor(
                    [[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]],
                    dtype=torch.float64,
                )
                pair = torch.stack((numbers[i], numbers[i + half]))
                turned[head, token, i], turned[head, token, i + half] = rotation @ pair
    return turned


@pytest.mark.parametrize(
    ("heads", "d_out", "kv_groups", "base", "first_position"),
    [(2, 8, 0, 10000, 0), (1, 4, 0, 100, 5), (4, 8, 2, 10000, 2), (1, 8, 0, 2, 0)],
)
def test_rope_turns_each_pair_as_a_rotation_matrix_does(
    heads, d_out, kv_groups, base, first_position
):
    embeddings = random_embeddings(6, 3, seed=d_out + heads)
    config = AttentionConfig(
        init="linear", d_out=d_out, heads=heads, kv_groups=kv_groups, rope=True, rope_base=base
    )
    trace = run_attention(embeddings, config, first_position=first_position)
    assert trace.rotated_queries is not None and trace.rotated_keys is not None
    close(trace.rotated_queries, hand_rotated(trace.queries, heads, base, first_position))
    close(trace.rotated_keys, hand_rotated(trace.keys, heads, base, first_position))
    # The scores are those of the turned queries and keys.
    close(trace.scores, trace.rotated_queries @ trace.rotated_keys.transpose(1, 2))
    plain = run_attention(embeddings, config.replace(rope=False))
    assert plain.rotated_queries is None and plain.rope_angles is None
    assert torch.equal(plain.queries, trace.queries)  # RoPE turns, it does not project


@pytest.mark.parametrize("shift", [1, 3, 40])
def test_rope_scores_depend_only_on_distances(shift):
    embeddings = random_embeddings(6, 4, seed=shift)
    config = AttentionConfig(init="linear", d_out=8, heads=2, rope=True, mask="causal", seed=7)
    first = run_attention(embeddings, config)
    later = run_attention(embeddings, config, first_position=shift)
    assert first.rotated_queries is not None and later.rotated_queries is not None
    close(later.scores, first.scores, 1e-4)
    close(later.weights, first.weights, 1e-4)
    assert (later.rotated_queries - first.rotated_queries).abs().max() > 1e-2
    without = run_attention(embeddings, config.replace(rope=False))
    assert (first.scores - without.scores).abs().max() > 1e-2  # RoPE did change the scores


@pytest.mark.parametrize(("d_out", "heads"), [(3, 1), (6, 2), (8, 8)])
def test_rope_on_an_odd_head_width_is_refused(d_out, heads):
    config = AttentionConfig(d_out=d_out, heads=heads, rope=True)
    with pytest.raises(AttentionInputError, match="even"):
        run_attention(preset_embeddings("journey"), config)


def test_rope_moves_the_books_numbers_but_rows_still_sum_to_one():
    journey = preset_embeddings("journey")
    book = run_attention(journey, AttentionConfig())
    turned = run_attention(journey, AttentionConfig(rope=True))
    close(book.output[1], torch.tensor([0.3061, 0.8210]), 1e-4)
    assert (turned.output[1] - torch.tensor([0.3061, 0.8210])).abs().max() > 1e-3
    close(turned.diagnostics.row_sums, torch.ones(1, 6))
    # Position 0 turns by angle 0: the first query and key are the book's.
    assert turned.rotated_queries is not None and turned.rotated_keys is not None
    close(turned.rotated_queries[0, 0], book.queries[0], 0)
    close(turned.rotated_keys[0, 0], book.keys[0], 0)


# --- the head split --------------------------------------------------------------------------

SPLIT_CASES = [
    {"heads": 2, "d_out": 4, "mask": "causal"},
    {"heads": 4, "d_out": 8, "kv_groups": 2, "rope": True, "out_proj": "linear"},
    {"heads": 2, "d_out": 4, "heads_layout": "wrapper"},
    {"heads": 2, "d_out": 8, "window": 2, "mask": "causal", "qkv_bias": True, "init": "linear"},
]


@pytest.mark.parametrize("case", SPLIT_CASES)
def test_the_right_split_is_the_trace_and_the_wrong_view_is_not(case):
    trace = run_attention(random_embeddings(5, 3, seed=len(case)), AttentionConfig(**case))
    split = trace_head_split(trace)
    close(split.right_output, trace.output)
    close(split.right_queries, trace.queries.view(5, trace.num_heads, -1).transpose(0, 1), 0)
    assert split.max_difference > 1e-4
    assert not torch.equal(split.wrong_queries, split.right_queries)


def test_with_one_head_the_wrong_view_is_the_right_one():
    trace = run_attention(random_embeddings(5, 3, seed=0), AttentionConfig(d_out=4, mask="causal"))
    split = trace_head_split(trace)
    assert torch.equal(split.wrong_queries, split.right_queries)
    assert torch.equal(split.wrong_output, split.right_output)
    assert split.max_difference == 0.0


def test_with_one_token_the_wrong_view_is_the_right_one():
    trace = run_attention(random_embeddings(1, 3, seed=0), AttentionConfig(d_out=4, heads=2))
    assert trace_head_split(trace).max_difference == 0.0


def test_the_wrong_view_takes_its_numbers_in_the_flat_order():
    # 3 tokens, d_out 4, 2 heads of 2: the flat numbers 0..11 are token t's columns 0..3 at
    # 4t..4t+3. view(1, 2, 3, 2) gives wrong head 0 the numbers 0..5 and head 1 6..11: row 1
    # of head 0 is numbers 2 and 3, token 0's columns 2 and 3 (its second head's part).
    trace = run_attention(random_embeddings(3, 3, seed=1), AttentionConfig(d_out=4, heads=2))
    split = trace_head_split(trace)
    assert split.wrong_origin.shape == (2, 3, 2, 2)
    assert split.wrong_origin[0, 1].tolist() == [[0, 2], [0, 3]]
    assert split.wrong_origin[0, 2].tolist() == [[1, 0], [1, 1]]
    assert split.wrong_origin[1, 0].tolist() == [[1, 2], [1, 3]]
    assert split.wrong_origin[1, 2].tolist() == [[2, 2], [2, 3]]
    assert torch.equal(split.wrong_queries[0, 1], trace.queries[0, 2:4])
    for head in range(2):
        for row in range(3):
            for column in range(2):
                token, source = split.wrong_origin[head, row, column].tolist()
                assert split.wrong_queries[head, row, column] == trace.queries[token, source]
    shapes = {step.code: step.shape for step in split.steps}
    assert shapes[".transpose(1, 2)"] == (1, 2, 3, 2)
    assert shapes["queries = W_query(x)"] == (1, 3, 4)


@pytest.mark.parametrize(
    ("num_tokens", "heads", "d_out"), [(3, 2, 4), (5, 2, 8), (6, 4, 8), (7, 3, 6)]
)
def test_a_wrong_row_is_a_slice_of_one_token_and_a_wrong_head_spans_several(
    num_tokens, heads, d_out
):
    trace = run_attention(
        random_embeddings(num_tokens, 3, seed=heads), AttentionConfig(d_out=d_out, heads=heads)
    )
    origin = trace_head_split(trace).wrong_origin  # (heads, num_tokens, head_dim, 2)
    head_dim = d_out // heads
    for head in range(heads):
        for row in range(num_tokens):
            tokens = set(origin[head, row, :, 0].tolist())
            assert tokens == {(head * num_tokens + row) // heads}, (head, row)
            first_column = (head * num_tokens + row) * head_dim % d_out
            expected = list(range(first_column, first_column + head_dim))
            assert origin[head, row, :, 1].tolist() == expected
    # Wrong head 1 holds the whole rows of the first num_tokens / heads tokens.
    assert set(origin[0, :, :, 0].flatten().tolist()) == set(range(-(-num_tokens // heads)))


# --- settling the new knobs ------------------------------------------------------------------


def learner_step(settings, wishes, **changes):
    """One run as the dashboard makes it: the change, the wishes given back, then settle."""
    changed, restored, waiting = restore(settings.replace(**changes), wishes)
    settled, notices = settle(changed)
    return settled, restored + notices, wishes_after(changed, settled, notices, waiting)


def test_kv_groups_that_do_not_divide_the_heads_are_brought_to_a_divisor():
    settings, notices = settle(default_settings().replace(d_out=8, heads=4, kv_groups=3))
    assert settings["kv_groups"] == 2
    assert [notice.param for notice in notices] == ["kv_groups"]
    assert "kv_groups" in notices[0].problem and notices[0].used == "2"
    settings.config()  # valid
    fitting, notices = settle(default_settings().replace(d_out=8, heads=4, kv_groups=2))
    assert fitting["kv_groups"] == 2 and notices == []
    # One group per head is standard attention: the default, 0, without a word.
    standard, notices = settle(default_settings().replace(d_out=8, heads=4, kv_groups=4))
    assert standard["kv_groups"] == 0 and notices == []


def test_kv_groups_come_back_when_the_heads_allow_them():
    settings, notices, wishes = learner_step(default_settings(), {}, d_out=8, heads=4, kv_groups=3)
    assert settings["kv_groups"] == 2 and wishes == {"kv_groups": (3, 2)}
    settings, notices, wishes = learner_step(settings, wishes, d_out=6, heads=6)
    assert settings["kv_groups"] == 3 and wishes == {}
    assert [n.message for n in notices] == ["kv_groups: the 3 chosen before fits again; using 3"]


def test_rope_on_an_odd_head_width_is_turned_off_and_comes_back():
    settings, notices = settle(default_settings().replace(d_out=3, rope=True))
    assert settings["rope"] is False
    assert [notice.param for notice in notices] == ["rope"]
    assert "even" in notices[0].problem
    settings, notices, wishes = learner_step(default_settings(), {}, d_out=3, rope=True)
    assert settings["rope"] is False and wishes == {"rope": (True, False)}
    settings, notices, wishes = learner_step(settings, wishes, d_out=5)  # still odd
    assert settings["rope"] is False and wishes == {"rope": (True, False)}
    settings, notices, wishes = learner_step(settings, wishes, d_out=4)
    assert settings["rope"] is True and wishes == {}
    assert [n.param for n in notices] == ["rope"]
    run_attention(settings.embeddings(), settings.config())  # runs: the width is even


def test_rope_follows_the_heads_width_not_d_out():
    settings, _, wishes = learner_step(default_settings(), {}, d_out=4, heads=2, rope=True)
    assert settings["rope"] is True and wishes == {}
    settings, _, wishes = learner_step(settings, wishes, heads=4)  # heads of width 1
    assert settings["rope"] is False and wishes == {"rope": (True, False)}
    settings, _, wishes = learner_step(settings, wishes, heads=2)
    assert settings["rope"] is True and wishes == {}


def test_wished_kv_groups_equal_to_the_heads_are_given_back_as_standard_attention():
    settings, _, wishes = learner_step(default_settings(), {}, d_out=8, heads=4, kv_groups=3)
    assert settings["kv_groups"] == 2
    settings, _, wishes = learner_step(settings, wishes, d_out=6, heads=3)
    # 3 groups of 3 heads is one group per head, standard attention: the default 0, not 1.
    assert settings["kv_groups"] in (0, 3) and wishes == {}
