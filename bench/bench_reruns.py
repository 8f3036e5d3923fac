"""Rerun time of every page after a control change, against the baseline page, in one run.

Run: python bench/bench_reruns.py [--changes 24]
Each page is opened once (warm-up), then d_out is moved back and forth; every AppTest run()
after a change is timed. Prints median and p95 per page and the ratio to the baseline.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from streamlit.testing.v1 import AppTest  # noqa: E402

PAGES = [
    "bench/baseline_app.py",
    "streamlit_app.py",
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py")),
]


def time_reruns(page: str, changes: int) -> list[float]:
    if page.startswith("pages/"):  # a lesson is reached through the entry point, as a link is
        app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60)
        app.switch_page(page)
    else:
        app = AppTest.from_file(str(ROOT / page), default_timeout=60)
    app.run()
    samples = []
    for step in range(changes):
        app.slider(key="d_out").set_value(3 if step % 2 == 0 else 2)
        start = time.perf_counter()
        app.run()
        samples.append((time.perf_counter() - start) * 1000)
        if app.exception:
            raise RuntimeError(f"{page}: {app.exception[0].message}")
    return samples


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--changes", type=int, default=24)
    changes = parser.parse_args().changes
    results = {page: time_reruns(page, changes) for page in PAGES}
    base = statistics.median(results[PAGES[0]])
    print(f"{'page':40} {'median ms':>10} {'p95 ms':>8} {'÷ baseline':>11}")
    for page, samples in results.items():
        median = statistics.median(samples)
        print(f"{page:40} {median:10.1f} {p95(samples):8.1f} {median / base:10.2f}x")


if __name__ == "__main__":
    main()
