"""A *Check yourself* exercise posed to the whole class, through the class's questions: the
teacher asks it, each learner's answer is checked on their own screen and counted by how it
turned out (right, each catalogued mistake, another wrong answer: the question's choices),
and the teacher sees the share correct and the most common wrong answer."""

from __future__ import annotations

import streamlit as st

from attention_core.exercises import MISTAKE_NAMES, Exercise, outcomes
from attention_core.formatting import counted, format_number
from translation import _
from ui.blocks import class_question
from ui.session import class_mode
from ui.session.run_order import Page

NOT_ASKED, OPEN, REVEALED = class_question.NOT_ASKED, class_question.OPEN, class_question.REVEALED


def question_id(page: Page, kind: str) -> str:
    """The class question of a page's exercise: "ex5_masked_weight" on page 5."""
    return f"ex{page.info.key.split('_', 1)[0]}_{kind}"


def choices(exercise: Exercise) -> tuple[str, ...]:
    """How an answer can turn out, as the teacher reads it: "right (0.3986)", "forgot to
    scale (1.3545)", …"""
    values = {m.key: m.value for m in exercise.mistakes}
    named = []
    for key in outcomes(exercise):
        if key == "right":
            named.append(_("right ({answer})").format(answer=exercise.answer_text))
        elif key in values:
            named.append(
                _("{mistake} ({answer})").format(
                    mistake=_(MISTAKE_NAMES[key]), answer=_value(values[key], exercise)
                )
            )
        else:
            named.append(_(MISTAKE_NAMES[key]))
    return tuple(named)


def _value(value: float | tuple[int, ...], exercise: Exercise) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(str(n) for n in value) + ")"
    return format_number(value, 0 if exercise.tolerance == 0 else exercise.decimals)


def learner_state(page: Page, kind: str) -> str:
    """On a learner's screen: whether this exercise is the class's open question (``OPEN``),
    revealed (``REVEALED``) or not asked (``NOT_ASKED``; also for the teacher)."""
    member = class_mode.membership()
    if member is None or member.teaching:
        return NOT_ASKED
    found = class_mode.current_state(class_mode.LOOK_AGE)
    if found is None or found.question != question_id(page, kind):
        return NOT_ASKED
    return REVEALED if found.revealed else OPEN


def revealed(page: Page, kind: str) -> bool:
    """Whether the class's question on this exercise has been revealed (the teacher's
    screen too)."""
    if class_mode.membership() is None:
        return False
    found = class_mode.current_state(class_mode.LOOK_AGE)
    return found is not None and found.question == question_id(page, kind) and found.revealed


def asked_kind(page: Page, kinds: tuple[str, ...]) -> str:
    """The kind of this page's exercise the class is asked now, on a learner's screen ("")."""
    return next((k for k in kinds if learner_state(page, k) != NOT_ASKED), "")


def show_teacher(page: Page, exercise: Exercise) -> None:
    """The teacher's side: *Ask the class*, then the count, the buttons of every question
    and, once the answers are shown, the share correct; with the reveal, the outcomes'
    histogram and the most common wrong answer."""
    member = class_mode.membership()
    if member is None or not member.teaching:
        return
    question = question_id(page, exercise.kind)
    named = choices(exercise)
    class_question.show_class_question(page, question, named, 0, choices_tell=True)
    found = class_mode.current_state()
    if found is not None and found.question == question and (found.shown or found.revealed):
        _summary(question, named, found.revealed)


@st.fragment(run_every=class_question.COUNT_EVERY)
def _summary(question: str, named: tuple[str, ...], revealed: bool) -> None:
    """The share right; with the reveal, the most common wrong answer too (its name and
    value would tell the class a wrong value before it: the projector is the teacher's)."""
    counts = class_mode.tally(question)
    if not counts or len(counts) != len(named) or not sum(counts):
        return
    total = sum(counts)
    text = _("{right} of {answers} right ({share} %).").format(
        right=counts[0], answers=counted(total, "answer"), share=round(100 * counts[0] / total)
    )
    wrong = max(range(1, len(counts)), key=lambda i: counts[i])
    if revealed and counts[wrong]:
        text += " " + _("The most common wrong answer: {choice}, {answers}.").format(
            choice=named[wrong], answers=counted(counts[wrong], "answer")
        )
    st.markdown(text)


def show_learner(page: Page, exercise: Exercise, state: str) -> None:
    """Under a learner's answer to the class's exercise: what happens to it; once revealed,
    where the class stood."""
    if state == OPEN:
        st.caption(
            _(
                "The teacher asked the class this exercise: your last checked answer counts. "
                "The teacher reveals the worked solution to everyone."
            )
        )
    elif state == REVEALED:
        class_question.show_class_result(
            page, question_id(page, exercise.kind), choices(exercise), 0
        )
