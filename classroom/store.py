"""Where classes live: one small interface, kept in memory or in Redis.

Every key of a class expires after ``IDLE_SECONDS`` without a write; the store holds no
personal data: a class's fields, random learner ids with the time each was last seen, and
each learner id's answer to each round of each question, with the time it was given.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from typing import Protocol

IDLE_SECONDS = 4 * 3600  # a class expires after 4 idle hours
STORE_VARIABLE = "ATTENTION_CLASS_STORE"  # a redis:// URL; unset: in memory


class StoreDownError(RuntimeError):
    """The shared store cannot be reached (Redis stopped, or refused us)."""


class ClassStore(Protocol):
    """What class mode needs of a store. Every write refreshes the class's idle expiry."""

    def create(self, code: str, fields: dict[str, str]) -> bool:
        """Create the class ``code`` with ``fields``; False when the code is taken."""

    def read(self, code: str) -> dict[str, str] | None:
        """The class's fields, or None when there is no such class (or it expired)."""

    def write(self, code: str, fields: dict[str, str], bump: bool = False) -> int:
        """Set ``fields``; with ``bump`` add 1 to its ``version``. Returns the version."""

    def write_if(
        self, code: str, name: str, expected: str, fields: dict[str, str], bump: bool = False
    ) -> int | None:
        """:meth:`write`, done only while the field ``name`` is ``expected`` (checked and written
        at once); None, and nothing written, when it is not."""

    def delete(self, code: str) -> None:
        """Forget the class ``code``: every key of it, its learners and answers included."""

    def seen(self, code: str, member: str, now: float, since: float) -> int:
        """Note ``member`` seen at ``now``; forget those last seen before ``since``; returns
        how many members remain."""

    def count_seen(self, code: str, since: float) -> int:
        """How many members were seen at ``since`` or later."""

    def put_answer(
        self, code: str, question: str, round_: int, member: str, choice: int, at: float
    ) -> None:
        """``member``'s answer to round ``round_`` of ``question``, given at ``at`` (a second
        answer replaces the first)."""

    def answers(self, code: str, question: str, round_: int) -> dict[str, tuple[int, float]]:
        """Every member's answer to round ``round_`` of ``question``: member → (choice, at)."""

    def answer_of(
        self, code: str, question: str, round_: int, member: str
    ) -> tuple[int, float] | None:
        """``member``'s answer to round ``round_`` of ``question`` (choice, at), or None."""


@dataclass
class _Class:
    fields: dict[str, str]
    touched: float
    seen: dict[str, float] = field(default_factory=dict)
    answers: dict[tuple[str, int], dict[str, tuple[int, float]]] = field(default_factory=dict)


class MemoryStore:
    """Classes in this process's memory: one ``streamlit run`` (its sessions are threads)."""

    MAX_CLASSES = 1000

    def __init__(self, clock=time.time) -> None:
        self._classes: dict[str, _Class] = {}
        self._lock = threading.Lock()
        self._clock = clock

    def _live(self, code: str) -> _Class | None:
        found = self._classes.get(code)
        if found is not None and self._clock() - found.touched > IDLE_SECONDS:
            del self._classes[code]
            return None
        return found

    def _touched(self, code: str) -> _Class:
        found = self._live(code)
        if found is None:
            raise KeyError(code)
        found.touched = self._clock()
        return found

    def create(self, code: str, fields: dict[str, str]) -> bool:
        with self._lock:
            for old in list(self._classes):
                self._live(old)  # expired classes go first
            if self._live(code) is not None or len(self._classes) >= self.MAX_CLASSES:
                return False
            self._classes[code] = _Class(dict(fields), self._clock())
            return True

    def read(self, code: str) -> dict[str, str] | None:
        with self._lock:
            found = self._live(code)
            return dict(found.fields) if found is not None else None

    def write(self, code: str, fields: dict[str, str], bump: bool = False) -> int:
        with self._lock:
            found = self._touched(code)
            found.fields.update(fields)
            version = int(found.fields.get("version", "0")) + (1 if bump else 0)
            found.fields["version"] = str(version)
            return version

    def write_if(
        self, code: str, name: str, expected: str, fields: dict[str, str], bump: bool = False
    ) -> int | None:
        with self._lock:  # checked and written under one hold of the lock
            found = self._touched(code)
            if found.fields.get(name) != expected:
                return None
            found.fields.update(fields)
            version = int(found.fields.get("version", "0")) + (1 if bump else 0)
            found.fields["version"] = str(version)
            return version

    def delete(self, code: str) -> None:
        with self._lock:
            self._classes.pop(code, None)

    def seen(self, code: str, member: str, now: float, since: float) -> int:
        with self._lock:
            found = self._touched(code)
            found.seen[member] = now
            found.seen = {m: t for m, t in found.seen.items() if t >= since}
            return len(found.seen)

    def count_seen(self, code: str, since: float) -> int:
        with self._lock:
            found = self._live(code)
            return sum(t >= since for t in found.seen.values()) if found is not None else 0

    def put_answer(
        self, code: str, question: str, round_: int, member: str, choice: int, at: float
    ) -> None:
        with self._lock:
            given = self._touched(code).answers.setdefault((question, round_), {})
            given[member] = (choice, at)

    def answers(self, code: str, question: str, round_: int) -> dict[str, tuple[int, float]]:
        with self._lock:
            found = self._live(code)
            return dict(found.answers.get((question, round_), {})) if found is not None else {}

    def answer_of(
        self, code: str, question: str, round_: int, member: str
    ) -> tuple[int, float] | None:
        with self._lock:
            found = self._live(code)
            return found.answers.get((question, round_), {}).get(member) if found else None


def open_store(url: str | None = None) -> ClassStore:
    """The store the environment names: Redis for a ``redis://`` URL, else memory."""
    url = url if url is not None else os.environ.get(STORE_VARIABLE, "")
    if not url:
        return MemoryStore()
    from classroom.redis_store import RedisStore  # the redis client only where it is used

    return RedisStore(url)
