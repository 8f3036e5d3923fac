"""One visit of a page in Chromium, measured: chart geometry and an axe-core audit.

Both checks read the same rendered page: the audit reaches each case once, by its link.
"""

from __future__ import annotations

import io
import time
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

import translation
from tests.e2e.screen import wait_for, wait_idle


def _axe_script() -> Path:
    """axe-core's script, as the axe-playwright-python package ships it (requirements-dev.txt):
    the README's test command installs it with everything else, so no audit is skipped."""
    try:
        import axe_playwright_python
    except ImportError:  # the tests say so where they need it
        return Path("axe-playwright-python is not installed")
    return Path(axe_playwright_python.__file__).with_name("axe.min.js")


AXE = _axe_script()

# Every chart's SVG, its text marks and the column that holds it (page coordinates).
CHART_GEOMETRY_JS = """
() => { const rows = [...document.querySelectorAll('[data-testid="stHorizontalBlock"]')];
return [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].map((chart) => {
  const svg = chart.querySelector('svg');
  const label = chart.getAttribute('aria-label') || '';
  if (!svg) return null;
  const box = (r) => ({l: r.left, t: r.top, r: r.right, b: r.bottom});
  const holder = chart.closest('[data-testid="stColumn"]')
    || chart.closest('[data-testid="stMainBlockContainer"]')
    || chart.closest('[data-testid="stSidebarUserContent"]') || document.body;
  const texts = [...svg.querySelectorAll('text')]
    .filter((t) => t.textContent.trim() && getComputedStyle(t).opacity !== '0')
    .map((t) => ({
      ...box(t.getBoundingClientRect()),
      text: t.textContent,
      tilted: /rotate\\((?!0[ ,)])/.test(t.getAttribute('transform') || ''),
    }));
  const heading = svg.querySelector('.role-title-text');
  const column = chart.closest('[data-testid="stColumn"]');
  return {
    title: label.slice(0, 80),
    svg: box(svg.getBoundingClientRect()),
    holder: box(holder.getBoundingClientRect()),
    texts,
    titleCut: [...svg.querySelectorAll('.role-title-text text')]
      .some((t) => t.textContent.includes('…')),
    // Cut by Vega's labelLimit: the app itself cuts labels only past 20 characters.
    labelsCut: [...svg.querySelectorAll('.role-axis-label text')]
      .map((t) => t.textContent).filter((t) => t.endsWith('…') && t.length <= 20),
    // How tall its title is drawn, and the row of columns it heads, if any.
    titleHeight: heading ? heading.getBoundingClientRect().height : 0,
    row: column && column.querySelector('[data-testid="stVegaLiteChart"]') === chart
      ? rows.indexOf(column.closest('[data-testid="stHorizontalBlock"]')) : -1,
  };
}).filter(Boolean); }
"""

# Every formula KaTeX drew: how far its drawing reaches and the column that holds it. KaTeX
# never wraps; a display wider than its column is cut at the column's edge (it scrolls).
FORMULA_GEOMETRY_JS = """
() => [...document.querySelectorAll('.katex-display')].map((display) => {
  const drawn = display.querySelector('.katex-html').getBoundingClientRect();
  const holder = display.closest('[data-testid="stColumn"]')
    || display.closest('[data-testid="stMainBlockContainer"]') || document.body;
  return {
    tex: (display.querySelector('annotation') || {}).textContent?.slice(0, 80) || '',
    right: drawn.right,
    holder: holder.getBoundingClientRect().right,
    hidden: display.scrollWidth - display.clientWidth,
  };
})
"""

# Every Markdown table that runs past its column (its wrapper then scrolls sideways).
WIDE_TABLES_JS = """
() => [...document.querySelectorAll('[data-testid="stMarkdownContainer"] table')].filter((t) => {
  const holder = t.closest('[data-testid="stColumn"]')
    || t.closest('[data-testid="stMainBlockContainer"]') || document.body;
  const wrapper = t.parentElement;
  return t.getBoundingClientRect().right > holder.getBoundingClientRect().right + 1
    || wrapper.scrollWidth > wrapper.clientWidth + 1;
}).map((t) => t.rows[0].innerText.replace(/\\s+/g, ' ').slice(0, 60))
"""

