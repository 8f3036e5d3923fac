"""The core against the chapter's own classes (re-implemented in reference_book.py).

Golden numbers: the book's printed context vectors of sections 3.5.3, 3.6.1 and 3.6.2
(Raschka, *Build a Large Language Model (From Scratch)*, chapter 3; torch.manual_seed(123),
d_in 3, d_out 2, dropout 0.0, a batch of two copies of the journey inputs). The seeds do not
print them: seed 000 runs these classes without a seed and with dropout 0.5.
"""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from attention_core import AttentionConfig, make_embeddings, preset_embeddings, run_attention
from attention_core.book import book_parity
from attention_core.trace import AttentionTrace
from tests.core.reference_book import (
    CausalAttention,
    MultiHeadAttention,
    MultiHeadAttentionWrapper,
    SelfAttentionV1,
    SelfAttentionV2,
    global_seed,
)

TOL = 1e-4  # the book prints four decimals
MATCH = 1e-5  # the core against a reference run on the same numbers

BOOK_CAUSAL = [
    [-0.4519, 0.2216],
    [-0.5874, 0.0058],
    [-0.6300, -0.0632],
    [-0.5675, -0.0843],
    [-0.5526, -0.0981],
    [-0.5299, -0.1081],
]
BOOK_WRAPPER = [
    [-0.4519, 0.2216, 0.4772, 0.1063],
    [-0.5874, 0.0058, 0.5891, 0.3257],
    [-0.6300, -0.0632, 0.6202, 0.3860],
    [-0.5675, -0.0843, 0.5478, 0.3589],
    [-0.5526, -0.0981, 0.5321, 0.3428],
    [-0.5299, -0.1081, 0.5077, 0.3493],
]
BOOK_MULTI_HEAD = [
    [0.3190, 0.4858],
    [0.2943, 0.3897],
    [0.2856, 0.3593],
    [0.2693, 0.3873],
    [0.2639, 0.3928],
    [0.2575, 0.4028],
]
JOURNEY = preset_embeddings("journey")
BOOK_CAUSAL_CONFIG = AttentionConfig(init="linear", seed=123, mask="causal")


def close(actual: torch.Tensor, expected: list | torch.Tensor, tol: float) -> None:
    expected = torch.as_tensor(expected, dtype=actual.dtype)
    torch.testing.assert_close(actual, expected, atol=tol, rtol=0)


def book_batch() -> torch.Tensor:
    return torch.stack((JOURNEY.values, JOURNEY.values))  # (2, 6, 3)


BOOK_CASES = [
    (
        lambda: CausalAttention(3, 2, 6, 0.0),
        BOOK_CAUSAL_CONFIG,
        BOOK_CAUSAL,
    ),
    (
        lambda: MultiHeadAttentionWrapper(3, 2, 6, 0.0, num_heads=2),
        BOOK_CAUSAL_CONFIG.replace(heads=2, heads_layout="wrapper"),
        BOOK_WRAPPER,
    ),
    (
        lambda: MultiHeadAttention(3, 2, 6, 0.0, num_heads=2),
        BOOK_CAUSAL_CONFIG.replace(heads=2, out_proj="linear"),
        BOOK_MULTI_HEAD,
    ),
]


@pytest.mark.parametrize(("build", "config", "printed"), BOOK_CASES)
def test_the_books_printed_context_vectors(build, config, printed):
    with global_seed(123), torch.no_grad():
        book = build()(book_batch())
    close(book[0], printed, TOL)  # the re-implemented class prints what the book prints
    assert torch.equal(book[0], book[1])
    ours = run_attention(JOURNEY, config)
    close(ours.output, printed, TOL)
    close(ours.output, book[0], MATCH)


def test_section_3_6_2_needs_the_output_projection_and_its_bias():
    config = BOOK_CAUSAL_CONFIG.replace(heads=2, out_proj="linear")
    trace = run_attention(JOURNEY, config)
    assert trace.W_out is not None and trace.b_out is not None
    without_bias = trace.context @ trace.W_out
    assert (without_bias - torch.tensor(BOOK_MULTI_HEAD)).abs().max() > 0.1
    for other in ("none", "identity"):
        output = run_attention(JOURNEY, config.replace(out_proj=other)).output
        assert (output - torch.tensor(BOOK_MULTI_HEAD)).abs().max() > 0.1


