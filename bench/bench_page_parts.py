"""Where the slider's time goes in the browser: the Playground with parts of the page left out.

Run: python bench/bench_page_parts.py [--moves 16] [--rounds 2]

Each variant is a copy of the repository (its tracked files, in a temporary directory) with
one part of the Playground left out or changed by a small edit to the copy (the context
formula, the focused row's bars, the page links' redraw, the matrix editor, or the second
run a change costs); the repository itself is not touched. Every variant and the baseline
page are measured side by side in one run, in turn for ``--rounds`` rounds (medians of the
rounds' medians), the same way as ``bench_interactions.py``: from the d_out slider's arrow
key to the numbers printed in the charts changing, in Chromium at 1280 × 720. Also reported,
because it is much steadier than a latency on a noisy machine: the tab's main-thread work
per change (Chromium's Performance metrics: all tasks, and the script part of them), and
how many websocket messages (one per element or block, about) the browser received. An edit
that no longer applies (the code moved) stops the bench with the file and the text it looked
for (``tests/deploy/test_bench_variants.py`` checks that every edit still applies).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_interactions import CHART_TEXT, until_changed  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.e2e.screen import wait_idle  # noqa: E402
from tests.e2e.server import start_server, stop_server  # noqa: E402

# Each edit: (file, text, replacement), applied once to a copy of the repository.
NO_FORMULA = (
    "ui/blocks/focus_panel.py",
    "        st.latex(formulas.context_latex(page, trace, head, formulas.COLUMN_WIDTH))\n",
    "        pass\n",
)
NO_BARS = (
    "ui/blocks/focus_panel.py",
    '        st.vega_lite_chart(spec=vega_spec(spec), key="focus_bars", width="stretch")\n',
    "        pass\n",
)
LINKS_NOT_REDRAWN = (
    "ui/session/controls.py",
    "st.rerun([VIEWS, *redraw, NAV])",
    "st.rerun([VIEWS, *redraw])",
)
NO_EDITOR = (
    "streamlit_app.py",
    "if beside:",
    "if False:",
)
NO_EDITOR_BELOW = (
    "streamlit_app.py",
    '    with st.expander(_("Embedding matrix (edit me)"), expanded=not page.present):\n'
    "        show_matrix_editor(page)\n    show_glove_import(page)\n",
    "",
)
# One run per change instead of two: the d_out slider drawn by the views fragment (at the
# foot of the sidebar, not among the front knobs), so that its change reruns the views
# directly, with no callback asking for a second run (the heads' choices and the page links
# are then left stale).
ONE_RUN = (
    (
        "ui/session/controls.py",
        "                for name in names:\n                    _WIDGETS[name]()\n",
        "                for name in names:\n"
        '                    if name != "d_out":\n                        _WIDGETS[name]()\n',
    ),
    (
        "ui/session/controls.py",
        '    page = None if config.get_option("global.appTest") else _scoped_page()\n',
        '    if name == "d_out" and state.recall(SCOPED_PAGE) is not None:\n        return\n'
        '    page = None if config.get_option("global.appTest") else _scoped_page()\n',
    ),
    (
        "streamlit_app.py",
        "link = page_frame.link_slot()\n",
        "with st.sidebar:\n    d_out_slot = st.container()\nlink = page_frame.link_slot()\n",
    ),
    (
        "streamlit_app.py",
        "    trace = page.trace\n    with frame.chart:",
        "    with d_out_slot:\n        controls.widget('d_out', page.settings)\n"
        "    trace = page.trace\n    with frame.chart:",
    ),
)

VARIANTS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "Playground (everything)": (),
    "without the context formula (KaTeX)": (NO_FORMULA,),
    "without the focused row's bars": (NO_BARS,),
    "page links not redrawn (left stale)": (LINKS_NOT_REDRAWN,),
    "without the matrix editor": (NO_EDITOR, NO_EDITOR_BELOW),
    "one run per change instead of two": ONE_RUN,
}
# Main-thread time in the tab, from Chromium's Performance domain (seconds, cumulative).
WORK = ("TaskDuration", "ScriptDuration")


def make_copy(edits: tuple[tuple[str, str, str], ...], base: Path) -> Path:
    """A copy of the repository's tracked files with ``edits`` applied."""
    target = Path(tempfile.mkdtemp(dir=base))
    tracked = (
        subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, tracked):
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target / name)
    for file, old, new in edits:
        text = (target / file).read_text()
        if old not in text:
            raise SystemExit(f"{file}: the text this variant removes is gone:\n{old}")
        (target / file).write_text(text.replace(old, new, 1))
    return target


def slider_changes(root: Path, script: str, moves: int, browser) -> dict[str, float]:
    """Medians over ``moves`` d_out changes: key → numbers (ms), the tab's main-thread work
    per change (ms, all of it: also what is drawn after the numbers) and messages."""
    process, url = start_server(script, root=root)
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        frames = [0]
        page.on(
            "websocket",
            lambda ws: ws.on("framereceived", lambda _: frames.__setitem__(0, frames[0] + 1)),
        )
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        page.goto(url)
        page.wait_for_selector('[data-testid="stVegaLiteChart"] svg text', timeout=60_000)
        wait_idle(page)
        slider = page.locator('[data-testid="stSlider"]').filter(has_text="d_out")
        slider.get_by_role("slider").focus()
        latencies, messages, work = [], [], {name: [] for name in WORK}
        for step in range(moves + 1):  # the first change reruns the whole page: not counted
            before = page.evaluate(CHART_TEXT)
            frames[0] = 0
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            start = time.perf_counter()
            page.keyboard.press("ArrowRight" if step % 2 == 0 else "ArrowLeft")
            pressed = time.perf_counter() - start
            elapsed = until_changed(page, before)
            page.wait_for_timeout(400)  # let the tab finish drawing before reading its work
            wait_idle(page)
            after = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            if step == 0:
                continue
            if elapsed is not None:
                latencies.append((pressed + elapsed) * 1000)  # from before the key
            messages.append(frames[0])
            for name in WORK:
                work[name].append((after[name] - metrics[name]) * 1000)
        context.close()
    finally:
        stop_server(process)
    return {
        "latency": statistics.median(latencies),
        "messages": statistics.median(messages),
        **{name: statistics.median(values) for name, values in work.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2, help="variants measured in turn")
    args = parser.parse_args()
    names = [*VARIANTS, "baseline page"]
    results: dict[str, list[dict[str, float]]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        copies = {name: make_copy(edits, Path(base)) for name, edits in VARIANTS.items()}
        for _ in range(args.rounds):
            for name, root in copies.items():
                results[name].append(slider_changes(root, "streamlit_app.py", args.moves, browser))
            results["baseline page"].append(
                slider_changes(ROOT, "bench/baseline_app.py", args.moves, browser)
            )
        browser.close()

    def median(name: str, key: str) -> float:
        return statistics.median(run[key] for run in results[name])

    print(
        "| page | slider → numbers | ÷ baseline | main-thread work per change | of it script "
        "| ÷ baseline | messages per change |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in names:
        latency, task = median(name, "latency"), median(name, "TaskDuration")
        print(
            f"| {name} | {latency:.0f} ms | {latency / median('baseline page', 'latency'):.2f}× "
            f"| {task:.0f} ms | {median(name, 'ScriptDuration'):.0f} ms "
            f"| {task / median('baseline page', 'TaskDuration'):.2f}× "
            f"| {median(name, 'messages'):.0f} |"
        )


if __name__ == "__main__":
    main()
