"""``python -m attention_core exercise``: an exercise on the settings' numbers, for a handout,
and ``--answer`` to check one.

The settings are the usual flags (``--seed`` is the weights' seed, as everywhere); ``--kind``
picks the exercise and ``--number`` which one of that kind (the exercise seed).
"""

from __future__ import annotations

import argparse

from attention_core import cli
from attention_core.errors import AttentionInputError
from attention_core.exercises import KIND_NAMES, KINDS, Exercise, check, make_exercise
from attention_core.exercises.base import Line
from attention_core.knobs.links import read_params
from attention_core.pipeline import run_attention
from translation import _


def add_command(commands: argparse._SubParsersAction) -> None:
    """``exercise``: the usual settings' flags, and the exercise's own."""
    parser = commands.add_parser(
        "exercise",
        help=_("print an exercise on these settings' numbers, or check an answer"),
        description=_("Print an exercise on these settings' numbers, or check an answer."),
    )
    cli.add_setting_flags(parser, default=argparse.SUPPRESS)
    parser.add_argument(
        "--kind",
        metavar="KIND",
        default="score",
        help=_("which exercise. Choices: {choices}. Default: score.").format(
            choices=", ".join(KINDS)
        ),
    )
    parser.add_argument(
        "--number",
        metavar="N",
        default="1",
        help=_("which exercise of that kind: each number gives other numbers. Default: 1."),
    )
    parser.add_argument("--answer", metavar="X", help=_("check this answer and say why"))
    parser.add_argument(
        "--solution", action="store_true", help=_("print the worked solution as well")
    )


def run(args: argparse.Namespace) -> int:
    """Print the exercise, or check ``--answer`` (status 0 right, 1 wrong, 2 refused)."""
    given = {
        name: [getattr(args, name)] for name in cli.FLAGS if getattr(args, name, None) is not None
    }
    try:
        settings, _notices = read_params(given, strict=True, scopes=("input", "config", "view"))
        number = _whole(args.number)
        exercise = make_exercise(
            args.kind,
            run_attention(settings.embeddings(), settings.config()),
            number,
            settings["decimals"],
        )
    except AttentionInputError as error:
        cli.fail(str(error))
    if args.answer is None:
        lines = render(exercise)
        if args.solution:
            lines += ["", _("Worked solution:"), *solution_lines(exercise.solution)]
        return cli.write("\n".join(lines))
    verdict = check(exercise, args.answer)
    if verdict.status == "refused":
        cli.fail(verdict.message)
    lines = [verdict.message]
    if not verdict.right and args.solution:
        lines += solution_lines(exercise.solution)
    cli.write("\n".join(lines))
    return 0 if verdict.right else 1


def _whole(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 10:
        raise AttentionInputError(_("number must be a whole number written with the digits 0-9"))
    return int(text)


def render(exercise: Exercise) -> list[str]:
    """The exercise as a handout prints it: what to compute, the numbers, how to answer."""
    lines = [
        _("Exercise: {kind} (number {number})").format(
            kind=_(KIND_NAMES[exercise.kind]), number=exercise.seed
        ),
        exercise.question,
    ]
    lines += [
        f"  {item.name} = " + _vector(item.values, exercise.decimals) for item in exercise.given
    ]
    if not isinstance(exercise.answer, tuple) and exercise.tolerance:
        lines.append(_("Answer with {decimals} decimals.").format(decimals=exercise.decimals))
    return lines


def solution_lines(solution: tuple[Line, ...]) -> list[str]:
    """Each line of a worked solution: left = terms = result."""
    return [
        "  "
        + " = ".join(
            part for part in (line.left, line.joiner.join(line.terms), line.result) if part
        )
        for line in solution
    ]


def _vector(values: tuple[float, ...], decimals: int) -> str:
    from attention_core.formatting import format_number

    text = ", ".join(format_number(v, decimals) for v in values)
    return text if len(values) == 1 else f"[{text}]"
