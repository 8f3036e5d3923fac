"""Classes in Redis, shared by the lecture hall's workers (``deploy/serve.sh`` starts it).

Keys of class ``K7RM3Q``: ``class:K7RM3Q`` (a hash of its fields), ``class:K7RM3Q:seen`` (a
sorted set: learner id → last seen) and ``class:K7RM3Q:answers:<question>:<round>`` (a hash:
learner id → "choice:time"). Each write refreshes every key's expiry to ``IDLE_SECONDS``. A
write (of fields, conditional or not), a learner's "seen" and an answer are Lua scripts,
checked and done at once: none writes to a class ended (deleted) meanwhile, which would leave
a key of it behind, and a write to a class that is gone raises KeyError, as the memory store
does.
"""

from __future__ import annotations

import redis

from classroom.store import IDLE_SECONDS, StoreDownError

TIMEOUT = 0.5  # seconds: a stopped Redis must not hold up a page
NO_CLASS, NOT_EXPECTED = -2, -1  # what the scripts return instead of a count or a version

# KEYS: the class's hash, its seen set. ARGV: field ("": none checked), expected value, bump
# (0 or 1), expiry, then the fields to set as name, value pairs.
_WRITE_IF = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -2 end
if ARGV[1] ~= '' and (redis.call('HGET', KEYS[1], ARGV[1]) or '') ~= ARGV[2] then return -1 end
for i = 5, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
local version = redis.call('HINCRBY', KEYS[1], 'version', tonumber(ARGV[3]))
for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], tonumber(ARGV[4])) end
return version
"""
# KEYS: the class's hash, its seen set. ARGV: member, now, since, expiry.
_SEEN = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -2 end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[3])
local count = redis.call('ZCARD', KEYS[2])
for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], tonumber(ARGV[4])) end
return count
"""


# KEYS: the class's hash, its seen set, the round's answers. ARGV: member, answer, expiry.
_ANSWER = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -2 end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], tonumber(ARGV[3])) end
return 0
"""


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
        self._write_if = self._redis.register_script(_WRITE_IF)
        self._seen = self._redis.register_script(_SEEN)
        self._answer = self._redis.register_script(_ANSWER)

    def _call(self, work):
        try:
            return work(self._redis)
        except redis.RedisError as error:
            raise StoreDownError(str(error)) from error

    @staticmethod
    def _keys(code: str) -> tuple[str, str]:
        return f"class:{code}", f"class:{code}:seen"

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
        version = self.write_if(code, "", "", fields, bump)  # no field checked: the class only
        assert version is not None
        return version

    def write_if(
        self, code: str, name: str, expected: str, fields: dict[str, str], bump: bool = False
    ) -> int | None:
        pairs = [item for pair in fields.items() for item in pair]
        args = [name, expected, 1 if bump else 0, IDLE_SECONDS, *pairs]
        found = int(self._call(lambda r: self._write_if(keys=self._keys(code), args=args)))
        if found == NO_CLASS:
            raise KeyError(code)  # as the memory store does: the class ended meanwhile
        return None if found == NOT_EXPECTED else found

    def delete(self, code: str) -> None:
        def work(r):
            keys = [*self._keys(code), *r.scan_iter(match=f"class:{code}:*", count=1000)]
            r.delete(*keys)

        self._call(work)

    def seen(self, code: str, member: str, now: float, since: float) -> int:
        args = [member, repr(now), repr(since), IDLE_SECONDS]
        count = int(self._call(lambda r: self._seen(keys=self._keys(code), args=args)))
        if count == NO_CLASS:
            raise KeyError(code)
        return count

    def count_seen(self, code: str, since: float) -> int:
        return int(self._call(lambda r: r.zcount(self._keys(code)[1], since, "+inf")))

    def put_answer(
        self, code: str, question: str, round_: int, member: str, choice: int, at: float
    ) -> None:
        keys = [*self._keys(code), _answers_key(code, question, round_)]
        args = [member, f"{choice}:{at:.3f}", IDLE_SECONDS]
        if int(self._call(lambda r: self._answer(keys=keys, args=args))) == NO_CLASS:
            raise KeyError(code)  # the class ended meanwhile: no answers key comes back

    def answers(self, code: str, question: str, round_: int) -> dict[str, tuple[int, float]]:
        key = _answers_key(code, question, round_)
        given = self._call(lambda r: r.hgetall(key))
        return {member: _answer(value) for member, value in given.items()}

    def answer_of(
        self, code: str, question: str, round_: int, member: str
    ) -> tuple[int, float] | None:
        value = self._call(lambda r: r.hget(_answers_key(code, question, round_), member))
        return _answer(value) if value is not None else None


def _answers_key(code: str, question: str, round_: int) -> str:
    return f"class:{code}:answers:{question}:{round_}"


def _answer(value: str) -> tuple[int, float]:
    choice, _, at = value.partition(":")
    return int(choice), float(at or 0.0)
