"""``python -m attention_core exercise``: a handout's exercise, its answer checked, hostile
answers refused in one line (in this process: a subprocess costs seconds of the budget)."""

import pytest

from attention_core import AttentionConfig, preset_embeddings, run_attention
from attention_core.exercises import make_exercise
from tests.core.test_cli import _main, run_main

EXERCISE = ["exercise", "--kind", "score", "--seed", "7"]


def seven():
    """The same exercise, made by the core from the same settings."""
    return make_exercise(
        "score", run_attention(preset_embeddings("journey"), AttentionConfig(seed=7)), 1
    )


def test_an_exercise_is_printed_with_the_settings_numbers(capsys):
    status, out, err = _main(EXERCISE, capsys)
    exercise = seven()
    assert status == 0 and not err
    assert exercise.question in out
    q, _k = exercise.given
    assert f"{q.name} = [{q.values[0]:.4f}, {q.values[1]:.4f}]".replace("-", "−") in out
    assert exercise.answer_text not in out  # the handout does not give the answer away
    status, other, _err = _main([*EXERCISE, "--number", "2"], capsys)
    assert other != out  # another number, other numbers


def test_the_answer_is_checked_and_a_wrong_one_gets_its_hint(capsys):
    exercise = seven()
    status, out, _err = _main([*EXERCISE, "--answer", exercise.answer_text], capsys)
    assert status == 0 and out.startswith("Right: ")
    scaled = f"{exercise.mistakes[0].value:.4f}"
    status, out, _err = _main([*EXERCISE, "--answer", scaled, "--solution"], capsys)
    assert status == 1 and "You divided by 1.4142" in out
    assert f"= {exercise.answer_text}" in out  # the worked solution, after the hint


def test_negative_answers_are_values_not_flags(capsys):
    status, out, _err = _main([*EXERCISE, "--answer", "-0.5"], capsys)
    assert status == 1 and out.startswith("Not quite.")


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("abc", "That is not a number"),
        ("nan", "That is not a number"),
        ("inf", "That is not a number"),
        ("1e999", "far too large"),
        ("<script>alert(1)</script>", "That is not a number"),
        ("**1**", "That is not a number"),
        ("1\n2", "That is not a number"),
        pytest.param("9" * 300, "too long", id="300 nines"),
    ],
)
def test_hostile_answers_are_refused_in_one_line(answer, message):
    code, stderr = run_main([*EXERCISE, "--answer", answer])
    assert code == 2 and message in stderr
    assert len(stderr.strip().splitlines()) == 1
    assert "script" not in stderr and "Traceback" not in stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kind", "guess"], "kind must be one of dot_product, vector_length, cosine, score"),
        (["--number", "x1"], "number must be a whole number"),
        (["--d_out", "3", "--heads", "2"], "3 is not divisible by 2"),
    ],
)
def test_bad_exercise_settings_are_one_line(args, message):
    code, stderr = run_main(["exercise", *args])
    assert code == 2 and message in stderr and len(stderr.strip().splitlines()) == 1


def test_lang_prints_the_exercise_in_chinese_with_the_same_numbers(capsys, monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    _status, english, _err = _main(EXERCISE, capsys)
    _status, chinese, _err = _main([*EXERCISE, "--lang", "zh_CN"], capsys)
    assert chinese.startswith("练习") and "Exercise" not in chinese
    assert english.splitlines()[2:4] == chinese.splitlines()[2:4]  # the numbers


def test_settings_before_the_command_count_as_after_it(capsys):
    _status, after, _err = _main(EXERCISE, capsys)
    _status, before, _err = _main(["--seed", "7", "exercise", "--kind", "score"], capsys)
    assert before == after
    code, stderr = run_main(["--d_out", "3", "--heads", "2", "exercise"])
    assert code == 2 and "3 is not divisible by 2" in stderr


def test_the_exercise_flags_are_the_parsers_own():
    # What a guide may show: the command is a subcommand of the one parser.
    import argparse

    from attention_core.cli import build_parser

    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    flags = {s for a in commands.choices["exercise"]._actions for s in a.option_strings}
    assert {"--kind", "--number", "--answer", "--solution", "--seed", "--lang"} <= flags


def test_a_mask_that_hides_every_key_asks_about_the_causal_mask(capsys):
    """Padding as long as the sequence hides every key of every query: the masked-weight
    exercise raised a RuntimeError (a traceback on the command line, "could not be computed"
    on pages 8, 11 and 13); it asks about the causal mask instead, and its answer is right."""
    args = ["exercise", "--kind", "masked_weight", "--mask", "padding", "--padding", "6"]
    status, out, err = _main(args, capsys)
    assert status == 0 and not err and "Traceback" not in out
    assert "The mask hides key" in out
    trace = run_attention(preset_embeddings("journey"), AttentionConfig(mask="padding", padding=6))
    exercise = make_exercise("masked_weight", trace, 1)
    assert exercise.question in out
    status, out, _err = _main([*args, "--answer", exercise.answer_text], capsys)
    assert status == 0 and out.startswith("Right: ")
