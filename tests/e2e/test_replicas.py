"""Replicas for a lecture hall, in Chromium through nginx (issue 16, item 3).

`bash deploy/serve.sh --workers 2` on free loopback ports; four learners (browser contexts,
each with its own cookies) open links with different settings; nginx spreads them over both
workers by a cookie it sets. Then one worker is killed (SIGKILL): every page must reconnect by
itself and answer a slider change with its own link's numbers, nothing clicked or reloaded, and
supervisord must restart the worker. Finally SIGTERM to serve.sh must leave no process behind.

The scenario runs once (module fixture ``lecture``); each test checks one promise of it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from attention_core import run_attention
from attention_core.knobs.links import read_params
from tests.budget import ALONE
from tests.e2e.processes import descendants, processes, start_serve, stop_serve, tool, worker_pid
from tests.e2e.screen import (
    shown_context_vector,
    slider_value,
    step_slider,
    summary_text,
    wait_for,
    wait_idle,
)

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(ALONE)]

ROOT = Path(__file__).resolve().parents[2]
HEALTHCHECK = ROOT / "deploy" / "healthcheck.py"
WORKERS = 2
LINKS = (
    "d_out=3&seed=5",
    "mask=causal&seed=7",
    "d_out=4&query=3&seed=9",
    "scaling=none&seed=11",
)
SLIDER = "d_out"
TOLERANCE = 1.5e-4  # the page prints four decimals


# --- expected numbers, from the core ------------------------------------------------------


def expected_context_vector(link: str, d_out_steps: int = 0) -> list[float]:
    """The focused query's context vector for a link, with d_out moved ``d_out_steps`` up."""
    raw = parse_qs(link)
    if d_out_steps:
        raw["d_out"] = [str(int(raw.get("d_out", ["2"])[-1]) + d_out_steps)]
    settings, notices = read_params(raw)
    assert not notices, notices
    trace = run_attention(settings.embeddings(), settings.config())
    return trace.output[settings.query_index].tolist()


def close(shown: list[float], wanted: list[float]) -> bool:
    return len(shown) == len(wanted) and all(
        abs(a - b) <= TOLERANCE for a, b in zip(shown, wanted, strict=True)
    )


# --- processes and ports ------------------------------------------------------------------


# --- the scenario -------------------------------------------------------------------------


@dataclass
class Learner:
    link: str
    context: object
    page: object
    websockets: list[float] = field(default_factory=list)
    worker_header: str = ""
    worker_cookie: str = ""
    shown: list[float] = field(default_factory=list)
    first_answer: list[float] = field(default_factory=list)
    final: list[float] = field(default_factory=list)
    answered_after: float = float("nan")  # seconds from the kill to the first answered change
    cookie_after: str = ""  # the cookie once the page answered after the kill

    def cookie(self) -> str:
        return next(
            (c["value"] for c in self.context.cookies() if c["name"] == "attention_worker"), ""
        )


@dataclass
class Lecture:
    learners: list[Learner]
    killed: str = ""
    killed_pid: int = 0
    killed_at: float = 0.0
    restarted_pid: int | None = None
    healthy_again: bool = False
    exit_code: int | None = None
    stop_seconds: float = float("nan")
    started: dict[int, str] = field(default_factory=dict)
    leftovers: list[str] = field(default_factory=list)


def answer_to_a_change(page, timeout: float = 45.0) -> list[float]:
    """Move d_out one step; the numbers the page answers with.

    Returns when the numbers change, or when the page has answered with the slider back where
    it was (the change was not kept).
    """
    wait_for(page, summary_text, bool, timeout=60)  # the sentence's words, not just its box
    before_numbers, before = shown_context_vector(page), slider_value(page, SLIDER)
    step_slider(page, SLIDER)
    pressed = time.monotonic() + 5  # the key press moves the slider at once, before any answer
    while slider_value(page, SLIDER) == before:
        if time.monotonic() > pressed:
            raise AssertionError("the slider did not move on the key press")
        page.wait_for_timeout(20)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        numbers = shown_context_vector(page)
        if numbers != before_numbers or slider_value(page, SLIDER) == before:
            return numbers
        page.wait_for_timeout(100)
    raise TimeoutError(f"no answer to a change within {timeout:.0f} s")


