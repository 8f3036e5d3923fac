"""Common mistakes run on any legal config, including one without projections (init identity)."""

from __future__ import annotations

import math

import pytest

from attention_core import AttentionConfig, make_embeddings, preset_embeddings, run_attention
from attention_core.lessons import common_mistakes, several_heads


def test_without_projections_the_other_module_is_as_wide_as_the_inputs():
    embeddings = preset_embeddings("journey")  # d_in = 3
    runs = {run.key: run for run in common_mistakes(embeddings, AttentionConfig(init="identity"))}
    wrong_module = runs["wrong_module"]
    assert wrong_module.wrong_output.shape == wrong_module.right_output.shape == (6, 3)
    assert wrong_module.max_diff > 0.01  # nn.Linear's weights do change the output
    assert all(math.isfinite(run.max_diff) for run in runs.values())
    assert runs["sqrt_d_in"].max_diff == 0.0  # d_k = d_in without projections: no mistake
    assert runs["sqrt_d_in"].max_weight_diff == 0.0
    for run in runs.values():  # the sentence over the heatmap states its largest cell
        assert run.max_weight_diff == float(run.weight_difference.abs().max())
    assert runs["num_tokens"].max_weight_diff > 0.01


def test_without_projections_inputs_wider_than_d_out_leave_the_wrong_module_out():
    embeddings = make_embeddings(["a", "b"], [[0.1] * 12, [0.2] * 12])  # d_out is at most 8
    runs = common_mistakes(embeddings, AttentionConfig(init="identity"))
    assert [run.key for run in runs] == [
        "sqrt_d_in",
        "num_tokens",
        "hardcoded_dropout",
        "multiply_mask",
        "sum_normalise",
    ]
    assert all(math.isfinite(run.max_diff) for run in runs)


# Page 7 shows two heads when the sidebar has one; with RoPE on, each head's width must be even
# (found by tests/ui/test_session_machine.py: one head, d_out 2, RoPE, on page 7).
@pytest.mark.parametrize(
    ("d_out", "rope", "expected"), [(2, False, 2), (3, False, 4), (2, True, 4), (5, True, 8)]
)
def test_two_heads_shown_for_one_have_even_widths_under_rope(d_out, rope, expected):
    config = several_heads(AttentionConfig(d_out=d_out, rope=rope), d_in=3)
    assert config is not None and (config.heads, config.d_out) == (2, expected)
    run_attention(make_embeddings(("a", "b", "c"), ((1, 0, 0), (0, 1, 0), (0, 0, 1))), config)


def test_without_projections_and_with_rope_the_heads_split_the_width_into_even_parts():
    identity = AttentionConfig(init="identity", d_out=4, rope=True)
    assert several_heads(identity, d_in=4).heads == 2  # 2 numbers a head, not 4 heads of 1
    assert several_heads(identity, d_in=2) is None  # one head of 2 is all there is


@pytest.mark.parametrize("heads, kv_groups", [(6, 3), (6, 2), (3, 1)])
def test_the_mistakes_run_for_any_learners_grouped_heads(heads, kv_groups):
    """A learner's kv_groups divides their heads, not the one head each mistake is shown
    with: page 8 crashed with 'kv_groups must divide heads' (a session machine's link)."""
    embeddings = preset_embeddings("journey")
    config = AttentionConfig(d_out=6, heads=heads, kv_groups=kv_groups)
    runs = common_mistakes(embeddings, config)
    assert runs and all(run.right_output.shape[0] == embeddings.num_tokens for run in runs)
