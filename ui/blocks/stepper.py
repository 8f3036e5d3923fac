"""Previous and Next for a whole-number setting, with the keyboard and a presentation clicker."""

from __future__ import annotations

import streamlit as st

from attention_core.knobs.table import PARAMS
from translation import _
from ui.session import controls, state
from ui.session.run_order import Page


def clicker_css(prefix: str) -> str:
    """A presentation clicker sends PageUp/PageDown: two more buttons with those shortcuts,
    hidden, since the visible Previous/Next already say what they do; their box's wrapper
    too, which would leave a gap under the stepper."""
    wrapper = f'[data-testid="stLayoutWrapper"]:has(> .st-key-{prefix}_clicker)'
    return f".st-key-{prefix}_clicker, {wrapper} {{ display: none; }}"


def sticky_css(prefix: str, name: str) -> str:
    """On a phone: the choice on a row of its own, the two buttons under it, all kept at the
    top, in reach, while the learner scrolls what they step through."""
    box = f".stApp .st-key-{prefix}_stepper"
    # Streamlit wraps a keyed container in a box of its own height: that wrapper is what
    # sticks, within the page's column (the container itself had no room to move).
    wrapper = f'.stApp [data-testid="stLayoutWrapper"]:has(> .st-key-{prefix}_stepper)'
    return f"""@media (max-width: 640px) {{
{wrapper} {{ position: sticky; top: 3.75rem; z-index: 5; background: #fff; padding: 0.4rem 0; }}
{box} [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap; row-gap: 0.5rem; }}
{box} [data-testid="stColumn"]
  {{ flex: 1 1 calc(50% - 1rem) !important; min-width: calc(50% - 1rem) !important; }}
{box} [data-testid="stColumn"]:has(.st-key-{name})
  {{ order: -1; flex-basis: 100% !important; }} }}"""


def show_stepper(page: Page, name: str, prefix: str, last: int, count: int | None = None) -> int:
    """Previous and Next (also ← and →, PageUp and PageDown) around the setting's own select
    box; returns the setting's value. ``count`` narrows the box's choices to 1…count when
    only the page knows how many steps there are.

    The buttons have no arrow icons: Streamlit already shows each one's key, an arrow.
    """
    value = int(page.settings[name])
    first = int(PARAMS[name].limits()[0])
    with st.container(key=f"{prefix}_stepper"):
        back, pick, forward = st.columns([1, 2.4, 1], vertical_alignment="bottom", wrap=False)
    with back:
        st.button(
            _("Previous"),
            key=f"{name}_previous",
            shortcut="Left",
            disabled=value <= first,
            on_click=state.step_value,
            args=(name, -1),
            width="stretch",
        )
    with pick:
        controls.widget(name, page.settings, count, label_visibility="collapsed")
    with forward:
        st.button(
            _("Next"),
            key=f"{name}_next",
            shortcut="Right",
            disabled=value >= last,
            on_click=state.step_value,
            args=(name, 1),
            width="stretch",
            type="primary",
        )
    with st.container(key=f"{prefix}_clicker"):
        for key, shortcut, by in (
            (f"{name}_page_up", "PageUp", -1),
            (f"{name}_page_down", "PageDown", 1),
        ):
            st.button(
                shortcut, key=key, shortcut=shortcut, on_click=state.step_value, args=(name, by)
            )
    st.html(f"<style>{clicker_css(prefix)}{sticky_css(prefix, name)}</style>")
    return value
