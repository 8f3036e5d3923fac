"""Where the slider's time goes in the browser: the Playground with parts of the page left out.

Run: python bench/bench_page_parts.py [--moves 16]

Each variant is a copy of the repository (its tracked files, in a temporary directory) with
one part of the Playground left out or changed by a small edit to the copy (page links that
never change, weight colours fixed from 0 to 1); the repository itself is not touched.
Every variant and the baseline page are measured side by side in one run, the same way as
``bench_interactions.py``: from the d_out slider's arrow key to the numbers printed in the
charts changing, in Chromium at 1280 × 720. Also reported: how many websocket messages
(one per element or block, about) the browser received per change. An edit that no longer
applies (the code moved) stops the bench with the file and the text it looked for.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_interactions import CHART_TEXT, until_changed  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.e2e.screen import wait_idle  # noqa: E402
from tests.e2e.server import start_server, stop_server  # noqa: E402

SAME_PAGE_LINKS = ("ui/controls.py", "query_params=links[page.key])", "query_params={})")
FIXED_COLOURS = (
    "attention_core/params.py",
    '"fitted",\n        "Weight colours"',
    '"fixed",\n        "Weight colours"',
)
NO_PAGE_LINKS = ("ui/controls.py", "        _navigation()\n", "")
ONLY_D_OUT = (
    "ui/controls.py",
    '        _navigation()\n        widget("present", settings)\n',
    '        widget("d_out", settings)\n        return\n',
)
NO_LINK_BLOCK = (
    "ui/views.py",
    "    with st.sidebar:\n        st.markdown(\n",
    "    if False:\n        st.markdown(\n",
)
NO_EDITOR = (
    "streamlit_app.py",
    "if beside:",
    "if False:",
)
NO_EDITOR_BELOW = (
    "streamlit_app.py",
    '    with st.expander("Embedding matrix (edit me)", expanded=not page.present):\n'
    "        show_matrix_editor(page)\n    show_glove_import(page)\n",
    "",
)
NO_SUMMARY_OR_TABS = (
    "streamlit_app.py",
    "    with summary:\n        st.markdown(sentences.summary(page, trace, head))\n"
    '    with tabs[open_tab]:\n        show_panel(page, head, PARAMS["panel"].choices[open_tab])\n',
    "",
)
NO_TABS = ("streamlit_app.py", 'tabs = controls.tabs("panel", page.settings)\n', "tabs = []\n")
MAIN_ONLY_WEIGHTS = (NO_EDITOR, NO_EDITOR_BELOW, NO_SUMMARY_OR_TABS, NO_TABS)

VARIANTS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "Playground (everything)": (),
    "page links identical on every run (no query)": (SAME_PAGE_LINKS,),
    "weight colours fixed 0–1 (the chart's spec never changes)": (FIXED_COLOURS,),
    "without the 13 page links": (NO_PAGE_LINKS,),
    "sidebar: only the d_out slider": (ONLY_D_OUT, NO_LINK_BLOCK),
    "main: only the header and the weights": MAIN_ONLY_WEIGHTS,
    "both: d_out, header and weights": (ONLY_D_OUT, NO_LINK_BLOCK, *MAIN_ONLY_WEIGHTS),
}


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


def slider_changes(root: Path, script: str, moves: int, browser) -> tuple[list[float], float]:
    """Latencies (ms) of ``moves`` d_out changes and the median messages per change."""
    process, url = start_server(script, root=root)
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        frames = [0]
        page.on(
            "websocket",
            lambda ws: ws.on("framereceived", lambda _: frames.__setitem__(0, frames[0] + 1)),
        )
        page.goto(url)
        page.wait_for_selector('[data-testid="stVegaLiteChart"] svg text', timeout=60_000)
        wait_idle(page)
        slider = page.locator('[data-testid="stSlider"]').filter(has_text="d_out")
        slider.get_by_role("slider").focus()
        latencies, messages = [], []
        for step in range(moves):
            before = page.evaluate(CHART_TEXT)
            frames[0] = 0
            page.keyboard.press("ArrowRight" if step % 2 == 0 else "ArrowLeft")
            elapsed = until_changed(page, before)
            if elapsed is not None:
                latencies.append(elapsed * 1000)
            wait_idle(page)
            messages.append(frames[0])
        context.close()
    finally:
        stop_server(process)
    return latencies, statistics.median(messages)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=16)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        rows = []
        for name, edits in VARIANTS.items():
            times, messages = slider_changes(
                make_copy(edits, Path(base)), "streamlit_app.py", args.moves, browser
            )
            rows.append((name, statistics.median(times), messages))
        times, messages = slider_changes(ROOT, "bench/baseline_app.py", args.moves, browser)
        rows.append(("baseline page", statistics.median(times), messages))
        browser.close()
    baseline = rows[-1][1]
    print("| page | slider → numbers, median | ratio to baseline | messages per change |")
    print("| --- | --- | --- | --- |")
    for name, median, messages in rows:
        print(f"| {name} | {median:.0f} ms | {median / baseline:.2f}× | {messages:.0f} |")


if __name__ == "__main__":
    main()
