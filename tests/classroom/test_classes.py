"""Class mode's rules (issue 38), on both stores: in memory, and a real Redis server.

Only the teacher key changes a class; codes, keys, questions and answers from outside are
refused by name; a class expires after 4 idle hours; a learner is only a random id; a second
answer replaces the first; answers survive a new ``Classroom`` (a worker restart) because
they live in the store; a stopped Redis is said in words, and a restarted one (append-only
file) still knows its classes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time

import pytest

from classroom import (
    CODE_ALPHABET,
    Classroom,
    ClassUnavailableError,
    MemoryStore,
    NoSuchClassError,
    NotLeaderError,
    NotTeacherError,
    RefusedError,
    codes,
    read_code,
)
from classroom.codes import BadCodeError, new_code, new_learner_id
from classroom.store import IDLE_SECONDS, StoreDownError
from tests.e2e.processes import free_ports

LINK = "d_out=3&seed=7"
SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
LOOK_ALIKES = set("0O1IL5S2Z8BUV")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class RedisServer:
    """Debian's redis-server on a free loopback port, with an append-only file."""

    def __init__(self, folder) -> None:
        (port,) = free_ports(1)
        self.url = f"redis://127.0.0.1:{port}/0"
        self.command = [SERVER, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder)]
        self.command += ["--save", "", "--appendonly", "yes", "--appendfsync", "always"]
        self.process = None

    def start(self) -> None:
        import redis

        self.process = subprocess.Popen(self.command, stdout=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    if not os.access(SERVER, os.X_OK):
        pytest.skip("redis-server not installed (apt-get install -y redis-server)")
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(params=["memory", "redis"])
def made(request):
    """A Classroom factory on a fresh store of each kind (the same store each call)."""
    if request.param == "memory":
        store = MemoryStore()
        return lambda clock=time.time: Classroom(store, clock)
    from classroom.redis_store import RedisStore

    url = request.getfixturevalue("redis_server").url
    store = RedisStore(url)
    return lambda clock=time.time: Classroom(store, clock)


def test_codes_are_six_characters_without_look_alikes_and_read_as_typed():
    assert not LOOK_ALIKES & set(CODE_ALPHABET)
    codes = {new_code() for _ in range(300)}
    assert len(codes) == 300 and all(re.fullmatch(f"[{CODE_ALPHABET}]{{6}}", c) for c in codes)
    assert read_code(" k7r-m3q ") == "K7RM3Q"
    for bad, words in [
        ("K7RM3", "6 characters, not 5"),
        ("K7RM3Q9", "not 7"),
        ("K0RM3Q", "are not among them"),
        ("<scr>!", "are not among them"),
        ("x" * 41, "this text has 41"),
        ("A" * 2000, "this text has 2000"),
        ("", "6 characters, and none was given"),  # what a browser sends after a paste it dropped
        (" - ", "6 characters, and none was given"),
    ]:
        with pytest.raises(BadCodeError, match=re.escape(words)):
            read_code(bad)


def test_only_the_teacher_key_changes_the_class(made):
    room = made()
    code, key = room.start("streamlit_app", LINK)
    assert len(key) >= 32 and key not in code
    assert room.state(code).link == LINK and room.state(code).version == 1
    for forged in ("", "x" * 32, key[:-1], key + "x", "k" * 10_000, None):
        with pytest.raises(NotTeacherError, match="not the teacher key of class"):
            room.lead(code, forged, "4_Scaling", "d_out=5")
        with pytest.raises(NotTeacherError):
            room.ask(code, forged, "scaling_variance", 4)
    assert room.state(code).page == "streamlit_app" and room.state(code).link == LINK
    assert room.lead(code, key, "4_Scaling", "d_out=5") == 2
    assert (room.state(code).page, room.state(code).link) == ("4_Scaling", "d_out=5")


def test_the_store_keeps_no_key_and_no_personal_data(made):
    room = made()
    code, key = room.start("streamlit_app", LINK)
    learner = new_learner_id()
    room.follow(code, learner)
    store = room._store
    fields = store.read(code)
    assert key not in " ".join(fields.values())
    assert set(fields) == {
        "teacher",
        "version",
        "page",
        "link",
        "question",
        "choices",
        "revealed",
        "leader",  # a random token of the leading session: no key, nothing personal
    }
    with pytest.raises(RefusedError, match="16 hexadecimal digits"):
        room.follow(code, "Alice Smith")


def test_hostile_codes_views_questions_and_answers_are_refused_by_name(made):
    room = made()
    code, key = room.start("streamlit_app", LINK)
    for hostile in ("", "ABC", "<img src=x>", "'; DROP", "Ａ" * 6, "class:*"):
        with pytest.raises(RefusedError, match="a class code"):
            room.state(hostile)
    with pytest.raises(NoSuchClassError, match="there is no class"):
        room.state("AAAAAA" if code != "AAAAAA" else "CCCCCC")
    with pytest.raises(RefusedError, match="a class view"):
        room.lead(code, key, "../etc", LINK)
    with pytest.raises(RefusedError, match="a class view"):
        room.lead(code, key, "streamlit_app", "x" * 20_001)
    for question, choices in (("Bad Id", 3), ("q", 1), ("q", 7), ("x" * 41, 2)):
        with pytest.raises(RefusedError, match="a question"):
            room.ask(code, key, question, choices)
    learner = new_learner_id()
    with pytest.raises(RefusedError, match="not open"):
        room.answer(code, learner, "scaling_variance", 0)
    room.ask(code, key, "scaling_variance", 4)
    for choice in (-1, 4, 1.0, True, "1", None):
        with pytest.raises(RefusedError, match="choices"):
            room.answer(code, learner, "scaling_variance", choice)
    with pytest.raises(RefusedError, match="not open"):
        room.answer(code, learner, "causal_first", 0)


def test_one_answer_per_learner_and_counts_survive_a_new_worker(made):
    room = made()
    code, key = room.start("4_Scaling", LINK)
    room.ask(code, key, "scaling_variance", 4)
    first, second, third = (new_learner_id() for _ in range(3))
    room.answer(code, first, "scaling_variance", 3)
    room.answer(code, first, "scaling_variance", 1)  # replaces the first answer
    room.answer(code, second, "scaling_variance", 1)
    room.answer(code, third, "scaling_variance", 0)
    assert room.tally(code, "scaling_variance") == [1, 2, 0, 0]
    assert made().tally(code, "scaling_variance") == [1, 2, 0, 0]  # another process
    assert made().following(code) == 3
    room.reveal(code, key)
    assert made().state(code).revealed
    room.close_question(code, key)
    assert made().state(code).question == ""
    assert room.tally(code, "scaling_variance") == []


def test_one_session_leads_at_a_time_and_taking_the_lead_needs_the_key(made):
    """The tab that started the class leads; another session with the key takes the lead,
    after which the first one's changes are refused and the class keeps the second's."""
    room = made()
    code, key = room.start("streamlit_app", LINK, leader="first")
    assert room.state(code).leader == "first"
    assert room.lead(code, key, "4_Scaling", "d_out=5", leader="first") == 2
    with pytest.raises(NotTeacherError):
        room.take_lead(code, "x" * 32, "forger")
    assert room.state(code).leader == "first"
    taken = room.take_lead(code, key, "second")
    assert taken.leader == "second" and taken.version == 2  # taking the lead is no new view
    with pytest.raises(NotLeaderError, match=f"another tab or device leads class {code} now"):
        room.lead(code, key, "streamlit_app", "d_out=2", leader="first")
    assert (room.state(code).page, room.state(code).link) == ("4_Scaling", "d_out=5")
    assert room.lead(code, key, "0_Flow", "d_out=6", leader="second") == 3
    room.take_lead(code, key, "first")  # "lead from here again"
    assert made().lead(code, key, "0_Flow", "d_out=7", leader="first") == 4  # another worker
    with pytest.raises(NotLeaderError):
        room.lead(code, key, "0_Flow", "d_out=8", leader="second")
    assert room.state(code).link == "d_out=7"


def test_the_lead_passes_to_another_screen_only_when_the_leading_one_allows_it(made):
    """A second screen asks with the digest of a key of its own (the store never holds a
    key); only the leading session answers; allowed, the second leads with its own key, the
    first key still works, and the first screen's changes are refused; refused, it is said."""
    clock = Clock()
    room = made(clock)
    code, key = room.start("streamlit_app", LINK, leader="0" * 16)
    phone_key, phone = codes.new_key(), "1" * 16
    room.ask_lead(code, phone, codes.key_digest(phone_key))
    assert room.state(code).asking == phone
    assert phone_key not in " ".join(room._store.read(code).values())
    with pytest.raises(NotTeacherError):  # a learner cannot answer for the teacher
        room.answer_lead(code, phone_key, "0" * 16, phone, allow=True)
    with pytest.raises(NotLeaderError):  # nor a teacher's tab that does not lead
        room.answer_lead(code, key, "2" * 16, phone, allow=True)
    assert room.state(code).asking == phone
    version = room.answer_lead(code, key, "0" * 16, phone, allow=True)
    found = room.state(code)
    assert (found.leader, found.asking, found.version) == (phone, "", version)
    assert room.lead(code, phone_key, "4_Scaling", "d_out=5", leader=phone) == version + 1
    with pytest.raises(NotLeaderError):
        room.lead(code, key, "streamlit_app", "d_out=2", leader="0" * 16)
    room.take_lead(code, key, "0" * 16)  # the first key still leads when its screen asks
    # A refusal, and a request that lapses unanswered.
    laptop = "3" * 16
    room.ask_lead(code, laptop, codes.key_digest(codes.new_key()))
    room.answer_lead(code, key, "0" * 16, laptop, allow=False)
    assert (room.state(code).refused, room.state(code).asking) == (laptop, "")
    room.ask_lead(code, laptop, codes.key_digest(codes.new_key()))
    clock.now += 121
    assert room.state(code).asking == ""
    with pytest.raises(RefusedError, match="lapsed"):
        room.answer_lead(code, key, "0" * 16, laptop, allow=True)
    with pytest.raises(RefusedError, match="digest"):
        room.ask_lead(code, laptop, "<script>")


def test_ending_a_class_deletes_it_and_needs_the_key(made):
    room = made()
    code, key = room.start("4_Scaling", LINK, leader="t")
    room.ask(code, key, "scaling_variance", 4)
    learner = new_learner_id()
    room.answer(code, learner, "scaling_variance", 2)
    with pytest.raises(NotTeacherError):
        room.end(code, key[:-1] + ("A" if key[-1] != "A" else "B"))
    assert room.state(code).question == "scaling_variance"
    room.end(code, key)
    assert room._store.read(code) is None
    for look in (lambda: room.state(code), lambda: made().state(code, max_age=60)):
        with pytest.raises(NoSuchClassError):
            look()
    with pytest.raises(NoSuchClassError):
        room.follow(code, learner)  # a learner's "still following" does not revive it
    with pytest.raises(NoSuchClassError):
        room.lead(code, key, "4_Scaling", "d_out=4", leader="t")
    with pytest.raises(NoSuchClassError):
        room.end(code, key)
    store = room._store
    with pytest.raises(KeyError):  # a change racing with the end does not bring it back
        store.write(code, {"question": "causal_first"}, bump=True)
    with pytest.raises(KeyError):
        store.seen(code, learner, time.time(), 0.0)
    assert store.read(code) is None


def test_ending_leaves_no_redis_key_behind(redis_server):
    import redis

    from classroom.redis_store import RedisStore

    room = Classroom(RedisStore(redis_server.url))
    client = redis.Redis.from_url(redis_server.url)
    code, key = room.start("4_Scaling", LINK, leader="t")
    kept, _ = room.start("4_Scaling", LINK)  # another class: untouched
    for question in ("scaling_variance", "causal_first"):
        room.ask(code, key, question, 4)
        room.answer(code, new_learner_id(), question, 1)
    assert len(client.keys(f"class:{code}*")) == 4
    room.end(code, key)
    assert client.keys(f"class:{code}*") == []
    assert room._store.write_if(kept, "leader", "", {"page": "0_Flow"}) == 1
    assert client.exists(f"class:{kept}")
    with pytest.raises(KeyError):  # a conditional write or a "seen" never recreates a key
        room._store.write_if(code, "leader", "t", {"page": "0_Flow"})
    with pytest.raises(KeyError):
        room._store.seen(code, new_learner_id(), time.time(), 0.0)
    with pytest.raises(KeyError):  # an answer racing with the end brings no key back either
        room._store.put_answer(code, "scaling_variance", 1, new_learner_id(), 1, time.time())
    assert client.keys(f"class:{code}*") == []


def test_two_classes_never_mix(made):
    room = made()
    (a, key_a), (b, key_b) = room.start("streamlit_app", "d_out=3"), room.start("0_Flow", "")
    room.ask(a, key_a, "causal_first", 4)
    room.ask(b, key_b, "causal_first", 4)
    learner = new_learner_id()
    room.answer(a, learner, "causal_first", 2)
    assert room.tally(a, "causal_first") == [0, 0, 1, 0]
    assert room.tally(b, "causal_first") == [0, 0, 0, 0]
    with pytest.raises(NotTeacherError):
        room.lead(b, key_a, "streamlit_app", "")
    assert room.following(b) == 0 and room.following(a) == 1


def test_a_class_expires_after_four_idle_hours_in_memory():
    clock = Clock()
    room = Classroom(MemoryStore(clock), clock)
    code, key = room.start("streamlit_app", LINK)
    clock.now += IDLE_SECONDS - 60
    room.lead(code, key, "streamlit_app", "d_out=4")  # activity: four more hours
    clock.now += IDLE_SECONDS - 60
    assert room.state(code).link == "d_out=4"
    clock.now += 120
    with pytest.raises(NoSuchClassError):
        room.state(code)
    with pytest.raises(NoSuchClassError):
        room.follow(code, new_learner_id())  # a learner does not revive it


def test_every_redis_key_of_a_class_expires_and_stays_bounded(redis_server):
    import redis

    from classroom.redis_store import RedisStore

    url = redis_server.url
    room = Classroom(RedisStore(url))
    code, key = room.start("streamlit_app", LINK)
    room.ask(code, key, "causal_first", 4)
    for _ in range(5):
        learner = new_learner_id()
        room.answer(code, learner, "causal_first", 1)
    client = redis.Redis.from_url(url)
    keys = sorted(k.decode() for k in client.keys(f"class:{code}*"))
    assert keys == [f"class:{code}", f"class:{code}:answers:causal_first:1", f"class:{code}:seen"]
    assert all(0 < client.ttl(k) <= IDLE_SECONDS for k in keys)


class FailingStore(MemoryStore):
    """A memory store whose reads fail while ``down`` (a stopped Redis, without one)."""

    down = False

    def read(self, code: str) -> dict[str, str] | None:
        if self.down:
            raise StoreDownError("the store is down")
        return super().read(code)


def test_a_failed_read_is_never_answered_from_the_recent_state():
    """The push learns that the store is lost, then reruns a follower whose look may come
    within ``max_age``: that look must say the store is lost too, not the state from before."""
    clock = Clock()
    store = FailingStore(clock)
    room = Classroom(store, clock)
    code, _ = room.start("streamlit_app", LINK)
    assert room.state(code, max_age=0.2).link == LINK  # read, and kept for 0.2 s
    store.down = True
    with pytest.raises(ClassUnavailableError):
        room.state(code)  # the push's own read
    with pytest.raises(ClassUnavailableError):
        room.state(code, max_age=0.2)  # the follower's look, at the same instant
    store.down = False
    assert room.state(code, max_age=0.2).link == LINK


def test_a_stopped_redis_is_said_and_a_restarted_one_keeps_its_classes(redis_server):
    from classroom.redis_store import RedisStore

    room = Classroom(RedisStore(redis_server.url))
    code, key = room.start("streamlit_app", LINK)
    room.ask(code, key, "causal_first", 4)
    room.answer(code, new_learner_id(), "causal_first", 0)
    redis_server.stop()
    with pytest.raises(ClassUnavailableError, match="cannot be reached"):
        room.state(code)
    with pytest.raises(ClassUnavailableError):
        room.answer(code, new_learner_id(), "causal_first", 0)
    redis_server.start()
    state = room.state(code)
    assert state.link == LINK and state.question == "causal_first"
    assert room.tally(code, "causal_first") == [1, 0, 0, 0]


def test_a_class_holds_at_most_its_bound_of_learner_sessions():
    from classroom.classes import MEMBERS_MAX

    room = Classroom(MemoryStore())
    code, _ = room.start("streamlit_app", LINK)
    for _ in range(MEMBERS_MAX):
        room.follow(code, new_learner_id())
    for _ in range(3):
        with pytest.raises(RefusedError, match=f"is full \\({MEMBERS_MAX} learners\\)"):
            room.follow(code, new_learner_id())
    assert room.following(code) == MEMBERS_MAX
