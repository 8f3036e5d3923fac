"""Code export, the experiments, explanations, and import hygiene."""

import contextlib
import io
import re
import runpy
import subprocess
import sys

import pytest
import torch

from attention_core import AttentionConfig, make_embeddings, preset_embeddings, run_attention
from attention_core.experiments import dropout_average, scaling_experiment
from attention_core.explain import context_terms, score_terms
from attention_core.export import export_script

EXPORT_CONFIGS = [
    AttentionConfig(),
    AttentionConfig(mask="causal", dropout=0.4, dropout_seed=9, init="linear", seed=789),
    AttentionConfig(d_out=4, heads=2, scoring="cosine", scaling="d", norm="sum"),
    AttentionConfig(d_out=2, heads=3, heads_layout="wrapper", mask="padding", padding=6),
    AttentionConfig(mask="causal", mask_strategy="zero_scores", norm="naive_softmax"),
    AttentionConfig(mask="causal", mask_strategy="zero_renorm"),
    AttentionConfig(mask="causal", mask_strategy="zero_no_renorm", scaling="none"),
    # the book's section 3.6.2, and biases and output projections on other layouts
    AttentionConfig(init="linear", seed=123, mask="causal", heads=2, out_proj="linear"),
    AttentionConfig(init="linear", qkv_bias=True, d_out=4, heads=2, out_proj="linear"),
    AttentionConfig(init="book", qkv_bias=True, heads=3, heads_layout="wrapper", out_proj="linear"),
    AttentionConfig(qkv_bias=True, mask="causal", mask_strategy="zero_renorm", out_proj="identity"),
    # Nothing masked: renormalising unnormalised weights would change them (a review found
    # the dashboard doing it while the script did not).
    AttentionConfig(norm="none", mask_strategy="zero_renorm"),
    AttentionConfig(norm="sum", mask="padding", padding=0, mask_strategy="zero_renorm"),
]


def exported_output(trace, tmp_path) -> torch.Tensor:
    """Run the downloaded script as a file, in this process (a new process costs seconds of
    the suite's budget each; one below checks the import hygiene a process shows), its
    random state and print options given back afterwards."""
    script = tmp_path / "attention.py"
    script.write_text(export_script(trace))
    out = io.StringIO()
    with torch.random.fork_rng(), contextlib.redirect_stdout(out):
        try:
            runpy.run_path(str(script), run_name="__main__")
        finally:
            torch.set_printoptions(profile="default")
    printed = [float(v) for v in re.findall(r"-?\d+\.\d*", out.getvalue())]
    return torch.tensor(printed).reshape(trace.output.shape)


@pytest.mark.parametrize("config", EXPORT_CONFIGS)
def test_exported_script_reproduces_the_context_vectors(config, tmp_path):
    trace = run_attention(preset_embeddings("journey"), config)
    torch.testing.assert_close(exported_output(trace, tmp_path), trace.output, atol=1e-5, rtol=0)


