"""What a learner sees, read from the rendered page: numbers, messages, links and idleness.

Every selector that reads the page lives here (the learner's gestures are in ``learner.py``),
so a change of Streamlit's markup is fixed in one place.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
NUMBER = r"−?[0-9]+\.[0-9]+"  # a number as the app prints it, with the minus sign (U+2212)


def number(text: str) -> float:
    """A number the app printed (``NUMBER``), as a float."""
    return float(text.replace("−", "-"))


SIDEBAR = '[data-testid="stSidebar"]'
PAGE_MENU_BODY = '[data-testid="stPopoverBody"]'  # the page menu's links, while it is open
MAIN = '[data-testid="stMain"]'
LINK_CODE = f'{SIDEBAR} [data-testid="stCode"]'  # "Link to this view": drawn last on every page
CHART = '[data-testid="stVegaLiteChart"]'
ALERT = '[data-testid="stAlert"]'
# A phone as the app meets one: its screen, touch, and a browser that says it is a phone
# (Chromium on Android, as Playwright's "Pixel 7" descriptor names itself); the app then draws
# its charts for a phone's column at 14 px (``ui.session.state.is_phone``).
PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/130.0.0.0 Mobile Safari/537.36"
)
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "user_agent": PHONE_AGENT,
}
# One look at the page: is a run requested, running or disconnected; is an element stale or a
# chart not drawn yet (Vega draws after its element arrives); how many elements are there.
# Streamlit's app root carries the script's run state and the connection's state as
# attributes (its own end-to-end tests wait on them): "rerunRequested" is set in the same
# frame as the widget's change is sent, unlike the status widget, which appears after a delay.
_PAGE_STATE_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return {
    run: app ? app.getAttribute('data-test-script-state') : 'initial',
    connection: app ? app.getAttribute('data-test-connection-state') : null,
    stale: document.querySelector('[data-stale="true"]') !== null,
    drawing: [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
      .some(c => !c.querySelector('svg text')),
    count: document.querySelectorAll('[data-testid="stElementContainer"]').length,
  };
}"""
# How long the page must stay still once nothing runs. It covers a slider's commit, which
# Streamlit sends 200 ms after the last key press, and Vega's drawing of a changed chart.
QUIET = 0.4
# Elements that user text must never create (issue 12).
MARKUP = "a, img, h1, h2, h3, h4, h5, h6, script, iframe, object, embed"


def wait_idle(page, timeout: float = 60.0) -> None:
    """Wait until no script run is requested or in progress, the connection is up, the page
    stopped growing and every chart is drawn, for ``QUIET`` seconds in a row."""
    page.wait_for_selector("h1", timeout=timeout * 1000)
    deadline = time.monotonic() + timeout
    quiet_since, last_count, state = None, -1, {}
    while time.monotonic() < deadline:
        state = page.evaluate(_PAGE_STATE_JS)
        busy = state["run"] != "notRunning" or state["connection"] != "CONNECTED"
        if busy or state["stale"] or state["drawing"] or state["count"] != last_count:
            quiet_since, last_count = None, state["count"]
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= QUIET:
            return
        page.wait_for_timeout(100)
    shown = page.evaluate("() => [document.title, document.body.innerText.slice(0, 200)]")
    raise TimeoutError(f"the app did not become idle at {page.url}: {state}, showing {shown}")


def wait_ready(page, timeout: float = 90.0) -> None:
    """Wait until a whole run has been drawn: the link at the foot of the sidebar (the last
    thing every page draws), no run in progress, and every Vega chart drawn with its text."""
    page.wait_for_selector(LINK_CODE, timeout=timeout * 1000)
    wait_idle(page, timeout)
    wait_for(page, _charts_drawn, bool, timeout=30)


def _charts_drawn(page) -> bool:
    return page.evaluate(
        """sel => [...document.querySelectorAll(sel)].every(
            c => c.querySelector('svg text') !== null)""",
        CHART,
    )


def open_page(page, url: str) -> None:
    """Go to ``url`` and wait for the whole page."""
    page.goto(url)
    wait_ready(page)


