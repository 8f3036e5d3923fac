"""Replicas: one Streamlit process against N workers behind nginx (deploy/serve.sh), same run.

Run: python bench/bench_replicas.py [--learners 80] [--changes 5] [--rounds 2] [--capacity-two]
         [--capacity 20,30,40,50,60,80] [--capacity-seconds 30]

Loopback only; every loop is bounded (learners x (changes + 1) requests per round, 120 s per
request) and the script stops every server it started.

1. Throughput, side by side: a single `streamlit run` (the app as a teacher runs it today),
   `serve.sh --workers 1` (the same process behind nginx: the proxy's own cost) and
   `serve.sh --workers 2`, all with the repository's .streamlit/config.toml, all started
   before the first round and measured in alternating rounds. Each learner opens the
   Playground from its own link through Streamlit's agent API (as bench/bench_load.py does;
   through nginx with a cookie jar of its own, so it stays on one worker), then, all at once,
   makes CHANGES d_out changes, each sent when the previous one is answered. Throughput =
   changes answered / seconds from the first change to the last answer; p50/p95 of those
   changes; server CPU per change; every answer's numbers checked against the core.
2. Capacity of one worker: `serve.sh --workers 1`, learners that each change d_out every 5 s
   (random phase) for CAPACITY_SECONDS; offered and answered changes/s and p95 per number of
   learners. One worker holds the largest number whose p95 stays under 0.5 s.

"other cores": how much CPU processes that are not this bench's (nor its servers') used
meanwhile, from /proc/stat; near 0 on an idle machine. On a shared machine it tells which
rounds measured the app and which measured the neighbours.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attention_core import AttentionConfig, preset_embeddings, run_attention  # noqa: E402
from bench.bench_load import cpu_seconds  # noqa: E402
from tests.e2e.agent_client import context_vector  # noqa: E402
from tests.e2e.processes import descendants, free_ports  # noqa: E402
from tests.e2e.server import start_server, stop_server  # noqa: E402

# The agent API holds at most 100 sessions per server by default; every simulated learner of
# every round keeps one (a real browser's websocket session is not counted there).
AGENT = ("--server.enableAgentApi", "true", "--server.agentWaitTimeout", "120")
AGENT += ("--server.agentMaxSessions", "2000")
COOKIE = "attention_worker"
GOAL_P95 = 0.5


# --- one learner's HTTP session -----------------------------------------------------------


@dataclass
class Learner:
    """A learner's cookie jar (nginx's worker cookie) and agent-API session."""

    url: str
    index: int
    cookie: str = ""
    worker: str = ""
    session_id: str = ""
    d_out: int = 1
    seed: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    wrong: int = 0

    def send(self, body: dict) -> dict:
        headers = {"content-type": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        request = urllib.request.Request(
            f"{self.url}/_stcore/agent/interact",
            data=json.dumps(body).encode(),
            headers=headers,
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=120) as response:
            snapshot = json.loads(response.read())
            for value in response.headers.get_all("Set-Cookie") or []:
                if value.startswith(f"{COOKIE}="):
                    self.cookie = value.split(";", 1)[0]
            self.worker = response.headers.get("X-Worker", "") or "direct"
        return snapshot

    def check(self, snapshot: dict) -> None:
        if snapshot.get("status") != "ready":
            self.errors += 1
            return
        config = AttentionConfig(seed=self.seed, d_out=self.d_out)
        want = run_attention(preset_embeddings("journey"), config).context[1].tolist()
        got = context_vector(snapshot)
        self.wrong += len(got) != len(want) or any(
            abs(g - w) > 1.5e-4 for g, w in zip(got, want, strict=False)
        )

    def open(self) -> None:
        """Open the Playground from a link of one's own (seed and d_out)."""
        self.seed, self.d_out = 100 + self.index, 1 + self.index % 8
        query = {"seed": [str(self.seed)], "d_out": [str(self.d_out)]}
        try:
            snapshot = self.send({"query_params": query})
            self.session_id = snapshot["session_id"]
            self.check(snapshot)
        except Exception:  # refused or timed out: counted, the learner stops
            self.errors += 1

    def change(self) -> bool:
        """Move d_out one step (1 … 8, round); records the latency. False after an error."""
        if not self.session_id:
            return False
        self.d_out = 1 + self.d_out % 8
        body = {"session_id": self.session_id, "widget_state": {"d_out": self.d_out}}
        start = time.perf_counter()
        try:
            snapshot = self.send(body)
        except Exception:
            self.errors += 1
            return False
        self.latencies.append(time.perf_counter() - start)
        self.check(snapshot)
        return True


# --- servers ------------------------------------------------------------------------------


@dataclass
class Server:
    name: str
    url: str
    stop: object
    pids: object  # () -> the pids whose CPU counts (the Streamlit processes)
    all_pids: object  # () -> every process of this server (nginx, supervisord too)


