"""The part of the book a lesson follows, named in the lesson's title row."""

from __future__ import annotations

import streamlit as st

from translation import N_, _
from ui.session.run_order import Page

BOOK = N_("The book, {section}")
# The section of the book's chapter 3 each lesson follows, by page key; pages not listed
# (the Playground, Flow, Compare) follow no one section.
SECTIONS = {
    "1_Embeddings": "§3.3.1",
    "2_Simplified_attention": "§3.3.1–3.3.2",
    "3_Trainable_weights": "§3.4.1",
    "4_Scaling": "§3.4.1",
    "5_Causal_mask": "§3.5.1",
    "6_Dropout": "§3.5.2",
    "7_Multi-head_attention": "§3.6",
    "8_Common_mistakes": "§3.4–3.5",
    # Sections 3.1 and 3.2 tell attention's start: a decoder attending to an encoder's tokens.
    "12_Cross_attention": "§3.1–3.2",
}
OTHER = {  # lessons that follow another source, or go past the chapter
    "9_Word_vectors": N_("Nugues, chapter 15"),
    "10_Real_sentences": N_("a pretrained model, all-MiniLM-L6-v2"),
    "11_Todays_attention": N_("past the book's chapter 3"),
    "13_Saving_memory": N_("the book's chapter 4 bonus material"),
}


def book_section(page_key: str) -> str | None:
    """What the lesson ``page_key`` follows, in the learner's words; None for no lesson."""
    if page_key in SECTIONS:
        return _(BOOK).format(section=SECTIONS[page_key])
    return _(OTHER[page_key]) if page_key in OTHER else None


def show_book_section(page: Page) -> None:
    """A small label under the lesson's title: the book's section it follows."""
    section = book_section(page.info.key)
    if section is not None:
        st.badge(section, color="blue")
