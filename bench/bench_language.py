"""What the translation costs: the Playground in English and in Chinese, and the baseline page.

Run: python bench/bench_language.py [--rounds 3] [--moves 20] [--edits 8]

Three servers, started the same way from the repository root (so with the same
.streamlit/config.toml), are measured in turn for ``--rounds`` rounds: the app opened in
English, the app opened with ``?lang=zh_CN``, and ``bench/baseline_app.py``. Each round is
``bench_interactions.measure``: slider → numbers and cell edit → numbers in Chromium at
1280 × 720, and the server's CPU per change. Reported: the medians of the rounds' medians, and
the ratios Chinese / English and English / baseline from the same run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_interactions import measure  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

RUNS = {"English": ("app", ""), "Chinese": ("app", "?lang=zh_CN"), "baseline": ("baseline", "")}
MEASURES = (
    ("slider_median", "slider → numbers, median ms"),
    ("slider_all_page", "slider → every chart updated, in page time, median ms"),
    ("edit_median", "cell edit → numbers, median ms"),
    ("cpu_slider", "server CPU per slider change, ms"),
    ("cpu_edit", "server CPU per cell edit, ms"),
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--edits", type=int, default=8)
    args = parser.parse_args()
    results: dict[str, list[dict[str, float]]] = {name: [] for name in RUNS}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _round in range(args.rounds):
            for name, (server, query) in RUNS.items():
                results[name].append(measure(browser, server, args.moves, args.edits, query))
        browser.close()
    medians = {
        name: {key: statistics.median(r[key] for r in rounds) for key, _label in MEASURES}
        for name, rounds in results.items()
    }
    english, chinese, base = medians["English"], medians["Chinese"], medians["baseline"]
    print("| measure | English | Chinese | baseline | Chinese / English | English / baseline |")
    print("| --- | --- | --- | --- | --- | --- |")
    for key, label in MEASURES:
        print(
            f"| {label} | {english[key]:.0f} | {chinese[key]:.0f} | {base[key]:.0f} "
            f"| {chinese[key] / english[key]:.2f}× | {english[key] / base[key]:.2f}× |"
        )
    kept = {name: sum(r["kept"] for r in rounds) for name, rounds in results.items()}
    print(f"\ncell edits kept: {kept} of {args.edits * args.rounds} each; rounds: {args.rounds}")


if __name__ == "__main__":
    main()
