"""Class mode in a lecture hall, in Chromium (issue 38): 2 workers behind nginx, with Redis.

A teacher and three learners, each in a browser context of their own (one on a phone), one
learner joining by typing the code. The teacher moves d_out and edits a cell: every follower
shows the core's numbers for the teacher's settings. One learner explores on their own and
changes something: nobody else's numbers move; back to the teacher, theirs follow again.
A forged teacher key changes nothing. Redis is stopped: every banner says the class link is
lost and everyone keeps working; Redis is started again and following resumes without a
reload. The worker of some learners (not the teacher's) is killed: their pages reconnect,
join again by the code in their link and follow the next change. The teacher opens a
lesson's question on another page, the learners (who followed to that page) answer, the
teacher's screen counts 3 answers, and the reveal reaches them.

The followers' own timed looks are set an hour apart: every update they show was pushed by
their worker (``classroom.push``). A stage that fails is recorded with what the pages
showed, and fails the tests that rest on it.

The scenario runs once (module fixture ``hall``); each test checks one promise of it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest

from tests.budget import ALONE
from tests.e2e import learner, screen
from tests.e2e.expected import settings_of, trace_of
from tests.e2e.processes import start_serve, stop_serve, tool, worker_pid

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(ALONE)]

LOOK_SECONDS = "ATTENTION_CLASS_LOOK_SECONDS"  # ui.blocks.class_panel.FOLLOW_EVERY
TOLERANCE = 1.5e-4  # four printed decimals
FOLLOW_WITHIN = 20.0  # a generous bound for a loaded CI machine; bench/ measures the p95
ALERT_TEXT = '[data-testid="stAlertContainer"]'


@dataclass
class Hall:
    code: str = ""
    followed: list[list[bool]] = field(default_factory=list)  # per change, per learner
    latencies: list[float] = field(default_factory=list)
    explorer_own: bool = False
    others_kept: bool = False
    explorer_back: bool = False
    forged_said: str = ""
    forged_kept: bool = False
    lost_banners: list[str] = field(default_factory=list)
    worked_alone: bool = False
    resumed: list[bool] = field(default_factory=list)
    followed_page: list[str] = field(default_factory=list)
    counted: str = ""
    revealed: list[bool] = field(default_factory=list)
    workers: set[str] = field(default_factory=set)
    killed: str = ""  # the worker killed under its learners (not the teacher's)
    rejoined: list[str] = field(default_factory=list)  # their banners once reconnected
    followed_after_kill: list[bool] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)  # stage: what went wrong, and where

    def passed(self, *stages: str) -> None:
        """Each stage a test's promise rests on ran to its end (else: why, and what showed)."""
        broken = {name: self.failed[name] for name in stages if name in self.failed}
        assert not broken, broken


def vector(page) -> list[float] | None:
    try:
        return screen.shown_context_vector(page)
    except (AssertionError, Exception):  # the sentence is being redrawn
        return None


def close(shown: list[float] | None, wanted: list[float]) -> bool:
    return (
        shown is not None
        and len(shown) == len(wanted)
        and all(abs(a - b) <= TOLERANCE for a, b in zip(shown, wanted, strict=True))
    )


def core_vector(page) -> list[float]:
    """What the core computes for the settings in ``page``'s own link."""
    settings = settings_of(screen.share_link(page))
    return trace_of(settings).output[settings.query_index].tolist()


