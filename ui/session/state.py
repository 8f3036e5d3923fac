"""The session's settings: the only module that reads and writes ``st.session_state`` and
``st.query_params`` (with ``ui.session.kept_widgets``, which keeps widgets' own state).

One vocabulary: a widget's key is its parameter's name in ``attention_core.knobs.table``, which is
also the link key and the command-line flag. The current settings live under ``_settings``;
widgets are drawn from them and, on the next run, read back before anything is drawn.

The read phase of every run, in one place (:func:`begin`):

1. the first run of a session reads the link, one parameter at a time, and so does a run the
   browser's Back or Forward started (the link is the whole state);
2. otherwise the widgets' values the browser just sent are read (before any widget is drawn);
3. the matrix editor's pending change is applied to the matrix it was drawn from;
4. values that depend on the tokens or on each other are brought into range;
5. the widgets' keys are set to the settled values, so every widget shows what is computed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

import translation
from attention_core import AttentionInputError
from attention_core.knobs.links import link_params, read_params
from attention_core.knobs.settings import Notice, Settings, default_settings, preset_matrix
from attention_core.knobs.settle import follow_tokens, restore, settle, wishes_after
from attention_core.knobs.table import PARAMS, lesson_params
from translation import _
from ui.session import class_mode, matrix_edits, nav

SETTINGS = "_settings"
EDITOR_BASE = "_editor_base"
EDITOR_GENERATION = "_editor_generation"
EDITOR_ROWS = "_editor_rows"  # where the grid's rows sat after the last edit applied
FRESH = "_fresh_session"
FORMS = "_widget_forms"  # each widget's range or choices as last drawn (follow_form)
WIDGETS_PAGE = "_widgets_page"  # the page whose widgets the last run prepared
UNDRAWN = "_undrawn"  # widgets whose key a run set without drawing them (_prepare_widgets)
WISHES = "_wishes"  # values settle replaced, to give back when they fit again (restore)
GRIDS_GENERATION = "_grids_generation"  # the lessons' small grids start again when it grows
LED_TO_PAGE = "_led_to_page"  # the teacher's view took this follower to another page
SHARED_PARAMS = tuple(
    name for name, p in PARAMS.items() if p.widget and p.scope in ("input", "config", "view")
)
LANGUAGE = "lang"  # the parameter of the words' language
# Choosing one of these replaces the matrix with the preset's (a seed change never does).
MATRIX_SOURCE = ("preset", "num_tokens", "d_in")


@dataclass(frozen=True)
class Run:
    """What the read phase settled on: the settings, and every notice to show this run."""

    settings: Settings
    notices: list[Notice] = field(default_factory=list)
    editor_error: str | None = None


def begin(page: str) -> Run:
    """The read phase of a run on ``page`` (a file stem, or ``streamlit_app``)."""
    session = st.session_state
    notices: list[Notice] = []
    session[FRESH] = SETTINGS not in session
    went_back = not session[FRESH] and _history_navigation()
    if session[FRESH]:
        settings, notices = _from_link(page)
        _store_matrix_source(settings)
    elif went_back:
        settings, notices = _back_to_link(page)
    else:
        settings = session[SETTINGS]
    # Whole runs only: a rerun of the views alone must not bring a new matrix or page.
    led = None if partial_run() else class_mode.view_to_show(page)
    # The first run on the page the teacher's view switched to: the run that took the view
    # stopped before drawing a widget, so the widgets' keys still hold the view before it
    # (issue 63: learners showed the new leader's page with the old leader's d_out and
    # scaling, still "following"). They are set to the view taken, not read from them.
    led_here = not partial_run() and session.pop(LED_TO_PAGE, None) == page
    if led is not None:  # following a class that moved on: the teacher's view replaces ours
        settings = _led_to(led, settings, page)
        # A page that reconnected to a new session sends the widget values it still holds:
        # the view it showed, not the learner's choice. Its widgets are set to the teacher's
        # (_prepare_widgets) instead of taken from the browser as a first run does (adopt).
        session[FRESH] = False
    read_browser = not went_back and led is None and not led_here
    settings, changed_source, refused = _read_widgets(settings, page, read_browser=read_browser)
    notices += refused
    if changed_source:
        tokens, rows = preset_matrix(settings.values)
        settings = settings.replace(tokens=tokens, rows=rows)
        _store_matrix_source(settings)
    settings, followed, editor_error = _read_editor(settings)
    if not session[FRESH] and settings[LANGUAGE] != session[SETTINGS][LANGUAGE]:
        # The grid's column titles are translated, and Streamlit makes a grid with other
        # titles another grid, which the browser drew from the matrix the grid started from
        # without the edits since (issue 69): it starts again from the matrix as it is now.
        _store_matrix_source(settings)
    settings, restored, waiting = restore(settings, session.get(WISHES, {}))
    unsettled = settings
    settings, settled = settle(settings)
    session[WISHES] = wishes_after(unsettled, settings, settled, waiting)
    notices += [n for n in followed + restored + settled if not _lesson_elsewhere(n.param, page)]
    session[SETTINGS] = settings
    if session[FRESH]:  # a session's first run starts its widgets from their value=
        session[WIDGETS_PAGE] = page
    else:
        _prepare_widgets(settings, page, every=led is not None or led_here)
    return Run(settings, notices, editor_error)


def preview(page: str) -> Settings | None:
    """The settings the next run on ``page`` will settle on, read without changing anything;
    None when that run has more to do than recompute (a notice to show, a refused value, a
    matrix to replace or an edit to refuse)."""
    session = st.session_state
    if SETTINGS not in session or session.get(FRESH):
        return None
    settings, changed_source, refused = _read_widgets(session[SETTINGS], page)
    if changed_source or refused:
        return None
    settings, followed, error = _edited(settings)
    if error is not None:
        return None
    settings, restored, _kept = restore(settings, session.get(WISHES, {}))
    settings, settled = settle(settings)
    if any(not _lesson_elsewhere(n.param, page) for n in followed + restored + settled):
        return None
    return settings


def sent(name: str) -> Any:
    """The value the browser holds for a widget (None when it holds none)."""
    if name not in st.session_state:
        return None
    return _from_widget(name, st.session_state[name])


def is_fresh() -> bool:
    """True during a session's first run."""
    return bool(st.session_state.get(FRESH))


