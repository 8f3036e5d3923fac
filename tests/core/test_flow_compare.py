"""The Flow page's numbers and the Compare page's pin and differences, on the core alone."""

from __future__ import annotations

import pytest
import torch

from attention_core import AttentionConfig, AttentionInputError, preset_embeddings, run_attention
from attention_core.compare import (
    NO_CHANGE,
    changed_settings,
    compare_weights,
    no_change_at,
    pin_text,
    read_pin,
)
from attention_core.flow import flow_numbers
from attention_core.knobs.links import read_params
from attention_core.knobs.settings import default_settings

JOURNEY = preset_embeddings("journey")


def test_flow_numbers_are_the_books_for_journey():
    numbers = flow_numbers(run_attention(JOURNEY, AttentionConfig()), query=1)
    # Seed 004 (the book, section 3.4): query of "journey", its weights and context vector.
    assert numbers.query_vector == pytest.approx((0.4306, 1.4551), abs=1e-4)
    assert numbers.after_dropout == pytest.approx(
        (0.1500, 0.2264, 0.2199, 0.1311, 0.0906, 0.1820), abs=1e-4
    )
    assert numbers.head_context == pytest.approx((0.3061, 0.8210), abs=1e-4)
    assert numbers.scale_divisor == pytest.approx(2**0.5)


@pytest.mark.parametrize("layout", ["split", "wrapper"])
def test_flow_numbers_are_one_heads_slice_of_the_trace(layout):
    config = AttentionConfig(
        d_out=4, heads=2, heads_layout=layout, qkv_bias=True, out_proj="linear", mask="causal"
    )
    config = config.replace(dropout=0.4, dropout_seed=3)
    trace = run_attention(JOURNEY, config)
    numbers = flow_numbers(trace, query=3, head=1)
    width = numbers.head_dim
    columns = slice(width, 2 * width)
    assert torch.equal(torch.tensor(numbers.W_query), trace.W_query[:, columns])
    assert torch.equal(torch.tensor(numbers.b_value), trace.b_value[columns])
    assert torch.equal(torch.tensor(numbers.keys), trace.keys[:, columns])
    assert torch.equal(torch.tensor(numbers.query_vector), trace.queries[3, columns])
    assert torch.equal(torch.tensor(numbers.masked), trace.masked_scores[1, 3])
    assert numbers.kept == tuple(trace.dropout_keep[1, 3].tolist())
    assert torch.equal(torch.tensor(numbers.after_dropout), trace.weights_after_dropout[1, 3])
    assert torch.equal(torch.tensor(numbers.head_context), trace.head_context[1, 3])
    assert list(numbers.head_columns) == ([2, 3] if layout == "split" else [4, 5, 6, 7])
    assert torch.equal(torch.tensor(numbers.output), trace.output[3])
    assert numbers.W_out is not None and len(numbers.W_out) == trace.W_out.shape[0]


@pytest.mark.parametrize(("layout", "d_out"), [("split", 6), ("wrapper", 2)])
def test_one_heads_projections_give_that_heads_queries_keys_and_values(layout, d_out):
    config = AttentionConfig(d_out=d_out, heads=3, heads_layout=layout, qkv_bias=True)
    trace = run_attention(JOURNEY, config)
    width = trace.W_query.shape[1] // 3
    for head in range(3):
        W_query, W_key, W_value = trace.head_projections(head)
        assert W_query.shape == W_key.shape == W_value.shape == (3, width)
        columns = slice(head * width, (head + 1) * width)
        for matrix, bias, projected in (
            (W_query, trace.b_query, trace.queries),
            (W_key, trace.b_key, trace.keys),
            (W_value, trace.b_value, trace.values),
        ):
            expected = trace.inputs @ matrix + bias[columns]
            torch.testing.assert_close(expected, projected[:, columns])
    assert not torch.equal(trace.head_projections(0)[0], trace.head_projections(1)[0])
    with pytest.raises(IndexError, match="no head 4"):
        trace.head_projections(3)


def test_flow_numbers_refuse_a_token_or_head_that_is_not_there():
    trace = run_attention(JOURNEY, AttentionConfig())
    with pytest.raises(AttentionInputError, match="no token 7"):
        flow_numbers(trace, query=6)
    with pytest.raises(AttentionInputError, match="no head 2"):
        flow_numbers(trace, query=0, head=1)


def _run(settings):
    return run_attention(settings.embeddings(), settings.config())


