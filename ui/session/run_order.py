"""The one run order of every page, and the one error path around the core.

``page = setup(__file__)`` reads the link and the widgets, applies the editor's pending change,
settles token-dependent values (``ui.session.state.begin``), draws the sidebar from that state,
computes the trace once and returns everything the page draws from. A page never reaches into
session state or calls the core by itself: ``page.run`` and ``page.call`` go through
:func:`guarded`, which turns any error into a message and keeps the last valid result.

A page may draw everything that moves with the settings through :func:`views`: one fragment
that a change reruns alone (with the sidebar controls it changes and the page links), so
the rest of the page (the matrix editor, the other controls) is neither rebuilt nor resent.
"""

from __future__ import annotations

import functools
import gc
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import streamlit as st
import torch
from streamlit.runtime.scriptrunner import get_script_run_ctx

import translation
from attention_core import AttentionInputError, AttentionTrace, run_attention
from attention_core.config import AttentionConfig, Matrix
from attention_core.embeddings import Embeddings, display_labels, make_embeddings
from attention_core.formatting import format_number, format_vector
from attention_core.knobs.settings import Notice, Settings, default_settings
from attention_core.knobs.table import PARAMS
from translation import _
from ui import safe
from ui.session import (
    controls,
    exercise_progress,
    kept_widgets,
    message_queue,
    nav,
    screen_width,
    state,
)
from ui.specs import sizing

T = TypeVar("T")
LOG = logging.getLogger("attention_dashboard")
GOOD_TRACE = "_good_trace"