def direct_server() -> Server:
    process, url = start_server(extra=AGENT)
    pids = lambda: [process.pid]  # noqa: E731
    return Server("1 process", url, lambda: stop_server(process), pids, pids)


def proxied_server(workers: int) -> Server:
    port, first, *_ = free_ports(workers + 1)
    log = Path(tempfile.mkstemp(prefix="bench-serve-", suffix=".log")[1])
    command = ["bash", str(ROOT / "deploy" / "serve.sh"), "--workers", str(workers)]
    command += ["--port", str(port), "--first-worker-port", str(first), "--", *AGENT]
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 180
    while "serve.sh: ready" not in log.read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"serve.sh did not start:\n{log.read_text()}")
        time.sleep(0.5)

    def stop() -> None:
        process.send_signal(signal.SIGTERM)
        process.wait(60)
        log.unlink()

    def pids() -> list[int]:
        tree = descendants(process.pid)
        return [pid for pid, cmd in tree.items() if "streamlit run" in cmd]

    name = f"{workers} worker{'s' if workers > 1 else ''} + nginx"
    tree = lambda: list(descendants(process.pid))  # noqa: E731
    return Server(name, f"http://127.0.0.1:{port}", stop, pids, tree)


def server_cpu(server: Server) -> float:
    total = 0.0
    for pid in server.pids():
        with contextlib.suppress(OSError):  # a worker that just ended
            total += cpu_seconds(pid)
    return total


def busy_seconds() -> float:
    """CPU seconds every process on the machine has used (all cores), from /proc/stat."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_seconds(servers: list[Server]) -> float:
    """CPU seconds of this bench (its threads) and of every server process it started."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # ended ones, e.g. restarts
    total = usage.ru_utime + usage.ru_stime + children.ru_utime + children.ru_stime
    for server in servers:
        for pid in server.all_pids():
            with contextlib.suppress(OSError):
                total += cpu_seconds(pid)
    return total


class OtherLoad:
    """How many cores processes that are not this bench's used meanwhile (a shared machine)."""

    def __init__(self, servers: list[Server]) -> None:
        self.servers = servers
        self.start = (time.perf_counter(), busy_seconds(), own_seconds(servers))

    def cores(self) -> float:
        wall, busy, own = self.start
        elapsed = time.perf_counter() - wall
        others = (busy_seconds() - busy) - (own_seconds(self.servers) - own)
        return max(0.0, others / elapsed)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# --- 1. throughput ------------------------------------------------------------------------


