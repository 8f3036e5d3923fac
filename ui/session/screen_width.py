"""How wide the page is, as the browser measures it: the layout follows the width, never the
browser's name. A laptop window made narrow is laid out as a phone; a phone asking for the
desktop site, or an iPad that calls itself a Mac, is laid out by its screen.

A session's first run has no measure yet and guesses from the browser's name
(``state.is_phone``), so that a real phone's first page is already a phone's. A small script in
the page (a Streamlit component, nothing fetched) measures the window whenever it changes, a
resize or a phone turned, and tells the server only when the width's class differs from the
one the page was drawn for; the page then runs again, every setting kept.

The same script measures the page's main column: where it is narrower than the column a look's
charts are drawn for (a tablet; a laptop at 1024 px with the sidebar open; a window between a
phone's and a laptop's), the page runs again with the charts drawn for the column measured
(``column``), their text at its size, rather than cut by their scroll box.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.components.v2 import component

from ui.session import state

NARROWEST = 640  # CSS pixels: up to this the page is a phone's (the page's own breakpoint)
KEY = "screen_width"  # the component's key; its state holds what the browser measured
NARROW, WIDE = "narrow", "wide"
STEP = 16  # the measured column is rounded down to this many pixels: a few reruns in a drag
SLACK = 24  # a column this much narrower than a look's is still drawn for the look's own
SETTLE_MS = 250  # a sidebar's slide or a window dragged: measured once it has settled
_NAME = "attention.screen_width"
_JS = Path(__file__).with_name("screen_width.js").read_text(encoding="utf-8")


def is_narrow() -> bool:
    """True when the page is laid out as a phone's: as the browser measured it, else (a first
    run) as its name suggests."""
    measured = _measured()
    if measured in (NARROW, WIDE):
        return measured == NARROW
    return state.is_phone()


def column() -> int | None:
    """The main column's width as the browser measured it (CSS pixels), where it is narrower
    than the one the page's look draws its charts for; None otherwise, or not yet measured."""
    measured = _measured("column")
    if isinstance(measured, bool) or not isinstance(measured, (int, float)):
        return None
    return max(int(measured), STEP)


def _measured(name: str = "width"):
    """One measure the browser sent (``width`` or ``column``), or None before any."""
    held = st.session_state.get(KEY)
    try:
        screen = held.get("screen") if held is not None else None
        return screen.get(name) if isinstance(screen, dict) else None
    except AttributeError:
        return None


@st.cache_resource(show_spinner=False)
def _probe():
    """The component, registered once per process."""
    return component(_NAME, js=_JS)


def measure(narrow: bool, base: int) -> None:
    """Place the measuring script; ``narrow``: the class this run is drawn for; ``base``: the
    width of the column its look draws charts for."""
    _probe()(
        key=KEY,
        data={
            "drawn": NARROW if narrow else WIDE,
            "narrowest": NARROWEST,
            "column": column(),
            "base": base,
            "slack": SLACK,
            "step": STEP,
            "settle": SETTLE_MS,
        },
        default={"screen": None},
        on_screen_change=_changed,
        height=0,
    )


def _changed() -> None:
    """The browser measured another class or column: the whole page runs again (this
    callback's run)."""
