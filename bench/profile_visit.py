"""Where a browser test's time goes: one page audit visit and one learner's change, split.

Run: python bench/profile_visit.py [--rounds 5] [--page Todays_attention]

One `streamlit run` (the tests' own server settings) and one Chromium, as a test worker has
them. Each round measures, in the worker's warm browser context:

- **visit by link** (the page audit's way until issue 50): a new tab, ``page.goto`` (the
  frontend's scripts from the cache, parsed again), the websocket and the session's first
  run, the charts drawn, the wait for quiet, then the audit's measures (geometry, axe, the
  3D plot's screenshot);
- **visit in the open tab**: the same page reached from another page through the app's own
  navigation (the Pages menu), through its link followed in place (``screen.follow_link``,
  as Back or Forward does; no new tab, no scripts parsed, no new session), and through a
  ``goto`` in that tab (a new session in a renderer that has compiled the scripts);
- **presentation mode toggled** in the open tab, and **the tab resized** to a phone;
- **a learner's change**: one step of the d_out slider, to every chart redrawn.

For each phase: the wall time (median), the server's CPU (its process's utime + stime) and
Chromium's CPU (every Chromium process this program started, from /proc). Medians over the
rounds; the figures are in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.e2e import audit, learner, screen
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORT
from tests.e2e.server import start_server, stop_server

TICKS = os.sysconf("SC_CLK_TCK")
PAGE_PATH = ""


def _cpu_of(pids: list[int]) -> float:
    """CPU seconds (user + system) used so far by these processes."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


def _chromium_pids() -> list[int]:
    """This process's own Chromium processes (descendants of it: Playwright's driver starts the
    browser), so that another program's browser on the machine is not counted."""
    parents: dict[int, int] = {}
    commands: dict[int, bytes] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            commands[int(entry.name)] = (entry / "cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    me = os.getpid()

    def mine(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == me:
                return True
        return False

    return [pid for pid, command in commands.items() if b"chromium" in command and mine(pid)]


class Clock:
    """Wall time, server CPU and Chromium CPU between marks."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid
        self.rows: dict[str, list[tuple[float, float, float]]] = defaultdict(list)

    def now(self) -> tuple[float, float, float]:
        return (
            time.perf_counter(),
            _cpu_of([self.server_pid]),
            _cpu_of(_chromium_pids()),
        )

    def mark(self, name: str, since: tuple[float, float, float]) -> tuple[float, float, float]:
        now = self.now()
        self.rows[name].append(tuple(b - a for a, b in zip(since, now, strict=True)))
        return now

    def table(self) -> str:
        lines = [
            "| phase | wall (median) | server CPU | Chromium CPU |",
            "| --- | --- | --- | --- |",
        ]
        for name, rows in self.rows.items():
            wall, server, chromium = (
                statistics.median(column) for column in zip(*rows, strict=True)
            )
            lines.append(f"| {name} | {wall:.2f} s | {server:.2f} s | {chromium:.2f} s |")
        return "\n".join(lines)


def visit_by_link(clock: Clock, context, url: str) -> None:
    """The page audit's visit: a new tab, goto, first run, quiet, measures."""
    start = clock.now()
    page = context.new_page()
    page.goto(url, wait_until="load")
    t = clock.mark("link: goto (scripts from the cache, parsed)", start)
    page.wait_for_selector("h1", timeout=60_000)
    t = clock.mark("link: websocket, session, first elements", t)
    page.wait_for_selector(screen.LINK_CODE, timeout=60_000)
    t = clock.mark("link: the whole first run drawn", t)
    page.wait_for_selector(f"{screen.CHART} svg text", state="attached", timeout=60_000)
    screen.wait_idle(page)
    t = clock.mark("link: charts drawn + quiet (0.4 s)", t)
    _measures(clock, page, t, "link")
    clock.mark("link: all", start)
    page.close()


def _measures(clock: Clock, page, t, prefix: str):
    audit.measure(page, page.url, run_axe=False)
    t = clock.mark(f"{prefix}: layout measures", t)
    page.add_script_tag(path=str(audit.AXE))
    page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations.length"
    )
    return clock.mark(f"{prefix}: axe", t)


def in_tab(clock: Clock, page, title: str, other: str) -> None:
    """The same page reached in the open tab from ``other``: by the Pages menu, by its link
    followed in place, and by a goto (a new session in a warm tab); then measured, toggled
    into presentation mode, resized to a phone and changed by one slider step."""
    server = page.url.split("?")[0].rsplit("/", 1)[0]
    learner.go_to(page, other)
    t = clock.now()
    learner.go_to(page, title)
    clock.mark("tab: Pages menu to the page, drawn and quiet", t)
    learner.go_to(page, other)
    t = clock.now()
    screen.follow_link(page, f"{server}/{PAGE_PATH}")
    clock.mark("tab: link followed in place, drawn and quiet", t)
    learner.go_to(page, other)
    t = clock.now()
    screen.open_page(page, f"{server}/{PAGE_PATH}")
    t = clock.mark("tab: goto in the open tab (a new session), drawn and quiet", t)
    _measures(clock, page, t, "tab")
    before = screen.main_text(page)
    t = clock.now()
    learner.toggle_presentation(page)
    screen.after_change(page, screen.main_text, before)
    clock.mark("tab: presentation mode toggled, drawn and quiet", t)
    learner.toggle_presentation(page)
    screen.wait_ready(page)
    t = clock.now()
    audit.resized(page, 390, 844)
    clock.mark("tab: resized to a phone, measured", t)
    audit.resized(page, *VIEWPORT.values())
    before = screen.main_text(page)
    t = clock.now()
    screen.step_slider(page, "d_out")
    screen.after_change(page, screen.main_text, before)
    clock.mark("tab: one d_out step, redrawn and quiet", t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--page", default="", help="the page's path ('' for the Playground)")
    parser.add_argument("--title", default="Playground", help="its name in the Pages menu")
    args = parser.parse_args()
    global PAGE_PATH
    PAGE_PATH = args.page
    process, url = start_server(extra=("--server.enableAgentApi", "true"))
    clock = Clock(process.pid)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport=VIEWPORT)
            warm = context.new_page()
            screen.open_page(warm, url)  # scripts into the cache, the server's imports done
            warm.close()
            tab = screen.link_tab(context, url)
            for _round in range(args.rounds):
                visit_by_link(clock, context, f"{url}/{args.page}")
                in_tab(clock, tab, args.title, "Compare A and B" if args.page else "Flow")
            browser.close()
    finally:
        stop_server(process)
    print(f"{args.rounds} rounds, page {args.page or 'Playground'!r}\n")
    print(clock.table())


if __name__ == "__main__":
    main()