# Every metric label cut short with "…" (Streamlit ellipsises a label wider than its column).
CUT_LABELS_JS = """
() => [...document.querySelectorAll('[data-testid="stMetricLabel"] *')]
  .filter((e) => getComputedStyle(e).textOverflow === 'ellipsis'
    && e.scrollWidth > e.clientWidth + 1)
  .map((e) => e.innerText.slice(0, 60))
"""


# Every visible text outside charts and formulas smaller than ``least`` px: [size, text, where].
SMALL_TEXT_JS = """(least) => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/[\\u200b\\s]/g, '');
    const element = node.parentElement;
    if (!text || !element || element.closest('svg, .katex, .sr-only')) continue;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (!box.width || !box.height || style.visibility === 'hidden') continue;
    const size = parseFloat(style.fontSize);
    const where = element.closest('[data-testid]');
    if (size < least) small.push([size, text.slice(0, 30), where ? where.dataset.testid : '']);
  }
  // What a select box, a number box or a text field shows is its input's value, not text.
  const fields = 'input[type="text"], input[type="number"], textarea';
  for (const field of document.querySelectorAll(fields)) {
    const box = field.getBoundingClientRect();
    const size = parseFloat(getComputedStyle(field).fontSize);
    if (field.value && box.width && box.height && size < least)
      small.push([size, field.value.slice(0, 30), field.getAttribute('aria-label') || '']);
  }
  return small;
}"""

# Headings of the main column whose last line holds one character alone (a Chinese heading
# broken before its last character): [heading, last line].
LONE_LAST_LINE_JS = """() => {
  const found = [];
  for (const heading of document.querySelectorAll('[data-testid="stMain"] :is(h1, h2, h3, h4)')) {
    const lines = [];
    const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getBoundingClientRect();
        if (!box.width || !node.data[i].trim()) continue;
        const line = lines.find((l) => Math.abs(l.top - box.top) < box.height / 2);
        if (line) line.text += node.data[i]; else lines.push({ top: box.top, text: node.data[i] });
      }
    }
    lines.sort((a, b) => a.top - b.top);
    if (lines.length > 1 && [...lines[lines.length - 1].text].length === 1)
      found.push([heading.textContent.trim().slice(0, 40), lines[lines.length - 1].text]);
  }
  return found;
}"""


def lone_last_lines(page) -> list[list[str]]:
    """Headings of the main column that leave one character alone on their last line."""
    return page.evaluate(LONE_LAST_LINE_JS)


def small_text(page, least: int) -> list[list]:
    """Visible text outside charts and formulas under ``least`` pixels: [size, text, where]."""
    return page.evaluate(SMALL_TEXT_JS, least)


# What reaches past the screen's right edge, or past its column's, outside a box that scrolls
# (a box within the screen): "where +px: text". KaTeX's hidden MathML copy, what is visually
# hidden for screen readers and the grid's own layers are left out; the grid is measured.
EDGES_JS = """() => {
  const W = document.documentElement.clientWidth;
  const scroller = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (/(auto|scroll)/.test(s.overflowX) && p.scrollWidth > p.clientWidth + 1) return p;
    }
    return null;
  };
  const out = [];
  for (const el of document.querySelectorAll('[data-testid="stMainBlockContainer"] *')) {
    if ((el.closest('svg') && el.tagName !== 'svg') || el.closest('.katex-mathml')) continue;
    // Visually hidden for screen readers (a slider's range input, the live region).
    if (el.closest('[style*="clip-path: inset(50%)"], .sr-only')) continue;
    if (el.closest('[data-testid="stDataFrameResizable"] *')) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const holder = el.parentElement.closest('[data-testid="stColumn"], '
      + '[data-testid="stMainBlockContainer"], [data-testid="stExpanderDetails"]');
    const limit = Math.min(W, holder ? holder.getBoundingClientRect().right : W);
    if (r.right <= limit + 1) continue;
    const box = scroller(el);
    if (box && box.getBoundingClientRect().right <= limit + 1) continue;
    const where = el.closest('[data-testid]');
    out.push(`${where ? where.dataset.testid : el.tagName} +${Math.round(r.right - limit)}px: `
      + (el.innerText || el.textContent || '').replace(/\\s+/g, ' ').slice(0, 40));
  }
  return [...new Set(out)].slice(0, 5);
}"""

