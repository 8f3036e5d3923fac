"""The class's side of a predict-then-reveal question: the teacher asks, watches the count,
shows the histogram, has the class vote again and reveals it; a learner answers; the parts of
a page that give the answer away are hidden meanwhile; the teacher downloads every answer."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import UTC, datetime

import streamlit as st

from attention_core.formatting import counted
from classroom import ClassState
from classroom.rounds import correct_shift
from translation import _
from ui.blocks.heatmaps import vega_spec
from ui.blocks.panels import csv_cell
from ui.session import class_mode
from ui.session.run_order import Page
from ui.specs.bars_and_curves import answer_shares, make_answer_bars

COUNT_EVERY = 2.0  # seconds between the teacher's counts of the answers

# What the class's side of a question says to the page's own *Reveal the answer*.
NOT_ASKED, OPEN, REVEALED = "", "open", "revealed"


def show_class_question(
    page: Page, key: str, choices: Sequence[str], correct: int, choices_tell: bool = False
) -> str:
    """The class's side of the question ``key``: the teacher asks, watches the count of
    answers, shows their histogram, has the class vote again and reveals; a learner answers.
    ``choices_tell``: the choices' names give the answer away (an exercise's outcomes, "right
    (0.3986)"), so their histogram waits for the reveal. Returns ``OPEN`` while the class's
    question hides the answer, ``REVEALED`` once the teacher has revealed it, else
    ``NOT_ASKED`` (the page's own button then reveals it)."""
    member = class_mode.membership()
    if member is None or not choices:
        return NOT_ASKED
    found = class_mode.current_state()
    member = class_mode.membership()
    if found is None:  # the store is lost (or the class ended: no membership)
        if member is not None and member.teaching and member.lost:
            st.caption(_("The class's question cannot be read now; it comes back by itself."))
            return OPEN
        if member is not None and member.lost and class_mode.last_open() == key:
            st.caption(_("The teacher reveals the answer to the whole class."))
            return OPEN
        return NOT_ASKED
    open_here = found.question == key
    if not member.teaching:
        class_mode.saw_open("" if found.revealed else found.question)
    if member.teaching:
        if not open_here:
            st.button(
                _("Ask the class"),
                key=f"class_ask_{key}",
                icon=":material/how_to_vote:",
                on_click=class_mode.ask,
                args=(key, len(choices)),
            )
            return NOT_ASKED
        _answers(page, key, tuple(choices), correct, choices_tell)
        _teacher_buttons(key, found, class_mode.took_giveaway(key))
        return REVEALED if found.revealed else OPEN
    if not open_here:
        return NOT_ASKED
    st.radio(
        _("Your answer (you may change it until the teacher reveals it)"),
        range(len(choices)),
        format_func=lambda i: f"{chr(ord('A') + i)}. {choices[i]}",
        index=class_mode.own_answer(key),  # the store's, not a widget state dropped meanwhile
        key=f"class_answer_{key}_{found.round}",
        on_change=class_mode.answer,
        args=(key, f"class_answer_{key}_{found.round}"),
        disabled=found.revealed,
    )
    if not found.revealed:
        st.caption(_("The teacher reveals the answer to the whole class."))
    return REVEALED if found.revealed else OPEN


def _teacher_buttons(key: str, found: ClassState, gives_away: bool) -> None:
    """Show the answers, vote again, reveal, close; and, where this run drew a part of the
    page that ``gives_away`` the answer, the choice to hide it on the projector too."""
    first, second, third, fourth = st.columns(4)
    with first:
        st.button(
            _("Hide the answers") if found.shown else _("Show the answers"),
            key=f"class_show_{key}",
            icon=":material/bar_chart:",
            on_click=class_mode.show_answers,
            args=(not found.shown,),
            disabled=found.revealed,  # the reveal shows them
        )
    with second:
        st.button(
            _("Vote again"),
            key=f"class_again_{key}",
            icon=":material/replay:",
            on_click=class_mode.vote_again,
            disabled=found.voted_again or found.revealed,
            help=_("A second round: the class discusses, then answers again; the first is kept."),
        )
    with third:
        st.button(
            _("Hide the answer") if found.revealed else _("Reveal to the class"),
            key=f"class_reveal_{key}",
            on_click=class_mode.reveal,
            args=(not found.revealed,),
        )
    with fourth:
        st.button(
            _("Close the question"),
            key=f"class_close_{key}",
            on_click=class_mode.close_question,
        )
    if gives_away and not found.revealed:
        st.toggle(
            _("Hide what gives it away"),
            value=found.conceal,
            key=f"class_conceal_{key}_{int(found.conceal)}",
            on_change=class_mode.conceal,
            args=(not found.conceal,),
            help=_("On this screen too (the projector): learners never see it before the reveal."),
        )


@st.fragment(run_every=COUNT_EVERY)
def _answers(
    page: Page, key: str, choices: tuple[str, ...], correct: int, choices_tell: bool
) -> None:
    """The teacher's count of answers, live; the histograms only once the teacher shows
    them (or reveals the answer; only then where the choices' names tell the answer)."""
    found = class_mode.current_state()
    counts = class_mode.tally(key) if found is not None and found.question == key else None
    if found is None or counts is None or len(counts) != len(choices):
        st.caption(_("The answers cannot be read now; they are kept and come back by themselves."))
        return
    if found.revealed or (found.shown and not choices_tell):
        show_histograms(page, key, choices, correct, found, counts)
        return
    answers = counted(sum(counts), "answer")
    if found.voted_again:
        st.caption(_("Second vote: {answers} so far.").format(answers=answers))
    else:
        st.caption(_("First vote: {answers} so far.").format(answers=answers))


def show_histograms(
    page: Page,
    key: str,
    choices: Sequence[str],
    correct: int,
    found: ClassState,
    counts: Sequence[int] | None = None,
) -> None:
    """The class's answers as bars: the first vote's, and the second's beside it with how the
    share of the correct choice moved. Anonymous: counts only."""
    if counts is None:
        counts = class_mode.tally(key)
    first = class_mode.tally(key, found.first_round) if found.voted_again else counts
    if counts is None or first is None or {len(counts), len(first)} != {len(choices)}:
        st.caption(_("The answers cannot be read now; they are kept and come back by themselves."))
        return
    rounds = [(_("First vote"), first)]
    if found.voted_again:
        rounds.append((_("Second vote"), counts))
    top = max(max(first), max(counts))
    for number, (column, (title, shown)) in enumerate(
        zip(st.columns(len(rounds)), rounds, strict=True)
    ):
        with column:
            spec = make_answer_bars(shown, choices, title=title, look=page.look, top=top)
            st.vega_lite_chart(
                vega_spec(spec), width="stretch", key=f"class_answers_{key}_{number}"
            )
            shares = "; ".join(
                f"{chr(ord('A') + i)}: {s}" for i, s in enumerate(answer_shares(shown))
            )
            st.caption(
                _("{answers}. {shares}.").format(
                    answers=counted(sum(shown), "answer"), shares=shares
                )
            )
    if found.voted_again and found.revealed and 0 <= correct < len(choices):
        # Only with the reveal: the teacher's screen is the projector, and naming the
        # correct choice before it would tell the class.
        before, after = correct_shift(first, counts, correct)
        st.markdown(
            _(
                "**Correct ({choice}): {before} % → {after} %** from the first vote to the second."
            ).format(choice=chr(ord("A") + correct), before=before, after=after)
        )


def show_class_result(page: Page, key: str, choices: Sequence[str], correct: int) -> None:
    """Under a revealed answer, on a learner's screen: where the class stood."""
    member = class_mode.membership()
    if member is None or member.teaching:
        return  # the teacher's histograms are drawn with the count
    found = class_mode.current_state(class_mode.LOOK_AGE)
    if found is not None and found.question == key and found.revealed:
        show_histograms(page, key, choices, correct, found)


def shows_giveaway(page: Page, key: str, part: str) -> bool:
    """False, with a line in its place, while the class's open question ``key`` would be
    given away by ``part`` (a learner's screen; the teacher's when they hide it)."""
    member = class_mode.membership()
    if member is None or not key:
        return True
    if member.teaching:
        class_mode.mark_giveaway(key)  # the question below offers to hide it
    found = class_mode.current_state(0.0 if member.teaching else class_mode.LOOK_AGE)
    member = class_mode.membership()
    if member is None:
        return True
    lost_while_open = found is None and not member.teaching and class_mode.last_open() == key
    if not lost_while_open and (found is None or found.question != key or found.revealed):
        return True
    if member.teaching and not found.conceal:  # found: a teacher's lost store shows all
        return True
    st.caption(
        _("*{part}: hidden until the teacher reveals the answer to the question below.*").format(
            part=part
        ),
    )
    return False


def answers_csv(rows: Sequence[tuple[str, str, int, int, float]]) -> str:
    """The class's answers as CSV: one row per learner session, question and round; no
    names; every cell a spreadsheet reads as text (the matrices' CSV rule)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["learner_session", "question", "round", "choice", "answered_at_utc"])
    for learner, question, number, choice, at in rows:
        when = datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")
        cells = [learner, question, str(number), chr(ord("A") + choice), when]
        writer.writerow([csv_cell(cell) for cell in cells])
    return buffer.getvalue()


def show_answers_download() -> None:
    """The teacher's download of every answer the class gave (in the Class dialog)."""
    rows = class_mode.answer_rows()
    if rows is None:
        st.caption(_("The answers cannot be read now; they are kept and come back by themselves."))
        return
    st.download_button(
        _("Download the answers (CSV)"),
        answers_csv(rows),
        file_name="class-answers.csv",
        mime="text/csv",
        key="class_answers_csv",
        icon=":material/download:",
        help=_("One row per learner session, question and round, with its time; no names."),
    )
