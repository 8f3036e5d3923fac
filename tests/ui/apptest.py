"""Drive the app as one browser session would (through AppTest) and read what it shows.

AppTest runs the real scripts but sets widget values directly: there is no browser, no
JavaScript and no network. It is the tool for numbers and states; what a real browser does
(typing into the grid, the copy button, requests) is tested in ``tests/e2e``.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from attention_core.knobs.links import read_params
from attention_core.knobs.settings import Settings
from attention_core.knobs.table import PARAMS
from tests.ui import vega
from ui.session import nav

ROOT = Path(__file__).resolve().parents[2]
ENTRY = str(ROOT / "streamlit_app.py")
PAGES = {page.key: page for page in nav.PAGES}  # "streamlit_app", "1_Embeddings", ...
HOME = "streamlit_app"
BY_URL = {page.url_path: page.key for page in nav.PAGES}

# What the one error path (ui.session.run_order.guarded and _compute) puts on a page.
APOLOGY = "This part could not be computed"
NOT_COMPUTED = "could not be computed"
GUARDED_ICON = ":material/warning:"
# The app's own warnings with that icon: any other warning with it is the error path's.
OWN_WARNINGS = ("Overflow: ", "Some weights are undefined", "Words: ")
NOTICE_ICON = ":material/info:"

TEXT_KINDS = ("title", "header", "subheader", "markdown", "caption", "latex", "code")
ALERT_KINDS = ("warning", "error", "info", "success")
WIDGET_KINDS = ("slider", "selectbox", "radio", "number_input", "toggle", "text_input")
NONFINITE = re.compile(r"(?<!\w)(nan|inf|infinity)(?!\w)", re.IGNORECASE)
CHART_TEXT_FIELDS = ("row", "column", "key", "text", "desc", "label")
CODE_SPAN = re.compile(r"(`+)(.*?)\1", re.DOTALL)
# \'typed\' in a notice's escaped sentence, or “typed” between curly quotes (page 10's word)
ECHO = re.compile(r"\\(['\"]).*?\\\1|“[^”]*”")
COMMONMARK = MarkdownIt("commonmark")


def open_page(
    page: str = HOME, params: Mapping[str, str | list[str]] | None = None, timeout: float = 60
) -> AppTest:
    """A fresh session on ``page`` (a key of ``PAGES``), opened from a link with ``params``.

    Lesson pages are reached through the entry point, as Streamlit serves a deep link.
    """
    at = AppTest.from_file(ENTRY, default_timeout=timeout)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    if page != HOME:
        at.switch_page(PAGES[page].path)
    return at.run()


def go_to(at: AppTest, page: str) -> AppTest:
    """Follow the navigation to ``page`` in the same session."""
    return at.switch_page(PAGES[page].path).run()


def current_page(at: AppTest) -> str:
    """The page the session shows, read from its link (the sidebar's *Link to this view*)."""
    return BY_URL[urlsplit(shared_link(at)).path.strip("/")]


def shared_link(at: AppTest) -> str:
    """The text of *Link to this view* in the sidebar (what the copy button copies)."""
    codes = [c.value for c in at.sidebar.code]
    assert len(codes) == 1, codes
    return codes[0]


def reopen_from_link(at: AppTest) -> AppTest:
    """Open the copied link in a new session (another tab, another machine)."""
    link = urlsplit(shared_link(at))
    params = {k: v[-1] if len(v) == 1 else v for k, v in parse_qs(link.query).items()}
    return open_page(BY_URL[link.path.strip("/")], params)


# --- what the page shows ---------------------------------------------------------------------


def vega_specs(at: AppTest) -> list[dict]:
    """Every Vega-Lite chart on the page, as the app built it (its Arrow data put back)."""
    return vega.chart_specs(at)


def title_of(spec: dict) -> str:
    """A chart's title ('' for a diagram drawn without one, such as the Flow page's), its
    lines joined when it was broken to fit the chart."""
    text = spec.get("title", {}).get("text", "")
    return " ".join(text) if isinstance(text, list) else text


def chart(at: AppTest, title: str) -> dict:
    """The one chart with this title."""
    found = [s for s in vega_specs(at) if title_of(s) == title]
    assert len(found) == 1, (title, [title_of(s) for s in vega_specs(at)])
    return found[0]


def records(spec: dict) -> list[dict]:
    """The data records of a chart built by ``ui.specs.heatmap_chart``."""
    return vega.records(spec)


def chart_texts(spec: dict) -> list[str]:
    """Every text a chart prints or announces: title, description, labels, cell texts."""
    texts = [title_of(spec), spec.get("description", "")]
    for record in records(spec):
        texts += [str(v) for k, v in record.items() if k in CHART_TEXT_FIELDS]
    return texts


def alerts(at: AppTest) -> list[tuple[str, str, str]]:
    """Every alert as (kind, icon, text)."""
    return [(kind, e.icon, e.value) for kind in ALERT_KINDS for e in at.get(kind)]


def notices(at: AppTest) -> list[str]:
    """The run's notices (link values, clashes, refused edits): warnings with the info icon."""
    return [e.value for e in at.warning if e.icon == NOTICE_ICON]


def guarded_messages(at: AppTest) -> list[str]:
    """Messages the one error path produced: a core error, a bug, or a failed main run."""
    found = [e.value for e in at.error if e.value.startswith(APOLOGY)]
    found += [
        e.value
        for e in at.warning
        if e.icon == GUARDED_ICON and not e.value.startswith(OWN_WARNINGS)
    ]
    found += [e.value for e in at.warning if NOT_COMPUTED in e.value]
    return found


def shown_texts(at: AppTest) -> list[str]:
    """Every text the page shows, in the main area and the sidebar, charts included."""
    texts = [str(e.value) for kind in (*TEXT_KINDS, *ALERT_KINDS) for e in at.get(kind)]
    for metric in at.metric:
        texts += [metric.label, str(metric.value)]
    texts += [expander.label for expander in at.expander]
    for kind in WIDGET_KINDS:
        for widget in at.get(kind):
            texts.append(widget.label)
            texts += [str(o) for o in getattr(widget, "options", [])]
    for spec in vega_specs(at):
        texts += chart_texts(spec)
    return texts


def as_read(markdown: str) -> str:
    """Markdown as a learner reads it: rendered (CommonMark), the tags dropped."""
    return html.unescape(re.sub(r"<[^>]+>", "", COMMONMARK.renderInline(markdown)))


def code_read(markdown: str) -> list[str]:
    """The texts Markdown shows as code (monospace), as a learner reads them."""
    found = re.findall(r"<code>(.*?)</code>", COMMONMARK.renderInline(markdown), re.DOTALL)
    return [html.unescape(text) for text in found]


# What Streamlit's Markdown rewrites in plain text after escapes are read (its remark-emoji,
# icon, logo, GFM autolink and arrow plugins): in text a person typed, only inside code.
STREAMLIT_REWRITES = (
    re.compile(r":\+1:|:-1:|:[\w-]+:"),
    re.compile(r":material_\w+:|:streamlit:"),
    re.compile(r"https?://|www(?=\.)", re.IGNORECASE),
    re.compile(r"[-.\w+]+@[-\w]+(\.[-\w]+)+"),
    re.compile(r"(^|\s)(<->|->|<-|--|>=|<=|~=)(\s|$)"),
)


def markup_problems(markdown: str, allowed: frozenset[str] = frozenset({"code"})) -> list[str]:
    """What in ``markdown`` would be more than text: HTML elements CommonMark makes of it
    beyond ``allowed``, text Streamlit rewrites outside code, and Streamlit's own source
    rewrite of ``:material/``. Empty when the Markdown is inert."""
    rendered = COMMONMARK.renderInline(markdown)
    problems = sorted(set(re.findall(r"</?([a-z0-9]+)", rendered)) - allowed)
    for piece in map(html.unescape, re.split(r"<code>.*?</code>", rendered, flags=re.DOTALL)):
        text = re.sub(r"<[^>]+>", "", piece)
        problems += [p.pattern for p in STREAMLIT_REWRITES if p.search(text)]
    return problems + ([":material/"] if ":material/" in markdown else [])


def without_echoes(markdown: str) -> str:
    """Markdown without the values a message repeats as typed: quoted, in a sentence
    (``safe.prose`` escapes the quotes), as ``'nan'`` in "… not 'nan'"."""
    return ECHO.sub("", markdown)


def without_code(text: str) -> str:
    """Markdown with its code spans removed (their content is shown literally)."""
    return CODE_SPAN.sub("", text)


def assert_clean(at: AppTest, *, allow_guarded: bool = False) -> None:
    """No exception, no nan/inf/traceback anywhere, and (unless allowed) no error-path message."""
    assert not at.exception, [e.value for e in at.exception]
    code = {str(block.value) for block in at.get("code")}  # Python may say float("-inf")
    for text in shown_texts(at):
        assert "Traceback" not in text, text
        if text in code:
            continue
        found = NONFINITE.search(without_echoes(without_code(text)))
        assert found is None, f"{found.group(0)!r} shown in {text[:300]!r}"
    if not allow_guarded:
        assert guarded_messages(at) == [], guarded_messages(at)


def images(at: AppTest) -> list[tuple[str, str]]:
    """Every image on the page as (its text alternative, its URL)."""
    return [(img.alt, img.url) for element in at.get("image") for img in element.proto.imgs]


# --- the settings shown ----------------------------------------------------------------------


def url_params(at: AppTest) -> dict[str, list[str]]:
    """The query parameters of the browser's URL after the run."""
    return {k: v if isinstance(v, list) else [v] for k, v in at.query_params.items()}


def url_settings(at: AppTest) -> Settings:
    """The settings the URL describes, decoded by the link parser; the URL must be clean.
    (A class member's URL also carries its class code, which is no setting.)"""
    params = {k: v for k, v in url_params(at).items() if k != "class"}
    settings, problems = read_params(params)
    assert problems == [], [p.message for p in problems]
    return settings


def widgets(at: AppTest) -> Iterator[tuple[str, Any]]:
    """(key, value) of every widget drawn from a row of the parameter table."""
    for kind in WIDGET_KINDS:
        for widget in at.get(kind):
            if widget.key in PARAMS:
                yield widget.key, widget.value


def shown_settings(at: AppTest) -> Settings:
    """The settings on screen: the URL's, after checking that every widget shows the same."""
    settings = url_settings(at)
    for key, value in widgets(at):
        assert value == settings[key], f"widget {key}: {value!r}, the URL: {settings[key]!r}"
    return settings


# --- the matrix editor -----------------------------------------------------------------------


def grid_key(at: AppTest) -> str | None:
    """The key of the embedding grid drawn on this run (None where there is none)."""
    keys = [e.key for e in at.data_editor if e.key and e.key.startswith("matrix_editor_")]
    assert len(keys) <= 1, keys
    return keys[0] if keys else None


def send_edits(at: AppTest, edits: Mapping[str, Any], key: str | None = None) -> AppTest:
    """Send a grid's cumulative edit state, as the browser does after each change.

    ``key`` names another grid than the embedding matrix (e.g. ``grid_wq_3``).
    """
    key = key or grid_key(at)
    assert key is not None, "no grid on this page"
    at.session_state[key] = {
        "edited_rows": dict(edits.get("edited_rows", {})),
        "added_rows": list(edits.get("added_rows", [])),
        "deleted_rows": list(edits.get("deleted_rows", [])),
    }
    return at.run()


# --- Markdown tables -------------------------------------------------------------------------


def markdown_tables(at: AppTest) -> list[list[list[str]]]:
    """Every Markdown table on the page as rows of cells (header first, separator dropped)."""
    tables = []
    for element in at.markdown:
        lines = element.value.split("\n")
        if len(lines) < 2 or not lines[0].startswith("| ") or not lines[1].startswith("|:"):
            continue
        tables.append([_cells(line) for i, line in enumerate(lines) if i != 1])
    return tables


def _cells(line: str) -> list[str]:
    return [c.replace("\\|", "|") for c in re.split(r"(?<!\\) \| ", line[2:-2])]


def table_with(at: AppTest, heading: str) -> list[list[str]]:
    """The one Markdown table whose header holds ``heading``."""
    found = [t for t in markdown_tables(at) if heading in t[0]]
    assert len(found) == 1, (heading, [t[0] for t in markdown_tables(at)])
    return found[0]


def column(table: Sequence[Sequence[str]], heading: str) -> list[str]:
    """One column of a parsed table, without its header."""
    index = list(table[0]).index(heading)
    return [row[index] for row in table[1:]]


class ServerLog(logging.Handler):
    """Collects what the app writes to its server log (tracebacks of caught bugs)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
