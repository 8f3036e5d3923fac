"""The core against PyTorch's own implementations, over many shapes, masks and head counts."""

import itertools

import pytest
import torch

from attention_core import AttentionConfig, make_embeddings, preset_embeddings, run_attention
from attention_core.reference import MATCH_TOLERANCE, check_against_torch


def random_embeddings(num_tokens: int, d_in: int, seed: int):
    generator = torch.Generator().manual_seed(seed)
    values = torch.randn(num_tokens, d_in, generator=generator)
    return make_embeddings([f"t{i}" for i in range(num_tokens)], values.tolist())


CASES = list(
    itertools.product(
        [1, 2, 5, 9],  # num_tokens
        [(3, 2, 1), (4, 4, 2), (6, 6, 3), (2, 8, 4), (8, 4, 4)],  # d_in, d_out, heads
        ["none", "causal", "padding"],
        ["split", "wrapper"],
    )
)


@pytest.mark.parametrize(("num_tokens", "dims", "mask", "layout"), CASES)
def test_core_matches_sdpa_and_multihead_attention(num_tokens, dims, mask, layout):
    d_in, d_out, heads = dims
    config = AttentionConfig(
        d_out=d_out,
        heads=heads,
        heads_layout=layout,
        init="linear",
        seed=num_tokens * 31 + d_in,
        mask=mask,
        padding=min(1, num_tokens - 1),
    )
    trace = run_attention(random_embeddings(num_tokens, d_in, seed=d_out), config)
    check = check_against_torch(trace)
    assert check.sdpa_max_diff is not None and check.sdpa_max_diff < MATCH_TOLERANCE
    assert check.mha_bypass_max_diff is not None and check.mha_bypass_max_diff < MATCH_TOLERANCE
    if d_in <= trace.queries.shape[1]:
        assert check.mha_copied_max_diff is not None
        assert check.mha_copied_max_diff < MATCH_TOLERANCE


@pytest.mark.parametrize(
    ("layout", "out_proj", "qkv_bias", "mask"),
    list(
        itertools.product(
            ["split", "wrapper"], ["none", "linear", "identity"], [False, True], ["none", "causal"]
        )
    ),
)
def test_biases_and_output_projections_match_multihead_attention(layout, out_proj, qkv_bias, mask):
    config = AttentionConfig(
        d_out=4,
        heads=2,
        heads_layout=layout,
        init="linear",
        seed=11,
        mask=mask,
        qkv_bias=qkv_bias,
        out_proj=out_proj,
    )
    trace = run_attention(random_embeddings(5, 3, seed=4), config)
    assert (trace.b_query is not None) == qkv_bias and (trace.b_out is not None) == (
        out_proj == "linear"
    )
    check = check_against_torch(trace)
    assert check.sdpa_max_diff is not None and check.sdpa_max_diff < MATCH_TOLERANCE
    assert check.mha_copied_max_diff is not None and check.mha_copied_max_diff < MATCH_TOLERANCE
    assert check.mha_bypass_max_diff is not None and check.mha_bypass_max_diff < MATCH_TOLERANCE


def test_checking_against_torch_leaves_the_global_generator_alone():
    config = AttentionConfig(d_out=4, heads=2, out_proj="linear", qkv_bias=True)
    trace = run_attention(preset_embeddings("journey"), config)
    before = torch.random.get_rng_state()
    check = check_against_torch(trace)
    assert check.mha_copied_max_diff is not None and check.mha_copied_max_diff < MATCH_TOLERANCE
    assert torch.equal(torch.random.get_rng_state(), before)


@pytest.mark.parametrize("scaling", ["none", "d", "sqrt_d"])
def test_every_scaling_matches_sdpa_with_its_scale(scaling):
    trace = run_attention(preset_embeddings("journey"), AttentionConfig(scaling=scaling, d_out=4))
    check = check_against_torch(trace)
    assert check.sdpa_matches
    assert (check.mha_reason == "") == (scaling == "sqrt_d")


def test_fully_masked_row_is_zero_like_sdpa():
    allowed = ((False, False, False), (True, False, False), (True, True, True))
    config = AttentionConfig(mask="custom", custom_mask=allowed, d_out=3)
    trace = run_attention(preset_embeddings("nugues"), config)
    assert trace.diagnostics.fully_masked_rows == (0,)
    assert torch.equal(trace.weights[0, 0], torch.zeros(3))
    assert torch.equal(trace.context[0], torch.zeros(3))
    assert check_against_torch(trace).sdpa_matches


def test_seed001_identity_bypass_of_multihead_attention():
    trace = run_attention(preset_embeddings("nugues"), AttentionConfig(init="identity"))
    check = check_against_torch(trace)
    assert check.mha_copied_max_diff is not None and check.mha_copied_max_diff < 1e-6
    assert check.mha_bypass_max_diff is not None and check.mha_bypass_max_diff < 1e-6


@pytest.mark.parametrize(
    ("change", "reason_word"),
    [
        ({"scoring": "cosine"}, "cosine"),
        ({"norm": "sum"}, "sum"),
        ({"mask": "causal", "mask_strategy": "zero_scores"}, "pitfall"),
        ({"dropout": 0.5}, "dropout"),
    ],
)
def test_checks_say_why_they_do_not_apply(change, reason_word):
    trace = run_attention(preset_embeddings("journey"), AttentionConfig(**change))
    check = check_against_torch(trace)
    assert check.sdpa_max_diff is None
    assert reason_word in check.sdpa_reason


def test_dropout_in_eval_mode_is_checked_and_matches():
    config = AttentionConfig(dropout=0.5, train=False)
    assert check_against_torch(run_attention(preset_embeddings("journey"), config)).sdpa_matches