def adopt(name: str, shown: Any) -> None:
    """In a session's first run, take a widget's value as drawn: a browser that reconnected to
    a new session sends the value it holds, and that change must not be lost (unless the
    browser's Back or Forward started the run: that value is the one being left)."""
    if _history_navigation():
        return
    value = _from_widget(name, shown)
    settings = st.session_state[SETTINGS]
    if settings[name] == value or PARAMS[name].kind == "matrix":
        return
    try:
        PARAMS[name].check(value)
    except AttentionInputError:
        return
    changed = settings.replace(**{name: value})
    if name in MATRIX_SOURCE:
        tokens, rows = preset_matrix(changed.values)
        changed = changed.replace(tokens=tokens, rows=rows)
        _store_matrix_source(changed)
    st.session_state[SETTINGS] = settle(changed)[0]


def _led_to(led: tuple[Settings, str], own: Settings, page: str) -> Settings:
    """The teacher's settings in this follower's session (its type size kept); the grids
    start again from the teacher's matrix, and a page the teacher left is left too."""
    settings = class_mode.keep_personal(led[0], own)
    session = st.session_state
    session[SETTINGS] = settings
    session[WISHES] = {}
    if (settings.tokens, settings.rows) != (own.tokens, own.rows):
        _store_matrix_source(settings)
    if any(settings[n] != own[n] for n in PARAMS if PARAMS[n].scope == "lesson"):
        session[GRIDS_GENERATION] = session.get(GRIDS_GENERATION, 0) + 1
    if led[1] != page:
        session[LED_TO_PAGE] = led[1]
        st.switch_page(nav.BY_KEY[led[1]].path)
    return settings


def partial_run() -> bool:
    """True while only fragments rerun (not the whole page)."""
    context = get_script_run_ctx()
    return bool(context is not None and context.fragment_ids_this_run)