def test_the_downloaded_script_runs_alone_in_a_fresh_python(tmp_path):
    """As a learner runs it: a new process, in another folder, with torch and nothing of ours."""
    trace = run_attention(preset_embeddings("journey"), EXPORT_CONFIGS[7])
    script = tmp_path / "attention.py"
    script.write_text(export_script(trace))
    result = subprocess.run(
        [sys.executable, "-I", str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    printed = [float(v) for v in re.findall(r"-?\d+\.\d*", result.stdout)]
    torch.testing.assert_close(
        torch.tensor(printed).reshape(trace.output.shape), trace.output, atol=1e-5, rtol=0
    )


def test_exported_zero_renorm_survives_a_huge_blocked_score(tmp_path):
    # Token 1 may attend to token 2 only: its kept score is -200, its blocked one 200.
    embeddings = make_embeddings(["a", "b"], [[10.0, 10.0], [-10.0, -10.0]])
    allowed = ((False, True), (True, True))
    config = AttentionConfig(
        init="identity",
        scaling="none",
        mask="custom",
        custom_mask=allowed,
        mask_strategy="zero_renorm",
    )
    trace = run_attention(embeddings, config)
    torch.testing.assert_close(trace.weights[0, 0], torch.tensor([0.0, 1.0]))
    torch.testing.assert_close(exported_output(trace, tmp_path), trace.output, atol=1e-5, rtol=0)


def test_score_and_context_terms_add_up():
    trace = run_attention(preset_embeddings("journey"), AttentionConfig())
    terms = score_terms(trace, query=1, key=1)
    assert sum(terms.products) == pytest.approx(terms.total, abs=1e-5)
    assert terms.total == pytest.approx(1.8524, abs=1e-4)
    assert terms.scaled == pytest.approx(1.8524 / 2**0.5, abs=1e-4)
    mixed = context_terms(trace, query=1)
    rebuilt = torch.tensor(mixed.weights) @ torch.tensor(mixed.value_rows)
    torch.testing.assert_close(rebuilt, torch.tensor(mixed.result))
    assert mixed.result == pytest.approx((0.3061, 0.8210), abs=1e-4)


def test_scaling_experiment_shows_variance_growing_with_d_only_without_sqrt_scaling():
    rows = scaling_experiment(seed=0, dims=(4, 256))
    by = {(r["d"], r["scaling"]): r for r in rows}
    assert by[(256, "none")]["variance"] > 150  # about d
    assert 0.7 < by[(256, "sqrt_d")]["variance"] < 1.3  # about 1 for every d
    assert by[(256, "d")]["variance"] < 0.02  # about 1/d
    assert by[(256, "none")]["max_weight"] > 0.8  # softmax saturates
    assert by[(256, "d")]["entropy"] > 0.99 * by[(256, "d")]["uniform_entropy"]  # near uniform
    assert rows == scaling_experiment(seed=0, dims=(4, 256))


def test_dropout_average_converges_to_the_undropped_weights():
    trace = run_attention(preset_embeddings("journey"), AttentionConfig())
    _, few = dropout_average(trace.weights, 0.5, num_samples=5, seed=1)
    _, many = dropout_average(trace.weights, 0.5, num_samples=2000, seed=1)
    assert many < 0.05
    assert many < few


def test_dropout_keep_mask_and_rescaling_are_in_the_trace():
    trace = run_attention(
        preset_embeddings("journey"), AttentionConfig(dropout=0.5, dropout_seed=3)
    )
    assert trace.dropout_factor == 2.0
    expected = trace.weights * trace.dropout_keep * 2.0
    assert torch.equal(trace.weights_after_dropout, expected)
    assert 0 < trace.dropout_keep.sum() < trace.dropout_keep.numel()
    off = run_attention(
        preset_embeddings("journey"), AttentionConfig(dropout=0.5, dropout_seed=3, train=False)
    )
    assert torch.equal(off.weights_after_dropout, off.weights)


def test_importing_the_core_changes_nothing_process_wide():
    code = (
        "import torch; torch.set_num_threads(2); before = torch.random.get_rng_state();"
        "import attention_core as core;"
        "core.run_attention(core.preset_embeddings('journey'), core.AttentionConfig(dropout=0.5));"
        "assert torch.get_num_threads() == 2, torch.get_num_threads();"
        "assert torch.equal(before, torch.random.get_rng_state());"
        "import sys; assert 'streamlit' not in sys.modules and 'pandas' not in sys.modules"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_script_starts_from_the_books_lines_and_writes_the_learners_changes_as_edits(
    tmp_path,
):
    """Issue 53: section 3.3.1's inputs, section 3.4.1's seeded weights, then the learner's
    renamed token, typed number, seed and d_out as edits, every number as it was typed."""
    book = preset_embeddings("journey")
    values = [list(row) for row in book.values.tolist()]
    values[1][0] = 0.6
    tokens = ["Your", "trip", *book.tokens[2:]]
    trace = run_attention(make_embeddings(tokens, values), AttentionConfig(seed=7, d_out=3))
    script = export_script(trace)
    for line in (
        "    [0.43, 0.15, 0.89],  # Your",
        "tokens[1] = 'trip'  # the book: 'journey'",
        "inputs[1, 0] = 0.6  # the book: 0.55",
        "d_out = 3  # the book: 2",
        "torch.manual_seed(7)  # the book: 123",
        "W_query = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)",
        "class SelfAttention(torch.nn.Module):",
    ):
        assert line in script.splitlines(), line
    assert "0000" not in script  # no float32 noise such as 0.4300000071525574
    torch.testing.assert_close(exported_output(trace, tmp_path), trace.output, atol=1e-5, rtol=0)


def test_a_matrix_unlike_the_books_is_written_as_typed():
    trace = run_attention(
        make_embeddings(["a", "b"], [[0.1, -2.5], [3.0, 1e-3]]), AttentionConfig()
    )
    script = export_script(trace)
    assert "inputs = torch.tensor([[0.1, -2.5], [3.0, 0.001]])" in script
    assert "torch.manual_seed(123)" in script  # the weights are still the book's draw
