"""Classes in Redis, shared by the lecture hall's workers (``deploy/serve.sh`` starts it).

Keys of class ``K7RM3Q``: ``class:K7RM3Q`` (a hash of its fields), ``class:K7RM3Q:seen`` (a
sorted set: learner id → last seen) and ``class:K7RM3Q:answers:<question>`` (a hash: learner
id → choice). Each write refreshes every key's expiry to ``IDLE_SECONDS``.
"""

from __future__ import annotations

import redis

from classroom.store import IDLE_SECONDS, StoreDownError

TIMEOUT = 0.5  # seconds: a stopped Redis must not hold up a page


class RedisStore:
    """A :class:`classroom.store.ClassStore` on a Redis server."""

    def __init__(self, url: str) -> None:
        self._redis = redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=TIMEOUT,
            socket_connect_timeout=TIMEOUT,
            retry_on_timeout=False,
        )

    def _call(self, work):
        try:
            return work(self._redis)
        except redis.RedisError as error:
            raise StoreDownError(str(error)) from error

    @staticmethod
    def _keys(code: str) -> tuple[str, str]:
        return f"class:{code}", f"class:{code}:seen"

    def _refresh(self, pipe, code: str, *extra: str) -> None:
        for key in (*self._keys(code), *extra):
            pipe.expire(key, IDLE_SECONDS)

    def create(self, code: str, fields: dict[str, str]) -> bool:
        main, _ = self._keys(code)

        def work(r):
            if not r.hsetnx(main, "version", fields.get("version", "0")):
                return False
            pipe = r.pipeline()
            pipe.hset(main, mapping=fields)
            pipe.expire(main, IDLE_SECONDS)
            pipe.execute()
            return True

        return self._call(work)

    def read(self, code: str) -> dict[str, str] | None:
        return self._call(lambda r: r.hgetall(self._keys(code)[0]) or None)

    def write(self, code: str, fields: dict[str, str], bump: bool = False) -> int:
        main, _ = self._keys(code)

        def work(r):
            pipe = r.pipeline()
            if fields:
                pipe.hset(main, mapping=fields)
            pipe.hincrby(main, "version", 1 if bump else 0)
            self._refresh(pipe, code)
            return int(pipe.execute()[1 if fields else 0])

        return self._call(work)

    def seen(self, code: str, member: str, now: float, since: float) -> int:
        _, seen = self._keys(code)

        def work(r):
            pipe = r.pipeline()
            pipe.zadd(seen, {member: now})
            pipe.zremrangebyscore(seen, "-inf", f"({since}")
            pipe.zcard(seen)
            self._refresh(pipe, code)
            return int(pipe.execute()[2])

        return self._call(work)

    def count_seen(self, code: str, since: float) -> int:
        return int(self._call(lambda r: r.zcount(self._keys(code)[1], since, "+inf")))

    def put_answer(self, code: str, question: str, member: str, choice: int) -> None:
        key = f"class:{code}:answers:{question}"

        def work(r):
            pipe = r.pipeline()
            pipe.hset(key, member, str(choice))
            self._refresh(pipe, code, key)
            pipe.execute()

        self._call(work)

    def answers(self, code: str, question: str) -> list[int]:
        key = f"class:{code}:answers:{question}"
        return [int(v) for v in self._call(lambda r: r.hvals(key))]