def _from_link(page: str) -> tuple[Settings, list[Notice]]:
    """The link's settings, and what was wrong with it. A bad value for another page's lesson
    is told here too, with that page named: it is not read again when the learner gets there.
    A class code (a join link) is not a setting: it joins the class.
    """
    raw = {key: st.query_params.get_all(key) for key in st.query_params}
    class_mode.join_from_link(raw.pop(class_mode.CLASS_KEY, []))
    scopes = ("input", "config", "view", "lesson")
    settings, notices = read_params(raw, default_settings(), scopes=scopes)
    if LANGUAGE not in raw:  # a link without a language: the browser's, else English
        settings = settings.replace(**{LANGUAGE: browser_language() or translation.ENGLISH})
    return settings, [_named_page(n) if _lesson_elsewhere(n.param, page) else n for n in notices]


def _named_page(notice: Notice) -> Notice:
    """A notice about another page's setting, saying which page uses it."""
    title = next(p.title for p in nav.PAGES if p.key == PARAMS[notice.param].page)
    problem = _("{problem} (a setting of {page})").format(problem=notice.problem, page=_(title))
    return replace(notice, problem=problem)


def browser_language() -> str | None:
    """The browser's language, when the app speaks it (``st.context.locale``: "zh-CN")."""
    return translation.normalize(st.context.locale)


def is_phone(headers: Mapping[str, str] | None = None) -> bool:
    """True when the browser says it runs on a phone: Chromium's ``Sec-CH-UA-Mobile: ?1``
    hint, or "Mobi" in its user agent (what MDN advises to look for; an iPad's Safari says
    "Mobile" too, and is left out: it has a tablet's width). A tablet or a laptop, however
    narrow its window, gets a laptop's charts; one wider than its column scrolls in its box."""
    headers = st.context.headers if headers is None else headers
    if headers.get("Sec-CH-UA-Mobile", "").strip() == "?1":
        return True
    agent = headers.get("User-Agent", "")
    return "Mobi" in agent and "iPad" not in agent


def session_language() -> str:
    """This session's language, read before its settings are settled: the picker's value the
    browser just sent, else the settings', else (a first run) the link's, the browser's or
    English. ``translation`` asks it in a thread that starts without one (a callback)."""
    if get_script_run_ctx() is None:
        return translation.ENGLISH
    session = st.session_state
    for chosen in (session.get(LANGUAGE), _settled_language(session)):
        if chosen in translation.LANGUAGES:
            return str(chosen)
    linked = st.query_params.get_all(LANGUAGE)
    if linked:
        return translation.normalize(linked[-1]) or translation.ENGLISH
    return browser_language() or translation.ENGLISH


def _settled_language(session: Any) -> str | None:
    settings = session.get(SETTINGS)
    return settings[LANGUAGE] if settings is not None else None


def _history_navigation() -> bool:
    """True when the browser's Back or Forward started this run: its URL is an earlier link
    of this session (Streamlit marks such a run; the widgets' values it sends are stale)."""
    context = get_script_run_ctx()
    return bool(getattr(context, "is_history_navigation", False))


def _back_to_link(page: str) -> tuple[Settings, list[Notice]]:
    """The settings of the link the browser went back (or forward) to. The link is the whole
    state of its page, so it replaces the session's settings, as a link opened afresh would,
    except what it does not hold: other pages' lessons (they stay as they are, and so a bad
    value for one in the URL is not told again) and values its view does not use (the random
    example's size under another example: back at the random example, it is the size last
    chosen). The values waiting to come back belonged to the settings left behind. The grid
    starts again from the link's matrix: an edit that Streamlit merged into this run belongs
    to the matrix left behind too."""
    session = st.session_state
    settings, notices = _from_link(page)
    kept = {
        name: session[SETTINGS][name]
        for name in PARAMS
        if _lesson_elsewhere(name, page) or not PARAMS[name].matters(settings.values)
    }
    settings = settings.replace(**kept)
    session[WISHES] = {}
    _store_matrix_source(settings)
    session[GRIDS_GENERATION] = session.get(GRIDS_GENERATION, 0) + 1  # typed weights, a mask
    return settings, [n for n in notices if not _lesson_elsewhere(n.param, page)]


def _lesson_elsewhere(name: str, page: str) -> bool:
    param = PARAMS.get(name)
    return param is not None and param.scope == "lesson" and param.page != page