# Static styles (no user text): compact top, a visible focus ring for keyboard users, and in
# presentation mode larger type for a projector.
BASE_CSS = """
.block-container { padding-top: 2rem; padding-bottom: 3rem; }
.stApp h1 { font-size: 2.1rem; padding-top: 0; text-wrap: balance; }
/* Chinese titles break only where the catalog marks a word's end (a zero-width space) */
:lang(zh) .stApp h1 { word-break: keep-all; }
.stApp h2 { font-size: 1.45rem; padding-top: 0.6rem; }
.stApp [data-testid="stSidebar"] h2 { font-size: 1.1rem; padding-top: 0.4rem; }

/* A script alone in its box (the grid's typing, the page's language, the clicker's keys, a
   cookie) takes no room, nor the gap a column leaves between two of its blocks. */
.stApp [data-testid="stElementContainer"]:has(> [data-testid="stHtml"] > script:only-child)
  { display: none; }
/* The live region that reads a result to a screen reader stays in the page, out of its flow:
   alone in its box, the box leaves no gap either (the first screen of a short projector
   had 16 px less for its result). Its box is as small as the region itself: at a column's
   width it ran past the page's edge, and every page scrolled sideways (16 px on a phone). */
.stApp [data-testid="stElementContainer"]:has(> [data-testid="stHtml"] > .sr-only:only-child),
.stApp [data-testid="stLayoutWrapper"]:has(> [data-testid="stVerticalBlock"]
  > [data-testid="stElementContainer"]:only-child > [data-testid="stHtml"] > .sr-only:only-child)
  { position: absolute; width: 1px; height: 1px; overflow: hidden; }

.stApp :focus-visible { outline: 3px solid #1f4e9c !important; outline-offset: 2px; }
/* A radio button or a toggle hides its input: the focus ring goes on what is seen. */
.stApp label:has(input[type="radio"]:focus-visible),
.stApp label:has(input[type="checkbox"]:focus-visible)
  { outline: 3px solid #1f4e9c; outline-offset: 2px; border-radius: 4px; }
.stApp [data-testid="stCaptionContainer"], .stApp [data-testid="stCaptionContainer"] p
  { color: #40444d !important; opacity: 1 !important; }


/* The code blocks' copy button (the link to this view) stays visible: Tab reaches it. */
.stApp [data-testid="stCode"] div:has(> div > [data-testid="stElementToolbarButton"]),
.stApp [data-testid="stCode"] div:has(> [data-testid="stElementToolbarButton"]),
.stApp [data-testid="stCode"] [data-testid="stElementToolbarButton"] *
  { visibility: visible !important; opacity: 1 !important; }
/* ... and the text wraps before it instead of running under it. */
.stApp [data-testid="stCode"] pre { padding-right: 2.75rem; }
.sr-only {
 position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; }

/* Code in a caption (a token's name, a model's) is 12 px at least: Streamlit's 0.75 em of a
   14 px caption was 10.5 px (pages 1, 5 and 10). */
.stApp [data-testid="stCaptionContainer"] code { color: #1f1f1f; font-size: max(0.875em, 12px); }
/* A heading's lines are balanced: none leaves one word, or one Chinese character, alone on
   its last line (page 12's "目标序列：解码器到目前为止的词元" left "元" alone at 768 and 390 px;
   Chromium's "pretty" wrapping leaves Chinese as it is). */
.stApp :is(h1, h2, h3, h4) { text-wrap: balance; }

/* Wider than a tablet the header bar is transparent, and the title row's menus (Pages,
   language, Class) sit under it once the page is scrolled a little: its empty part lets the
   click through to them (while a run shows its status there, it took every click). */
@media (min-width: 1025px) {
  .stApp [data-testid="stHeader"], .stApp [data-testid="stHeader"] * { pointer-events: none; }
  .stApp [data-testid="stHeader"] :is(button, a),
  .stApp [data-testid="stHeader"] :is(button, a) * { pointer-events: auto; }
}
/* A phone's or a tablet's header bar is opaque: the page starts below it; a phone's margins
   are narrower. */
@media (max-width: 1024px) { .stApp .block-container { padding-top: 4.25rem; } }
@media (max-width: 640px) {
  .stApp .block-container { padding-left: 1rem; padding-right: 1rem; }
  .stApp h1 { font-size: 1.75rem; }
  /* a lesson's table in 14 px type with narrow cells: page 4's five columns fit a phone */
  .stApp [data-testid="stMarkdownContainer"] > table :is(td, th)
    { padding: 0.375rem 0.375rem; font-size: 0.875rem; }
}
/* A grid's toolbar (44 px) sits above it on hover, always on a touch screen: room for it, so
   that it never covers the heading above the grid. */
.stApp [data-testid="stElementContainer"]:has([data-testid="stDataFrame"]) { margin-top: 2.9rem; }
/* A folded section's table of numbers ("Show as table") sits in a column: compact cells, in
   the grids' 14 px type, so that six tokens' table fits beside the Playground's matrix at
   1280 px (it ran 81 px past its box); a wider one scrolls in its box (below). Token names
   keep their 12 px code type (14 px on a phone or a tablet, below). */
.stApp [data-testid="stExpanderDetails"] :is(td, th)
  { padding: 0.25rem 0.375rem; font-size: 0.875rem; }
.stApp [data-testid="stExpanderDetails"] :where(td, th) code { font-size: 0.75rem; }
/* On a phone or a tablet no text is smaller than 14 px: code in prose and captions too. */
@media (max-width: 1024px) {
  .stApp [data-testid="stMarkdownContainer"] code, .stApp [data-testid="stCaptionContainer"] code
    { font-size: max(0.875em, 14px); }
}
/* The title's row: the menus keep their size, the title takes the rest. */
.stApp [data-testid="stColumn"]:has(.st-key-page_menu),
.stApp [data-testid="stColumn"]:has(.st-key-language_menu),
.stApp [data-testid="stColumn"]:has(.st-key-class_menu) { flex: 0 0 auto; width: auto; }
/* Each menu as wide as its button (a column's own minimum, 8rem, left the title too little). */
.stApp [data-testid="stColumn"]:has(.st-key-page_menu) { min-width: 6.5rem; }
.stApp [data-testid="stColumn"]:has(.st-key-language_menu) { min-width: 4rem; }
.stApp [data-testid="stColumn"]:has(.st-key-class_menu) { min-width: 5.5rem; }
.stApp [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] .st-key-page_menu)
  { column-gap: 0.5rem; }
/* On a phone the title has the row to itself; the three menus go under it. */
@media (max-width: 640px) {
  .stApp [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] .st-key-class_menu)
    { flex-wrap: wrap; row-gap: 0.25rem; }
  .stApp [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] .st-key-class_menu)
    > [data-testid="stColumn"]:first-child { flex: 1 0 100% !important; }
}
/* A class question's choices are touch targets 44 px high at least (a phone in the hall). */
.stApp [class*="st-key-class_answer_"] [role="radiogroup"] label
  { min-height: 2.75rem; align-items: center; padding: 0.25rem 0.5rem 0.25rem 0; }
/* The front knobs: one row, or two rows of two where the row is narrow. */
.stApp .st-key-front_knobs { container-type: inline-size; }
@container (max-width: 720px) {
  .stApp .st-key-front_knobs [data-testid="stHorizontalBlock"]
    { flex-wrap: wrap; row-gap: 0.25rem; }
  .stApp .st-key-front_knobs [data-testid="stColumn"]
    { flex: 1 1 calc(50% - 1rem) !important; min-width: calc(50% - 1rem) !important; }
}
/* What is wider than its column (a chart, a formula, a table) scrolls inside its own box:
   Chromium lets Tab focus a scroller, and a faded edge shows on each side with more to see
   (a scroll-driven animation: a box that does not scroll has no timeline, so no fade). A
   Markdown table is the Markdown container's own child (no wrapper of its own). */
@property --fade-left { syntax: "\\3C length\\3E"; inherits: false; initial-value: 0px; }
@property --fade-right { syntax: "\\3C length\\3E"; inherits: false; initial-value: 0px; }
@keyframes scroll-fades {
  0% { --fade-left: 0px; --fade-right: 36px; }
  8%, 92% { --fade-left: 36px; --fade-right: 36px; }
  100% { --fade-left: 36px; --fade-right: 0px; }
}
/* A chart wider than its column scrolls in its own box at the size it was drawn for: drawn
   smaller, a laptop's 12 px legend read 10 px on a tablet (issue 53: 12 px everywhere, 14 on
   a phone, whose charts are drawn for it). Columns are the query containers (cqw). */
.stApp [data-testid="stMainBlockContainer"], .stApp [data-testid="stColumn"],
.stApp [data-testid="stExpanderDetails"], .stApp [data-testid="stSidebarUserContent"]
  { container-type: inline-size; }
/* KaTeX draws a hair (2 px) past its own box: room for it, so that no fade shows. */
.stApp .katex-display > .katex { padding: 0 3px; }
.stApp [data-testid="stFullScreenFrame"]:has([data-testid="stVegaLiteChart"]),
.stApp .katex-display,
.stApp [data-testid="stTabs"] [role="tablist"],
.stApp [data-testid="stMarkdownContainer"]:has(> table) {
  overflow-x: auto; max-width: 100cqw;
  animation: scroll-fades linear both; animation-timeline: scroll(self inline);
  mask-image: linear-gradient(to right, transparent, #000 var(--fade-left),
    #000 calc(100% - var(--fade-right)), transparent);
}

"""
# A clicker's PageDown and PageUp scroll the main area wherever the focus was left (the
# script says why); a page's stepper keeps them.
_CLICKER_KEYS = Path(__file__).with_name("clicker_keys.js").read_text(encoding="utf-8")
PRESENT_CSS = """
/* Projected the sidebar is folded (st.set_page_config in setup): its arrow sits left of the
   page's margin, so the bar that holds it need not cover the title's line. */
.stApp [data-testid="stHeader"], .stApp [data-testid="stHeader"] *
  { background: transparent; pointer-events: none; }
.stApp [data-testid="stHeader"] :is(button, a), .stApp [data-testid="stHeader"] :is(button, a) *
  { pointer-events: auto; }
.stApp .block-container { padding-top: 1.25rem; }
/* A 1080p projector draws the page a quarter larger (as 1536×864 would be): the wall shows
   type nearer a 720p projector's size, with a taller first screen than 720 px. A popover
   (the Pages menu) is placed by its own offsets, which a zoom would multiply. */
@media (min-width: 1800px) and (min-height: 1000px) {
  .stApp, [role="dialog"]:not([data-testid="stPopoverBody"]) { zoom: 1.25; }
  /* A chart as wide as its column (Vega-Lite's container width: bars, line charts) measures
     the column as drawn, a quarter larger, and would be drawn a quarter wider than it under
     the zoom: it is drawn at its own size, its text still 16 px or more. */
  [data-testid="stVegaLiteChart"].fit-x { zoom: 0.8; } }
/* The teacher's line (ui/blocks/pointers.py): what to point at, set apart from the page. */
.stApp .st-key-pointer p { font-weight: 600; color: #1f4e9c; }
.stApp .st-key-pointer { border-left: 4px solid #1f4e9c; padding-left: 0.75rem; }
/* Every page in the Pages menu and every choice of the Class menu on a 720 px screen. */
[data-testid="stPopoverBody"] [data-testid="stPageLink"] a { padding-top: 0; padding-bottom: 0; }
[data-testid="stPopoverBody"] [data-testid="stVerticalBlock"]:has(> * [data-testid="stPageLink"])
  { gap: 0.1rem; }
.stApp [data-testid="stColumn"]:has(.st-key-page_menu) { min-width: 7.5rem; }
.stApp [data-testid="stColumn"]:has(.st-key-class_menu) { min-width: 6.75rem; }
.stApp .stMarkdown p, .stApp .stMarkdown li, .stApp label p { font-size: 1.3rem; }
.stApp .stMarkdown td, .stApp .stMarkdown th { font-size: 1.15rem; }
.stApp h1 { font-size: 2.25rem; } .stApp h2 { font-size: 1.8rem; }
/* A section's heading sits close to what it names: the result below it stays on a short
   projector's first screen (12 tokens on page 7 at 720 px). */
.stApp [data-testid="stMain"] h2 { padding-top: 0.25rem; padding-bottom: 0.25rem; }
/* Choices that wrap (page 10's sentences at 1024 px) take lines, not padded rows. */
.stApp [data-testid="stMain"] [role="radiogroup"] { row-gap: 0.25rem; }
.stApp [data-testid="stSidebar"] h2 { font-size: 1.25rem; }
/* Opened by its arrow, the sidebar is wide enough for its boxes' longest values at the
   larger type ("The book's, in Chinese (6 × 3)"): a box cannot wrap its value. */
.stApp [data-testid="stSidebar"][data-collapsed="false"] { min-width: 22rem !important; }
.stApp [data-testid="stPageLink"] p, [data-testid="stPopoverBody"] [data-testid="stPageLink"] p
  { font-size: 1.1rem; }
.stApp [data-testid="stCode"] code, .stApp [data-testid="stCode"] code span { font-size: 1rem; }
.stApp [data-testid="stMarkdownContainer"] code, .stApp [data-testid="stCaptionContainer"] code
  { font-size: max(0.9em, 1rem); }
.stApp kbd, .stApp button p, .stApp [data-testid="stTab"] p { font-size: 1.1rem; }
.stApp [data-testid="stAlertContainer"] p { font-size: 1.15rem; }
/* A page's notice (the settings it uses) is one line of the slide, not a padded box. */
.stApp [data-testid="stMain"] [data-testid="stAlertContainer"] { padding: 0.5rem 0.875rem; }
.stApp [data-testid="stSliderThumbValue"] p, .stApp [data-testid="stSliderTickBar"] p
  { font-size: 1.05rem; }
.stApp [data-testid="stExpander"] summary p { font-size: 1.2rem; }
.stApp input[type="text"], .stApp input[type="number"], .stApp textarea { font-size: 1.1rem; }

"""

