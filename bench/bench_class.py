"""Class mode under a lecture hall's load: followers behind nginx, a teacher changing every 2 s.

Run: python bench/bench_class.py [--followers 80] [--seconds 60] [--every 2] [--workers 2]

`deploy/serve.sh --workers N` with its Redis, on free loopback ports. Each follower is a real
Streamlit session driven the way a browser drives it, over the websocket with Streamlit's own
protobuf messages (no Chromium: 80 of them would eat the two cores this measures): it opens
the join link, and every time the server asks for its timed fragment (``AutoRerun``, the
class bar's fallback look at the class, every 15 s) it sends that fragment's rerun, as the
browser's timer does. The teacher's changes themselves reach it as runs the worker starts
(``classroom.push``), which it receives as a browser does. The teacher leads through the
class store with the class's key (what its session does at the end of a run), moving d_out
among 2, 3 and 4 every EVERY seconds.

Measured, for every follower and every change: the seconds from the teacher's write to the
follower's first message that shows the new numbers (the Playground's sentence about the
focused token, whose context vector has d_out numbers). p50 / p95 / max, how many updates
never came, and the workers' CPU (from /proc) per follower update, idle looks included.

Then a new class of as many followers: one change, and the teacher ends the class; measured,
the seconds from the end to each page's sentence that the class has ended, against that one
change's follow latency (the baseline: the same pages, the same run).

Baseline in the same run, on the same servers: learners who are in no class, each changing
d_out every EVERY seconds by the same websocket path (a new query string: a whole run, as
a follower's update is), their latency and CPU per change; and a class with no change at
all (the cost of the looks alone).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_load import cpu_seconds  # noqa: E402
from classroom import Classroom  # noqa: E402
from classroom.redis_store import RedisStore  # noqa: E402
from tests.e2e.processes import descendants, start_serve, stop_serve  # noqa: E402

SENTENCE = re.compile(r"context vector[^\[]*?((?:-?\d+\.\d+(?:, )?)+)")
NUMBER = re.compile(r"-?\d+\.\d+")
ENDED = re.compile(r"has ended")  # the learner's sentence once the teacher ends the class


@dataclass
class Session:
    """One websocket session of the app, answering its timed fragments as a browser does."""

    url: str
    query: str
    shown: int = 0  # d_out of the numbers last shown (how many numbers the vector has)
    seen_at: dict[int, float] = field(default_factory=dict)  # d_out → first time shown
    page_hash: str = ""
    timers: dict[str, float] = field(default_factory=dict)  # fragment id → interval
    looks: int = 0
    socket: object = None
    cache: dict[str, ForwardMsg] = field(default_factory=dict)  # as the browser's
    sliders: dict[str, tuple[str, str]] = field(default_factory=dict)  # label → id, fragment
    ended_at: float | None = None  # when the page first said its class has ended

    def state(self, fragment: str = "", auto: bool = False) -> bytes:
        message = BackMsg()
        rerun = message.rerun_script
        rerun.query_string = self.query
        rerun.page_script_hash = self.page_hash
        rerun.fragment_id = fragment
        rerun.is_auto_rerun = auto
        rerun.widget_states.SetInParent()
        return message.SerializeToString()

    async def run(self, stop: asyncio.Event) -> None:
        async with websockets.connect(
            self.url, subprotocols=["streamlit"], max_size=None, open_timeout=120
        ) as socket:
            self.socket = socket
            await socket.send(self.state())
            ticks = asyncio.create_task(self._ticks(stop))
            try:
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(socket.recv(), timeout=0.5)
                    except TimeoutError:
                        continue
                    self._read(raw)
            finally:
                ticks.cancel()

    def _read(self, raw: bytes) -> None:
        message = ForwardMsg()
        message.ParseFromString(raw)
        kind = message.WhichOneof("type")
        if kind == "ref_hash":  # a message this session was sent before, by its hash
            message = self.cache.get(message.ref_hash, message)
            kind = message.WhichOneof("type")
        elif message.hash:
            self.cache[message.hash] = message
        if kind == "new_session":
            self.page_hash = message.new_session.page_script_hash
        elif kind == "page_info_changed":
            self.query = message.page_info_changed.query_string
        elif kind == "auto_rerun":
            self.timers[message.auto_rerun.fragment_id] = message.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            for fragment in message.stop_auto_rerun.fragment_ids:
                self.timers.pop(fragment, None)
        elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            element = message.delta.new_element
            if element.WhichOneof("type") == "slider":
                self.sliders[element.slider.label] = (element.slider.id, message.delta.fragment_id)
            elif element.WhichOneof("type") == "alert" and ENDED.search(element.alert.body):
                self.ended_at = self.ended_at or time.monotonic()
            elif element.WhichOneof("type") == "markdown":
                found = SENTENCE.search(element.markdown.body)
                if found:
                    self.shown = len(NUMBER.findall(found.group(1)))
                    self.seen_at.setdefault(self.shown, time.monotonic())

    async def _ticks(self, stop: asyncio.Event) -> None:
        """The class bar's timer (1 s): the reconnect fragment's hour never comes in a run."""
        next_at: dict[str, float] = {}
        while not stop.is_set():
            now = time.monotonic()
            for fragment, interval in list(self.timers.items()):
                if interval > 60:
                    continue
                due = next_at.setdefault(fragment, now + interval)
                if now >= due:
                    next_at[fragment] = now + interval
                    self.looks += 1
                    await self.socket.send(self.state(fragment, auto=True))
            await asyncio.sleep(0.05)

    async def move(self, label: str, value: float) -> None:
        """A learner's own slider change, sent as the browser sends it: the slider's value,
        and a rerun of the fragment it is drawn in (its callback then reruns the views)."""
        widget, fragment = next(v for k, v in self.sliders.items() if k.startswith(label))
        message = BackMsg()
        message.ParseFromString(self.state(fragment))
        state = message.rerun_script.widget_states.widgets.add()
        state.id = widget
        state.double_array_value.data.append(value)
        await self.socket.send(message.SerializeToString())


def workers_cpu(serve_pid: int) -> float:
    total = 0.0
    for pid, cmdline in descendants(serve_pid).items():
        if "streamlit" in cmdline:
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                total += cpu_seconds(pid)
    return total


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def _collect(sessions, d_out, written, latencies, missed):
    """Each session's first showing of ``d_out`` after ``written`` (the next write of the
    same value, three changes later, closes the window)."""
    for s in sessions:
        if d_out in s.seen_at and s.seen_at[d_out] >= written:
            latencies.append(s.seen_at[d_out] - written)
        else:
            missed += 1
    return latencies, missed


async def open_sessions(sessions: list[Session], stop: asyncio.Event) -> list[asyncio.Task]:
    """Connect every session and wait (at most 120 s) until each shows its numbers."""
    tasks = [asyncio.create_task(s.run(stop)) for s in sessions]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not all(s.shown for s in sessions):
        await asyncio.sleep(0.2)
    await asyncio.sleep(2)  # the first runs' tails settle before anything is measured
    return tasks


async def phase_followers(url, room, code, key, count, seconds, every, serve_pid, change=True):
    stop = asyncio.Event()
    sessions = [Session(url, f"class={code}") for _ in range(count)]
    tasks = await open_sessions(sessions, stop)
    joined = sum(1 for s in sessions if s.shown)
    cpu, looks = workers_cpu(serve_pid), sum(s.looks for s in sessions)
    latencies, missed, changes = [], 0, 0
    d_outs = (3, 4, 2)
    start, pending, step = time.monotonic(), {}, 0  # pending: d_out → when it was written
    cpu_end, busy = None, seconds
    while time.monotonic() - start < seconds + 3 * every:
        d_out, step = (d_outs[step % 3] if change else 2), step + 1
        if d_out in pending:  # its window ends: a value comes back every third change
            latencies, missed = _collect(sessions, d_out, pending.pop(d_out), latencies, missed)
        for s in sessions:
            s.seen_at.pop(d_out, None)
        if time.monotonic() - start >= seconds and cpu_end is None:
            cpu_end, busy = workers_cpu(serve_pid), time.monotonic() - start
        if change and time.monotonic() - start < seconds:
            pending[d_out] = time.monotonic()
            room.lead(code, key, "streamlit_app", f"d_out={d_out}")
            changes += 1
        await asyncio.sleep(every)
    cpu = cpu_end - cpu
    looks = sum(s.looks for s in sessions) - looks
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    updates = max(1, count * changes)
    return {
        "joined": joined,
        "changes": changes,
        "latencies": latencies,
        "missed": missed,
        "cpu_per_update_ms": 1000 * cpu / updates if change else float("nan"),
        "cpu_per_second": cpu / busy,
        "looks_per_second": looks / (time.monotonic() - start),
    }


async def phase_end(url, room, count, serve_pid):
    """A new class of ``count`` followers; once all show it, one change (the same-run
    baseline: how long a view takes to reach them), then, 3 s later, the teacher ends the
    class: the seconds from the end to each page's sentence that it has ended."""
    code, key = room.start("streamlit_app", "d_out=2")
    stop = asyncio.Event()
    sessions = [Session(url, f"class={code}") for _ in range(count)]
    tasks = await open_sessions(sessions, stop)
    joined = sum(1 for s in sessions if s.shown)
    for s in sessions:
        s.seen_at.pop(3, None)
    written = time.monotonic()
    room.lead(code, key, "streamlit_app", "d_out=3")
    await asyncio.sleep(3)
    followed, missed_follow = _collect(sessions, 3, written, [], 0)
    cpu = workers_cpu(serve_pid)
    ended = time.monotonic()
    room.end(code, key)
    deadline = ended + 20
    while time.monotonic() < deadline and not all(s.ended_at for s in sessions):
        await asyncio.sleep(0.05)
    cpu = workers_cpu(serve_pid) - cpu
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies = [s.ended_at - ended for s in sessions if s.ended_at]
    end = {"latencies": latencies, "missed": count - len(latencies)}
    end |= {"cpu_per_update_ms": 1000 * cpu / max(1, len(latencies))}
    end["cpu_per_second"] = float("nan")
    follow = {"latencies": followed, "missed": missed_follow}
    follow |= {"cpu_per_update_ms": float("nan"), "cpu_per_second": float("nan")}
    return {"joined": joined, "end": end, "follow": follow}


