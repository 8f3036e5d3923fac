"""One learner in Chromium: slider → numbers and cell edit → numbers, app vs baseline.

Run: python bench/bench_interactions.py [--moves 30] [--edits 12]

Both servers are started the same way from the repository root, so both run with the
repository's .streamlit/config.toml, and they are measured side by side in one run. Timing
starts at the key press that commits a change (the slider's arrow key, the Enter that closes
a cell's editor) and stops when the numbers printed in the charts change. Server CPU per
interaction is read from /proc for the server process. Reports medians and p95, the ratio to
the baseline, and how many cell edits were kept. For the slider it also times, in the page
from the keydown event, the first and the last chart change: "every chart" is when the whole
page has settled (a pause that drew the weights first, removed on 2026-11-28, made the two
differ).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.e2e.screen import wait_idle  # noqa: E402
from tests.e2e.server import start_server, stop_server  # noqa: E402

SERVERS = {"app": "streamlit_app.py", "baseline": "bench/baseline_app.py"}
CHART_TEXT = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg')]
  .map(s => [...s.querySelectorAll('text')].map(t => t.textContent).join(' ')).join('|')"""

# The first and the last chart change after a key press, timed in the page from the keydown
# event (without the key's trip from Playwright): the first chart to change and the last are
# reported apart, since what counts is the whole page settled.
RECORDER = f"""
window.__charts = {{key: null, first: null, last: null}};
document.addEventListener('keydown', () => {{
  window.__charts.key = performance.now();
  window.__charts.first = window.__charts.last = null; }}, true);
let shown = null;
const poll = () => {{
  const now = ({CHART_TEXT})();
  if (shown !== null && now !== shown) {{
    window.__charts.first ??= performance.now();
    window.__charts.last = performance.now();
  }}
  shown = now;
  requestAnimationFrame(poll);
}};
requestAnimationFrame(poll);
"""


def in_page(page) -> tuple[float, float] | None:
    """Milliseconds from the last key press to the first and to the last chart change, in
    page time (None: no chart changed)."""
    return page.evaluate(
        "(c => c.last === null ? null : [c.first - c.key, c.last - c.key])(window.__charts)"
    )


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def until_changed(page, before: str, timeout: float = 20.0) -> float | None:
    """Seconds until the charts' numbers differ from ``before`` (None: they never did)."""
    start = time.perf_counter()
    try:
        page.wait_for_function(
            f"before => ({CHART_TEXT})() !== before",
            arg=before,
            timeout=timeout * 1000,
            polling="raf",
        )
    except Exception:
        return None
    return time.perf_counter() - start


def slider_moves(page, moves: int) -> tuple[list[float], list[tuple[float, float]]]:
    slider = page.locator('[data-testid="stSlider"]').filter(has_text="d_out").get_by_role("slider")
    slider.focus()
    latencies, settled = [], []
    for step in range(moves):
        before = page.evaluate(CHART_TEXT)
        t0 = time.perf_counter()
        page.keyboard.press("ArrowRight" if step % 2 == 0 else "ArrowLeft")
        if until_changed(page, before) is not None:
            latencies.append((time.perf_counter() - t0) * 1000)
        wait_idle(page)
        settled.append(in_page(page))
    return latencies, [t for t in settled if t is not None]


def cell_edits(page, edits: int, first_column_x: int) -> tuple[list[float], int]:
    """Edit a different cell each time (rows 1-6, columns d1-d3); returns latencies, kept."""
    latencies, kept = [], 0
    for index in range(edits):
        row, column = index % 6, index % 3
        box = page.locator('[data-testid="stDataFrame"]').first.bounding_box()
        page.mouse.click(box["x"] + first_column_x, box["y"] + 35 + 17)
        time.sleep(0.3)
        for _ in range(row):
            page.keyboard.press("ArrowDown")
        for _ in range(column + 1):
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        cell = page.locator("#portal input, #portal textarea").first
        cell.wait_for(state="visible", timeout=5_000)
        cell.fill(f"{0.1 + 0.07 * index:.2f}")
        before = page.evaluate(CHART_TEXT)
        t0 = time.perf_counter()
        cell.press("Enter")
        if until_changed(page, before) is not None:
            latencies.append((time.perf_counter() - t0) * 1000)
            kept += 1
        wait_idle(page)
    return latencies, kept


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[round(0.95 * (len(ordered) - 1))] if ordered else float("nan")


def measure(browser, name: str, moves: int, edits: int, query: str = "") -> dict[str, float]:
    process, url = start_server(SERVERS[name])
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        page.add_init_script(RECORDER)
        page.goto(url + (query if name == "app" else ""))
        page.wait_for_selector('[data-testid="stVegaLiteChart"] svg text', timeout=60_000)
        wait_idle(page)
        cpu = cpu_seconds(process.pid)
        slides, slides_all = slider_moves(page, moves)
        cpu_slides = (cpu_seconds(process.pid) - cpu) / moves * 1000
        cpu = cpu_seconds(process.pid)
        edit_times, kept = cell_edits(page, edits, 60)
        cpu_edits = (cpu_seconds(process.pid) - cpu) / edits * 1000
        context.close()
    finally:
        stop_server(process)
    return {
        "slider_median": statistics.median(slides),
        "slider_p95": p95(slides),
        "slider_first_page": statistics.median([f for f, _ in slides_all] or [float("nan")]),
        "slider_all_page": statistics.median([a for _, a in slides_all] or [float("nan")]),
        "edit_median": statistics.median(edit_times) if edit_times else float("nan"),
        "edit_p95": p95(edit_times),
        "kept": kept,
        "cpu_slider": cpu_slides,
        "cpu_edit": cpu_edits,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--edits", type=int, default=12)
    parser.add_argument(
        "--app-query", default="", help="a link's query for the app, e.g. ?panel=scores"
    )
    args = parser.parse_args()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        results = {
            name: measure(browser, name, args.moves, args.edits, args.app_query) for name in SERVERS
        }
        browser.close()
    app, base = results["app"], results["baseline"]
    print("| measure | app | baseline | ratio |\n| --- | --- | --- | --- |")
    for key, label in (
        ("slider_median", "slider → numbers, median ms"),
        ("slider_p95", "slider → numbers, p95 ms"),
        ("slider_first_page", "slider → first chart updated, in page time, median ms"),
        ("slider_all_page", "slider → every chart updated, in page time, median ms"),
        ("edit_median", "cell edit → numbers, median ms"),
        ("edit_p95", "cell edit → numbers, p95 ms"),
        ("cpu_slider", "server CPU per slider change, ms"),
        ("cpu_edit", "server CPU per cell edit, ms"),
    ):
        print(f"| {label} | {app[key]:.0f} | {base[key]:.0f} | {app[key] / base[key]:.2f}× |")
    print(f"| cell edits kept | {app['kept']}/{args.edits} | {base['kept']}/{args.edits} | |")


if __name__ == "__main__":
    main()
