"""Reading a typed answer as a person writes it, and saying what is wrong with it.

Accepted: ``0.2264``, ``.2264``, ``-1.5`` (or with the minus sign −), ``2.264e-1``, and
``22.64%`` where the answer is a share; a shape as ``(1, 2, 6, 3)``, ``1, 2, 6, 3`` or
``1×2×6×3``. Anything else (words, NaN, infinity, huge numbers, markup) is refused with one
sentence that does not repeat the text.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from attention_core.exercises.base import Exercise
from translation import _

MAX_LENGTH = 40  # characters: no answer here is longer
MAX_MAGNITUDE = 1e9
_NUMBER = re.compile(r"[+-]?(?P<int>\d*)(?:\.(?P<frac>\d*))?(?:[eE][+-]?\d{1,3})?(?P<pct>%)?", re.A)
_SHAPE = re.compile(r"[(\[]?\s*\d{1,6}(?:\s*[,×xX*]\s*\d{1,6})*\s*[)\]]?", re.A)


@dataclass(frozen=True)
class Verdict:
    """What the check found: ``status`` is "refused", "wrong" or "right"; ``message`` says it
    in the learner's words; ``value`` is the number read (None when refused)."""

    status: str
    message: str
    value: float | tuple[int, ...] | None = None
    mistake: str = ""

    @property
    def right(self) -> bool:
        """True for a right answer."""
        return self.status == "right"


def check(exercise: Exercise, text: object) -> Verdict:
    """Read ``text`` and compare it with the exercise's answer within its tolerance."""
    typed = str(text).strip().replace("\u2212", "-")
    if not typed:
        return Verdict("refused", _("Type your answer first."))
    if len(typed) > MAX_LENGTH:
        return Verdict("refused", _("That is too long to be an answer: type one number."))
    if isinstance(exercise.answer, tuple):
        return _check_shape(exercise, typed)
    return _check_number(exercise, typed)


def _check_shape(exercise: Exercise, typed: str) -> Verdict:
    if not _SHAPE.fullmatch(typed):
        return Verdict(
            "refused",
            _("That is not a shape: type whole numbers between commas, like (2, 3)."),
        )
    value = tuple(int(part) for part in re.findall(r"\d+", typed, re.A))
    if value == exercise.answer:
        return Verdict("right", _("Right: {answer}.").format(answer=exercise.answer_text), value)
    for mistake in exercise.mistakes:
        if value == mistake.value:
            return Verdict("wrong", _wrong(mistake.hint), value, mistake.key)
    return Verdict("wrong", _wrong(exercise.hint), value)


def _check_number(exercise: Exercise, typed: str) -> Verdict:
    match = _NUMBER.fullmatch(typed)
    if "," in typed and re.fullmatch(r"[+-]?\d*,\d+", typed, re.A):
        return Verdict("refused", _("Write decimals with a point, as in 0.2264."))
    if not match or not (match["int"] or match["frac"]):
        return Verdict(
            "refused",
            _("That is not a number: type digits, with a point for decimals, such as 0.2264."),
        )
    if match["pct"] and not exercise.share:
        return Verdict("refused", _("This answer is not a share: type it without %."))
    value = float(typed.rstrip("%"))
    if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
        return Verdict("refused", _("That number is far too large to be the answer here."))
    if match["pct"]:
        value /= 100
    return _judge(exercise, value, _decimals_typed(match))


def _decimals_typed(match: re.Match[str]) -> int | None:
    """How many decimals the answer was written with (of the share when a %), or None when
    an exponent makes that unclear."""
    if "e" in match[0].lower():
        return None
    return len(match["frac"] or "") + (2 if match["pct"] else 0)


def _judge(exercise: Exercise, value: float, typed_decimals: int | None) -> Verdict:
    answer = float(exercise.answer)  # a number: shapes are judged by _check_shape
    tolerance = exercise.tolerance + 1e-9
    if abs(value - answer) <= tolerance:
        return Verdict("right", _("Right: {answer}.").format(answer=exercise.answer_text), value)
    for mistake in exercise.mistakes:
        wrong = float(mistake.value)  # type: ignore[arg-type]
        if abs(value - wrong) <= tolerance and abs(wrong - answer) > tolerance:
            return Verdict("wrong", _wrong(mistake.hint), value, mistake.key)
    if (
        typed_decimals is not None
        and 0 < typed_decimals < exercise.decimals
        and abs(value - answer) <= 0.5 * 10.0**-typed_decimals + tolerance
    ):
        return Verdict(
            "wrong",
            _wrong(
                _("Right as far as it goes: give {decimals} decimals.").format(
                    decimals=exercise.decimals
                )
            ),
            value,
            "too_few_decimals",
        )
    return Verdict("wrong", _wrong(exercise.hint), value)


def outcomes(exercise: Exercise) -> tuple[str, ...]:
    """The ways a checked answer can turn out, in order: right, each of the exercise's
    catalogued mistakes, too few decimals (a number), another wrong answer. A class counts
    its answers by these (a question's choices)."""
    numeric = not isinstance(exercise.answer, tuple)
    return (
        "right",
        *(m.key for m in exercise.mistakes),
        *(("too_few_decimals",) if numeric else ()),
        "other",
    )


def outcome(exercise: Exercise, verdict: Verdict) -> int | None:
    """The index in :func:`outcomes` of a checked answer; None for a refused one."""
    if verdict.status == "refused":
        return None
    if verdict.right:
        return 0
    found = outcomes(exercise)
    return found.index(verdict.mistake) if verdict.mistake in found else len(found) - 1


def _wrong(hint: str) -> str:
    return _("Not quite. {hint}").format(hint=hint)