def wait_for(
    page, read: Callable[[object], T], done: Callable[[T], bool], timeout: float = 20.0
) -> T:
    """Read the page until ``done(value)`` holds (or the time is up); returns the last value.

    The caller asserts on the value: a timeout is a failure of that assertion, never a pass.
    """
    deadline = time.monotonic() + timeout
    value = read(page)
    while not done(value) and time.monotonic() < deadline:
        # Not time.sleep: Playwright's sync API handles the page's events (a new URL, so
        # page.url) only while one of its calls runs; a sleeping loop read a stale URL.
        page.wait_for_timeout(50)
        value = read(page)
    return value


def after_change(page, read: Callable[[object], T], before: T, timeout: float = 20.0) -> T:
    """Wait until ``read`` gives something other than ``before`` and the run has finished."""
    wait_for(page, read, lambda value: value != before, timeout)
    wait_ready(page)
    return read(page)


def summary_text(page) -> str:
    """The focused query's result in words, as the page states it."""
    return page.locator(".st-key-result_summary").first.inner_text().strip()


def shown_context_vector(page) -> list[float]:
    """The focused query's context vector, read from the sentence that states it."""
    text = summary_text(page)
    # With an output projection the sentence names the projection's result instead.
    found = re.search(
        r"(?:context vector|output after the output projection)(?: \([^)]*\))? ([−0-9., ]+)\.?$",
        text.strip(),
    )
    assert found, f"no context vector in {text!r}"
    return [number(v) for v in re.findall(NUMBER, found.group(1))]


def shown_top_weight(page) -> float:
    """The weight of the key the focused query attends to most."""
    found = re.search(rf"\(({NUMBER})(?: each)?\)", summary_text(page))
    assert found, summary_text(page)
    return number(found.group(1))


def warnings(page) -> list[str]:
    """Every warning, error, info and success box on the page."""
    return page.locator(ALERT).all_inner_texts()


alerts = warnings


def wait_for_change(page, before: list[float], timeout: float = 20.0) -> list[float]:
    """Wait until the context vector differs from ``before``; returns it (or the old one)."""
    return after_change(page, shown_context_vector, before, timeout)


def share_link(page) -> str:
    """The text of "Link to this view" at the foot of the sidebar."""
    return "".join(page.locator(LINK_CODE).last.inner_text().split())


# A chart's title as one line: Vega draws a title broken to fit as one text with a tspan per
# line, whose textContent would run the lines together.
TITLE_OF = """const titleOf = (chart) => {
    const t = chart.querySelector('.role-title-text text');
    if (!t) return '';
    const lines = [...t.querySelectorAll('tspan')].map((s) => s.textContent);
    return lines.length ? lines.join(' ') : t.textContent;
};"""


def chart_titles(page) -> list[str]:
    """The title of every Vega-Lite chart, in page order."""
    return page.evaluate(
        f"""sel => {{ {TITLE_OF}
            return [...document.querySelectorAll(sel)].map(titleOf); }}""",
        CHART,
    )


def heatmap(page, title: str, prefix: bool = False) -> dict[str, str]:
    """The printed cells of the heatmap titled ``title``: ``"row, column" -> text``.

    Each cell's text mark carries its description ("journey, Your: 0.1500") as aria-label.
    """
    script = (
        """([sel, title, prefix]) => {"""
        + TITLE_OF
        + """
            for (const chart of document.querySelectorAll(sel)) {
                const name = titleOf(chart);
                if (prefix ? !name.startsWith(title) : name !== title) continue;
                return [...chart.querySelectorAll('.role-mark text[aria-label]')]
                    .map(e => e.getAttribute('aria-label'));
            }
            return null;
        }"""
    )
    # Vega replaces a chart's SVG when it redraws it: a read in between finds no such chart
    # (seen once under load), so the read is repeated until the chart is there.
    read = lambda p: p.evaluate(script, [CHART, title, prefix])  # noqa: E731
    cells = wait_for(page, read, lambda found: found is not None, timeout=10)
    assert cells is not None, f"no chart titled {title!r} among {chart_titles(page)}"
    return dict(cell.rsplit(": ", 1) for cell in cells)


def cell_fills(page, title: str) -> list[str]:
    """The fill colour of every cell drawn in the heatmap titled ``title`` (row by row).

    The cells are the rectangles of the chart's marks; the legend's gradient is not a mark.
    """
    fills = page.evaluate(
        """([sel, title]) => {"""
        + TITLE_OF
        + """
            for (const chart of document.querySelectorAll(sel)) {
                if (titleOf(chart) !== title) continue;
                return [...chart.querySelectorAll('g.mark-rect.role-mark path')]
                    .map(e => e.getAttribute('fill'));
            }
            return null;
        }""",
        [CHART, title],
    )
    assert fills is not None, f"no chart titled {title!r} among {chart_titles(page)}"
    return fills


