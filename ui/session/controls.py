"""Widgets drawn from the parameter table: the sidebar, the navigation, and lesson controls.

A widget's key, label, help text, limits and choices all come from its row in
``attention_core.knobs.table``; its value was settled before it is drawn
(``ui.session.state.begin``), so no widget is given a value here.

Each control of the sidebar and the page links are fragments. On a page that draws its views as
one fragment (``ui.session.run_order.views``), a change reruns only what it moves
(:func:`after_change`): the views, the controls drawn differently after it, and the links.
Anything else a change brings (a notice, another matrix, presentation mode) reruns the whole
page, as on every other page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st
from streamlit import config
from streamlit.errors import StreamlitAPIException
from streamlit.runtime.scriptrunner import get_script_run_ctx

import translation
from attention_core.embeddings import display_labels
from attention_core.knobs.param import Param
from attention_core.knobs.settings import Settings
from attention_core.knobs.settle import head_choices
from attention_core.knobs.table import PARAMS
from translation import N_, _
from ui import safe
from ui.session import class_mode, kept_widgets, nav, state

GROUPS = (
    ("input", N_("Input")),
    ("weights", N_("Weights")),
    ("scores", N_("Scores")),
    ("dropout", N_("Dropout")),
)
MORE = ("advanced", "variants", "view")
NAV = "nav"
VIEWS = "views"
SCOPED_PAGE = "_scoped_page"
CHECKED = "_change_checked"  # after_change found that the change brings only new numbers
# Changes that replace the matrix, the page's look or its open tab: always the whole page.
# The weights' view too: the heatmap has a table section under it, which the page draws once.
# The language: every word on the page changes.
WHOLE_PAGE = ("present", "panel", "weights_view", state.LANGUAGE, *state.MATRIX_SOURCE)


def widget(name: str, settings: Settings, count: int | None = None, **extra: Any) -> Any:
    """Draw the widget of one parameter from its row in the table; returns its value.

    ``count`` narrows a choice of 1…count that only the page knows (a model's layers).
    """
    value = _draw(name, settings, count, extra)
    if state.is_fresh():
        state.adopt(name, value)
    return value


def tabs(name: str, settings: Settings) -> Sequence[Any]:
    """The tabs of a parameter whose choices are panels; only the open one is built.

    ``default`` is part of the tabs' identity in Streamlit, so it is always the table's
    default: a different one in some run would make another widget and lose the next click.
    The link's panel reaches a session's first run through the key instead.
    """
    param = PARAMS[name]
    labels = [param.choice_label(choice) for choice in param.choices]
    if state.is_fresh() and not state.has_state(name):
        state.set_value(name, settings[name])
    # Other labels (another language) make other tabs, which Streamlit opens at their
    # default: the open tab is set again (it showed "Step by step" under panel=code).
    state.follow_form(name, settings[name], tuple(labels))
    state.drawing(name)
    return st.tabs(
        labels,
        key=name,
        on_change=after_change,
        args=(name,),
        default=param.choice_label(param.default),
    )


def _draw(name: str, settings: Settings, count: int | None, extra: dict[str, Any]) -> Any:
    param = PARAMS[name]
    state.drawing(name)
    format_func = extra.pop("format_func", None)
    label = _(param.label)
    # persist_state: the browser holds a widget only once it has drawn it. A run that did not
    # draw it (the join slide stops the page before its knobs) made Streamlit drop its value,
    # and a widget the browser had not drawn yet (the language menu until it is opened) came
    # with Streamlit's first choice: drawn, each showed that first value (d_out 1, English),
    # and the browser's next run sent it back as the learner's change (issue 69). With it,
    # Streamlit keeps the value and sends it wherever the browser does not hold the widget.
    common = {
        "key": name,
        "help": _(param.help),
        "on_change": after_change,
        "args": (name,),
        "persist_state": "session",
    }
    common.update(extra)
    if count is not None:
        options = list(range(int(param.low if param.low is not None else 1), count + 1))
        if settings[name] > count:  # a link made for a larger model, say
            state.set_value(name, count)
            st.warning(
                _(
                    "**{label}**: there is no {label} {value} here, the choices are {first} to "
                    "{last}. Using {last}."
                ).format(label=label, value=settings[name], first=options[0], last=count),
                icon=":material/info:",
            )
        format_func = format_func or (lambda i: f"{label} {i}")
        _follow(name, min(settings[name], count), options, format_func)
        return st.selectbox(
            label,
            options,
            format_func=format_func,
            **_start(name, settings, options),
            **common,
        )
    if param.widget in ("slider", "number", "toggle", "text"):
        return _draw_value_widget(param, settings, common)
    options, default_format = _options(param, settings)
    format_func = format_func or default_format
    _follow(name, settings[name], options, format_func)
    start = _start(name, settings, options)
    if param.widget == "radio":
        return st.radio(label, options, format_func=format_func, horizontal=True, **start, **common)
    if param.widget == "language":
        return st.radio(label, options, format_func=format_func, **start, **common)
    return st.selectbox(label, options, format_func=format_func, **start, **common)


def _draw_value_widget(param: Param, settings: Settings, common: dict[str, Any]) -> Any:
    start = _start(param.name, settings)
    if param.widget in ("slider", "number"):
        low, high = param.limits(settings.num_tokens)  # a token count stops at the tokens
        state.follow_form(param.name, settings[param.name], (low, high))
    label = _(param.label)
    if param.widget == "slider":
        return st.slider(
            label,
            min_value=_num(param, low),
            max_value=_num(param, high),
            step=_num(param, param.step),
            **start,
            **common,
        )
    if param.widget == "number":
        return st.number_input(
            label, min_value=int(low), max_value=int(high), step=1, **start, **common
        )
    if param.widget == "toggle":
        return st.toggle(label, **start, **common)
    # No max_chars: the browser would drop a longer paste without a word. The server refuses
    # it with a notice naming the setting and keeps the last valid text, as for a link.
    limit = _("At most {count} characters.").format(count=int(param.high)) if param.high else ""
    common = {**common, "help": " ".join(t for t in (_(param.help), limit) if t)}
    return st.text_input(label, **start, **common)


def _start(name: str, settings: Settings, options: list[Any] | None = None) -> dict[str, Any]:
    """The starting value of a widget in a session's first run (its key holds it otherwise).

    In a first run the browser may already hold the widget (the session was lost and the
    page reconnected to another server): a value it sends then wins over this start.
    """
    if not state.is_fresh() or state.has_state(name):
        return {}
    value = settings[name]
    if options is None:
        return {"value": value}
    return {"index": options.index(value)} if value in options else {}


def _follow(name: str, value: Any, options: list[Any], label: Callable[[Any], str]) -> None:
    """A choice widget's choices as the learner reads them are its form (state.follow_form)."""
    state.follow_form(name, value, tuple((option, label(option)) for option in options))


def _num(param: Param, value: float | None) -> float | int:
    return float(value) if param.kind == "float" else int(value)  # type: ignore[arg-type]


def _options(param: Param, settings: Settings) -> tuple[list[Any], Callable[[Any], str]]:
    if param.kind == "choice" or param.choice_labels:
        if param.kind == "int":
            low, high = param.limits(settings.num_tokens)
            return list(range(int(low), int(high) + 1)), param.choice_label
        return list(param.choices), param.choice_label
    if param.name == "heads":
        return head_choices(settings.values, settings.d_in), str
    if param.name == "head":
        return list(range(1, settings["heads"] + 1)), lambda h: _("head {number}").format(number=h)
    if param.name == "kv_groups":
        heads = settings["heads"]
        fewer = [g for g in range(heads - 1, 0, -1) if heads % g == 0]
        return [0, *fewer], lambda g: kv_groups_label(g, heads)
    if param.tokens == "index":
        labels = display_labels(settings.tokens)
        return (
            list(range(1, settings.num_tokens + 1)),
            lambda i: f"x({i}) {safe.plain(labels[i - 1], 24)}",
        )
    low, high = param.limits(settings.num_tokens)
    return list(range(int(low), int(high) + 1)), str


def kv_groups_label(groups: int, heads: int) -> str:
    """The learner's words for a number of K/V groups (0: one per head)."""
    if groups in (0, heads):
        if heads > 1:
            return _("{heads} · one per head (multi-head)").format(heads=heads)
        return _("1 · one head")
    if groups == 1:
        return _("1 · shared by all (multi-query)")
    return _("{groups} · groups of {size} heads").format(groups=groups, size=heads // groups)


def _shown(param: Param, settings: Settings) -> bool:
    """A sidebar widget is drawn while its knob matters (the padding only under its mask)."""
    return bool(param.widget) and param.scope != "lesson" and param.matters(settings.values)


def sidebar(settings: Settings, front: bool = False, skip: Sequence[str] = ()) -> None:
    """Every shared control, grouped as the table groups them. On a ``front`` page the knobs
    of ``nav.FRONT_KNOBS`` are drawn by the page, above its results (projected too, where the
    sidebar is folded). The knobs in ``skip`` are drawn by the page itself."""
    skip = {*skip, *(_front_names() if front else ())}
    with st.sidebar:
        widget("present", settings)
        for group, title in GROUPS:
            names = [name for name in SIDEBAR[group] if name not in skip]
            if not names:
                continue
            st.header(_(title))
            for name in names:
                _WIDGETS[name]()
        # Built only when open: a change elsewhere does not resend these widgets.
        with kept_widgets.section(_("More settings"), "more_settings") as more:
            if not more.open:
                return
            for group in MORE:
                for name, param in PARAMS.items():
                    if param.group != group or name in (*skip, "present"):
                        continue
                    if _shown(param, settings):
                        widget(name, settings)


def page_menu() -> None:
    """The pages, one click away on every page and screen: a menu beside the page's title.

    A popover rather than a list in the sidebar: the list pushed every control below the
    first screen, and on a phone the sidebar is a closed drawer.
    """
    with st.popover(_("Pages"), icon=":material/menu:", key="page_menu"):
        _navigation()


def language_menu(settings: Settings) -> None:
    """The language, one click away on every page: a menu beside the page's title, each
    language named in itself. The choice is a setting (``lang``): the link carries it."""
    # The translate symbol alone (its tooltip says "Language" in the page's language): the
    # title keeps its line beside three menus, projected too; the menu names every language.
    with st.popover(":material/translate:", key="language_menu", help=_("Language")):
        widget(state.LANGUAGE, settings, format_func=translation.LANGUAGES.__getitem__)


def front_knobs(stacked: bool = False) -> None:
    """The knobs of ``nav.FRONT_KNOBS`` in a row above the page's results (two rows of two
    on a narrow screen; ``stacked``: one under another, in a column beside the results),
    each with the controls shown only for one of its values."""
    if stacked:
        with st.container(key="front_knobs_stacked"):
            for name in _front_names():
                _WIDGETS[name]()
        return
    with st.container(key="front_knobs"):
        # The scaling's three choices need a little more room than a slider or a select box.
        widths = [1.3 if names[0] == "scaling" else 1 for names in FRONT]
        for names, column in zip(FRONT, st.columns(widths, gap="medium"), strict=True):
            with column:
                for name in names:
                    _WIDGETS[name]()


@st.fragment(key=NAV)
def _navigation() -> None:
    """The pages as links with icons, the home page named Playground.

    Each link carries the current settings, so that opening it in a new tab shows the same,
    and, in a class, the class.
    """
    links = state.links_for(state.current_settings(), [page.key for page in nav.PAGES])
    # In a class, a link carries the class too: the page it opens then writes no link of its
    # own, which the browser would keep as one more step, and Back would go to the same page
    # without the class (issue 69).
    joined = class_mode.url_params()
    for page in nav.PAGES:
        st.page_link(
            page.path,
            label=_(page.title),
            icon=page.icon,
            query_params=links[page.key] | joined,
        )


def _fragment_of(name: str) -> Callable[[], None]:
    """One sidebar widget as a fragment: a change redraws only the widgets it changes."""

    def draw() -> None:
        settings = state.current_settings()  # a rerun of this one alone: the settled values
        if _shown(PARAMS[name], settings):
            widget(name, settings)

    return st.fragment(draw, key=f"side_{name}")


SIDEBAR = {
    group: [n for n, p in PARAMS.items() if p.group == group and p.widget and p.scope != "lesson"]
    for group, _title in GROUPS
}
_WIDGETS = {name: _fragment_of(name) for names in SIDEBAR.values() for name in names}
# Each front knob with the knobs shown only for one of its values (the mask's padding).
FRONT = tuple(
    (knob, *(n for n in _WIDGETS if (PARAMS[n].only_when or ("",))[0] == knob))
    for knob in nav.FRONT_KNOBS
)


def _front_names() -> list[str]:
    return [name for names in FRONT for name in names]


def drawn(settings: Settings, groups: Sequence[str]) -> dict[str, tuple[Any, ...]]:
    """What the sidebar shows of these groups' widgets: each value, and its choices (as the
    learner reads them) or limits. Two settings that give the same need no redraw."""
    shown: dict[str, tuple[Any, ...]] = {}
    for name, param in PARAMS.items():
        if param.group not in groups or not _shown(param, settings) or param.scope == "lesson":
            continue
        if param.widget in ("slider", "number"):
            span: tuple[Any, ...] = tuple(param.limits(settings.num_tokens))
        elif param.widget in ("select", "radio"):
            options, label = _options(param, settings)
            span = tuple((option, label(option)) for option in options)
        else:
            span = ()
        shown[name] = (settings[name], *span)
    return shown


def _scoped_page() -> str | None:
    """The page whose views the last whole run drew, if this run is on that page (a change
    sent with a click on a page link runs the other page)."""
    marked = state.recall(SCOPED_PAGE)
    ctx = get_script_run_ctx()
    if marked is None or ctx is None or ctx.page_script_hash != marked[1]:
        return None
    return marked[0]


def after_change(name: str) -> None:
    """A widget's callback: rerun only the views, the sidebar widgets drawn differently after
    the change and the page links, when the page draws its views as one fragment and the
    change brings nothing else; otherwise the whole page.

    Said explicitly either way: a widget drawn in a fragment would rerun that one alone.
    """
    state.sent_by_browser(name)
    # AppTest rebuilds what it shows from each run's messages alone: after a rerun of some
    # fragments it would see only them. Under AppTest every change reruns the whole page; the
    # partial reruns are tested in Chromium (tests/e2e).
    page = None if config.get_option("global.appTest") else _scoped_page()
    if class_mode.membership() is not None:
        # In a class the page's timed fragment (the class bar) must survive the change: a
        # rerun of other fragments, asked for a grid's edit, stopped its timer in Chromium.
        st.rerun()
    before, after = state.current_settings(), state.preview(page) if page else None
    if after is None or name in WHOLE_PAGE or after["present"] != before["present"]:
        st.rerun()
    groups = [group for group, _title in GROUPS]
    old, new = drawn(before, [*groups, *MORE]), drawn(after, [*groups, *MORE])
    if name in old and name in new and state.sent(name) == after[name]:
        old[name] = new[name][:1] + old[name][1:]  # the browser already shows its own value
    changed = {n for n in old.keys() | new.keys() if old.get(n) != new.get(n)}
    if any(PARAMS[n].group in MORE for n in changed):
        st.rerun()  # "More settings" is not a fragment
    redraw = [f"side_{n}" for n in _WIDGETS if n in changed]
    state.remember(CHECKED, True)
    try:
        st.rerun([VIEWS, *redraw, NAV])
    except StreamlitAPIException:  # this page has no views fragment (a stale mark)
        st.rerun()