# Everything imported so far (torch, pandas, streamlit) lives as long as the process: move it
# out of the collector's generations so that collections stay cheap (see .streamlit/config.toml).
gc.freeze()


@dataclass(frozen=True)
class Page:
    """What a page draws from: the settled settings and the trace computed from them."""

    info: nav.PageInfo
    settings: Settings
    trace: AttentionTrace
    notices: tuple[str, ...]
    phone: bool = False  # laid out as a phone's: the page is narrow (``screen_width``)
    column: int | None = None  # the main column, where measured narrower than the look's

    @property
    def present(self) -> bool:
        """True in presentation mode (larger type, less prose)."""
        return bool(self.settings["present"])

    @property
    def look(self) -> sizing.Look:
        """How charts size their text: projected, on a phone, or on a laptop."""
        return sizing.look_of(self.present, self.phone)

    @property
    def query(self) -> int:
        """The focused token, 0-based."""
        return self.settings.query_index

    def head(self, trace: AttentionTrace | None = None) -> int:
        """The head shown, 0-based: the setting, within the heads of ``trace`` (by default
        the page's own)."""
        heads = (trace or self.trace).num_heads
        return min(max(int(self.settings["head"]) - 1, 0), heads - 1)

    @property
    def decimals(self) -> int:
        """Decimals of every number shown."""
        return int(self.settings["decimals"])

    @property
    def labels(self) -> list[str]:
        """Token labels made unique by position where they repeat (for charts and tables)."""
        return display_labels(self.trace.tokens)

    @property
    def config(self) -> AttentionConfig:
        """The config of the main trace."""
        return self.trace.config

    @property
    def embeddings(self) -> Embeddings:
        """The learner's tokens and matrix."""
        return Embeddings(self.trace.tokens, self.trace.inputs)

    def number(self, value: float) -> str:
        """One number in the app's one format."""
        return format_number(float(value), self.decimals)

    def vector(self, values: list[float]) -> str:
        """A vector in the app's one format."""
        return format_vector([float(v) for v in values], self.decimals)

    def run(self, **changes: Any) -> AttentionTrace:
        """The core on the learner's matrix with some config values changed.

        On an error the message is shown where this is called, and the main trace is used.
        """
        result = guarded(lambda: run_attention(self.embeddings, self.config.replace(**changes)))
        return result if result is not None else self.trace

    def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
        """Any other core computation through the one error path (None after a message)."""
        return guarded(lambda: function(*args, **kwargs))


