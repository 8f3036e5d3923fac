"""Load test: 40 learners at once against a real `streamlit run`, the app and the baseline.

Run: python bench/bench_load.py [--sessions 40] [--changes 10] [--real-models]
(the app and the baseline page run with the same server settings, in the same run)
Loopback only, bounded (sessions x (changes + 1) requests, 120 s per request), stops by
itself. Each session opens the Playground from its own link through Streamlit's agent API
(POST /_stcore/agent/interact) and then makes control changes. Reports p50/p95 latency,
errors, server CPU per interaction and RSS after 1 and after N sessions; for the app it also
checks every session's numbers against the core (session isolation under load).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attention_core import AttentionConfig, preset_embeddings, run_attention  # noqa: E402
from tests.e2e.agent_client import context_vector, interact  # noqa: E402
from tests.e2e.server import start_server, stop_server  # noqa: E402

# Both run from the repository root, so both use its .streamlit/config.toml: a ratio compares
# the pages, not the server settings.
SERVERS = {
    "app": ("streamlit_app.py", []),
    "baseline": ("bench/baseline_app.py", []),
}


def start(script: str, extra: list[str]) -> tuple[subprocess.Popen, str]:
    return start_server(
        script, ("--server.enableAgentApi", "true", "--server.agentWaitTimeout", "120", *extra)
    )


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def learner(url: str, index: int, changes: int, check: bool) -> tuple[list[float], int, int]:
    """One learner: open a link of one's own, then move d_out; returns latencies, errors,
    and wrong numbers seen."""
    seed, d_out = 100 + index, 1 + index % 8
    latencies, errors, wrong = [], 0, 0
    body: dict = {"query_params": {"seed": [str(seed)], "d_out": [str(d_out)]}}
    for _ in range(changes + 1):
        try:
            snapshot, seconds = interact(url, body, timeout=120)
            latencies.append(seconds)
            if snapshot.get("status") != "ready":
                errors += 1
            elif check:
                config = AttentionConfig(seed=seed, d_out=d_out)
                want = run_attention(preset_embeddings("journey"), config).context[1].tolist()
                got = context_vector(snapshot)
                wrong += any(abs(g - w) > 1.5e-4 for g, w in zip(got, want, strict=True))
        except Exception:  # a refused or timed-out request is an error, not a crash
            errors += 1
            break
        d_out = 1 + (d_out % 8)
        body = {"session_id": snapshot["session_id"], "widget_state": {"d_out": d_out}}
    return latencies, errors, wrong


def browsers_during_load(url: str, count: int) -> list[float]:
    """Open ``count`` Chromium pages on their own links while the load runs; seconds each."""
    from playwright.sync_api import sync_playwright

    args = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    seconds = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        try:
            for index in range(count):
                page = browser.new_page(viewport={"width": 1280, "height": 720})
                start = time.perf_counter()
                page.goto(f"{url}/?seed={500 + index}&d_out=3")
                page.wait_for_selector('[data-testid="stVegaLiteChart"]', timeout=120_000)
                seconds.append(time.perf_counter() - start)
                page.close()
        finally:
            browser.close()
    return seconds


def first_visits(url: str) -> dict[str, float]:
    """Open the two real-weights pages in Chromium, one after the other, on a server that has
    not loaded either model: seconds from navigation to their first chart (the model loads)."""
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

    seconds = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for path in ("Word_vectors", "Real_sentences"):
                page = browser.new_page(viewport={"width": 1280, "height": 720})
                start = time.perf_counter()
                page.goto(f"{url}/{path}")
                page.wait_for_selector('[data-testid="stVegaLiteChart"]', timeout=120_000)
                seconds[f"first_visit_{path}_s"] = time.perf_counter() - start
                page.close()
        finally:
            browser.close()
    return seconds


def measure(name: str, sessions: int, changes: int, real: bool = False) -> dict[str, float]:
    script, extra = SERVERS[name]
    process, url = start(script, extra)
    try:
        visits = {}
        if real:  # both real models loaded into this process before the class arrives
            rss_before = rss_mb(process.pid)
            visits = first_visits(url) if name == "app" else {}
            visits["rss_before_models_mb"] = rss_before
            visits["rss_models_loaded_mb"] = rss_mb(process.pid)
        learner(url, 0, 2, check=False)  # warm-up: imports, first run
        cpu0, alone = cpu_seconds(process.pid), learner(url, 1, changes, name == "app")
        rss_one = rss_mb(process.pid)
        cpu1 = cpu_seconds(process.pid)
        with ThreadPoolExecutor(max_workers=sessions + 1) as pool:
            pages = pool.submit(browsers_during_load, url, 3)
            results = list(
                pool.map(lambda i: learner(url, i, changes, name == "app"), range(sessions))
            )
            page_seconds = pages.result()
        cpu2 = cpu_seconds(process.pid)
        latencies = sorted(s for r in results for s in r[0])
        requests = len(latencies)
        return {
            "p50_one_ms": 1000 * statistics.median(alone[0]),
            "p50_ms": 1000 * statistics.median(latencies),
            "p95_ms": 1000 * latencies[min(requests - 1, round(0.95 * (requests - 1)))],
            "errors": sum(r[1] for r in results),
            "wrong": sum(r[2] for r in results) + alone[2],
            "requests": requests,
            "cpu_ms_per_interaction_one": 1000 * (cpu1 - cpu0) / len(alone[0]),
            "cpu_ms_per_interaction": 1000 * (cpu2 - cpu1) / max(requests, 1),
            "rss_one_mb": rss_one,
            "rss_many_mb": rss_mb(process.pid),
            "chromium_pages_ok": len(page_seconds),
            "chromium_page_max_s": max(page_seconds),
            **visits,
        }
    finally:
        stop_server(process)


def soak(interactions: int) -> None:
    """Memory without the per-run GC: RSS of the app while one session reruns many times."""
    process, url = start(*SERVERS["app"])
    try:
        snapshot, _ = interact(url, {})
        samples = []
        for step in range(1, interactions + 1):
            widget_state = {"d_out": 1 + step % 8, "seed": step}
            snapshot, _ = interact(
                url, {"session_id": snapshot["session_id"], "widget_state": widget_state}
            )
            if step % (interactions // 5) == 0:
                samples.append(f"{step}: {rss_mb(process.pid):.0f} MB")
        print("app RSS during a soak of one session: " + ", ".join(samples))
    finally:
        stop_server(process)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--changes", type=int, default=10)
    parser.add_argument("--soak", type=int, default=0, help="only run a soak of N reruns")
    parser.add_argument(
        "--real-models",
        action="store_true",
        help="the app only: first open pages 9 and 10 in Chromium (GloVe and MiniLM load), "
        "then the sessions; reports the first-visit times and the RSS with both loaded",
    )
    args = parser.parse_args()
    if args.soak:
        soak(args.soak)
        return
    if args.real_models:
        result = measure("app", args.sessions, args.changes, real=True)
        print(f"app with both real models, {args.sessions} sessions, {os.cpu_count()} cores")
        for key, value in result.items():
            print(f"{key:30}{value:12.1f}")
        return
    results = {name: measure(name, args.sessions, args.changes) for name in SERVERS}
    print(f"{args.sessions} sessions x {args.changes + 1} requests, {os.cpu_count()} cores")
    keys = list(results["app"])
    print(f"{'':30}" + "".join(f"{n:>12}" for n in results))
    for key in keys:
        print(f"{key:30}" + "".join(f"{results[n][key]:12.1f}" for n in results))
    ratio = results["app"]["p95_ms"] / results["baseline"]["p95_ms"]
    print(f"app p95 / baseline p95 = {ratio:.2f}")


if __name__ == "__main__":
    main()
