"""How wide the page is, as the browser measures it: the layout follows the width, never the
browser's name. A laptop window made narrow is laid out as a phone; a phone asking for the
desktop site, or an iPad that calls itself a Mac, is laid out by its screen.

A session's first run has no measure yet and guesses from the browser's name
(``state.is_phone``), so that a real phone's first page is already a phone's. A small script in
the page (a Streamlit component, nothing fetched) measures the window whenever it changes, a
resize or a phone turned, and tells the server only when the width's class differs from the
one the page was drawn for; the page then runs again, every setting kept.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.components.v2 import component

from ui.session import state

NARROWEST = 640  # CSS pixels: up to this the page is a phone's (the page's own breakpoint)
KEY = "screen_width"  # the component's key; its state holds the class the browser measured
NARROW, WIDE = "narrow", "wide"
_NAME = "attention.screen_width"
_JS = Path(__file__).with_name("screen_width.js").read_text(encoding="utf-8")


def is_narrow() -> bool:
    """True when the page is laid out as a phone's: as the browser measured it, else (a first
    run) as its name suggests."""
    measured = _measured()
    if measured in (NARROW, WIDE):
        return measured == NARROW
    return state.is_phone()


def _measured() -> str | None:
    held = st.session_state.get(KEY)
    try:
        return held.get("width") if held is not None else None
    except AttributeError:
        return None


@st.cache_resource(show_spinner=False)
def _probe():
    """The component, registered once per process."""
    return component(_NAME, js=_JS)


def measure(narrow: bool) -> None:
    """Place the measuring script; ``narrow``: the class this run is drawn for."""
    _probe()(
        key=KEY,
        data={"drawn": NARROW if narrow else WIDE, "narrowest": NARROWEST},
        default={"width": None},
        on_width_change=_changed,
        height=0,
    )


def _changed() -> None:
    """The browser measured another class: the whole page runs again (this callback's run)."""