def guarded(compute: Callable[[], T]) -> T | None:
    """Run ``compute``; a core error becomes a warning naming it, anything else a short
    apology (the details go to the server's log, never to the page)."""
    try:
        return compute()
    except AttentionInputError as error:
        st.warning(safe.sentence(safe.prose(error, 300)), icon=":material/warning:")
    except Exception:  # a bug must not put a traceback on a learner's screen
        LOG.exception("computation failed")
        st.error(
            _(
                "This part could not be computed with these settings; the rest of the page is "
                "unaffected. Changing a setting back shows it again."
            ),
            icon=":material/error:",
        )
    return None


def setup(file: str) -> Page:
    """The run order, written once: every page's first line."""
    message_queue.install()  # Streamlit's queue keeps a finished run's messages
    translation.use_language(state.session_language())  # the link's, before it is read
    info = nav.BY_KEY.get(Path(file).stem, nav.PAGES[0])  # a page file not listed: like home
    st.set_page_config(
        page_title=_("{page} · Self-attention").format(page=_(info.title)),
        page_icon=info.favicon,
        layout="wide",
    )
    torch.set_num_threads(1)  # tiny tensors: thread pools only add latency in a shared server
    state.remember(controls.SCOPED_PAGE, None)  # until the page's views are drawn (views())
    state.remember(controls.CHECKED, False)
    exercise_progress.forget_run()  # the page says its exercises' trace (check_yourself)
    current = state.begin(info.key)
    language = translation.use_language(current.settings[state.LANGUAGE])
    controls.sidebar(current.settings, front=info.front, skip=info.draws)
    with st.sidebar:
        _rerun_on_reconnect()
    settings = state.current_settings()  # a first run may have taken the browser's values
    # Projected, the sidebar folds away (its arrow opens it): the page has the screen's width.
    st.set_page_config(initial_sidebar_state="collapsed" if settings["present"] else "auto")
    st.html(f"<style>{BASE_CSS}{PRESENT_CSS if settings['present'] else ''}</style>")
    _mark_language(language)
    _fold_sidebar(bool(settings["present"]))
    kept_widgets.keep_typed_keys()
    st.html(f"<script data-clicker-keys>{_CLICKER_KEYS}</script>", unsafe_allow_javascript=True)
    narrow = screen_width.is_narrow()  # the layout follows the page's width (issue 66)
    with st.sidebar:
        screen_width.measure(narrow, sizing.look_of(bool(settings["present"]), narrow).column)
    return _page(info, current, settings, narrow)