def test_difference_is_b_minus_a_and_the_largest_changes_come_first():
    first = default_settings()
    second = first.replace(d_out=3)
    comparison = compare_weights(_run(first), _run(second), head=0, count=3)
    expected = _run(second).weights_after_dropout - _run(first).weights_after_dropout
    assert torch.equal(comparison.difference, expected)
    sizes = [abs(change.change) for change in comparison.largest]
    assert sizes == sorted(sizes, reverse=True) and len(sizes) == 3
    top = comparison.largest[0]
    assert top.change == pytest.approx(float(expected[0, top.query, top.key]))
    assert comparison.max_change == pytest.approx(float(expected.abs().max()))


def test_nothing_changed_lists_no_change():
    trace = _run(default_settings())
    comparison = compare_weights(trace, trace)
    assert comparison.largest == () and comparison.max_change == 0.0
    assert no_change_at(4) == pytest.approx(NO_CHANGE) and no_change_at(2) == pytest.approx(0.005)
    first, second = default_settings(), read_params({"dropout": ["0.1"]})[0]
    changed = compare_weights(_run(first), _run(second), head=0, count=36)
    smallest = min(abs(c.change) for c in changed.largest)
    # at fewer decimals the smallest changes round to 0 and are no longer listed
    coarse = compare_weights(_run(first), _run(second), head=0, count=36, no_change=smallest * 2)
    assert 0 < len(coarse.largest) < len(changed.largest)
    assert all(abs(c.change) >= smallest * 2 for c in coarse.largest)


def test_different_head_counts_compare_the_head_averaged_weights():
    first = default_settings()
    second = first.replace(heads=2)
    comparison = compare_weights(_run(first), _run(second), head=1)
    assert comparison.averaged
    expected = _run(second).mean_weights - _run(first).mean_weights
    assert torch.allclose(comparison.difference[0], expected)
    assert all(change.head is None for change in comparison.largest)


def test_different_numbers_of_tokens_cannot_be_subtracted():
    first = default_settings()
    second, _ = read_params({"preset": ["nugues"]})
    with pytest.raises(AttentionInputError, match="A has 6 tokens and B has 3"):
        compare_weights(_run(first), _run(second))


def test_a_pin_round_trips_the_matrix_and_the_config_but_not_the_view():
    settings, _ = read_params(
        {"d_out": ["3"], "mask": ["causal"], "x": ["1,2;3,4"], "tokens": ["a,b"], "query": ["2"]}
    )
    text = pin_text(settings)
    assert "query" not in text and text.startswith("preset=journey")
    pinned = read_pin(text)
    assert pinned.rows == settings.rows and pinned.tokens == settings.tokens
    assert pinned.config() == settings.config()
    assert read_pin(pin_text(default_settings())) == default_settings()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("d_out=99", "d_out must be between 1 and 8"),
        ("bogus=1", "'bogus' is not a setting"),
        ("query=3", "'query' is not a setting"),
        ("heads=4", "heads must divide"),
        ("x=1,2;3", "rows have different lengths"),
        ("", "empty"),
        ("&".join(f"d_out={i % 8 + 1}" for i in range(100)), "not a link's query string"),
    ],
)
def test_a_bad_pin_is_refused_whole_naming_the_problem(text, message):
    with pytest.raises(AttentionInputError, match=message):
        read_pin(text)


def test_changed_settings_names_each_difference():
    first = default_settings()
    second = first.replace(d_out=3, mask="causal", tokens=("a",) * 6)
    changes = dict((name, (a, b)) for name, a, b in changed_settings(first, second))
    assert changes == {
        "d_out": ("2", "3"),
        "mask": ("none", "causal"),
        "tokens": ("Your,journey,starts,with,one,step", "a,a,a,a,a,a"),
    }
    assert changed_settings(first, first) == []


def test_a_value_that_a_or_b_does_not_use_is_no_difference():
    # Issue 39, item 22: A pinned under the causal mask holds no padding (its link leaves the
    # unused value out), while B may still hold the padding chosen before.
    first = default_settings().replace(mask="causal")
    second = first.replace(padding=3, num_tokens=8, own="my own words")
    assert changed_settings(read_pin(pin_text(second)), second) == []
    assert changed_settings(first, second.replace(mask="padding")) == [
        ("mask", "causal", "padding")
    ]
    both = first.replace(mask="padding")
    assert changed_settings(both, both.replace(padding=3)) == [("padding", "1", "3")]