# Every box that scrolls sideways and fails to say so: it must take the keyboard's focus (or
# hold controls that do, as a row of tabs) and fade the edge that has more to see. The
# grid's own scroller draws its own scroll bars.
SCROLL_BOXES_JS = """() => {
  const problems = [];
  const boxes = [...document.querySelectorAll('[data-testid="stMainBlockContainer"] *')]
    .filter((el) => /(auto|scroll)/.test(getComputedStyle(el).overflowX)
      && el.scrollWidth > el.clientWidth + 2 && el.clientWidth > 0 && !el.closest('.dvn-scroller'));
  for (const box of boxes) {
    const where = (box.closest('[data-testid]') || box).dataset.testid || box.className;
    box.focus();
    const focusable = document.activeElement === box
      || box.querySelector('button, a[href], input, [tabindex="0"]') !== null;
    if (!focusable) problems.push(`${where}: the keyboard cannot reach it`);
    if (parseFloat(getComputedStyle(box).getPropertyValue('--fade-right')) <= 0)
      problems.push(`${where}: nothing shows that it scrolls`);
  }
  document.activeElement && document.activeElement.blur();
  return problems;
}"""


@dataclass
class Visit:
    """What one page showed: its charts' geometry and axe's violations."""

    url: str
    charts: list[dict] = field(default_factory=list)
    formulas: list[dict] = field(default_factory=list)
    wide_tables: list[str] = field(default_factory=list)
    cut_labels: list[str] = field(default_factory=list)
    chart_text: list[tuple[str, str]] = field(default_factory=list)  # (text, fill) of labels
    violations: list[dict] = field(default_factory=list)
    weights_box: dict | None = None
    exceptions: int = 0
    edges: list[str] = field(default_factory=list)  # past the screen or the column
    scroll_boxes: list[str] = field(default_factory=list)  # scrolling without saying so
    small_text: list[list] = field(default_factory=list)  # under 14 px (phone and tablet)
    cut_plots: list[str] = field(default_factory=list)  # 3D plots drawn up to their edge


# Every axis and legend label and title, and chart title, drawn on the page's background.
CHART_TEXT_JS = """() => [...document.querySelectorAll(
    '[data-testid=stVegaLiteChart] :is(.role-axis-label, .role-axis-title, .role-legend-label,'
    + ' .role-legend-title, .role-title-text) text')]
    .map(t => [t.textContent, t.getAttribute('fill')])"""