def _mark_language(code: str) -> None:
    """Tell the browser the page's language: ``<html lang>``. Screen readers pronounce it, and
    Chromium picks the fallback font for Chinese glyphs by it (Noto Sans CJK SC from Debian's
    fonts-noto-cjk). ``code`` is one of ``translation.LANGUAGES``' keys, never a link's text."""
    assert code in translation.LANGUAGES, code
    tag = code.replace("_", "-")
    st.html(
        f"<script data-page-language>document.documentElement.lang = '{tag}';</script>",
        unsafe_allow_javascript=True,
    )


# Presentation mode switched on folds an open sidebar once (the teacher may open it again).
# set_page_config's state does it on a new page load, but the browser keeps a sidebar the
# learner once opened or closed by hand open, whatever the page config says. Streamlit
# remembers a click on the fold as the person's own choice, in localStorage, for every later
# visit (a page then opens folded, whatever its config): the script's click is not the
# teacher's, so that memory is dropped; the page config folds a projected page again.
FOLD_SIDEBAR_JS = """(() => {
  const mark = 'attention-presentation-folded';
  if (!%s) { sessionStorage.removeItem(mark); return; }
  if (sessionStorage.getItem(mark)) return;
  sessionStorage.setItem(mark, '1');
  const fold = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
  if (!fold || fold.getAttribute('aria-expanded') !== 'true') return;
  fold.click();
  Object.keys(localStorage).filter((key) => key.startsWith('stSidebarCollapsed-'))
    .forEach((key) => localStorage.removeItem(key));
})();"""