async def phase_alone(url, count, seconds, every, serve_pid):
    """Learners in no class, each moving the d_out slider every ``every`` s."""
    stop = asyncio.Event()
    sessions = [Session(url, f"seed={100 + i}") for i in range(count)]
    tasks = await open_sessions(sessions, stop)
    cpu, latencies, missed, changes = workers_cpu(serve_pid), [], 0, 0
    start, pending, step = time.monotonic(), {}, 0
    cpu_end, busy = None, seconds
    d_outs = (3, 4, 2)
    while time.monotonic() - start < seconds + 3 * every:
        d_out, step = d_outs[step % 3], step + 1
        if d_out in pending:
            latencies, missed = _collect(sessions, d_out, pending.pop(d_out), latencies, missed)
        for s in sessions:
            s.seen_at.pop(d_out, None)
        if time.monotonic() - start >= seconds and cpu_end is None:
            cpu_end, busy = workers_cpu(serve_pid), time.monotonic() - start
        if time.monotonic() - start < seconds:
            pending[d_out] = time.monotonic()
            for s in sessions:
                await s.move("d_out", d_out)
            changes += 1
        await asyncio.sleep(every)
    cpu = cpu_end - cpu
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "changes": changes,
        "latencies": latencies,
        "missed": missed,
        "cpu_per_update_ms": 1000 * cpu / max(1, count * changes),
        "cpu_per_second": cpu / busy,
    }