# Two frames: what a resized window lays out again is drawn by then.
TWO_FRAMES_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def resized(page, width: int, height: int, run_axe: bool = False) -> Visit:
    """The open page measured again at another window size (its layout follows the size;
    no new session, no new run)."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(TWO_FRAMES_JS)
    wait_idle(page)
    return measure(page, page.url, run_axe)


def measure(page, url: str, run_axe: bool) -> Visit:
    """Every measurement of the page as it is now drawn."""
    result = Visit(url)
    result.exceptions = page.locator('[data-testid="stException"]').count()
    result.charts = page.evaluate(CHART_GEOMETRY_JS)
    result.formulas = page.evaluate(FORMULA_GEOMETRY_JS)
    result.wide_tables = page.evaluate(WIDE_TABLES_JS)
    result.cut_labels = page.evaluate(CUT_LABELS_JS)
    result.chart_text = [tuple(pair) for pair in page.evaluate(CHART_TEXT_JS)]
    result.edges = page.evaluate(EDGES_JS)
    result.scroll_boxes = page.evaluate(SCROLL_BOXES_JS)
    result.small_text = page.evaluate(SMALL_TEXT_JS, 14)
    # The Playground's weights, by their text alternative's start in any of the app's languages.
    weights = page.locator(
        ", ".join(
            f'[data-testid="stVegaLiteChart"][aria-label^="{start}"] svg' for start in WEIGHTS_START
        )
    )
    if weights.count():
        result.weights_box = weights.first.bounding_box()
    result.cut_plots = cut_plots(page)  # last: a screenshot scrolls the plot into view
    if run_axe:
        page.add_script_tag(path=str(AXE))
        report = page.evaluate(
            "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
            " return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
            " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)})); }"
        )
        result.violations = report
    return result


def overlapping(texts: list[dict], slack: float = 0.5) -> list[tuple[str, str]]:
    """Pairs of upright text marks whose boxes overlap by more than ``slack`` pixels."""
    upright = [t for t in texts if not t["tilted"]]
    pairs = []
    for i, first in enumerate(upright):
        for second in upright[i + 1 :]:
            if _same_place(first, second):  # a word drawn on its own halo (Flow's arrows)
                continue
            width = min(first["r"], second["r"]) - max(first["l"], second["l"])
            height = min(first["b"], second["b"]) - max(first["t"], second["t"])
            if width > slack and height > slack:
                pairs.append((first["text"], second["text"]))
    return pairs


def _same_place(first: dict, second: dict, slack: float = 1.0) -> bool:
    """The same text in the same box: one word drawn twice, its white outline under it."""
    return first["text"] == second["text"] and all(
        abs(first[side] - second[side]) <= slack for side in ("l", "t", "r", "b")
    )


# How the weights heatmap's text alternative starts, in each language ("Attention weights, ").
WEIGHTS_START = sorted(
    text.split("{")[0]
    for text in translation.every_language(
        "Attention weights, {count} queries × {count} keys, {rows_sum}."
    )
)


def clipped(chart: dict, slack: float = 1.0) -> list[str]:
    """Text marks that reach outside their chart's SVG."""
    svg = chart["svg"]
    return [
        t["text"]
        for t in chart["texts"]
        if t["l"] < svg["l"] - slack
        or t["r"] > svg["r"] + slack
        or t["t"] < svg["t"] - slack
        or t["b"] > svg["b"] + slack
    ]


def too_wide(chart: dict, slack: float = 1.0) -> bool:
    """True when the chart is wider than the column that holds it."""
    return chart["svg"]["r"] > chart["holder"]["r"] + slack


def cut_formulas(formulas: list[dict], slack: float = 3.0) -> list[str]:
    """Formulas drawn past their column or partly hidden in a scroll (KaTeX's own rounding
    leaves up to 2 px, hence the slack)."""
    return [f["tex"] for f in formulas if f["right"] > f["holder"] + slack or f["hidden"] > slack]


def misaligned(charts: list[dict], slack: float = 1.0) -> list[str]:
    """Charts heading the columns of one row, their SVGs level, whose titles take different
    heights: one title on two lines and the next on one start their plots at different
    heights (issue 39, item 9)."""
    level: list[list[dict]] = []
    heads = sorted((c for c in charts if c["row"] >= 0), key=lambda c: (c["row"], c["svg"]["t"]))
    for chart in heads:
        last = level[-1][-1] if level else None
        if last and last["row"] == chart["row"] and chart["svg"]["t"] - last["svg"]["t"] <= slack:
            level[-1].append(chart)
        else:
            level.append([chart])
    return [
        ", ".join(f"{c['title'][:30]!r}: {c['titleHeight']:.0f} px" for c in row)
        for row in level
        if max(c["titleHeight"] for c in row) - min(c["titleHeight"] for c in row) > slack
    ]


# Plotly draws a 3D plot on a canvas (no text to measure): what it draws is read from a
# screenshot. Ink is a pixel darker than the plot's light grid lines.
PLOT = ".js-plotly-plot"
EDGE = 3  # pixels along each side that must stay blank
SIDES = ("left", "right", "top", "bottom")
INK = 200