def burst(server: Server, learners: int, changes: int, offset: int) -> dict[str, float]:
    """All learners open their links, then make their changes at once, closed loop."""
    people = [Learner(server.url, offset + i) for i in range(learners)]
    threads = [threading.Thread(target=p.open) for p in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    go = threading.Barrier(learners + 1)
    finished: list[float] = []

    def run(person: Learner) -> None:
        go.wait()
        for _ in range(changes):
            if not person.change():
                break
        finished.append(time.perf_counter())

    threads = [threading.Thread(target=run, args=(p,)) for p in people]
    for thread in threads:
        thread.start()
    cpu0 = server_cpu(server)
    go.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    seconds = max(finished) - start
    cpu = server_cpu(server) - cpu0
    latencies = [s for p in people for s in p.latencies]
    workers: dict[str, int] = {}
    for person in people:
        workers[person.worker] = workers.get(person.worker, 0) + 1
    return {
        "changes_per_s": len(latencies) / seconds,
        "p50_ms": 1000 * statistics.median(latencies),
        "p95_ms": 1000 * percentile(latencies, 0.95),
        "changes": len(latencies),
        "errors": sum(p.errors for p in people),
        "wrong": sum(p.wrong for p in people),
        "cpu_ms_per_change": 1000 * cpu / max(len(latencies), 1),
        "learners_per_worker": " / ".join(f"{n}" for _, n in sorted(workers.items())),
    }


# --- 2. capacity of one worker ------------------------------------------------------------


def paced(server: Server, learners: int, seconds: float, interval: float = 5.0) -> dict:
    """Learners changing d_out every ``interval`` s (random phase) for ``seconds``."""
    people = [Learner(server.url, 1000 * learners + i) for i in range(learners)]
    threads = [threading.Thread(target=p.open) for p in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    time.sleep(2)
    start = time.perf_counter() + 0.5
    rng = random.Random(learners)
    each = max(1, round(seconds / interval))  # changes per learner, one due every interval
    finished: list[float] = []

    def run(person: Learner, phase: float) -> None:
        for step in range(each):  # a late answer sends the next change at once
            time.sleep(max(0.0, start + phase + step * interval - time.perf_counter()))
            if not person.change():
                break
        finished.append(time.perf_counter())

    threads = [threading.Thread(target=run, args=(p, rng.uniform(0, interval))) for p in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    latencies = [s for p in people for s in p.latencies]
    return {
        "learners": learners,
        "offered_per_s": learners / interval,
        "answered_per_s": len(latencies) / (max(finished) - start),
        "p50_ms": 1000 * statistics.median(latencies),
        "p95_ms": 1000 * percentile(latencies, 0.95),
        "errors": sum(p.errors for p in people),
        "wrong": sum(p.wrong for p in people),
    }


def throughput(servers: list[Server], learners: int, changes: int, rounds: int) -> None:
    """Alternating rounds of :func:`burst` on every server; medians and ratios."""
    results: dict[str, list[dict]] = {s.name: [] for s in servers}
    for round_ in range(rounds):
        order = servers if round_ % 2 == 0 else list(reversed(servers))
        for server in order:
            others = OtherLoad(servers)
            result = burst(server, learners, changes, offset=200 * round_)
            result["other_cores"] = others.cores()
            results[server.name].append(result)
            print(f"round {round_ + 1} {server.name}: {result}", flush=True)
    print(
        f"\n{learners} learners x {changes} changes, medians of "
        f"{rounds} rounds; load now {machine().rsplit('load ', 1)[1]}"
    )
    keys = ["changes_per_s", "p50_ms", "p95_ms", "cpu_ms_per_change", "errors", "wrong"]
    keys.append("other_cores")  # CPU used by processes not of this bench: a shared machine
    print(f"{'':22}" + "".join(f"{s.name:>20}" for s in servers))
    medians = {
        name: {k: statistics.median(r[k] for r in runs) for k in keys}
        for name, runs in results.items()
    }
    for key in keys:
        print(f"{key:22}" + "".join(f"{medians[s.name][key]:20.1f}" for s in servers))
    spread = results[servers[2].name][-1]["learners_per_worker"]
    print(f"{'learners per worker':22}{'':40}{spread:>20}")
    one, two = medians[servers[0].name], medians[servers[2].name]
    ratios = [
        r2["changes_per_s"] / r1["changes_per_s"]
        for r1, r2 in zip(results[servers[0].name], results[servers[2].name], strict=True)
    ]
    print(
        f"throughput 2 workers / 1 process = {two['changes_per_s'] / one['changes_per_s']:.2f}"
        f" (per round: {', '.join(f'{r:.2f}' for r in ratios)}; median of rounds "
        f"{statistics.median(ratios):.2f}); "
        f"p95 {two['p95_ms'] / one['p95_ms']:.2f}x"
    )


def capacity(server: Server, levels: list[int], seconds: float, servers: list[Server]) -> None:
    """Print p95 per number of paced learners; the largest number with p95 < 0.5 s."""
    if not levels:
        return
    print(f"\ncapacity of {server.name}: each learner changes d_out every 5 s, {seconds:.0f} s")
    print(f"machine: {machine()}")
    print("learners  offered/s  answered/s   p50 ms   p95 ms  errors  wrong  other cores")
    holds = 0
    for learners in levels:
        others = OtherLoad(servers)
        r = paced(server, learners, seconds)
        print(
            f"{r['learners']:8}  {r['offered_per_s']:9.1f}  {r['answered_per_s']:10.1f}"
            f"  {r['p50_ms']:7.0f}  {r['p95_ms']:7.0f}  {r['errors']:6}  {r['wrong']:5}"
            f"  {others.cores():11.2f}",
            flush=True,
        )
        if r["p95_ms"] < 1000 * GOAL_P95 and not r["errors"] and not r["wrong"]:
            holds = max(holds, learners)
    print(f"{server.name} holds {holds} learners at p95 < {GOAL_P95} s (of those measured)")


# --- report -------------------------------------------------------------------------------


def machine() -> str:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.machine(),
    )
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    return f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}, load {load}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--learners", type=int, default=80)
    parser.add_argument("--changes", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--capacity", default="20,30,40,50,60,80", help="learners per level ('' skips)"
    )
    parser.add_argument("--capacity-seconds", type=float, default=30.0)
    parser.add_argument(
        "--capacity-two", action="store_true", help="also measure 2 workers at twice the levels"
    )
    args = parser.parse_args()
    print(f"machine: {machine()}", flush=True)

    servers = []
    try:
        servers = [direct_server(), proxied_server(1), proxied_server(2)]
        for server in servers:  # warm-up: imports, first runs
            burst(server, 4, 2, offset=900)
        if args.rounds:
            throughput(servers, args.learners, args.changes, args.rounds)

        levels = [int(v) for v in args.capacity.split(",") if v.strip()]
        plans = [(servers[1], levels)]
        if args.capacity_two:
            plans.append((servers[2], [2 * n for n in levels]))
        for server, counts in plans:
            capacity(server, counts, args.capacity_seconds, servers)
    finally:
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
