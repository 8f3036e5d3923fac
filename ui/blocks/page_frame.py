"""The frame of every page: title, what it uses, notices, predict-then-reveal, and the link
at the foot of the sidebar.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from attention_core import AttentionTrace
from attention_core.knobs.table import PARAMS
from translation import N_, _
from ui.blocks import (
    book_section,
    check_yourself,
    class_panel,
    class_question,
    join_slide,
    pointers,
    sentences,
)
from ui.session import class_mode, controls, state
from ui.session.run_order import Page

# The lessons cite their two sources as "the book" and "Nugues' chapter 15"; a learner knows
# them by title and author (never by the names of the notebooks the app grew from).
SOURCES_NOTE = N_(
    "“The book” is Sebastian Raschka's *Build a Large Language Model (From Scratch)*, whose "
    "chapter 3 these lessons follow; “Nugues” is chapter 15 of Pierre Nugues' *Python for "
    "Natural Language Processing*."
)


def show_header(
    page: Page,
    title: str,
    intro: str = "",
    result: AttentionTrace | None = None,
    announce: bool = True,
) -> None:
    """Title, what the page takes from the sidebar, the run's notices, and the introduction.

    The hidden live region states the focused query's result in ``result``: the run the page
    shows (the sidebar's by default). A page that knows its run only later passes
    ``announce=False`` and calls :func:`sentences.announce` itself.
    """
    with show_title(page, title, intro):
        show_status(page, result, announce)


def show_title(page: Page, title: str, intro: str = "") -> DeltaGenerator:
    """Title, what the page takes from the sidebar and the introduction, with an empty slot
    (returned) between them for :func:`show_status`, which a page's views fragment fills.
    While the teacher shows the join slide, the page is that slide alone."""
    if join_slide.show_join_slide():
        st.stop()
    heading, menu, language, classes = st.columns(
        [1, 0.2, 0.2, 0.2], vertical_alignment="center", wrap=False
    )
    with heading:
        st.title(title)
        if not page.present:  # projected, the section leads the teacher's line instead
            book_section.show_book_section(page)
            check_yourself.show_progress(page)
    with menu:
        controls.page_menu()
    with language:
        controls.language_menu(page.settings)
    with classes:
        class_panel.show_class_menu(page)
    class_panel.show_class_bar(page)
    uses = _("Uses {uses}.").format(uses=_(page.info.uses))
    if page.info.ignores:
        uses += " " + _("Ignores {ignores}.").format(ignores=_(page.info.ignores))
    if title[:1].isdigit():  # a lesson: its text cites the book and Nugues' chapter 15
        uses += " " + _(SOURCES_NOTE)
    if page.present:  # projected: the book's section and what to point at, not the prose
        pointers.show_pointer(page, book_section.book_section(page.info.key))
    else:
        st.caption(uses)
    slot = st.container()
    if intro and not page.present:
        st.markdown(intro)
    return slot


def show_status(page: Page, result: AttentionTrace | None = None, announce: bool = True) -> None:
    """The run's notices and the live region that states the result of ``result``."""
    show_notices(page)
    if announce and not page.info.words:
        shown = result or page.trace
        sentences.announce(page, shown, page.head(shown))


def show_notices(page: Page) -> None:
    """Problems with the link, a clash between settings, or an edit that was refused."""
    for text in page.notices:
        st.warning(text, icon=":material/info:")


def predict(
    page: Page,
    question: str,
    answer: str,
    key: str,
    choices: Sequence[str] = (),
    correct: int = -1,
) -> None:
    """Ask first; the answer is not on the page until the learner clicks (or, in a class,
    until the teacher reveals it to everyone, with the class's answers). ``choices``: what a
    class may answer; ``correct``: the index of the right one (the shift between two votes
    is named by it)."""
    st.markdown(_("**Predict, then reveal.** {question}").format(question=question))
    asked = class_question.show_class_question(page, key, choices, correct)
    if asked == class_question.REVEALED:
        st.success(answer, icon=":material/lightbulb:")
        class_question.show_class_result(page, key, choices, correct)
    elif asked == class_question.OPEN:
        return  # the class's open question: only the teacher reveals its answer
    elif state.is_revealed(key):
        st.success(answer, icon=":material/lightbulb:")
    else:
        st.button(_("Reveal the answer"), key=f"reveal_{key}", on_click=state.reveal, args=(key,))


def giveaway(page: Page, key: str, part: str) -> bool:
    """Whether to draw ``part`` of the page, which gives away the answer to the question
    ``key``: not while that question is open in a class and unrevealed (on a learner's
    screen, and on the teacher's when they hide it); a line says what is hidden instead."""
    return class_question.shows_giveaway(page, key, part)


def link_slot() -> DeltaGenerator:
    """The foot of the sidebar: what the link to this view is, and a slot for the link."""
    with st.sidebar:
        st.markdown(
            _(
                "**Link to this view**  \nThe same numbers on any machine: copy it with the button "
                "at its right."
            )
        )
        return st.container()


def finish(page: Page, slot: DeltaGenerator | None = None) -> None:
    """Write the view into the URL and give, at the foot of the sidebar, the link to it
    (in ``slot`` from :func:`link_slot` when the page made one before)."""
    settings = state.current_settings()  # with anything the page recorded since it began
    state.sync_url(settings, page.info.key)
    class_mode.after_run(page.info.key, settings)
    with slot if slot is not None else link_slot():
        st.code(
            state.share_link(settings, page.info.key, page.info.url_path),
            language=None,
            wrap_lines=True,
        )


def label_of(name: str) -> str:
    """A setting's name in the learner's words."""
    return _(PARAMS[name].label)