def _read_widgets(
    settings: Settings, page: str, read_browser: bool = True
) -> tuple[Settings, bool, list[Notice]]:
    """Values the browser sent since the last run; a refused value keeps the last valid one.
    With ``read_browser`` false (Back or Forward) the widgets hold the settings left behind."""
    session = st.session_state
    changes: dict[str, Any] = {}
    refused: list[Notice] = []
    if not read_browser:
        return settings, False, refused
    for name in _widget_names(page):
        if name not in session:
            continue
        sent = _from_widget(name, session[name])
        if _stale_choice(name, sent):
            continue
        try:
            value = PARAMS[name].check(sent)
        except AttentionInputError as error:
            refused.append(Notice(name, str(error), PARAMS[name].to_text(settings[name])))
            continue
        if value != settings[name]:
            changes[name] = value
    changed_source = any(name in changes for name in MATRIX_SOURCE)
    return (settings.replace(**changes) if changes else settings), changed_source, refused


def _stale_choice(name: str, value: Any) -> bool:
    """True for a choice the browser made among choices that have changed since: Streamlit
    gives back an option it no longer has as its label (heads "4" after quick d_out presses
    left 1 and 3). The learner chose nothing; refusing it named a choice never made."""
    param = PARAMS[name]
    if param.widget not in ("select", "radio", "tabs") or not isinstance(value, str):
        return False
    return param.kind != "choice" or value not in param.choices


def _from_widget(name: str, value: Any) -> Any:
    """A widget's value as the setting's value (tabs hold their label, not the choice)."""
    param = PARAMS[name]
    if param.widget == "tabs":
        for choice, label in zip(param.choices, param.choice_labels, strict=True):
            if value in translation.every_language(label):
                return choice
    return value


def _to_widget(name: str, value: Any) -> Any:
    param = PARAMS[name]
    return param.choice_label(value) if param.widget == "tabs" else value


def _widget_names(page: str) -> tuple[str, ...]:
    """The keys of the widgets a run on ``page`` may draw: shared ones and the lesson's."""
    return (*SHARED_PARAMS, *(n for n in lesson_params(page) if PARAMS[n].widget))


def _prepare_widgets(settings: Settings, page: str, every: bool = False) -> None:
    """Set a widget's key to its settled value where the browser holds another (or none): a
    value settled, clamped or given by a link, a widget drawn again after a run without it,
    every widget in the first run on another page (Streamlit's widgets there are others).

    Never to the value the browser sent: Streamlit draws a widget whose key was set with
    that value *imposed*, and a learner who moved it again meanwhile (three quick arrow
    presses on a slider) would see it jump back, while the numbers follow the later value,
    and the next change would send the old one. A widget whose range or choices change is
    set where it is drawn (:func:`follow_form`).

    A key set in a run that does not draw its widget (the padding box while the mask is
    causal, in the first run on another page) is set again in every run until one draws it:
    Streamlit dropped such a value when a later run drew the widget, which then showed its
    minimum (0) while the numbers used the link's padding.

    With ``every`` (a run that took the teacher's view) every widget's key is set: that run
    was not the browser's, which may not have drawn the run before it (a page just reloaded
    gets the push's run right after its first); a widget drawn without its key set would
    start there at Streamlit's own default (seed 0, the first choice), and the browser's
    next run would send that as the learner's change.
    """
    session = st.session_state
    another_page = session.get(WIDGETS_PAGE) != page
    session[WIDGETS_PAGE] = page
    undrawn = session.get(UNDRAWN, set())
    session[UNDRAWN] = set()
    for name in _widget_names(page):
        if every or another_page or name in undrawn or not _holds(name, settings[name]):
            session[name] = _to_widget(name, settings[name])
            session[UNDRAWN].add(name)


def drawing(name: str) -> None:
    """Just before a widget is drawn: its key, if this run set it, has reached it."""
    st.session_state.get(UNDRAWN, set()).discard(name)


def sent_by_browser(name: str) -> None:
    """A widget's callback: the browser sent this widget's value, so it holds the widget. A
    key set for it by an earlier run that stopped before drawing it (a newer change came) is
    not set again: that would draw the widget with the value imposed, and a press made since
    would jump back."""
    drawing(name)


def _holds(name: str, value: Any) -> bool:
    """True when the browser already holds ``value`` for this widget."""
    if name not in st.session_state:
        return False
    try:
        return PARAMS[name].check(_from_widget(name, st.session_state[name])) == value
    except AttentionInputError:
        return False