@pytest.fixture(scope="module")
def lecture(browser, tmp_path_factory) -> Lecture:
    missing = [name for name in ("nginx", "supervisord") if tool(name) is None]
    if missing:
        pytest.skip(
            f"{' and '.join(missing)} not installed: apt-get install -y nginx supervisor "
            "to run the replica test"
        )
    run_dir = tmp_path_factory.mktemp("serve") / "run"
    process, port, worker_ports = start_serve(run_dir, WORKERS)
    url = f"http://127.0.0.1:{port}"
    names = {f"w{i + 1}": p for i, p in enumerate(worker_ports)}
    learners: list[Learner] = []
    try:
        lecture = Lecture(learners)
        # Four learners, one after another, each in a browser context of its own.
        for link in LINKS:
            context = browser.new_context(viewport={"width": 1280, "height": 720})
            page = context.new_page()
            learner = Learner(link, context, page)
            page.on("websocket", lambda _ws, mine=learner: mine.websockets.append(time.time()))
            response = page.goto(f"{url}/?{link}")
            learner.worker_header = response.headers.get("x-worker", "")
            # The sentence's container can be on the page before its words (a loaded machine).
            wait_for(page, summary_text, bool, timeout=60)
            learner.shown = shown_context_vector(page)
            learner.worker_cookie = learner.cookie()
            learners.append(learner)

        # Kill the worker of the first learner outright.
        lecture.killed = learners[0].worker_cookie
        lecture.killed_pid = worker_pid(names[lecture.killed]) or 0
        assert lecture.killed_pid, f"no process listens for worker {lecture.killed}"
        lecture.killed_at = killed_at = time.time()
        os.kill(lecture.killed_pid, signal.SIGKILL)

        # Its learners' pages see the websocket close and open a new one by themselves.
        deadline = time.monotonic() + 60
        for learner in learners:
            if learner.worker_cookie != lecture.killed:
                continue
            while time.monotonic() < deadline and not any(
                t > killed_at for t in learner.websockets
            ):
                learner.page.wait_for_timeout(200)  # lets Playwright deliver the page's events
            wait_idle(learner.page)

        # Every learner moves d_out once; a learner whose change was not kept moves it again.
        for learner in learners:
            learner.first_answer = answer_to_a_change(learner.page)
            learner.answered_after = time.time() - killed_at
            learner.cookie_after = learner.cookie()
            learner.final = learner.first_answer
            if not close(learner.final, expected_context_vector(learner.link, 1)):
                learner.final = answer_to_a_change(learner.page)

        # supervisord has restarted the killed worker, and it is healthy behind nginx.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            lecture.restarted_pid = worker_pid(names[lecture.killed])
            if lecture.restarted_pid not in (None, lecture.killed_pid):
                break
            time.sleep(0.5)
        check = [sys.executable, str(HEALTHCHECK), "--port", str(port), "--run-dir", str(run_dir)]
        done = subprocess.run([*check, "--wait", "60"], capture_output=True, check=False)
        lecture.healthy_again = done.returncode == 0
    finally:
        for learner in learners:
            learner.context.close()
        # Stop serve.sh as Ctrl-C or a service manager would, and look for anything left.
        lecture.started = descendants(process.pid)
        stopping = time.monotonic()
        process.send_signal(signal.SIGTERM)
        try:
            lecture.exit_code = process.wait(60)
        except subprocess.TimeoutExpired:
            stop_serve(process)
        lecture.stop_seconds = time.monotonic() - stopping
        live = processes()
        deadline = time.monotonic() + 10  # what serve.sh stopped may take a moment to exit
        while time.monotonic() < deadline and any(
            pid in live and live[pid][1] != "Z" for pid in lecture.started
        ):
            time.sleep(0.1)
            live = processes()
        for learner in learners:  # shown with pytest -s
            print(
                f"{learner.link}: on {learner.worker_cookie}, after the kill on "
                f"{learner.cookie_after}, first change answered after "
                f"{learner.answered_after:.1f} s"
            )
        print(f"killed {lecture.killed}; serve.sh stopped in {lecture.stop_seconds:.1f} s")
        lecture.leftovers = [
            cmdline
            for pid, (_, state, cmdline) in live.items()
            if state != "Z"
            and (
                (pid in lecture.started and live[pid][2] == lecture.started[pid])
                or str(run_dir) in cmdline
                or any(f"--server.port {p} " in cmdline for p in worker_ports)
            )
        ]
    return lecture


def test_learners_are_spread_over_the_workers_by_a_cookie(lecture):
    workers = {learner.worker_cookie for learner in lecture.learners}
    assert len(workers) >= 2, f"every learner on {workers}"
    for learner in lecture.learners:
        assert learner.worker_cookie in {"w1", "w2"}
        assert learner.worker_header == learner.worker_cookie, learner.link


def test_each_page_shows_its_own_links_numbers(lecture):
    for learner in lecture.learners:
        assert close(learner.shown, expected_context_vector(learner.link)), learner.link


def test_after_a_worker_dies_every_page_answers_a_change_with_its_own_numbers(lecture):
    """Reconnected by themselves, nothing clicked or reloaded, within a minute."""
    killed = [ln for ln in lecture.learners if ln.worker_cookie == lecture.killed]
    assert killed, "no learner was on the killed worker"
    for learner in killed:
        assert any(t > lecture.killed_at for t in learner.websockets), learner.link
    for learner in lecture.learners:
        assert learner.cookie_after in {"w1", "w2"}, (learner.link, learner.cookie_after)
    for learner in lecture.learners:
        changed = expected_context_vector(learner.link, 1)
        assert learner.answered_after < 60, (learner.link, learner.answered_after)
        # And a slider change works.
        assert close(learner.final, changed), (learner.link, learner.final)


def test_supervisord_restarts_the_killed_worker(lecture):
    assert lecture.restarted_pid not in (None, lecture.killed_pid)
    assert lecture.healthy_again


def test_the_first_change_after_a_failover_is_kept(lecture):
    # The new session starts from the link, and the change the browser sent with its first
    # rerun wins over the link's value (ui/session/state.adopt): the slider does not snap back.
    for learner in lecture.learners:
        assert close(learner.first_answer, expected_context_vector(learner.link, 1)), learner.link


def test_stopping_serve_sh_leaves_no_process_behind(lecture):
    names = " ".join(lecture.started.values())
    assert "supervisord" in names and "nginx" in names and "streamlit" in names, names
    assert lecture.exit_code == 128 + signal.SIGTERM  # it stopped by itself within the wait
    assert lecture.leftovers == []
