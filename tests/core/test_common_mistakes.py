"""Common mistakes run on any legal config, including one without projections (init identity)."""

from __future__ import annotations

import math

from attention_core import AttentionConfig, make_embeddings, preset_embeddings
from attention_core.lessons import common_mistakes


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
