"""*Check yourself*: exercises on the learner's own numbers, answered by hand and checked by
the core; a hint after a wrong answer, the worked solution after two; and the title row's
"3 of 5 solved"."""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import streamlit as st

from attention_core import AttentionInputError, AttentionTrace
from attention_core.exercises import KIND_NAMES, Exercise, check, page_set
from attention_core.formatting import format_number
from translation import _
from ui import safe
from ui.blocks import class_exercise, formula_view
from ui.session import exercise_progress
from ui.session.run_order import Page
from ui.specs import exercise_formulas

# The kinds each lesson asks, in the order its page teaches them (the README lists them).
PAGE_KINDS = {
    "1_Embeddings": ("dot_product", "vector_length", "cosine"),
    "2_Simplified_attention": ("score", "softmax_weight", "context_entry"),
    "3_Trainable_weights": ("score", "scaled_score", "softmax_weight", "context_entry"),
    "4_Scaling": ("scaled_score", "score_variance", "softmax_weight"),
    "5_Causal_mask": ("scaled_score", "softmax_weight", "masked_weight"),
    "6_Dropout": ("softmax_weight", "dropout_weight", "context_entry"),
    "7_Multi-head_attention": ("head_shape", "score", "context_entry"),
    "8_Common_mistakes": ("scaled_score", "softmax_weight", "masked_weight"),
    "9_Word_vectors": ("scaled_score", "softmax_weight", "context_entry"),
    "10_Real_sentences": ("scaled_score", "softmax_weight", "context_entry"),
    "11_Todays_attention": ("head_shape", "masked_weight", "cache_size"),
    "12_Cross_attention": ("score", "scaled_score", "softmax_weight"),  # on step 2's run
    "13_Saving_memory": ("cache_size", "head_shape", "masked_weight"),
}
SECTION = "check_yourself"  # the section's key
TEXT_LIMIT = 600  # characters: the longest question or hint, with its numbers
ANSWER_LIMIT = 40  # characters of a typed answer shown back


def exercise_seed(page: str, kind: str) -> int:
    """The exercise seed of a page's slot: the same on every visit, so a link reproduces it."""
    return zlib.crc32(f"{page}/{kind}".encode())


def show_progress(page: Page) -> None:
    """The title row's "2 of 3 solved" on a lesson with exercises; nothing elsewhere."""
    kinds = PAGE_KINDS.get(page.info.key)
    if kinds:
        solved = exercise_progress.solved(page.info.key)
        st.badge(
            _("{solved} of {total} solved").format(solved=solved, total=len(kinds)),
            color="green" if solved == len(kinds) else "gray",
        )


def show_check_yourself(page: Page, trace: AttentionTrace | None = None) -> None:
    """The lesson's exercises on ``trace`` (the page's own run by default), in a section that
    is built only once it is opened; on a learner's screen, the exercise the teacher asked the
    class above it."""
    kinds = PAGE_KINDS[page.info.key]
    shown = trace or page.trace
    asked = class_exercise.asked_kind(page, kinds)
    made = None
    if asked:
        st.subheader(_("The class's exercise"))
        made = page.call(page_exercises, page, shown) or {}
        exercise = made.get(asked)
        if exercise is not None:
            _show_exercise(
                page, exercise, kinds.index(asked), class_exercise.learner_state(page, asked)
            )
    with st.expander(
        _("Check yourself"),
        expanded=exercise_progress.was_open(page.info.key),
        icon=":material/edit:",
        key=SECTION,
        on_change="rerun",
    ) as section:
        exercise_progress.keep_open(page.info.key, bool(section.open))
        if not section.open:
            return
        if made is None:
            made = page.call(page_exercises, page, shown) or {}
        caption = _(
            "Compute each answer by hand or with a calculator, from the numbers shown: they "
            "are your own and change with your matrix and settings. Answer with the "
            "decimals shown; a weight may also be typed as a percentage, like 22.64%."
        )
        if not any(exercise.share for exercise in made.values()):  # no weight is asked
            caption = _(
                "Compute each answer by hand or with a calculator, from the numbers shown: "
                "they are your own and change with your matrix and settings. Answer with the "
                "decimals shown."
            )
        st.caption(caption)
        for index, kind in enumerate(kinds):
            exercise = None if kind == asked else made.get(kind)
            if exercise is not None:
                _show_exercise(page, exercise, index, class_exercise.NOT_ASKED)


def exercises_of(
    page_key: str, trace: AttentionTrace, decimals: int, focus: int | None
) -> dict[str, Exercise]:
    """A lesson's exercises on ``trace``, each on numbers of its own and none on the
    ``focus`` query, the token the page works out in full (``page_set``)."""
    kinds = PAGE_KINDS[page_key]
    seeds = tuple(exercise_seed(page_key, kind) for kind in kinds)
    return page_set(kinds, trace, seeds, decimals, focus)


def page_exercises(page: Page, trace: AttentionTrace) -> dict[str, Exercise]:
    """The exercises this page asks on ``trace``, at its decimals, clear of its focus (made
    once per run: the charts above ask for them first)."""
    memo = exercise_progress.run_memo()
    kept = memo.get("made")
    if kept is not None and kept[0] is trace:
        return kept[1]
    made = exercises_of(page.info.key, trace, page.decimals, page.query)
    memo["made"] = (trace, made)
    return made


def exercises_on(page: Page, trace: AttentionTrace) -> None:
    """Say, before the page's charts, the trace its exercises are made on (when it is not
    the page's own run), so that no chart prints an answer they ask (``asked_cells``)."""
    exercise_progress.use_run(trace)