def _ink(image, box: tuple[int, int, int, int]) -> int:
    rgb = image.crop(box).tobytes()
    return sum(1 for i in range(0, len(rgb), 3) if min(rgb[i : i + 3]) < INK)


def _plot_ink(plot) -> dict[str, int]:
    """How many inked pixels a plot shows in all, and along each of its four sides."""
    image = Image.open(io.BytesIO(plot.screenshot())).convert("RGB")
    width, height = image.size
    return {
        "all": _ink(image, (0, 0, width, height)),
        "left": _ink(image, (0, 0, EDGE, height)),
        "right": _ink(image, (width - EDGE, 0, width, height)),
        "top": _ink(image, (0, 0, width, EDGE)),
        "bottom": _ink(image, (0, height - EDGE, width, height)),
    }


def cut_plots(page) -> list[str]:
    """Every 3D plot drawn up to one of its sides, where its edge cuts what it draws (issue
    39, item 8: page 1's "d3" title was cut at the left at 1280 x 720)."""
    problems = []
    for plot in page.locator(PLOT).all():
        # WebGL draws after the element arrives: wait for the arrows and the axes.
        ink = wait_for(page, lambda _p, plot=plot: _plot_ink(plot), lambda i: i["all"] > 500)
        assert ink["all"] > 500, f"the 3D plot was not drawn: {ink}"
        problems += [f"the 3D plot is cut at its {side}" for side in SIDES if ink[side]]
    return problems


# Every text a chart draws (numbers, labels, axis and legend titles, the chart's title; with
# ``marks`` false, not the numbers in its cells) whose size on the screen, its font times the
# SVG's drawn scale, is under ``least`` pixels.
SMALL_CHART_TEXT_JS = """([least, marks]) => {
  const small = [];
  const main = document.querySelector('[data-testid="stMainBlockContainer"]');
  for (const svg of main.querySelectorAll('[data-testid="stVegaLiteChart"] svg')) {
    const scale = svg.getBoundingClientRect().width / (svg.width.baseVal.value || 1);
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent.trim() || getComputedStyle(t).opacity === '0') continue;
      if (!marks && t.closest('.role-mark')) continue;
      const size = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (size < least - 0.05) small.push(`${size.toFixed(1)} px ${t.textContent.slice(0, 20)}`);
    }
  }
  return [...new Set(small)].slice(0, 5);
}"""


def small_chart_text(page, least: int, marks: bool = True) -> list[str]:
    """The chart texts drawn under ``least`` pixels on the screen (issue 53: titles, axes and
    legends 12 px everywhere; on a phone every text 14, a cell's number included)."""
    return page.evaluate(SMALL_CHART_TEXT_JS, [least, marks])


# Projected (issue 52), at each projector's size: every number a chart prints and its size on
# the screen (its font times the SVG's drawn scale), the teacher's line, the page's main
# result (its first chart, 3D plot, formula or table), Flow's stage sentence, and the first
# two charts' boxes (side by side or not).
PROJECTOR_JS = """() => {
  const main = document.querySelector('[data-testid="stMainBlockContainer"]');
  const box = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return {t: r.top, b: r.bottom, l: r.left, r: r.right};
  };
  const small = [];
  const charts = [...main.querySelectorAll('[data-testid="stVegaLiteChart"] svg')];
  for (const svg of charts) {
    const scale = svg.getBoundingClientRect().width / (svg.width.baseVal.value || 1);
    for (const t of svg.querySelectorAll('text')) {
      if (!/[0-9]/.test(t.textContent) || getComputedStyle(t).opacity === '0') continue;
      const size = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (size < 15.95) small.push(`${size.toFixed(1)} px ${t.textContent.slice(0, 20)}`);
    }
  }
  // Charts drawn wider than their column or their own box (a scroll box's hidden part).
  const wide = [];
  for (const svg of charts) {
    const chart = svg.closest('[data-testid="stVegaLiteChart"]');
    const holder = chart.closest('[data-testid="stColumn"]') || main;
    const right = Math.min(
      chart.getBoundingClientRect().right, holder.getBoundingClientRect().right);
    const past = svg.getBoundingClientRect().right - right;
    const name = (chart.getAttribute('aria-label') || '').slice(0, 40);
    if (past > 1) wide.push(`${name}: ${past.toFixed(0)} px`);
  }
  const result = main.querySelector('[data-testid="stVegaLiteChart"] svg, .js-plotly-plot, '
    + '.katex-display, [data-testid="stMarkdownContainer"] table');
  return {
    height: window.innerHeight,
    small: [...new Set(small)].slice(0, 5),
    wide,
    sideways: document.documentElement.scrollWidth - window.innerWidth,
    widths: charts.map((svg) => svg.getBoundingClientRect().width),
    fitted: main.querySelectorAll('[data-testid="stVegaLiteChart"].fit-x').length,
    pointer: box(main.querySelector('.st-key-pointer')),
    result: box(result),
    stage: box(main.querySelector('.st-key-flow_stage_text')),
    pair: charts.slice(0, 2).map(box),
  };
}"""

