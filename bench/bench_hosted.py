"""The hosted demo's shape: one Streamlit process on one core with a 2.7 GB memory cap, as
Streamlit Community Cloud runs it, beside the same app with the whole machine, in one run.

Run: python bench/bench_hosted.py [--rounds 3] [--learners 40] [--seconds 30]

Both servers run the hosted entry (cloud/streamlit_app.py) from the repository root, with the
repository's .streamlit/config.toml and no PYTHONPATH, as Community Cloud starts it. The
"hosted" one is pinned to one core (taskset) and runs in a cgroup (v1 memory controller) whose
limit is 2.7 GB, the largest Community Cloud instance; when no cgroup can be made the cap is
reported as absent and only the peak RSS is printed. Each round, in alternating order:

1. cold start: from launching the process to the Playground's first chart drawn in Chromium
   (Python and torch imported, the first run, the page drawn: what the first learner waits
   for after the app woke);
2. 40 learners at a realistic pace: each opens the Playground from a link of its own through
   Streamlit's agent API and changes d_out every 5 s (random phase) for 30 s; p50 and p95 of
   the changes, every answer's numbers checked against the core;
3. peak memory of the process (VmHWM); the cap holds if the hosted server answered at all.

Loopback only; every request is bounded (120 s) and the script stops what it started.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_replicas import AGENT, Server, machine, paced  # noqa: E402

CAP_BYTES = int(2.7 * 1024**3)
CGROUP = Path("/sys/fs/cgroup/memory")


def make_cgroup(name: str) -> Path | None:
    """A v1 memory cgroup capped at 2.7 GB, or None where this machine cannot make one."""
    group = CGROUP / name
    try:
        group.mkdir(exist_ok=True)
        (group / "memory.limit_in_bytes").write_text(str(CAP_BYTES))
        return group
    except OSError:
        return None


def launch(name: str, hosted: bool) -> tuple[Server, subprocess.Popen, Path | None, float]:
    """Start ``streamlit run cloud/streamlit_app.py``; returns the server, its process, its
    cgroup and the launch time (perf_counter)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    group = make_cgroup(f"attention-bench-{os.getpid()}") if hosted else None
    command = [sys.executable, "-m", "streamlit", "run", "cloud/streamlit_app.py"]
    command += ["--server.port", str(port), "--server.address", "127.0.0.1", *AGENT]
    if hosted:
        command = ["taskset", "-c", "0", *command]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}

    def enter_group() -> None:  # in the child, before exec: its memory counts from the start
        if group is not None:
            (group / "cgroup.procs").write_text(str(os.getpid()))

    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=enter_group,
    )

    def stop() -> None:
        process.terminate()
        process.wait(30)

    server = Server(name, f"http://127.0.0.1:{port}", stop, lambda: [process.pid], None)
    return server, process, group, started


def wait_healthy(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server exited while starting")
        health = f"{url}/_stcore/health"
        with contextlib.suppress(OSError), urllib.request.urlopen(health, timeout=2):
            return
        time.sleep(0.05)
    raise RuntimeError("the server did not become healthy within 180 s")


def first_chart(url: str) -> None:
    """The Playground opened in Chromium until its first chart is drawn."""
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone's link
            page.goto(url)
            page.wait_for_selector('[data-testid="stVegaLiteChart"]', timeout=180_000)
        finally:
            browser.close()


def peak_rss_mb(process: subprocess.Popen) -> float:
    """The process's peak resident memory (VmHWM), the same measure for both shapes (the
    cgroup's own count leaves out shared library pages another process loaded first)."""
    for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def one_round(name: str, hosted: bool, learners: int, seconds: float) -> dict[str, float]:
    server, process, group, started = launch(name, hosted)
    try:
        wait_healthy(server.url, process)
        first_chart(server.url)
        cold = time.perf_counter() - started
        result = paced(server, learners, seconds)
        return {
            "cold_start_s": cold,
            "p50_ms": result["p50_ms"],
            "p95_ms": result["p95_ms"],
            "answered_per_s": result["answered_per_s"],
            "errors": result["errors"],
            "wrong": result["wrong"],
            "peak_rss_mb": peak_rss_mb(process),
            "capped": float(group is not None),
        }
    finally:
        server.stop()
        if group is not None:
            with contextlib.suppress(OSError):
                group.rmdir()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    print(f"machine: {machine()}", flush=True)
    shapes = {"hosted: 1 core, 2.7 GB": True, "whole machine": False}
    runs: dict[str, list[dict]] = {name: [] for name in shapes}
    for round_ in range(args.rounds):
        order = list(shapes) if round_ % 2 == 0 else list(reversed(shapes))
        for name in order:
            result = one_round(name, shapes[name], args.learners, args.seconds)
            runs[name].append(result)
            print(f"round {round_ + 1} {name}: {result}", flush=True)
    print(
        f"\n{args.learners} learners, a change every 5 s each for {args.seconds:.0f} s; "
        f"medians of {args.rounds} rounds"
    )
    keys = list(next(iter(runs.values()))[0])
    print(f"{'':16}" + "".join(f"{name:>26}" for name in shapes))
    medians = {n: {k: statistics.median(r[k] for r in rs) for k in keys} for n, rs in runs.items()}
    for key in keys:
        print(f"{key:16}" + "".join(f"{medians[name][key]:26.1f}" for name in shapes))
    hosted, whole = (medians[name] for name in shapes)
    print(
        f"hosted / whole machine: cold start {hosted['cold_start_s'] / whole['cold_start_s']:.2f}"
        f"x, p95 {hosted['p95_ms'] / whole['p95_ms']:.2f}x"
    )


if __name__ == "__main__":
    main()
