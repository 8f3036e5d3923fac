"""What the learner did with the *Check yourself* exercises, kept for this session only.

For each exercise slot (a page and a kind): the exercise answered (its numbers, so new
settings give a fresh start), the last answer typed, how many answers were wrong; and which
slots were ever solved, for the title row's "3 of 5 solved". Nothing is stored anywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import streamlit as st

from attention_core.exercises import Exercise, check, outcome
from ui.session import class_mode

ATTEMPTS = "_exercise_attempts"
SOLVED = "_exercise_solved"
OPEN = "_exercise_open"


@dataclass(frozen=True)
class Attempt:
    """The learner's answers to one exercise so far."""

    typed: str = ""  # the last answer checked (untrusted text)
    wrong: int = 0  # how many checked answers were wrong (refused ones do not count)
    right: bool = False
    empty: bool = False  # the last Check had nothing typed: said so, the answer before kept


EXERCISE_RUN = "_exercise_run"  # this run's trace of the page's exercises, and their answers


def use_run(trace: object) -> None:
    """The trace this run's exercises are made on (by default the page's own), said before
    the page's charts, which keep the answers out of sight."""
    st.session_state[EXERCISE_RUN] = {"trace": trace}


def run_memo() -> dict:
    """This run's note of the exercises' trace and what the charts must not print (emptied
    by ``forget_run`` as every run starts)."""
    return st.session_state.setdefault(EXERCISE_RUN, {})


def forget_run() -> None:
    """A new run: nothing said yet."""
    st.session_state.pop(EXERCISE_RUN, None)


def identity(exercise: Exercise) -> str:
    """What makes an exercise the same one: its kind, numbers and answer (not its words)."""
    return repr((exercise.kind, exercise.given, exercise.answer))


def answer_key(slot: str) -> str:
    """The answer field's widget key."""
    return f"exercise_answer_{slot}"


def attempt(slot: str, exercise: Exercise) -> Attempt:
    """The learner's answers to this exercise (none when the slot holds another one)."""
    kept = st.session_state.get(ATTEMPTS, {}).get(slot)
    if kept is None or kept[0] != identity(exercise):
        return Attempt()
    return kept[1]


def submit(slot: str, page: str, exercise: Exercise, question: str = "") -> None:
    """Check the typed answer (the *Check* button's callback, before the page is drawn);
    in a class asked the exercise as ``question``, count how it turned out."""
    typed = str(st.session_state.get(answer_key(slot), ""))
    before = attempt(slot, exercise)
    if not typed.strip():  # not an answer: said so; the last answer and its hint stay
        kept = replace(before, empty=True)
        st.session_state.setdefault(ATTEMPTS, {})[slot] = (identity(exercise), kept)
        return
    verdict = check(exercise, typed)
    now = Attempt(
        typed=typed,
        wrong=before.wrong + (verdict.status == "wrong"),
        right=verdict.right or before.right,
    )
    st.session_state.setdefault(ATTEMPTS, {})[slot] = (identity(exercise), now)
    if verdict.right:
        st.session_state.setdefault(SOLVED, set()).add((page, slot))
    if question:
        class_mode.answer_choice(question, outcome(exercise, verdict))


def solved(page: str) -> int:
    """How many of the page's exercises the learner solved in this session."""
    return sum(1 for shown, _slot in st.session_state.get(SOLVED, set()) if shown == page)


def keep_open(page: str, is_open: bool) -> None:
    """Remember whether the section is open: a new language relabels it, and Streamlit
    draws a relabelled section as new, closed unless told otherwise."""
    st.session_state.setdefault(OPEN, {})[page] = is_open


def was_open(page: str) -> bool:
    """Whether the learner left the page's section open when it was last drawn."""
    return bool(st.session_state.get(OPEN, {}).get(page))


def open_now(page: str, section: str) -> bool:
    """Whether the page's section (keyed ``section``) is open as this run starts: its own
    state, sent with the click that opened or closed it, else as it was last drawn."""
    return bool(st.session_state.get(section, was_open(page)))