PROJECTORS = ((1280, 720), (1024, 768), (1920, 1080))


def projected(page, width: int, height: int) -> dict:
    """The open page's projector measurements at another window size: a resize lays the page
    out again by its CSS alone (no script run); a chart as wide as its column (``fit-x``) is
    drawn again for the new width by its own script (a resize observer's throttle later), so
    then the measure is taken once the charts' widths have held for a quarter of a second (or
    after 5 s)."""
    if page.viewport_size == {"width": width, "height": height}:
        return page.evaluate(PROJECTOR_JS)
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(TWO_FRAMES_JS)
    found = page.evaluate(PROJECTOR_JS)
    if not found["fitted"]:  # every chart drawn at its own width: nothing more to wait for
        return found
    since = time.monotonic()
    deadline = since + 5.0
    while time.monotonic() < deadline:
        page.evaluate(TWO_FRAMES_JS)
        again = page.evaluate(PROJECTOR_JS)
        if again["widths"] != found["widths"]:
            since = time.monotonic()
        elif time.monotonic() - since >= 0.25:
            return again
        found = again
    return found


def first_screen(found: dict, parts: tuple[str, ...]) -> list[str]:
    """The named boxes that are missing or not wholly inside the first screen."""
    problems = []
    for part in parts:
        where = found[part]
        if where is None:
            problems.append(f"no {part}")
        elif where["t"] < 0 or where["b"] > found["height"] + 1:
            problems.append(f"the {part} lies at {where['t']:.0f}..{where['b']:.0f} px")
    return problems


def side_by_side(found: dict) -> bool:
    """Whether the page's first two charts share a row."""
    pair = found["pair"]
    return len(pair) == 2 and abs(pair[0]["t"] - pair[1]["t"]) <= 1 and pair[1]["l"] >= pair[0]["r"]


def menu_problems(page, count: int) -> list[str]:
    """The Pages menu's links and the Class menu's controls that reach past the screen's
    bottom; each menu is opened by its button and closed with Escape."""
    problems = []
    page.locator(".st-key-page_menu button").first.click()
    links = page.locator('[data-testid="stPopoverBody"] [data-testid="stPageLink"] a')
    wait_for(page, lambda _p: links.count(), count.__eq__)
    problems += _past_the_bottom(page, '[data-testid="stPopoverBody"] a', "Pages")
    page.keyboard.press("Escape")
    page.locator(".st-key-class_menu button").first.click()
    controls = page.locator('[role="dialog"] :is(button, input, summary)')
    wait_for(page, lambda _p: controls.count(), (0).__lt__)
    problems += _past_the_bottom(page, '[role="dialog"] :is(button, input, summary)', "Class")
    page.keyboard.press("Escape")
    wait_for(page, lambda _p: page.locator('[role="dialog"]').count(), (0).__eq__)
    return problems


