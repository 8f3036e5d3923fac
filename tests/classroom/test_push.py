"""The worker's push (issue 38): exactly the sessions behind their class are asked to run again,
once per change; a lost store, its return and a class's end are news too; sessions of another
class, explorers and closed sessions are left alone; every follower is counted as following
(at once when new, then every few seconds). ``tick`` is driven directly; one test runs the
thread."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from classroom import Classroom, MemoryStore
from classroom.push import ENDED, LOST, Push
from classroom.store import StoreDownError

LINK = "d_out=3&seed=7"
OTHER_LINK = "d_out=4&seed=7"
LEARNER = "0123456789abcdef"


class SwitchableStore(MemoryStore):
    """A memory store that can be made unreachable, as a stopped Redis is."""

    down = False

    def read(self, code):
        if self.down:
            raise StoreDownError("down")
        return super().read(code)


class Reruns:
    def __init__(self, gone: tuple[str, ...] = ()) -> None:
        self.asked: list[str] = []
        self.gone = gone
        self.event = threading.Event()

    def __call__(self, session_id: str) -> bool:
        self.asked.append(session_id)
        self.event.set()
        return session_id not in self.gone


@dataclass
class Hall:
    store: SwitchableStore
    room: Classroom
    code: str
    key: str
    reruns: Reruns
    push: Push
    clock: list[float]

    def lead(self) -> int:
        return self.room.lead(self.code, self.key, "playground", OTHER_LINK)


def hall(gone: tuple[str, ...] = ()) -> Hall:
    store, clock = SwitchableStore(), [1000.0]
    room = Classroom(store, clock=lambda: clock[0])
    code, key = room.start("playground", LINK)
    reruns = Reruns(gone)
    push = Push(room, reruns, every=3600, seen_every=4.0, clock=lambda: clock[0])
    return Hall(store, room, code, key, reruns, push, clock)


def test_only_a_session_behind_its_class_is_rerun_and_only_once_per_change():
    h = hall()
    h.push.shows("a", h.code, 1)
    h.push.shows("b", h.code, 1)
    assert h.push.tick() == []  # both show version 1
    version = h.lead()
    assert sorted(h.push.tick()) == ["a", "b"]
    assert h.push.tick() == []  # asked once: their runs are under way
    h.push.shows("a", h.code, version)  # a's run showed it; b's was lost
    h.push.shows("b", h.code, 1)
    assert h.push.tick() == ["b"]


def test_a_session_busy_with_its_own_run_is_asked_again_at_the_next_look():
    h = hall()
    h.push.shows("a", h.code, 1)
    h.lead()
    assert h.push.tick() == ["a"]
    h.push.retry("a")  # its run was under way: the rerun was not started
    assert h.push.tick() == ["a"]
    assert h.push.tick() == []


def test_another_class_and_an_explorer_are_left_alone():
    h = hall()
    other, _ = h.room.start("playground", LINK)
    h.push.shows("a", h.code, 1)
    h.push.shows("elsewhere", other, 1)
    h.push.shows("explorer", h.code, 1)
    h.push.forget("explorer")
    h.lead()
    assert h.push.tick() == ["a"]
    assert h.push.following() == {"a": h.code, "elsewhere": other}


def test_a_lost_store_and_its_return_each_wake_the_followers_once():
    h = hall()
    h.push.shows("a", h.code, 1)
    h.store.down = True
    assert h.push.status(h.code) == LOST
    assert h.push.tick() == ["a"]
    h.push.shows("a", h.code, LOST)  # its run said "the class link is lost"
    assert h.push.tick() == []
    h.store.down = False
    assert h.push.tick() == ["a"]  # following resumes without a reload


def test_a_closed_session_is_forgotten_and_an_ended_class_dropped_once_its_run_left_it():
    h = hall(gone=("closed",))
    h.push.shows("closed", h.code, 1)
    h.push.shows("a", h.code, 1)
    h.lead()
    assert h.push.tick() == ["a"]
    assert "closed" not in h.push.following()
    h.store._classes.clear()  # the class expired
    assert h.push.status(h.code) == ENDED
    h.push.shows("a", h.code, 2)
    assert h.push.tick() == ["a"]
    assert h.push.tick() == []  # asked once
    h.push.forget("a")  # its run found the class gone and left it
    assert h.push.following() == {}


def test_an_ended_class_reaches_a_session_whose_own_run_was_under_way():
    """The end must not be lost because the rerun could not start: the session is held until
    its own run leaves the class (before, it was dropped at once, and stayed "following")."""
    h = hall()
    h.push.shows("a", h.code, 1)
    h.room.end(h.code, h.key)
    assert h.push.tick() == ["a"]
    h.push.retry("a")  # a run of its own was under way, begun before the end
    h.push.shows("a", h.code, 1)  # and it finished showing the class still
    assert h.push.tick() == ["a"]


def test_an_explorer_hears_of_a_lost_store_its_return_and_the_end_but_not_of_a_new_view():
    h = hall()
    h.push.shows("x", h.code, 1, LEARNER, following=False)
    h.lead()
    assert h.push.tick() == []  # the teacher's new view is not the explorer's news
    assert h.push.exploring() == {"x": h.code} and h.push.following() == {}
    h.store.down = True
    assert h.push.tick() == ["x"]
    h.push.shows("x", h.code, LOST, LEARNER, following=False)
    assert h.push.tick() == []
    h.store.down = False
    assert h.push.tick() == ["x"]  # its banner must stop saying the link is lost
    h.push.shows("x", h.code, 1, LEARNER, following=False)
    h.room.end(h.code, h.key)
    assert h.push.tick() == ["x"]
    assert h.room.following(h.code) == 0  # an explorer was never counted as following


def test_followers_are_counted_at_once_then_every_few_seconds():
    h = hall()
    h.push.tick()  # t = 1000: a round of "still following" (nobody yet)
    h.clock[0] = 1001.0
    h.push.shows("a", h.code, 1, LEARNER)
    h.push.tick()
    assert h.room.following(h.code) == 1  # a newcomer is counted at once, between rounds
    h.push.forget("a")  # a explores now
    h.clock[0] = 1010.0
    h.push.shows("b", h.code, 1, "fedcba9876543210")
    h.push.tick()
    assert h.room.following(h.code) == 2
    h.clock[0] = 1020.0  # a was last seen at 1001, b at 1010: the round sees b again
    h.push.tick()
    assert h.room.following(h.code) == 1


def test_the_thread_wakes_a_follower_when_the_teacher_leads():
    h = hall()
    h.push.shows("a", h.code, 1)  # starts the thread (its ticks an hour apart)
    try:
        h.lead()
        h.push.wake()  # what a teacher's session of this worker does after leading
        assert h.reruns.event.wait(10)
        assert h.reruns.asked == ["a"]
    finally:
        h.push.stop()