def cell_texts(page) -> list[str]:
    """The printed text of every heatmap cell on the page (axes, titles and legends left out)."""
    return page.evaluate(
        """sel => [...document.querySelectorAll(sel + ' .role-mark text[aria-label]')]
            .map(e => e.textContent)""",
        CHART,
    )


def grid_texts(page, nth: int = 0) -> list[list[str]]:
    """The text of each row of a data grid, header first (Glide draws on a canvas and mirrors
    it as an accessible table)."""
    return page.evaluate(
        """nth => [...document.querySelectorAll('[data-testid=stDataFrame]')[nth]
            .querySelectorAll('table tr')]
            .map(r => [...r.querySelectorAll('th, td')].map(c => c.innerText.trim()))""",
        nth,
    )


def tables(page) -> list[str]:
    """The text of every Markdown table in the main area."""
    return page.locator(f"{MAIN} [data-testid='stMarkdown'] table").all_inner_texts()


def table_boxes(page) -> list[dict[str, float]]:
    """Where every Markdown table of the main area is drawn, with the main column's right
    edge (``limit``): a table past it runs under a neighbour or off the screen."""
    return page.evaluate(
        """sel => {
            const main = document.querySelector('[data-testid="stMainBlockContainer"]');
            const limit = main.getBoundingClientRect().right;
            return [...document.querySelectorAll(sel)].map(t => {
                const r = t.getBoundingClientRect();
                return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, limit};
            });
        }""",
        f"{MAIN} [data-testid='stMarkdown'] table",
    )


def metrics(page) -> list[str]:
    """The values of every st.metric."""
    return page.locator('[data-testid="stMetricValue"]').all_inner_texts()


def main_text(page) -> str:
    """Everything the main area says, as text."""
    return page.locator(MAIN).inner_text()


def shown(page) -> dict[str, object]:
    """What a page shows that a link must reproduce: every chart's printed text, the tables,
    the metrics, the alerts and the focused query's summary (the sidebar's link excluded)."""
    texts = page.evaluate(
        """sel => [...document.querySelectorAll(sel)].map(
            c => [...c.querySelectorAll('svg text')].map(t => t.textContent))""",
        CHART,
    )
    summary = page.locator(".st-key-result_summary")
    return {
        "charts": texts,
        "tables": tables(page),
        "metrics": metrics(page),
        "alerts": page.locator(f"{MAIN} {ALERT}").all_inner_texts(),
        "summary": summary.first.inner_text() if summary.count() else "",
    }


def markup_from(page, needles: list[str]) -> list[str]:
    """Elements of a kind user text must never create that come from user text: their text
    contains one of ``needles``, or they point (``href``, ``src``) to another host."""
    return page.evaluate(
        """([sel, needles]) => [...document.querySelectorAll(sel)].filter(e => {
            const target = e.getAttribute('href') || e.getAttribute('src');
            if (target !== null) {
                const url = new URL(target, location.href);
                if (url.host !== location.host && url.protocol !== 'data:') return true;
            }
            return needles.some(n => (e.textContent || '').includes(n));
        }).map(e => e.tagName + ': ' + e.outerHTML.slice(0, 200))""",
        [MARKUP, needles],
    )


def markup_count(page, within: str = MAIN) -> dict[str, int]:
    """How many links, images, headings and scripts are inside ``within`` and its alerts."""
    return page.evaluate(
        """([within, tags]) => Object.fromEntries(tags.split(', ').map(
            tag => [tag, document.querySelectorAll(within + ' ' + tag).length]))""",
        [within, MARKUP],
    )


def literally(page, texts: list[str], within: str = MAIN) -> dict[str, int]:
    """How many elements inside ``within`` show exactly each of ``texts`` as their whole text
    (an SVG label, a code span, a table cell...)."""
    return page.evaluate(
        """([within, texts]) => {
            const shown = [...document.querySelectorAll(within + ' *')].map(e =>
                (e instanceof SVGElement ? e.textContent : e.innerText || '').trim());
            return Object.fromEntries(texts.map(t => [t, shown.filter(s => s === t).length]));
        }""",
        [within, texts],
    )


