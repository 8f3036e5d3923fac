"""The command line: its output, strict JSON and its refusals (in this process), and as a shell
runs it: real processes for pipes, odd encodings and the status a shell sees."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
import torch

from attention_core import AttentionConfig, preset_embeddings, run_attention
from attention_core.cli import FLAGS
from attention_core.knobs.table import PARAMS
from attention_core.memory_report import MEMORY_FLAGS


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """``python -m attention_core`` with ``args``, run in this process (``cli.main`` is what
    the module runs): its status, stdout and stderr. A real process costs seconds of the
    suite's budget each; the tests below that are about the process (pipes, encodings, the
    status a shell sees, jq) start one."""
    import contextlib
    import io

    from attention_core.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as stopped:  # --help, and argparse's own refusals
            code = stopped.code
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def run_process(*args: str) -> subprocess.CompletedProcess:
    """``python -m attention_core`` with ``args`` in a real process."""
    return subprocess.run(
        [sys.executable, "-m", "attention_core", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_shell(command: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        capture_output=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_cli_default_prints_the_books_numbers():
    result = run_cli("--query", "2")
    assert result.returncode == 0, result.stderr
    assert "journey   0.1500   0.2264   0.2199   0.1311   0.0906   0.1820" in result.stdout
    assert "journey  0.3061  0.8210" in result.stdout
    assert "= [0.3061, 0.8210]" in result.stdout


def test_every_flag_is_a_row_of_the_parameter_table():
    # The memory calculator's knobs live on their lesson page and are flags too.
    assert set(FLAGS) == {
        name for name, p in PARAMS.items() if p.scope != "lesson" and not p.dashboard_only
    } | set(MEMORY_FLAGS)
    assert all(PARAMS[name].page == "13_Saving_memory" for name in MEMORY_FLAGS)
    result = run_cli("--help")
    for name in FLAGS:
        assert f"--{name}" in result.stdout
    assert "0 to 4294967295" in " ".join(result.stdout.split())  # the seed's range, whole
    assert "e+09" not in result.stdout


def test_decimals_is_one_setting_for_every_number():
    result = run_cli("--decimals", "2")
    lines = result.stdout.splitlines()
    weights = lines[lines.index("weights") + 3]  # the header, "Your", then "journey"
    assert weights.split() == ["journey", "0.15", "0.23", "0.22", "0.13", "0.09", "0.18"]


def test_cli_json_has_the_trace_fields():
    result = run_cli("--json", "--preset", "nugues", "--init", "identity")
    data = json.loads(result.stdout)
    for key in ("tokens", "inputs", "W_query", "scores", "allowed", "weights", "context"):
        assert key in data
    assert data["tokens"] == ["w1", "w2", "w3"]
    assert data["context"][0][0] == pytest.approx(0.4519, abs=1e-4)


def _refuse_constant(name: str) -> None:
    raise ValueError(f"not JSON: {name}")


def test_json_is_strict_masked_scores_are_null():
    result = run_cli("--json", "--mask", "causal")
    data = json.loads(result.stdout, parse_constant=_refuse_constant)
    assert data["masked_scores"][0][0][1] is None  # −∞ above the diagonal
    assert data["masked_scores"][0][1][0] == pytest.approx(0.8984, abs=1e-4)


def test_json_with_undefined_weights_is_strict():
    # Normalising by the row sum divides 0 by 0 when a causal row sums to zero: NaN -> null.
    result = run_cli(
        "--json", "--x", "1,-1;-1,1", "--init", "identity", "--norm", "sum", "--scaling", "none"
    )
    data = json.loads(result.stdout, parse_constant=_refuse_constant)
    assert data["weights"][0][0] == [None, None]


@pytest.mark.skipif(shutil.which("jq") is None, reason="jq is not installed")
def test_jq_parses_the_json():
    result = run_shell(
        f"{sys.executable} -m attention_core --json --mask causal --dropout 0.5 | jq -e "
        "'.masked_scores[0][0][1] == null and (.weights | length) == 1'"
    )
    assert result.returncode == 0, result.stderr


def test_negative_numbers_and_dash_labels_are_values():
    result = run_cli("--x", "-1,0;0,-1.5", "--tokens", "-a,--b", "--d_out", "2", "--query", "1")
    assert result.returncode == 0, result.stderr
    assert "step by step for query 1 (-a)" in result.stdout
    joined = run_cli("--x=-1,0;0,-1.5", "--tokens=-a,--b")
    assert joined.stdout.splitlines()[:3] == result.stdout.splitlines()[:3]


def test_a_closed_pipe_ends_quietly_with_status_0():
    result = run_shell(f"{sys.executable} -m attention_core --json | head -c 10")
    assert result.returncode == 0
    assert result.stderr == b""
    result = run_shell(f"{sys.executable} -m attention_core --query 2 | head -1")
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout.startswith(b"tokens: Your journey")


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_any_terminal_encoding_prints_without_a_traceback(encoding):
    result = subprocess.run(
        [sys.executable, "-m", "attention_core", "--tokens", "東京,é,γ,d,e,f", "--query", "1"],
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": encoding},
    )
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stderr
    assert b"\\u6771\\u4eac" in result.stdout  # shown as escapes, never raw bytes


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--x", "1,2;3"], "rows have different lengths"),
        (["--x", "1,abc"], "row 1, column 2 is not a number"),
        (["--x", "1,１"], "row 1, column 2 is not a number written with the digits 0-9"),
        (["--x", "nan,1"], "is not a number"),
        (["--d_out", "3", "--heads", "2"], "3 is not divisible by 2"),
        (["--dropout", "1"], "dropout must be between 0 and 0.9, not 1"),
        (["--dropout", "0.95"], "dropout must be between 0 and 0.9, not 0.95"),  # once "-0.9 and"
        (["--init", "nope"], "init must be one of"),
        (["--seed", "4294967296"], "seed must be between 0 and 4294967295"),
        (["--seed", "１２"], "seed must be a whole number written with the digits 0-9"),
        (["--bogus", "1"], "unrecognized arguments"),
        (["--query", "9"], "query: there is no token 9"),
        (["--tokens", "a\x1b[31mb,c,d,e,f,g"], "token 1 contains U+001B"),
        (["--tokens", "a\u202eb,c,d,e,f,g"], "contains U+202E"),
    ],
)
def test_cli_bad_input_is_one_line_and_status_2(args, message):
    # In this process (a subprocess costs ~5 s of the suite's budget each): main() is what
    # `python -m attention_core` runs; the status through a real process is checked below.
    code, stderr = run_main(args)
    assert code == 2
    assert message in stderr
    assert len(stderr.strip().splitlines()) == 1
    assert "Traceback" not in stderr
    assert "\x1b" not in stderr


def test_bad_input_through_a_real_process_is_one_line_and_status_2():
    result = run_process("--tokens", "a\u202eb,c,d,e,f,g")
    assert result.returncode == 2
    assert "contains U+202E" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def run_main(args: list[str]) -> tuple[int, str]:
    """``attention_core.cli.main`` on ``args``: its status and what it wrote to stderr."""
    result = run_cli(*args)
    return result.returncode, result.stderr


def test_cli_explains_the_head_it_is_given():
    # A review: --head was accepted and the explanation was always head 1's.
    numbers = []
    for head in ("1", "2"):
        result = run_cli("--d_out", "4", "--heads", "2", "--query", "2", "--head", head)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        start = lines.index(f"step by step for query 2 (journey), head {head}")
        numbers.append(lines[start + 1 : start + 8])
    assert numbers[0] != numbers[1]
    trace = run_attention(preset_embeddings("journey"), AttentionConfig(d_out=4, heads=2))
    for head, explained in enumerate(numbers):
        shown = explained[-1].rsplit("= [", 1)[1].rstrip("]").split(", ")
        assert shown == [f"{v:.4f}" for v in trace.head_context[head, 1].tolist()]


def test_cli_reproduces_the_books_multi_head_attention_with_flags_only():
    # Section 3.6.2 of the book (torch.manual_seed(123), d_out 2, two heads, out_proj).
    result = run_cli("--out_proj", "linear", "--heads", "2", "--mask", "causal", "--init", "linear")
    assert result.returncode == 0, result.stderr
    assert "qkv_bias off, out_proj linear, heads_layout split" in result.stdout
    assert "Your     0.3190  0.4858" in result.stdout
    assert "step     0.2575  0.4028" in result.stdout
    result = run_cli("--out_proj", "linear", "--qkv_bias", "true", "--init", "linear", "--json")
    trace = json.loads(result.stdout)
    assert len(trace["b_query"]) == 2 and len(trace["b_out"]) == 2
    assert trace["config"]["qkv_bias"] is True and trace["config"]["out_proj"] == "linear"


def test_main_prints_to_a_text_stream_without_bytes_underneath():
    """A notebook's stdout, or ``redirect_stdout(io.StringIO())``, has no ``.buffer``: the
    command line still prints its numbers there, and an error there too (issue 39, item 5)."""
    import contextlib
    import io

    from attention_core.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["--query", "2", "--tokens", "Your,jöurney,starts,with,one,step"]) == 0
        with pytest.raises(SystemExit) as stopped:
            main(["--d_out", "0"])
    assert stopped.value.code == 2
    assert "jöurney  0.3061  0.8210" in out.getvalue()
    assert err.getvalue().startswith("attention_core: error: d_out")


def main_output(args: list[str]) -> tuple[int, str]:
    """``attention_core.cli.main`` on ``args`` in this process: its status and its stdout."""
    result = run_cli(*args)
    return result.returncode, result.stdout


VARIANT_FLAGS = ["--heads", "4", "--d_out", "8", "--kv_groups", "2", "--rope", "true"]
VARIANT_FLAGS += ["--window", "3", "--mask", "causal"]


def test_cli_runs_todays_attention_as_run_attention_does():
    code, out = main_output([*VARIANT_FLAGS, "--json"])
    assert code == 0
    data = json.loads(out, parse_constant=_refuse_constant)
    config = AttentionConfig(heads=4, d_out=8, kv_groups=2, rope=True, window=3, mask="causal")
    trace = run_attention(preset_embeddings("journey"), config)
    assert torch.equal(torch.tensor(data["weights"]), trace.weights)
    assert torch.equal(torch.tensor(data["output"]), trace.output)
    assert trace.rotated_queries is not None
    assert torch.equal(torch.tensor(data["rotated_queries"]), trace.rotated_queries)
    assert {k: data["config"][k] for k in ("kv_groups", "window", "rope", "rope_base")} == {
        "kv_groups": 2,
        "window": 3,
        "rope": True,
        "rope_base": 10000,
    }


def test_cli_header_names_todays_variants_only_when_they_are_on():
    _, text = main_output(VARIANT_FLAGS)
    assert text.splitlines()[2] == (
        "qkv_bias off, out_proj none, heads_layout split, kv_groups 2, window 3, rope (base 10000)"
    )
    _, text = main_output(["--window", "2", "--rope", "true", "--rope_base", "500000"])
    assert text.splitlines()[2] == "qkv_bias off, out_proj none, window 2, rope (base 500000)"
    _, text = main_output(["--rope_base", "500000"])  # the base of a RoPE that is off
    assert text.splitlines()[2] == "qkv_bias off, out_proj none"
    _, text = main_output(["--heads", "2", "--d_out", "4"])
    assert text.splitlines()[2] == "qkv_bias off, out_proj none, heads_layout split"


# The command line's language: --lang, else the environment's (as gettext reads it), else
# English; numbers and labels are the same in every language.
NUMBERS = "journey   0.1500   0.2264   0.2199   0.1311   0.0906   0.1820"


def _main(args: list[str], capsys) -> tuple[int | str, str, str]:
    from attention_core import cli

    try:
        status = cli.main(args)
    except SystemExit as exit_:
        status = exit_.code
    out = capsys.readouterr()
    return status, out.out, out.err


def test_lang_prints_the_words_in_chinese_and_the_same_numbers(capsys, monkeypatch):
    import translation

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    status, out, _err = _main(["--lang", "zh_CN", "--query", "2"], capsys)
    assert status == 0
    assert out.startswith("词元：Your journey starts with one step") and NUMBERS in out
    assert translation.language() == "en"  # the caller's language is given back
    status, english, _err = _main(["--query", "2"], capsys)
    assert english.startswith("tokens: Your journey") and NUMBERS in english


def test_the_environment_chooses_the_language_and_lang_overrides_it(capsys, monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    _status, out, _err = _main(["--query", "2"], capsys)
    assert out.startswith("词元：")
    _status, out, _err = _main(["--lang", "en", "--query", "2"], capsys)
    assert out.startswith("tokens: ")
    status, _out, err = _main(["--d_out", "3", "--heads", "2"], capsys)
    assert status == 2 and err.startswith("attention_core: 错误：") and "3 不能被 2 整除" in err