def row(name: str, result: dict) -> str:
    lat = result["latencies"]
    return (
        f"| {name} | {len(lat)} | {result['missed']} | "
        f"{1000 * statistics.median(lat) if lat else float('nan'):.0f} / "
        f"{1000 * percentile(lat, 0.95):.0f} / {1000 * max(lat, default=float('nan')):.0f} ms | "
        f"{result['cpu_per_update_ms']:.1f} ms | {result['cpu_per_second']:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--followers", type=int, default=80)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--every", type=float, default=2.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    run_dir = Path(tempfile.mkdtemp(prefix="bench-class-")) / "run"
    process, port, worker_ports = start_serve(run_dir, args.workers)
    try:
        url = f"ws://127.0.0.1:{port}/_stcore/stream"
        redis_url = f"redis://127.0.0.1:{worker_ports[-1] + 1}/0"
        room = Classroom(RedisStore(redis_url))
        code, key = room.start("streamlit_app", "")
        n, s, e = args.followers, args.seconds, args.every
        print(
            f"{n} followers, {args.workers} workers, a change every {e} s for {s} s; "
            f"{os.cpu_count()} cores"
        )
        idle = asyncio.run(phase_followers(url, room, code, key, n, s / 2, e, process.pid, False))
        followed = asyncio.run(phase_followers(url, room, code, key, n, s, e, process.pid))
        alone = asyncio.run(phase_alone(url, n, s, e, process.pid))
        ending = asyncio.run(phase_end(url, room, n, process.pid))
        print(
            "| sessions | updates seen | missed | p50 / p95 / max | CPU per update | "
            "CPU cores busy |"
        )
        print("| --- | --- | --- | --- | --- | --- |")
        print(row(f"{n} followers, teacher every {e} s", followed))
        print(row(f"{n} learners alone, each every {e} s (baseline)", alone))
        print(f"| {n} followers, no change (looks only) | | | | | {idle['cpu_per_second']:.2f} |")
        print(row(f"{n} followers of a new class, one change (baseline)", ending["follow"]))
        print(row(f"the same {n}: the teacher ends the class", ending["end"]))
        print(
            f"joined: {followed['joined']} of {n}; looks per second "
            f"{followed['looks_per_second']:.0f}"
        )
    finally:
        stop_serve(process)


if __name__ == "__main__":
    main()