# What each control's box holds, read in one look: its kind, the value it shows, and whether it
# is on the screen (a folded sidebar's are not). A closed popover's control is not in the page.
_CONTROLS_JS = """(names) => {
  const found = {};
  for (const name of names) {
    const box = document.querySelector(`.st-key-${name}`);
    if (!box || box.closest('[data-testid="stPopoverBody"]')) continue;
    const rect = box.getBoundingClientRect();
    const visible = box.getClientRects().length > 0 && rect.right > 0 && rect.width > 0;
    const range = box.querySelector('input[type="range"]');
    const radio = box.querySelector('[role="radiogroup"]');
    const combo = box.querySelector('input[role="combobox"]');
    const check = box.querySelector('input[type="checkbox"]');
    const number = box.querySelector('input[type="number"]');
    const text = box.querySelector('input[type="text"], textarea');
    let kind = null, value = null;
    if (range) { kind = 'slider'; value = range.value; }
    else if (radio) {
      kind = 'radio';
      const on = box.querySelector('label:has(input:checked)');
      value = on ? on.innerText.trim() : null;
    }
    else if (combo) { kind = 'select'; value = combo.value; }
    else if (check) { kind = 'toggle'; value = String(check.checked); }
    else if (number) { kind = 'number'; value = number.value; }
    else if (text) { kind = 'text'; value = text.value; }
    if (kind) found[name] = {kind, value, visible};
  }
  return found;
}"""


def controls(page, names: list[str]) -> dict[str, dict]:
    """The controls of ``names`` the page draws: ``name -> {kind, value, visible}``, the value
    as the control shows it (a choice's label, a number's text)."""
    return page.evaluate(_CONTROLS_JS, list(names))


def exceptions(page) -> list[str]:
    """Streamlit's exception boxes (a traceback shown to the learner)."""
    return page.locator('[data-testid="stException"]').all_inner_texts()


def _slider(page, label: str):
    return page.locator('[data-testid="stSlider"]').filter(has_text=label).get_by_role("slider")


def slider_value(page, label: str) -> str:
    """The value a slider shows (its range input), e.g. "3" for d_out = 3."""
    return _slider(page, label).input_value()


def step_slider(page, label: str) -> None:
    """Move a slider one step to the right, as a learner does with the arrow key."""
    slider = _slider(page, label)
    slider.focus()
    page.keyboard.press("ArrowRight")


# The browser's own way to a link inside an open app: the URL changes in place and Streamlit
# reruns on it, as after Back or Forward (its frontend listens for "popstate"; the app reads the
# link as the whole state of its page). No new tab, no scripts parsed, no new session.
_FOLLOW_JS = """(url) => {
  history.pushState(null, '', url);
  window.dispatchEvent(new PopStateEvent('popstate', {state: null}));
}"""
# A quick run can start and end within one frame of React's, so the run state on the app's
# root may never show it; what always shows it is the server's reply. A tab that follows links
# counts the messages its websocket receives (installed before the app's own scripts).
_COUNT_REPLIES_JS = """(() => {
  const Native = window.WebSocket;
  window.__replies = 0;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => { window.__replies += 1; });
    }
  };
})();"""
_REPLIES_JS = "() => window.__replies"
_TOP_JS = """() => { for (const el of document.querySelectorAll('[data-testid="stMain"]'))
  el.scrollTop = 0; window.scrollTo(0, 0); }"""


def link_tab(context, url: str):
    """A new tab of ``context`` showing the app at ``url``, ready to follow links in place."""
    tab = context.new_page()
    tab.add_init_script(_COUNT_REPLIES_JS)
    open_page(tab, url)
    return tab


def follow_link(page, url: str) -> None:
    """Show ``url`` in a :func:`link_tab`, as Back or Forward to it would, and wait for the
    whole page, scrolled to its top."""
    before = page.evaluate(_REPLIES_JS)
    assert before is not None, "follow_link needs a tab opened by link_tab"
    page.evaluate(_FOLLOW_JS, url)
    replies = wait_for(page, lambda p: p.evaluate(_REPLIES_JS), lambda n: n > before)
    assert replies > before, f"the server did not answer the link {url}"
    wait_ready(page)
    page.evaluate(_TOP_JS)