def wait_shows(page, wanted: list[float], timeout: float = FOLLOW_WITHIN) -> float | None:
    """Seconds until ``page`` shows ``wanted`` (None if it never does)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if close(vector(page), wanted):
            return time.monotonic() - start
        page.wait_for_timeout(50)
    return None


def banner(page) -> str:
    return " ".join(page.locator(ALERT_TEXT).all_inner_texts())


def wait_banner(page, pattern: str, timeout: float = 20.0) -> str:
    screen.wait_for(page, banner, lambda text: re.search(pattern, text) is not None, timeout)
    return banner(page)


def open_app(browser, contexts: list, url: str, **options):
    """A new browser context (another device) on ``url``, its first run drawn."""
    context = browser.new_context(**options)
    contexts.append(context)
    page = context.new_page()
    page.goto(url)
    screen.wait_ready(page)
    return page


def heading(page) -> str:
    return page.locator("h1").first.inner_text()


def open_class_menu(page) -> None:
    """The Class button beside the title opens its dialog."""
    page.locator(".st-key-class_menu button").first.click()
    page.get_by_role("dialog").wait_for(state="visible")


def what_shows(page) -> str:
    """A failed stage's evidence: the page's title, notices and buttons, and any traceback."""
    try:
        buttons = [b for b in page.get_by_role("button").all_inner_texts() if b.strip()]
        return (
            f"title {heading(page)!r}; notices {banner(page)[:300]!r}; "
            f"buttons {buttons[:25]}; exceptions {screen.exceptions(page)}"
        )
    except Exception as error:  # the page itself is gone
        return f"(unreadable: {error})"


@contextmanager
def stage(hall: Hall, name: str, *pages):
    """Run one part of the scenario; if it fails, record why with what ``pages`` showed and go
    on, so that a failure fails the tests that rest on this part (by name), not every test."""
    began = time.monotonic()
    try:
        yield
        print(f"stage {name}: {time.monotonic() - began:.1f} s")  # shown with pytest -s
    except Exception as error:
        shown = "; ".join(f"page {n}: {what_shows(p)}" for n, p in enumerate(pages))
        hall.failed[name] = f"{type(error).__name__}: {str(error)[:400]} | {shown}"


def supervisorctl(run_dir, *args: str) -> None:
    command = [tool("supervisorctl") or "supervisorctl", "-c", str(run_dir / "supervisord.conf")]
    subprocess.run([*command, *args], check=True, capture_output=True, timeout=60)


def teacher_changes(hall: Hall, teacher, learners, change) -> None:
    """The teacher does ``change``; each learner's numbers must become the teacher's."""
    change(teacher)
    screen.wait_ready(teacher)
    wanted = core_vector(teacher)
    assert close(vector(teacher), wanted)
    done = time.monotonic()
    row = []
    for page in learners:
        row.append(wait_shows(page, wanted) is not None)
        if row[-1]:
            hall.latencies.append(time.monotonic() - done)  # an upper bound for the later ones
    hall.followed.append(row)


def worker_cookie(page) -> str:
    """The worker nginx sends this browser to (its cookie: "w1" or "w2")."""
    cookies = page.context.cookies()
    return next((c["value"] for c in cookies if c["name"] == "attention_worker"), "")


def ask_the_class(teacher) -> None:
    """The teacher opens the page's question: the button is waited for, then clicked; a click
    that a redraw swallowed is made again, at most three times."""
    ask = teacher.get_by_role("button", name="Ask the class")
    opened = teacher.get_by_role("button", name="Reveal to the class")
    for _ in range(3):
        if not opened.count():
            ask.wait_for(timeout=30_000)
            ask.click()
        try:
            opened.wait_for(timeout=15_000)
            return
        except Exception:
            continue
    opened.wait_for(timeout=1_000)  # raises: the question never opened


@pytest.fixture(scope="module")
def hall(browser, tmp_path_factory) -> Hall:
    missing = [n for n in ("nginx", "supervisord", "redis-server") if tool(n) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (apt-get install -y {' '.join(missing)})")
    run_dir = tmp_path_factory.mktemp("class") / "run"
    # The followers' own looks an hour apart: whatever reaches them is the workers' push.
    process, port, worker_ports = start_serve(run_dir, 2, env={LOOK_SECONDS: "3600"})
    url = f"http://127.0.0.1:{port}"
    hall, contexts, on_worker, sockets = Hall(), [], {}, {}
    try:
        laptop = {"viewport": {"width": 1280, "height": 720}}
        phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
        teacher = open_app(browser, contexts, url, **laptop)
        open_class_menu(teacher)
        teacher.get_by_role("button", name="Teach a class").click()
        text = wait_banner(teacher, r"Teaching class [A-Z0-9]{6}")
        hall.code = re.search(r"Teaching class ([A-Z0-9]{6})", text).group(1)
        teacher.keyboard.press("Escape")

        learners = []
        for n, options in enumerate((laptop, laptop, phone)):
            context = browser.new_context(**options)
            contexts.append(context)
            page = context.new_page()
            sockets[page] = []
            page.on("websocket", lambda _ws, mine=sockets[page]: mine.append(time.time()))
            if n == 1:  # joins by typing the code into the Class dialog
                page.goto(url)
                screen.wait_ready(page)
                open_class_menu(page)
                page.get_by_label("Join a class: its code").fill(hall.code.lower())
                page.get_by_role("button", name="Join").click()
            else:  # opens the join link
                page.goto(f"{url}/?class={hall.code}")
            wait_banner(page, "Following the teacher")
            screen.wait_ready(page)
            learners.append(page)
            on_worker[page] = worker_cookie(page)
            hall.workers.add(on_worker[page])

        # The teacher moves d_out, then types a number into the matrix.
        with stage(hall, "follow", teacher, *learners):
            teacher_changes(hall, teacher, learners, lambda p: screen.step_slider(p, "d_out"))
            teacher_changes(hall, teacher, learners, lambda p: learner.type_in_cell(p, 0, 1, "0.9"))
        teachers_numbers = vector(teacher)

        # One learner explores on their own and moves d_out: only their numbers move.
        explorer, others = learners[0], learners[1:]
        with stage(hall, "explore", teacher, explorer):
            explorer.get_by_role("button", name="Explore on my own").click()
            wait_banner(explorer, "Exploring on your own")
            screen.step_slider(explorer, "d_out")
            screen.wait_ready(explorer)
            hall.explorer_own = close(vector(explorer), core_vector(explorer)) and not close(
                vector(explorer), teachers_numbers
            )
            hall.others_kept = all(close(vector(p), teachers_numbers) for p in [teacher, *others])
            explorer.get_by_role("button", name="Back to the teacher").click()
            hall.explorer_back = wait_shows(explorer, teachers_numbers) is not None

        # A forged teacher key, typed into another session's take-over form.
        forger = open_app(browser, contexts, url, **laptop)
        with stage(hall, "forge", forger):
            open_class_menu(forger)
            forger.get_by_text("Lead a class you started in another tab").click()
            forger.get_by_label("Class code").fill(hall.code)
            forger.get_by_label("Teacher key").fill("not-the-key-" + "x" * 20)
            forger.get_by_role("button", name="Lead this class").click()
            hall.forged_said = wait_banner(forger, "not the teacher key")
            screen.step_slider(forger, "d_out")  # were it leading, the class would move
            screen.wait_ready(forger)
            hall.forged_kept = all(close(vector(p), teachers_numbers) for p in learners)

        # Redis stops: every banner says so, and the pages keep working alone.
        with stage(hall, "redis", teacher, *learners):
            supervisorctl(run_dir, "stop", "redis")
            for page in [teacher, *learners]:
                hall.lost_banners.append(wait_banner(page, "the class link is lost"))
            screen.step_slider(learners[1], "d_out")
            screen.wait_ready(learners[1])
            hall.worked_alone = close(vector(learners[1]), core_vector(learners[1]))
            learners[1].get_by_role("button", name="Back to the teacher").click()
            supervisorctl(run_dir, "start", "redis")
            for page in learners:
                hall.resumed.append(wait_shows(page, teachers_numbers) is not None)
            teacher_changes(hall, teacher, learners, lambda p: screen.step_slider(p, "d_out"))

        # The worker of some learners (not the teacher's) is killed: their pages reconnect by
        # themselves, join again by the code their link carries, and follow the next change.
        with stage(hall, "rejoin", teacher, *learners):
            hall.killed = next(w for w in sorted(hall.workers) if w != worker_cookie(teacher))
            moved = [p for p in learners if on_worker[p] == hall.killed]
            assert moved, on_worker
            killed_at = time.time()
            os.kill(worker_pid(worker_ports[int(hall.killed[1:]) - 1]), signal.SIGKILL)
            for page in moved:  # its websocket closed: the page opens a new one by itself
                screen.wait_for(page, lambda p: max(sockets[p]) > killed_at, bool, 60)
                hall.rejoined.append(wait_banner(page, "Following the teacher", timeout=60))
                screen.wait_ready(page)
            before = len(hall.followed)
            teacher_changes(hall, teacher, learners, lambda p: screen.step_slider(p, "d_out"))
            hall.followed_after_kill = hall.followed[before]

        # A question on another page: the learners follow there, answer, and see the reveal.
        with stage(hall, "question", teacher, *learners):
            learner.go_to(teacher, "4 · Scaling")
            screen.wait_for(teacher, heading, lambda text: "Scaling" in text, timeout=30)
            screen.wait_ready(teacher)
            for page in learners:
                title = screen.wait_for(page, heading, lambda text: "Scaling" in text, timeout=30)
                hall.followed_page.append(title)
                screen.wait_ready(page)
            ask_the_class(teacher)
            for n, page in enumerate(learners):
                choice = page.get_by_role("radiogroup", name=re.compile("Your answer"))
                try:
                    choice.wait_for(timeout=30_000)
                except Exception as error:  # say what the learner's screen showed instead
                    raise AssertionError(
                        f"learner {n}: no answer buttons; shown: {banner(page)}"
                    ) from error
                choice.get_by_text("It doubles" if n else "It quadruples").click()
            hall.counted = screen.wait_for(
                teacher,
                lambda p: " ".join(
                    p.locator('[data-testid="stCaptionContainer"]').all_inner_texts()
                ),
                lambda text: "3 answers" in text,
                timeout=30,
            )
            teacher.get_by_role("button", name="Reveal to the class").click()
            for page in learners:
                found = page.get_by_text("It doubles: q·k is a sum of d_k products")
                try:
                    found.first.wait_for(timeout=20_000)
                    hall.revealed.append(True)
                except Exception:
                    hall.revealed.append(False)
        for page in [teacher, *learners, forger]:
            hall.exceptions += screen.exceptions(page)
    finally:
        for context in contexts:
            context.close()
        stop_serve(process)
    return hall


def test_learners_on_both_workers_follow_the_teachers_changes(hall):
    hall.passed("follow")
    assert hall.workers == {"w1", "w2"}, hall.workers
    assert hall.followed and all(all(row) for row in hall.followed), hall.followed
    print(f"seconds to follow: {sorted(round(s, 2) for s in hall.latencies)}")


def test_an_explorer_changes_nobody_elses_numbers_and_comes_back(hall):
    hall.passed("explore")
    assert hall.explorer_own
    assert hall.others_kept
    assert hall.explorer_back


def test_a_forged_teacher_key_leaves_the_class_unchanged(hall):
    hall.passed("forge")
    assert "not the teacher key" in hall.forged_said
    assert hall.forged_kept


def test_without_redis_everyone_works_alone_then_follows_again(hall):
    hall.passed("redis")
    assert len(hall.lost_banners) == 4
    assert all("the class link is lost" in text for text in hall.lost_banners), [
        t[:80] for t in hall.lost_banners
    ]
    assert hall.worked_alone
    assert hall.resumed == [True, True, True]


def test_a_killed_workers_learners_rejoin_and_follow(hall):
    hall.passed("rejoin")
    assert hall.killed in {"w1", "w2"}
    assert hall.rejoined and all("Following the teacher" in t for t in hall.rejoined)
    assert hall.followed_after_kill == [True, True, True], hall.followed_after_kill


def test_answers_are_counted_on_the_teachers_screen_and_the_reveal_reaches_everyone(hall):
    hall.passed("question")
    assert all("Scaling" in title for title in hall.followed_page), hall.followed_page
    assert "3 answers" in hall.counted
    assert "A: 0 (0 %); B: 2 (67 %); C: 0 (0 %); D: 1 (33 %)" in hall.counted
    assert hall.revealed == [True, True, True]


def test_nothing_crashed(hall):
    assert hall.exceptions == []