def _fold_sidebar(present: bool) -> None:
    """Fold the sidebar the first time a run is projected (no user text in the script)."""
    st.html(
        f"<script data-fold-sidebar>{FOLD_SIDEBAR_JS % ('true' if present else 'false')}</script>",
        unsafe_allow_javascript=True,
    )


@st.fragment(run_every="1h", key="reconnect")
def _rerun_on_reconnect() -> None:
    """Draws nothing; it is here for its timer.

    A browser that reconnects to a new session (its worker restarted, or it slept past the
    session's lifetime) asks for a whole run only when the page has a timed fragment or the
    last run was a fragment's. Without that run the new session holds none of the page's
    fragments, and it drops, unanswered, every change to a control drawn in one (every
    sidebar control): tests/e2e/test_replicas.py kills a worker and moves a slider.
    """


def _page(info: nav.PageInfo, current: state.Run, settings: Settings, narrow: bool) -> Page:
    """The page of a run: its trace, and its notices in the learner's words."""
    trace, failure = _compute(settings)
    notices = [_notice_text(n) for n in current.notices]
    if current.editor_error:
        notices.append(
            safe.sentence(
                _("Matrix: {problem}").format(problem=safe.prose(current.editor_error, 320))
            )
            + " "
            + _("The results use the last valid matrix.")
        )
    if failure:
        notices.append(failure)
    return Page(info, settings, trace, tuple(notices), phone=narrow, column=screen_width.column())


