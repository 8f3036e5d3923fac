"""What to point at: one line per page for the teacher at the projector, shown only in
presentation mode, where it takes the place of the introduction that mode folds away.

The lines live here, in one table keyed by the page's id (``nav.PageInfo.key``), rather than
in each page: a new page adds its line here, and ``tests/ui/test_pointers.py`` names any page
of ``nav.PAGES`` that has none (the app then shows no line, and nothing breaks).
"""

from __future__ import annotations

import streamlit as st

from translation import N_, _
from ui.session.run_order import Page

POINTERS: dict[str, str] = {
    "streamlit_app": N_(
        "Point at one row of the weights: it sums to 1, and its largest cell is the token "
        "this one attends to most."
    ),
    "0_Flow": N_(
        "Point at the box in colour and read its sentence aloud; the clicker steps to the next "
        "stage."
    ),
    "0_Compare": N_(
        "Point at one cell in A and the same cell in B: B − A below names the largest changes."
    ),
    "1_Embeddings": N_(
        "Point at the focused token's row of numbers, then at its arrow in 3D: the same vector."
    ),
    "2_Simplified_attention": N_(
        "Point at the focused token's scores, then its weights: the largest score gets the "
        "largest weight."
    ),
    "3_Trainable_weights": N_(
        "Point at the three matrices: each turns the same embeddings into queries, keys or values."
    ),
    "4_Scaling": N_(
        "Point at the rows without scaling: one weight takes almost everything; ÷ √d_k "
        "spreads them again."
    ),
    "5_Causal_mask": N_(
        "Point at the grey cells above the diagonal: no token attends to a later one, and each "
        "row still sums to 1."
    ),
    "6_Dropout": N_(
        "Point at a ✕: that weight is dropped in training, and the others of its row grow to "
        "make up for it."
    ),
    "7_Multi-head_attention": N_(
        "Point at the same row in two heads: each head attends to different tokens."
    ),
    "8_Common_mistakes": N_(
        "Point at the mistake's weights, then their gap to the right ones: the bug."
    ),
    "9_Word_vectors": N_(
        "Point at the weights of real words: similar words attend to each other most."
    ),
    "10_Real_sentences": N_(
        "Point at the cosines: before attention, a vector ignores its sentence."
    ),
    "11_Todays_attention": N_(
        "Point at the heads that share one key and value group: fewer numbers to keep, the "
        "same shape of weights."
    ),
    "12_Cross_attention": N_(
        "Point at step 2's weights: one row per target token, one column per source token, "
        "and not square."
    ),
    "13_Saving_memory": N_(
        "Point at the bytes per token: MLA's latent beside the full keys and values, then "
        "DeltaNet's flat line."
    ),
}


def show_pointer(page: Page, section: str | None = None) -> None:
    """The page's line for the teacher (the frame calls it in presentation mode only), after
    the book's ``section`` the lesson follows, if any: one line where normal mode has two."""
    line = POINTERS.get(page.info.key)
    if line is None:
        return
    with st.container(key="pointer"):
        st.markdown(_(line) if section is None else f"**{section}** · {_(line)}")