def test_book_parity_rows_hold_the_three_sections():
    rows = {row.setting.split(":")[0]: row for row in book_parity()}
    for section, printed in (
        ("3.5.3 CausalAttention", BOOK_CAUSAL),
        ("3.6.1 MultiHeadAttentionWrapper", BOOK_WRAPPER),
        ("3.6.2 MultiHeadAttention", BOOK_MULTI_HEAD),
    ):
        row = rows[section]
        close(row.book, printed, 0.0)
        assert row.matches and row.max_diff < TOL, (section, row.max_diff)


def test_the_default_view_is_still_section_3_4():
    trace = run_attention(JOURNEY, AttentionConfig())
    assert trace.W_out is None and trace.b_query is None and trace.b_out is None
    close(trace.weights[0, 1], [0.1500, 0.2264, 0.2199, 0.1311, 0.0906, 0.1820], TOL)
    close(trace.output[1], [0.3061, 0.8210], TOL)


def test_global_seed_restores_the_global_generator():
    before = torch.random.get_rng_state()
    with global_seed(5):
        drawn = torch.rand(3)
    assert torch.equal(torch.random.get_rng_state(), before)
    with global_seed(5):
        assert torch.equal(torch.rand(3), drawn)


# --- random configurations: the core equals the book's classes, parameters and outputs ----------


def reference_parameters(module: nn.Module) -> dict[str, torch.Tensor | None]:
    """The module's parameters in the core's orientation (``x @ W``), heads side by side."""
    heads = list(module.heads) if isinstance(module, MultiHeadAttentionWrapper) else [module]
    found: dict[str, torch.Tensor | None] = {}
    for part in ("query", "key", "value"):
        layers = [getattr(head, f"W_{part}") for head in heads]
        found[f"W_{part}"] = torch.cat([layer.weight.T for layer in layers], dim=1)
        biases = [layer.bias for layer in layers]
        found[f"b_{part}"] = None if biases[0] is None else torch.cat(biases)
    return found


def check_parameters(trace: AttentionTrace, module: nn.Module) -> None:
    for name, expected in reference_parameters(module).items():
        ours = getattr(trace, name)
        if expected is None:
            assert ours is None, name
        else:
            assert ours is not None and torch.equal(ours, expected), name


def build_reference(config: AttentionConfig, d_in: int, num_tokens: int) -> nn.Module:
    """The chapter's class for this config, built as the book builds it (global seed)."""
    causal = config.mask == "causal"
    args = (d_in, config.d_out, num_tokens, 0.0)
    if config.heads_layout == "split":
        return MultiHeadAttention(
            *args, config.heads, config.qkv_bias, causal, out_proj=config.out_proj == "linear"
        )
    wrapper = MultiHeadAttentionWrapper(*args, config.heads, config.qkv_bias, causal)
    if config.out_proj != "linear":
        return wrapper
    width = config.heads * config.d_out
    return nn.Sequential(wrapper, nn.Linear(width, width))  # drawn after every head


@st.composite
def inputs(draw, max_d_in: int = 6):
    num_tokens = draw(st.integers(1, 12))
    d_in = draw(st.integers(1, max_d_in))
    values = st.floats(-2, 2, allow_nan=False, width=32)
    rows = draw(
        st.lists(
            st.lists(values, min_size=d_in, max_size=d_in), min_size=num_tokens, max_size=num_tokens
        )
    )
    return make_embeddings([f"t{i}" for i in range(num_tokens)], rows)


@st.composite
def linear_configs(draw):
    layout = draw(st.sampled_from(["split", "wrapper"]))
    d_out = draw(st.integers(1, 8))
    if layout == "split":
        heads = draw(st.sampled_from([h for h in range(1, 9) if d_out % h == 0]))
    else:
        heads = draw(st.integers(1, 4))
    return AttentionConfig(
        init="linear",
        seed=draw(st.integers(0, 2**32 - 1)),
        d_out=d_out,
        heads=heads,
        heads_layout=layout,
        qkv_bias=draw(st.booleans()),
        out_proj=draw(st.sampled_from(["none", "linear", "identity"])),
        mask=draw(st.sampled_from(["none", "causal"])),
    )


