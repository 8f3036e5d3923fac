"""A worker's push to its followers: one reader per process, and a rerun for each session that
shows less than its class holds.

Without it every follower looks at its class on a timer (a fragment run every second: a few
milliseconds each, and up to a second's wait before the teacher's change is even seen). With
it one thread per worker process reads each followed class ``every`` seconds (one read
serves all of that class's followers on the worker) and asks exactly the sessions that are
behind to run again. Which session shows what is told by the sessions themselves at the end
of each run (:meth:`Push.shows`); how a session is made to run again is the caller's
(``ui.session.class_mode``): this module knows nothing of Streamlit. The same thread says
"still following" for each of them every ``seen_every`` seconds (the teacher's count).

A class's status is its version, or ``LOST`` while the store cannot be reached, or ``ENDED``
once it has ended or expired: a change of any of them is news for its followers (the banner
says the link is lost; following resumes; the class has ended). The sessions that explore on
their own are held too, for the news that concerns them: lost, back, ended (not a version).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from classroom.classes import ClassError, Classroom, ClassUnavailableError, NoSuchClassError

LOST = "lost"
ENDED = "ended"
Status = int | str  # a version, LOST or ENDED

_LOG = logging.getLogger(__name__)


@dataclass
class _Follower:
    code: str
    shows: Status  # what its last whole run showed: a version, or LOST
    learner: str = ""  # its random id in the class (for "still following")
    pushed: Status | None = None  # what it was last asked to show (asked once per status)
    seen: bool = False  # said "still following" at least once (a newcomer is said at once)
    following: bool = True  # False: it explores, and only a change of _kind is news for it


class Push:
    """The sessions of this process that follow a class, and the thread that wakes them."""

    def __init__(
        self,
        classroom: Classroom,
        rerun: Callable[[str], bool],
        every: float = 0.2,
        seen_every: float = 4.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``rerun(session_id)`` asks that session to run again; False when it is gone."""
        self._classroom = classroom
        self._rerun = rerun
        self._every = every
        self._seen_every = seen_every
        self._clock = clock
        self._seen_at = float("-inf")
        self._followers: dict[str, _Follower] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._wake = threading.Event()
        self._stopped = False

    def shows(
        self, session_id: str, code: str, status: Status, learner: str = "", following=True
    ) -> None:
        """Session ``session_id`` (learner id ``learner``) is in ``code``, following it or
        exploring, and has just shown ``status``."""
        with self._lock:
            old = self._followers.get(session_id)
            seen = old is not None and old.code == code and old.seen
            self._followers[session_id] = _Follower(
                code, status, learner, seen=seen, following=following
            )
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="class-push", daemon=True)
                self._thread.start()

    def forget(self, session_id: str) -> None:
        """Session ``session_id`` is in no class now (it teaches or left)."""
        with self._lock:
            self._followers.pop(session_id, None)

    def retry(self, session_id: str) -> None:
        """The rerun asked of ``session_id`` could not start (a run of its own was under way):
        ask again at the next look if it is still behind."""
        with self._lock:
            follower = self._followers.get(session_id)
            if follower is not None:
                follower.pushed = None

    def following(self) -> dict[str, str]:
        """Each following session's class code (a copy)."""
        with self._lock:
            return {sid: f.code for sid, f in self._followers.items() if f.following}

    def exploring(self) -> dict[str, str]:
        """Each exploring session's class code (a copy)."""
        with self._lock:
            return {sid: f.code for sid, f in self._followers.items() if not f.following}

    def status(self, code: str) -> Status:
        """``code``'s status as the store has it now."""
        try:
            return self._classroom.state(code).version
        except ClassUnavailableError:
            return LOST
        except NoSuchClassError:
            return ENDED
        except ClassError:
            return ENDED

    def tick(self) -> list[str]:
        """One look at every followed class; returns the sessions asked to run again."""
        with self._lock:
            codes = {f.code for f in self._followers.values()}
        statuses = {code: self.status(code) for code in codes}
        woken = []
        with self._lock:
            behind = [
                (sid, f)
                for sid, f in self._followers.items()
                if _news(f, statuses.get(f.code, f.shows))
            ]
            for _sid, follower in behind:
                # Held until its run says it left (an ended class): a rerun that could not
                # start is asked again.
                follower.pushed = statuses[follower.code]
        for sid, _ in behind:
            if self._rerun(sid):
                woken.append(sid)
            else:
                self.forget(sid)
        self._still_following(statuses)
        return woken

    def _still_following(self, statuses: dict[str, Status]) -> None:
        """Each follower of a reachable class is seen now: newcomers at once, everyone every
        ``seen_every`` seconds."""
        now = self._clock()
        due = now - self._seen_at >= self._seen_every
        if due:
            self._seen_at = now
        with self._lock:
            pending = [
                f
                for f in self._followers.values()
                if f.learner
                and f.following
                and (due or not f.seen)
                and isinstance(statuses.get(f.code), int)
            ]
            for follower in pending:
                follower.seen = True
        for follower in pending:  # unreachable, full or ended: the next run says so
            with contextlib.suppress(ClassError):
                self._classroom.follow(follower.code, follower.learner)

    def wake(self) -> None:
        """Look now, not at the next tick (a teacher of this worker has just led)."""
        self._wake.set()

    def stop(self) -> None:
        self._stopped = True
        self._wake.set()

    def _loop(self) -> None:
        while not self._stopped:
            self._wake.wait(self._every)
            self._wake.clear()
            if self._stopped:
                return
            try:
                self.tick()
            except Exception:  # the thread must outlive any one look; the fragment is the fallback
                _LOG.exception("class push: a look failed")


def _news(follower: _Follower, status: Status) -> bool:
    """Whether ``status`` is news ``follower`` has neither shown nor been asked to show."""
    if follower.following:
        return status not in (follower.shows, follower.pushed)
    return _kind(status) not in (_kind(follower.shows), _kind(follower.pushed))


def _kind(status: Status | None) -> str | None:
    """A status as an explorer sees it: the class is there (any version), lost or ended."""
    return "live" if isinstance(status, int) else status
