"""Browser timings in Debian's Chromium: cold start, and slider change to updated heatmap.

Run: python bench/bench_browser.py [--moves 20]
Cold start: from launching `streamlit run` to the Playground's formula rendered in a page
(Chromium already running). Slider: from the key press on the d_out slider to the new
context vector on screen, median over the moves.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.e2e.server import start_server, stop_server

ROOT = Path(__file__).resolve().parents[1]
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FORMULA = "() => document.querySelector('.katex-mathml annotation')?.textContent || ''"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=20)
    moves = parser.parse_args().moves
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        start = time.perf_counter()
        server, url = start_server()
        try:
            page.goto(url)
            page.wait_for_function(f"() => ({FORMULA})().includes('aligned')", timeout=60_000)
            cold = time.perf_counter() - start
            print(f"cold start, streamlit run -> Playground rendered: {cold:.2f} s")
            slider = page.locator('[data-testid="stSlider"]').filter(has_text="d_out")
            slider.get_by_role("slider").focus()
            latencies = []
            for step in range(moves):
                before = page.evaluate(FORMULA)
                t0 = time.perf_counter()
                page.keyboard.press("ArrowRight" if step % 2 == 0 else "ArrowLeft")
                page.wait_for_function(
                    f"before => ({FORMULA})() !== before", arg=before, timeout=30_000, polling="raf"
                )
                latencies.append((time.perf_counter() - t0) * 1000)
            ordered = sorted(latencies)
            print(
                f"slider -> updated numbers ({moves} moves): median "
                f"{statistics.median(latencies):.0f} ms, p95 "
                f"{ordered[round(0.95 * (len(ordered) - 1))]:.0f} ms"
            )
        finally:
            stop_server(server)
            browser.close()


if __name__ == "__main__":
    main()