def views(page: Page, draw: Callable[[Page], None]) -> None:
    """Draw what moves with the settings as one fragment (``controls.VIEWS``).

    A change in the sidebar or the matrix then reruns only ``draw`` (with the sidebar controls
    it changes and the page links, ``controls.after_change``), which receives the page settled
    again: what it draws must depend on nothing else of the run. ``draw`` may write into
    containers made before (a column, a slot in the header); what it wrote there is replaced
    on each of its reruns. It must write into such a container on every whole run in which
    a partial rerun may write there: Streamlit reserves the fragment's place in an outside
    container only when the whole run wrote to it.
    """

    @st.fragment(key=controls.VIEWS)
    def fragment() -> None:
        if state.partial_run():
            draw(_again(page.info))
            return
        draw(page)
        # Marked only once drawn whole: a partial rerun writes into every container this run
        # made, and a run stopped halfway (a newer change) made only some of them.
        ctx = get_script_run_ctx()
        page_hash = ctx.page_script_hash if ctx is not None else ""
        state.remember(controls.SCOPED_PAGE, (page.info.key, page_hash))

    fragment()


def _again(info: nav.PageInfo) -> Page:
    """The page settled again for a rerun of its views alone.

    The change was checked to bring nothing but new numbers (``controls.after_change``);
    should it now bring more (a notice, a refused value), the whole page reruns.
    """
    checked = state.recall(controls.CHECKED)
    state.remember(controls.CHECKED, False)
    if state.recall(controls.SCOPED_PAGE) is None:  # the last whole run did not finish them
        st.rerun()
    if not checked and state.preview(info.key) is None:  # e.g. a section opened in a panel
        st.rerun()
    current = state.begin(info.key)
    return _page(info, current, state.current_settings(), screen_width.is_narrow())


@functools.lru_cache(maxsize=128)
def _trace_of(tokens: tuple[str, ...], rows: Matrix, config: AttentionConfig) -> AttentionTrace:
    """The core's trace, shared by every session of this process that shows the same settings
    (a class's followers all do). A trace is frozen and never changed in place."""
    return run_attention(make_embeddings(tokens, rows), config)


def _compute(settings: Settings) -> tuple[AttentionTrace, str | None]:
    try:
        trace = _trace_of(settings.tokens, settings.rows, settings.config())
    except Exception as error:  # settled settings always run; this is a safety net
        LOG.exception("the main computation failed")
        previous = state.recall(GOOD_TRACE)
        if previous is None:
            default = default_settings()
            previous = run_attention(default.embeddings(), default.config())
        detail = f" ({safe.prose(error, 200)})" if isinstance(error, AttentionInputError) else ""
        return (
            previous,
            _(
                "These settings could not be computed{detail}; showing the last valid numbers."
            ).format(detail=detail),
        )
    state.remember(GOOD_TRACE, trace)
    return trace, None


def _notice_text(notice: Notice) -> str:
    """A notice as safe Markdown, naming the setting in the learner's words: the validator's
    message as a sentence in the page's type (``safe.prose``), not as code."""
    param = PARAMS.get(notice.param)
    problem = notice.problem
    for prefix in (f"{param.name}: ", f"{_(param.label)}: ") if param is not None else ():
        problem = problem.removeprefix(prefix)  # the label says it already
    label = "**" + (_(param.label) if param is not None else _("Link")) + "**"
    used = safe.prose(notice.used, 60) if notice.used else ""
    if param is not None and notice.used == param.unset:
        used = _(param.unset)  # the table's own words, not an echo of the link
    if param is not None and param.name == state.LANGUAGE:
        used = translation.LANGUAGES.get(notice.used, used)  # "English", not "en"
    used = " " + safe.sentence(_("Using {value}").format(value=used)) if used else ""
    return (
        safe.sentence(
            _("{setting}: {problem}").format(setting=label, problem=safe.prose(problem, 200))
        )
        + used
    )


translation.set_source(state.session_language)  # a callback's or a fragment's thread