def follow_form(name: str, value: Any, form: tuple[Any, ...]) -> None:
    """Just before a widget is drawn: when its range, choices or their labels (``form``)
    differ from the last time it was drawn, set its key to ``value``. A slider with another
    range is another widget, which Streamlit would start at its minimum; a select box whose
    labels changed (a renamed token) would get the old label back, which matches no option.
    """
    forms = st.session_state.setdefault(FORMS, {})
    if forms.get(name) != form and not is_fresh():
        st.session_state[name] = _to_widget(name, value)
    forms[name] = form


# --- the matrix editor ------------------------------------------------------------------------


def _store_matrix_source(settings: Settings) -> None:
    """The editor starts again from this matrix (a new key: the browser gets a fresh grid)."""
    session = st.session_state
    session[EDITOR_BASE] = (settings.tokens, settings.rows)
    session[EDITOR_GENERATION] = session.get(EDITOR_GENERATION, 0) + 1


def editor_key() -> str:
    """The editor's key; it changes only when the matrix is replaced, never by an edit."""
    return f"matrix_editor_{st.session_state.get(EDITOR_GENERATION, 0)}"


def grid_key(key: str) -> str:
    """The key of a lesson's small grid (``ui.session.kept_widgets``): a new one after Back
    or Forward, so the grid starts again from the link's values instead of the edits it held."""
    generation = st.session_state.get(GRIDS_GENERATION, 0)
    return f"{key}_{generation}" if generation else key


def editor_base() -> tuple[tuple[str, ...], tuple[tuple[float, ...], ...]]:
    """The matrix the editor is drawn from; the browser's edits are relative to it."""
    return st.session_state[EDITOR_BASE]


def _read_editor(settings: Settings) -> tuple[Settings, list[Notice], str | None]:
    """Apply the editor's pending edits to the matrix it was drawn from."""
    session = st.session_state
    if editor_key() not in session:
        # The grid is not in the browser (another page, or the first run): it will be drawn
        # from the current matrix.
        session.pop(EDITOR_ROWS, None)
        if session.get(EDITOR_BASE) != (settings.tokens, settings.rows):
            session[EDITOR_BASE] = (settings.tokens, settings.rows)
        return settings, [], None
    edited, followed, error = _edited(settings)
    if isinstance(error, matrix_edits.WholeEditError):  # a paste too large, every row deleted
        _store_matrix_source(settings)  # a fresh grid with the last valid matrix
    elif error is None:
        session[EDITOR_ROWS] = (editor_key(), _grid_rows())
    return edited, followed, None if error is None else str(error)


def _grid_rows() -> dict[tuple[str, int], int]:
    """Where each row of the grid sits after the browser's edits (``editor.row_positions``)."""
    session = st.session_state
    return matrix_edits.row_positions(len(session[EDITOR_BASE][1]), session.get(editor_key()))


def _moved_rows() -> dict[int, int | None]:
    """Each token's row before the browser's pending edit -> its row after it (None: deleted)."""
    session = st.session_state
    key, before = session.get(EDITOR_ROWS, (None, None))
    if key != editor_key():  # no edit applied yet to this grid: its rows as drawn
        before = matrix_edits.row_positions(len(session[EDITOR_BASE][1]), None)
    after = _grid_rows()
    return {row: after.get(grid_row) for grid_row, row in before.items()}


def _edited(settings: Settings) -> tuple[Settings, list[Notice], AttentionInputError | None]:
    """The settings with the editor's pending edits applied, storing nothing (``preview``
    reads this too), and what happened to settings whose token was deleted; on an edit that
    is refused, the settings as they were and why."""
    session = st.session_state
    key = editor_key()
    if key not in session:
        return settings, [], None
    try:
        tokens, rows = matrix_edits.apply_edits(*session[EDITOR_BASE], session[key])
    except AttentionInputError as error:
        return settings, [], error
    if (tokens, rows) == (settings.tokens, settings.rows):
        return settings, [], None
    edited = settings.replace(tokens=tokens, rows=rows)
    return *follow_tokens(edited, _moved_rows(), settings.tokens), None


