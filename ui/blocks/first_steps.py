"""The Playground's first steps: three things to try, unfolded on a browser's first visit."""

from __future__ import annotations

import streamlit as st

from translation import N_, _
from ui import safe
from ui.blocks.weights_view import SCORES_SECTION
from ui.session import first_visit
from ui.session.run_order import Page

LABEL = N_("First steps: three things to try")


def show_first_steps(page: Page) -> None:
    """The three steps, folded once this browser has seen them (a click unfolds them again);
    not in presentation mode, where the teacher leads."""
    if page.present:
        return
    seen = first_visit.seen()
    with st.expander(_(LABEL), expanded=not seen, icon=":material/flag:"):
        st.markdown(steps(page))
    if not seen:
        st.html(f"<script>{first_visit.remember_script()}</script>", unsafe_allow_javascript=True)


def steps(page: Page) -> str:
    """The three steps as a numbered list (Markdown-safe)."""
    token = safe.md(page.labels[page.query], 24)
    return "\n".join(
        (
            "1. " + _("Move **d_out**: every number on the page is recomputed at once."),
            "2. "
            + _("Watch the row of {token} in the weights: how much it attends to each key.").format(
                token=token
            ),
            "3. "
            + _("Open “{scores}” under the weights: the scores ω they come from.").format(
                scores=_(SCORES_SECTION)
            ),
        )
    )