@settings(max_examples=150, deadline=None)
@given(inputs(), linear_configs())
def test_core_equals_the_books_multi_head_classes(embeddings, config):
    trace = run_attention(embeddings, config)
    with global_seed(config.seed):
        module = build_reference(config, embeddings.d_in, embeddings.num_tokens)
    with torch.no_grad():
        expected = module(embeddings.values[None])[0]
    inner = module[0] if isinstance(module, nn.Sequential) else module
    check_parameters(trace, inner)
    if config.out_proj == "linear":
        out_proj = module[1] if isinstance(module, nn.Sequential) else module.out_proj
        assert trace.W_out is not None and torch.equal(trace.W_out, out_proj.weight.T)
        assert trace.b_out is not None and torch.equal(trace.b_out, out_proj.bias)
    close(trace.output, expected, MATCH)


@settings(max_examples=60, deadline=None)
@given(inputs(), st.integers(1, 8), st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_one_head_equals_self_attention_v2_and_causal_attention(
    embeddings, d_out, seed, qkv_bias, causal
):
    config = AttentionConfig(
        init="linear",
        seed=seed,
        d_out=d_out,
        qkv_bias=qkv_bias,
        mask="causal" if causal else "none",
    )
    with global_seed(seed), torch.no_grad():
        if causal:
            module = CausalAttention(embeddings.d_in, d_out, embeddings.num_tokens, 0.0, qkv_bias)
            expected = module(embeddings.values[None])[0]
        else:
            module = SelfAttentionV2(embeddings.d_in, d_out, qkv_bias)
            expected = module(embeddings.values)
    trace = run_attention(embeddings, config)
    check_parameters(trace, module)
    close(trace.output, expected, MATCH)


@settings(max_examples=60, deadline=None)
@given(inputs(), st.integers(1, 8), st.integers(0, 2**32 - 1))
def test_book_init_equals_self_attention_v1(embeddings, d_out, seed):
    with global_seed(seed), torch.no_grad():
        module = SelfAttentionV1(embeddings.d_in, d_out)
        expected = module(embeddings.values)
    trace = run_attention(embeddings, AttentionConfig(init="book", seed=seed, d_out=d_out))
    for name in ("W_query", "W_key", "W_value"):
        assert torch.equal(getattr(trace, name), getattr(module, name)), name
    close(trace.output, expected, MATCH)


def test_book_init_biases_follow_each_matrix_like_nn_linear():
    config = AttentionConfig(init="book", seed=7, d_out=4, qkv_bias=True, out_proj="linear")
    trace = run_attention(JOURNEY, config)
    generator = torch.Generator().manual_seed(7)
    bound = 1 / 3**0.5  # nn.Linear's bias: uniform in ±1/√d_in
    for part in ("query", "key", "value"):
        assert torch.equal(getattr(trace, f"W_{part}"), torch.rand(3, 4, generator=generator))
        bias = torch.empty(4).uniform_(-bound, bound, generator=generator)
        assert torch.equal(getattr(trace, f"b_{part}"), bias)
    weight = torch.empty(4, 4)  # the output projection: nn.Linear(4, 4) whatever the init
    nn.init.kaiming_uniform_(weight, a=5**0.5, generator=generator)
    assert trace.W_out is not None and torch.equal(trace.W_out, weight.T)
    assert trace.b_out is not None
    assert torch.equal(trace.b_out, torch.empty(4).uniform_(-0.5, 0.5, generator=generator))
    torch.testing.assert_close(trace.queries, JOURNEY.values @ trace.W_query + trace.b_query)
    torch.testing.assert_close(trace.output, trace.context @ trace.W_out + trace.b_out)


def test_no_projection_means_no_bias():
    trace = run_attention(JOURNEY, AttentionConfig(init="identity", qkv_bias=True))
    assert trace.b_query is None and trace.b_key is None and trace.b_value is None
    assert torch.equal(trace.queries, JOURNEY.values)