def reset_matrix() -> None:
    """Back to the preset's matrix (a button callback)."""
    settings = st.session_state[SETTINGS]
    tokens, rows = preset_matrix(settings.values)
    settings = settings.replace(tokens=tokens, rows=rows)
    st.session_state[SETTINGS] = settle(settings)[0]
    _store_matrix_source(st.session_state[SETTINGS])


def replace_matrix(tokens: tuple[str, ...], rows: tuple[tuple[float, ...], ...]) -> None:
    """Make another matrix current (e.g. real words' vectors); the editor starts from it."""
    settings = st.session_state[SETTINGS].replace(tokens=tokens, rows=rows)
    st.session_state[SETTINGS] = settle(settings)[0]
    _store_matrix_source(st.session_state[SETTINGS])


# --- values that are not settings -----------------------------------------------------------


def set_value(name: str, value: Any) -> None:
    """Change one setting from a callback (e.g. *New dropout sample*); widgets follow."""
    settings = st.session_state[SETTINGS].replace(**{name: PARAMS[name].check(value)})
    st.session_state[SETTINGS] = settle(settings)[0]
    st.session_state[name] = _to_widget(name, st.session_state[SETTINGS][name])


def step_value(name: str, by: int) -> None:
    """Move a whole-number setting by ``by`` within its limits (a Previous/Next callback).

    Relative to the value when the click arrives, so that quick presses are all counted.
    """
    low, high = PARAMS[name].limits(current_settings().num_tokens)
    value = int(min(max(st.session_state[SETTINGS][name] + by, low), high))
    set_value(name, value)


def remember(name: str, value: Any) -> None:
    """Keep a value for this session (the last trace that worked, a pinned view...)."""
    st.session_state[name] = value


def recall(name: str, default: Any = None) -> Any:
    """A value kept with :func:`remember`."""
    return st.session_state.get(name, default)


def is_revealed(question: str) -> bool:
    """True once the learner asked to see the answer of a predict-then-reveal question."""
    return question in st.session_state.setdefault("_revealed", set())


def reveal(question: str) -> None:
    """Show the answer of a predict-then-reveal question (a button callback)."""
    st.session_state.setdefault("_revealed", set()).add(question)


# --- the link ---------------------------------------------------------------------------------


def sync_url(settings: Settings, page: str) -> None:
    """Write the settings into the browser's URL (only when it changed)."""
    wanted = link_for(settings, page) | class_mode.url_params()
    current = {key: st.query_params.get(key) for key in st.query_params}
    if current != wanted:
        st.query_params.from_dict(wanted)


def link_for(settings: Settings, page: str) -> dict[str, str]:
    """The link parameters of ``page`` for these settings (other pages' lesson knobs left out)."""
    return links_for(settings, (page,))[page]


def links_for(settings: Settings, pages: Sequence[str]) -> dict[str, dict[str, str]]:
    """:func:`link_for` of several pages, the settings written out once."""
    params = link_params(settings)
    if LANGUAGE not in params and browser_language() not in (None, translation.ENGLISH):
        params[LANGUAGE] = translation.ENGLISH  # English chosen over the browser's language
    return {
        page: {k: v for k, v in params.items() if not _lesson_elsewhere(k, page)} for page in pages
    }


def share_link(settings: Settings, page: str, url_path: str) -> str:
    """A link that reproduces exactly this view on any machine."""
    parts = urlsplit(st.context.url or "http://localhost:8501/")
    prefix = str(st.get_option("server.baseUrlPath") or "").strip("/")
    path = "/".join(p for p in (prefix, url_path) if p)
    query = urlencode(link_for(settings, page))
    return urlunsplit((parts.scheme, parts.netloc, "/" + path, query, ""))


def has_state(key: str) -> bool:
    """True when the browser holds a widget under ``key`` (it was drawn on the last run)."""
    return key in st.session_state


def current_settings() -> Settings:
    """The settings as they are now (a lesson may have recorded a value since the run began)."""
    return st.session_state[SETTINGS]


def record(name: str, value: Any) -> None:
    """Record a value that a page drew itself (e.g. typed weights), for the link."""
    settings = st.session_state[SETTINGS]
    if settings[name] != value:
        st.session_state[SETTINGS] = settings.replace(**{name: value})
