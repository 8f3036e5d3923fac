"""Widgets drawn from the parameter table: the sidebar, the navigation, and lesson controls.

A widget's key, label, help text, limits and choices all come from its row in
``attention_core.params``; its value was settled before it is drawn (``ui.state.begin``), so
no widget is given a value here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from attention_core.embeddings import display_labels
from attention_core.param_spec import Param
from attention_core.params import PARAMS
from attention_core.settings import Settings, head_choices
from ui import nav, safe, state

GROUPS = (
    ("input", "Input"),
    ("weights", "Weights"),
    ("scores", "Scores"),
    ("dropout", "Dropout"),
)
MORE = ("advanced", "view")


def widget(name: str, settings: Settings, count: int | None = None, **extra: Any) -> Any:
    """Draw the widget of one parameter from its row in the table; returns its value.

    ``count`` narrows a choice of 1…count that only the page knows (a model's layers).
    """
    param = PARAMS[name]
    common = {"key": name, "help": param.help, **extra}
    if count is not None:
        if settings[name] > count:
            state.set_value(name, count)
        options = list(range(1, count + 1))
        return st.selectbox(
            param.label, options, format_func=lambda i: f"{param.label} {i}", **common
        )
    if param.widget == "slider":
        low, high = param.limits(settings.num_tokens)  # a token count stops at the tokens
        return st.slider(
            param.label,
            min_value=_num(param, low),
            max_value=_num(param, high),
            step=_num(param, param.step),
            **common,
        )
    if param.widget == "number":
        low, high = param.limits(settings.num_tokens)
        return st.number_input(
            param.label, min_value=int(low), max_value=int(high), step=1, **common
        )
    if param.widget == "toggle":
        return st.toggle(param.label, **common)
    if param.widget == "text":
        return st.text_input(param.label, max_chars=int(param.high or 200), **common)

    options, format_func = _options(param, settings)
    if param.widget == "radio":
        return st.radio(param.label, options, format_func=format_func, horizontal=True, **common)
    return st.selectbox(param.label, options, format_func=format_func, **common)


def _num(param: Param, value: float | None) -> float | int:
    return float(value) if param.kind == "float" else int(value)  # type: ignore[arg-type]


def _options(param: Param, settings: Settings) -> tuple[list[Any], Callable[[Any], str]]:
    if param.kind == "choice":
        return list(param.choices), param.choice_label
    if param.name == "heads":
        return head_choices(settings.values, settings.d_in), str
    if param.name == "head":
        return list(range(1, settings["heads"] + 1)), lambda h: f"head {h}"
    if param.tokens == "index":
        labels = display_labels(settings.tokens)
        return (
            list(range(1, settings.num_tokens + 1)),
            lambda i: f"x({i}) {safe.plain(labels[i - 1], 24)}",
        )
    low, high = param.limits(settings.num_tokens)
    return list(range(int(low), int(high) + 1)), str


def _shown(param: Param, settings: Settings) -> bool:
    if not param.widget or param.scope == "lesson":
        return False
    if param.only_when is None:
        return True
    other, wanted = param.only_when
    return settings[other] == wanted


def sidebar(settings: Settings, links: dict[str, dict[str, str]]) -> None:
    """The navigation and every shared control, grouped as the table groups them."""
    with st.sidebar:
        navigation(links)
        widget("present", settings)
        for group, title in GROUPS:
            st.subheader(title)
            for name, param in PARAMS.items():
                if param.group == group and _shown(param, settings):
                    widget(name, settings)
        with st.expander("More settings"):
            for group in MORE:
                for name, param in PARAMS.items():
                    if param.group == group and _shown(param, settings) and name != "present":
                        widget(name, settings)


def navigation(links: dict[str, dict[str, str]]) -> None:
    """The pages as links with icons, the home page named Playground.

    Each link carries the current settings, so that opening it in a new tab shows the same.
    """
    st.markdown("**Pages**")
    for page in nav.PAGES:
        st.page_link(page.path, label=page.title, icon=page.icon, query_params=links[page.key])