# The sidebar's boxes whose value is cut (a text box scrolls its value: wider than the box).
CUT_BOXES_JS = """() => [...document.querySelectorAll('[data-testid="stSidebar"] input')]
  .filter((i) => i.type !== 'checkbox' && i.scrollWidth > i.clientWidth + 1)
  .map((i) => `${i.getAttribute('aria-label') || ''}: ${i.value.slice(0, 40)}`)"""
SIDEBAR_JS = """() => {
  const bar = document.querySelector('[data-testid="stSidebar"]');
  return bar ? [bar.getAttribute('data-collapsed'), Math.round(bar.getBoundingClientRect().left)]
    : null;
}"""


def sidebar_problems(page) -> list[str]:
    """Projected, the sidebar opened by its arrow: the boxes that cut their value at each
    projector size (the example sentence's was cut at all three); folded again after."""
    page.locator('[data-testid="stExpandSidebarButton"]').click()
    opened = wait_for(page, lambda p: p.evaluate(SIDEBAR_JS), ["false", 0].__eq__)  # slid in
    inputs = page.locator('[data-testid="stSidebar"] input')
    if opened != ["false", 0] or not wait_for(page, lambda _p: inputs.count(), (0).__lt__):
        return [f"the sidebar did not open with its boxes: {opened}"]
    problems = []
    for width, height in PROJECTORS:
        projected(page, width, height)
        problems += [
            f"{width}×{height}: the sidebar's box {text!r} is cut"
            for text in page.evaluate(CUT_BOXES_JS)
        ]
    projected(page, *PROJECTORS[0])
    page.locator('[data-testid="stSidebar"]').hover()  # its arrow shows on hover
    page.locator('[data-testid="stSidebarCollapseButton"] button').click()
    folded = wait_for(page, lambda p: p.evaluate(SIDEBAR_JS), lambda bar: bar[0] == "true")
    return problems + ([] if folded[0] == "true" else ["the sidebar did not fold again"])


# The title row's menus scrolled just under the app's header, while the header shows what a
# run shows there (Streamlit's toolbar with its status, as wide as the bar): which of the
# menus' buttons a click at its middle misses. A run once took every click of the Pages
# button so for 30 s (the header's bar is transparent wider than a tablet: the button shows).
UNDER_HEADER_JS = """() => {
  const header = document.querySelector('[data-testid="stHeader"]');
  const main = document.querySelector('[data-testid="stMain"]');
  // Streamlit styles its toolbar by one class (pointer-events: auto): so is this one.
  const style = document.createElement('style');
  style.textContent = '.audit-toolbar { position: absolute; inset: 0; pointer-events: auto; }';
  document.head.appendChild(style);
  const bar = document.createElement('div');
  bar.className = 'audit-toolbar';
  header.appendChild(bar);
  const keys = ['page_menu', 'language_menu', 'class_menu'];
  const first = document.querySelector('.st-key-page_menu button').getBoundingClientRect();
  const was = main.scrollTop;
  main.scrollTop = was + first.top + first.height / 2 - header.getBoundingClientRect().bottom / 2;
  const missed = keys.filter((key) => {
    const button = document.querySelector(`.st-key-${key} button`);
    if (!button) return false;
    const box = button.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return !(hit && button.contains(hit));
  });
  bar.remove();
  style.remove();
  main.scrollTop = was;
  return missed;
}"""


def header_problems(page) -> list[str]:
    """The title row's menus that a click misses once scrolled under the header."""
    return [f"the header takes the click of {key}" for key in page.evaluate(UNDER_HEADER_JS)]


def _past_the_bottom(page, selector: str, menu: str) -> list[str]:
    return [
        f"the {menu} menu's {text!r} ends at {bottom:.0f} px"
        for text, bottom in page.evaluate(
            """(selector) => [...document.querySelectorAll(selector)]
              .map(e => [e.innerText.trim().slice(0, 30), e.getBoundingClientRect().bottom])
              .filter(([, bottom]) => bottom > window.innerHeight)""",
            selector,
        )
    ]