def answer_cells(page: Page, values: Sequence[Sequence[float]]) -> frozenset[tuple[int, int]]:
    """The cells of a chart of ``values`` that print an answer an exercise on screen asks
    and the learner has not answered yet: the chart draws them as "?" until the learner
    answers right, earns the worked solution or the teacher reveals it. Any cell that
    prints the same number is one: the asked one, its mirror in a symmetric matrix, a
    repeated word's, another run's that agrees (page 5's strategies, page 4's scalings)."""
    answers = _pending(page)
    if not answers:
        return frozenset()
    return frozenset(
        (i, j)
        for i, row in enumerate(values)
        for j, value in enumerate(row)
        if any(abs(value - answer) <= near for answer, near in answers)
    )


def _pending(page: Page) -> frozenset[tuple[float, float]]:
    """The answers of the exercises on screen not answered yet, each with how near a
    number must be to tell it: what the answer accepts, and half a printed unit more (the
    page computes a cell from unrounded numbers, the answer from the rounded ones given;
    once per run)."""
    memo = exercise_progress.run_memo()
    if "pending" in memo:
        return memo["pending"]
    memo["pending"] = frozenset()
    slots = PAGE_KINDS.get(page.info.key)
    opened = bool(slots) and exercise_progress.open_now(page.info.key, SECTION)
    asked = class_exercise.asked_kind(page, slots) if slots else ""
    if not opened and not asked:
        return memo["pending"]
    try:
        made = page_exercises(page, memo.get("trace") or page.trace)
    except (AttentionInputError, RuntimeError, ValueError):  # the section says why
        return memo["pending"]
    half = 0.5 * 10.0**-page.decimals
    memo["pending"] = frozenset(
        (float(exercise.answer), exercise.tolerance + half)
        for kind, exercise in made.items()
        if not isinstance(exercise.answer, tuple)
        and (opened or kind == asked)
        and not _answered(page, kind, exercise)
    )
    return memo["pending"]


def _answered(page: Page, kind: str, exercise: Exercise) -> bool:
    """Whether the answer may show: the learner answered it right or earned the solution;
    while the class is asked it, only a right answer; once revealed, yes."""
    attempt = exercise_progress.attempt(kind, exercise)
    state = class_exercise.learner_state(page, kind)
    if state == class_exercise.OPEN:
        return attempt.right
    if state == class_exercise.REVEALED or class_exercise.revealed(page, kind):
        return True
    return attempt.right or attempt.wrong >= 2


def _show_exercise(page: Page, exercise: Exercise, index: int, in_class: str) -> None:
    """One exercise: its question and numbers, the answer field, and what the last answer
    got. ``in_class``: whether the class is asked it now (a learner's screen)."""
    kind = exercise.kind
    name = _(KIND_NAMES[kind])
    st.markdown(
        _("**{number}. {name}**").format(number=index + 1, name=name[:1].upper() + name[1:])
    )
    st.markdown(safe.prose(exercise.question, TEXT_LIMIT))
    if exercise.given:
        formula_view.show(
            lambda width: exercise_formulas.given_latex(exercise.given, exercise.decimals, width),
            key=f"exercise_given_{kind}",
        )
    question = class_exercise.question_id(page, kind) if in_class == class_exercise.OPEN else ""
    with st.form(key=f"exercise_{kind}", border=False, enter_to_submit=True):
        st.text_input(
            _("Your answer"),
            key=exercise_progress.answer_key(kind),
            placeholder=_("a number"),
        )
        st.form_submit_button(
            _("Check"),
            on_click=exercise_progress.submit,
            args=(kind, page.info.key, exercise, question),
        )
    st.caption(tolerance_note(exercise))
    _show_verdict(exercise, exercise_progress.attempt(kind, exercise), in_class)
    class_exercise.show_teacher(page, exercise)
    class_exercise.show_learner(page, exercise, in_class)


def tolerance_note(exercise: Exercise) -> str:
    """How close an answer must be, said beside its field: the numbers given are rounded, so
    a number a few units off in its last decimal counts; a shape or a count is exact."""
    if isinstance(exercise.answer, tuple) or exercise.tolerance == 0:
        return _("Only the exact answer counts.")
    return _("Counted right within ± {tolerance} of the answer.").format(
        tolerance=format_number(exercise.tolerance, exercise.decimals)
    )


def _show_verdict(exercise: Exercise, attempt: exercise_progress.Attempt, in_class: str) -> None:
    """What the last answer was, the hint or the praise, and the worked solution once it is
    earned (after two wrong answers) or the exercise is solved; while the class is asked it,
    once the teacher reveals it."""
    if attempt.empty:
        st.info(_("Type your answer first."), icon=":material/keyboard:")
    if attempt.typed:
        verdict = check(exercise, attempt.typed)
        st.caption(_("You answered: {answer}").format(answer=safe.md(attempt.typed, ANSWER_LIMIT)))
        message = safe.prose(verdict.message, TEXT_LIMIT)
        if verdict.right:
            st.success(message, icon=":material/check_circle:")
        elif verdict.status == "wrong":
            st.warning(message, icon=":material/lightbulb:")
        else:
            st.info(message, icon=":material/keyboard:")
    earned = attempt.right or attempt.wrong >= 2
    if in_class == class_exercise.REVEALED or (earned and in_class != class_exercise.OPEN):
        st.markdown(_("**Worked solution**, with your numbers:"))
        formula_view.show(
            lambda width: exercise_formulas.solution_latex(exercise.solution, width),
            key=f"exercise_solution_{exercise.kind}",
        )
