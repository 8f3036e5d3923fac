"""A class: the teacher's view that learners follow, and the answers to an open question.

Only the holder of the teacher key changes a class; a learner only says it is following and
answers the open question. Every refusal is an exception whose message a learner reads.

A question is answered in rounds (peer instruction: vote, discuss, vote again). Asking it
opens a new round, numbered on from the question's earlier ones; *Vote again* opens one more
(its answers start empty, the first round's are kept). Each answer is stored per question and
round with the time it was given.

The lead passes from one device to another without the key on any screen: the second device
asks (its session makes a key of its own and sends only its digest), the leading session
allows it (the digest joins the class's teacher keys, and the asker leads) or refuses.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from classroom import codes
from classroom.store import ClassStore, StoreDownError
from translation import _

FOLLOWING_SECONDS = 15.0  # a learner not seen for this long no longer counts as following
MEMBERS_MAX = 400  # learner sessions per class
VIEW_MAX_CHARS = 20_000  # a view's link (a 12 × 16 matrix with labels is under 2 000)
CHOICES_MAX = 6
ANSWERS_MAX = MEMBERS_MAX
QUESTION_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")
QUESTIONS_MAX = 60  # questions asked in one class
ROUNDS_MAX = 40  # rounds of one question in one class
PAGE_ID = re.compile(r"[A-Za-z0-9_-]{1,60}")
ASK_SECONDS = 120.0  # an unanswered request to lead lapses after this long
TEACHER_KEYS_MAX = 8  # the first key and the ones a leading screen handed the lead with
TOKEN = re.compile(r"[0-9a-f]{16}")  # a leader token, as classroom.codes writes it
DIGEST = re.compile(r"[0-9a-f]{64}")  # a teacher key's SHA-256


class ClassError(Exception):
    """Something about a class a learner or a teacher is told, in one sentence."""


class NoSuchClassError(ClassError):
    """No class has this code (it never existed, or it expired)."""


class NotTeacherError(ClassError):
    """A change asked without the class's teacher key."""


class NotLeaderError(ClassError):
    """A change from a teacher's session that no longer leads (another took the lead)."""


class RefusedError(ClassError):
    """A value that cannot be a class's (a code, a question, a choice), named."""


class ClassUnavailableError(ClassError):
    """The shared store cannot be reached."""


@dataclass(frozen=True)
class ClassState:
    """What every follower shows: the teacher's page and settings, and the open question."""

    code: str
    version: int
    page: str
    link: str  # the teacher's settings as a link's query string
    question: str  # the open question's id, "" when none is open
    choices: int
    revealed: bool
    leader: str = ""  # the token of the one session that leads now
    round: int = 0  # the open question's current round (its answers are counted)
    first_round: int = 0  # the round this asking began with (before any *Vote again*)
    shown: bool = False  # the teacher shows the answers' histograms
    conceal: bool = False  # the teacher's screen hides what gives an open question away
    # (each asking and each *Vote again* starts with it hidden: the projector is the
    # teacher's screen, and the teacher shows those parts only on purpose)
    rounds: tuple[tuple[str, int], ...] = ()  # every question asked, with its last round
    asking: str = ""  # the token of a session that asks to lead (answered by the leader)
    refused: str = ""  # the token of the session whose request the leader refused last

    @property
    def voted_again(self) -> bool:
        """The open question is in its second round of this asking."""
        return bool(self.question) and self.round > self.first_round


class Classroom:
    """Class mode's rules over a :class:`classroom.store.ClassStore`."""

    def __init__(self, store: ClassStore, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock
        self._recent: dict[str, tuple[float, ClassState]] = {}  # code → (read at, state)

    def _do(self, work: Callable[[], object]):
        try:
            return work()
        except StoreDownError as error:
            raise ClassUnavailableError(
                _(
                    "the class server cannot be reached; you are working on your own until it is "
                    "back"
                )
            ) from error
        except KeyError as error:  # the memory store: the class expired meanwhile
            ended = _("this class has ended (classes end after 4 idle hours)")
            raise NoSuchClassError(ended) from error

    def start(self, page: str, link: str, leader: str = "") -> tuple[str, str]:
        """A new class showing ``page`` with ``link``, led by the session whose token is
        ``leader``; returns its code and teacher key."""
        _check_view(page, link)
        key = codes.new_key()
        fields = {"teacher": codes.key_digest(key), "version": "1", "page": page, "link": link}
        fields |= {"question": "", "choices": "0", "revealed": "0", "leader": leader}
        for _attempt in range(20):  # 23⁶ codes: a collision is rare, twenty in a row impossible
            code = codes.new_code()
            if self._do(lambda code=code: self._store.create(code, fields)):
                return code, key
        raise ClassUnavailableError(_("no new class can be started on this server now; try again"))

    def state(self, code: str, max_age: float = 0.0) -> ClassState:
        """The class ``code`` as its followers show it; with ``max_age``, as read by this
        process at most that many seconds ago (a worker's followers all look every second:
        one read serves them all)."""
        code = _code(code)
        now = self._clock()
        kept = self._recent.get(code)
        if max_age and kept is not None and now - kept[0] <= max_age:
            return kept[1]
        try:
            fields = self._do(lambda: self._store.read(code))
        except ClassError:
            self._recent.pop(code, None)  # a look within max_age must not show the class still
            raise
        if not fields:
            self._recent.pop(code, None)
            raise NoSuchClassError(
                _("there is no class {code} (classes end after 4 idle hours)").format(code=code)
            )
        found = ClassState(
            code=code,
            version=int(fields.get("version", "0")),
            page=fields.get("page", ""),
            link=fields.get("link", ""),
            question=fields.get("question", ""),
            choices=int(fields.get("choices", "0")),
            revealed=fields.get("revealed") == "1",
            leader=fields.get("leader", ""),
            round=_int(fields.get("round", "0")),
            first_round=_int(fields.get("first_round", "0")),
            shown=fields.get("shown") == "1",
            conceal=fields.get("conceal") == "1",
            rounds=_read_rounds(fields.get("rounds", "")),
            asking=_live_ask(fields, now),
            refused=fields.get("refused", ""),
        )
        if len(self._recent) > 1000:
            self._recent.clear()
        self._recent[code] = (now, found)
        return found

    def check_key(self, code: str, key: str) -> None:
        """Nothing if ``key`` is the teacher key of class ``code``, else NotTeacherError."""
        code = _code(code)
        fields = self._do(lambda: self._store.read(code))
        if not fields:
            raise NoSuchClassError(
                _("there is no class {code} (classes end after 4 idle hours)").format(code=code)
            )
        given = key if isinstance(key, str) and len(key) <= 100 else ""
        digests = fields.get("teacher", "").split(",")
        if not any(codes.key_matches(given, digest) for digest in digests):
            raise NotTeacherError(
                _("that is not the teacher key of class {code}: the class is unchanged").format(
                    code=code
                )
            )

    def lead(self, code: str, key: str, page: str, link: str, leader: str | None = None) -> int:
        """Show ``page`` with ``link`` on every follower; returns the class's new version.
        With ``leader``, only while that session leads (checked and written at once): a tab
        that another took the lead from changes nothing."""
        _check_view(page, link)
        self.check_key(code, key)
        view = {"page": page, "link": link}
        if leader is None:
            return self._do(lambda: self._store.write(code, view, bump=True))
        version = self._do(lambda: self._store.write_if(code, "leader", leader, view, bump=True))
        if version is None:
            raise NotLeaderError(
                _("another tab or device leads class {code} now").format(code=code)
            )
        return version

    def take_lead(self, code: str, key: str, leader: str) -> ClassState:
        """The session whose token is ``leader`` leads ``code`` from now on (every other
        session of the key's holders stops leading); returns the class."""
        self.check_key(code, key)
        self._do(lambda: self._store.write(code, {"leader": leader}))
        return self.state(code)

    def ask_lead(self, code: str, token: str, digest: str) -> None:
        """The session whose token is ``token`` asks to lead ``code`` with a key of its own,
        of which the store gets only the SHA-256 ``digest`` (the leading session answers with
        :meth:`answer_lead`; a later request replaces an unanswered one)."""
        if not TOKEN.fullmatch(token) or not DIGEST.fullmatch(digest):
            raise RefusedError(_("a request to lead needs a session token and a key's digest"))
        self.state(code)  # a class that ended is not revived by a request
        fields = {"asking": token, "asking_key": digest, "asking_at": repr(self._clock())}
        self._do(lambda: self._store.write(_code(code), fields))

    def answer_lead(self, code: str, key: str, leader: str, token: str, allow: bool) -> int:
        """The leading session (``leader``, with ``key``) allows or refuses the request to
        lead of the session ``token``: allowed, that session's key becomes one of the class's
        teacher keys and it leads; refused, it is told. Returns the class's new version (the
        asking session is made to run again by it)."""
        self.check_key(code, key)
        code = _code(code)
        fields = self._do(lambda: self._store.read(code)) or {}
        if not token or _live_ask(fields, self._clock()) != token:
            raise RefusedError(_("that request to lead has lapsed; the other screen may ask again"))
        cleared = {"asking": "", "asking_key": "", "asking_at": ""}
        if not allow:
            return self._do(lambda: self._store.write(code, cleared | {"refused": token}, True))
        digests = [d for d in fields.get("teacher", "").split(",") if d]
        digests = [*digests[:1], *digests[1:][-(TEACHER_KEYS_MAX - 2) :], fields["asking_key"]]
        handed = cleared | {"teacher": ",".join(digests), "leader": token, "refused": ""}
        version = self._do(lambda: self._store.write_if(code, "leader", leader, handed, bump=True))
        if version is None:
            raise NotLeaderError(
                _("another tab or device leads class {code} now").format(code=code)
            )
        return version

    def end(self, code: str, key: str) -> None:
        """End the class ``code``: every key of it leaves the store, and its learners, who
        find it gone, are detached."""
        self.check_key(code, key)
        code = _code(code)
        self._do(lambda: self._store.delete(code))
        self._recent.pop(code, None)

    def ask(self, code: str, key: str, question: str, choices: int) -> int:
        """Open ``question`` (with ``choices`` options) for the class in a new round; its
        answer hidden, the answers' histogram too until the teacher shows it, and what gives it
        away hidden on the teacher's screen as on every learner's."""
        if not QUESTION_ID.fullmatch(question) or not 2 <= choices <= CHOICES_MAX:
            raise RefusedError(_("a question needs an id of lowercase letters and 2 to 6 choices"))
        self.check_key(code, key)
        rounds = dict(self.state(code).rounds)
        if question not in rounds and len(rounds) >= QUESTIONS_MAX:
            raise RefusedError(
                _("a class asks {QUESTIONS_MAX} questions at most").format(
                    QUESTIONS_MAX=QUESTIONS_MAX
                )
            )
        fields = {"question": question, "choices": str(choices), "revealed": "0", "shown": "0"}
        fields["conceal"] = "1"  # the projector hides what gives it away until told otherwise
        fields |= self._next_round(rounds, question)
        fields["first_round"] = fields["round"]
        return self._do(lambda: self._store.write(code, fields, bump=True))

    def vote_again(self, code: str, key: str) -> int:
        """A second round of the open question: its answers start empty, the first round's
        are kept; its answer and histograms hidden again."""
        self.check_key(code, key)
        current = self.state(code)
        if not current.question:
            raise RefusedError(_("no question is open in the class"))
        if current.voted_again:
            raise RefusedError(_("this question has been voted on twice already"))
        fields = {"revealed": "0", "shown": "0", "conceal": "1"}
        fields |= self._next_round(dict(current.rounds), current.question)
        return self._do(lambda: self._store.write(code, fields, bump=True))

    @staticmethod
    def _next_round(rounds: dict[str, int], question: str) -> dict[str, str]:
        number = rounds.get(question, 0) + 1
        if number > ROUNDS_MAX:
            raise RefusedError(
                _("a question has {ROUNDS_MAX} rounds at most").format(ROUNDS_MAX=ROUNDS_MAX)
            )
        rounds[question] = number
        return {"round": str(number), "rounds": ",".join(f"{q}:{n}" for q, n in rounds.items())}

    def show_answers(self, code: str, key: str, shown: bool = True) -> int:
        """Show (or hide) the open question's histograms on the teacher's screen (no new
        version: followers show nothing of it, and are not made to run again)."""
        self.check_key(code, key)
        return self._do(lambda: self._store.write(code, {"shown": "1" if shown else "0"}))

    def conceal(self, code: str, key: str, hidden: bool = True) -> int:
        """Hide (or show again) on the teacher's screen what gives an open question away
        (followers never see it while the question is open: no new version for them)."""
        self.check_key(code, key)
        return self._do(lambda: self._store.write(code, {"conceal": "1" if hidden else "0"}))

    def reveal(self, code: str, key: str, shown: bool = True) -> int:
        """Show (or hide again) the open question's answer on every follower."""
        self.check_key(code, key)
        fields = {"revealed": "1" if shown else "0"}
        return self._do(lambda: self._store.write(code, fields, bump=True))

    def close_question(self, code: str, key: str) -> int:
        self.check_key(code, key)
        fields = {"question": "", "choices": "0", "revealed": "0", "shown": "0"}
        return self._do(lambda: self._store.write(code, fields, bump=True))

    def follow(self, code: str, learner: str) -> None:
        """``learner`` (a random id) is following ``code`` now."""
        code, now = _code(code), self._clock()
        if not re.fullmatch(r"[0-9a-f]{16}", learner):
            raise RefusedError(_("a learner id is 16 hexadecimal digits"))
        self.state(code)  # a class that ended is not revived by its learners
        since = now - FOLLOWING_SECONDS * 4
        if self._do(lambda: self._store.count_seen(code, since)) >= MEMBERS_MAX:
            raise RefusedError(
                _("class {code} is full ({MEMBERS_MAX} learners)").format(
                    code=code, MEMBERS_MAX=MEMBERS_MAX
                )
            )
        self._do(lambda: self._store.seen(code, learner, now, since))

    def unfollow(self, code: str, learner: str) -> None:
        """``learner`` no longer counts as following ``code`` (it leads now)."""
        since = self._clock() - FOLLOWING_SECONDS
        self._do(lambda: self._store.seen(_code(code), learner, 0.0, since))

    def following(self, code: str) -> int:
        """How many learners followed ``code`` in the last ``FOLLOWING_SECONDS``."""
        since = self._clock() - FOLLOWING_SECONDS
        return int(self._do(lambda: self._store.count_seen(_code(code), since)))

    def answer(self, code: str, learner: str, question: str, choice: int) -> None:
        """``learner``'s answer to the open question; answering again replaces it."""
        current = self.state(code)
        if not current.question or question != current.question:
            raise RefusedError(_("this question is not open in the class any more"))
        if isinstance(choice, bool) or not isinstance(choice, int):
            raise RefusedError(_("an answer is one of the question's choices"))
        if not 0 <= choice < current.choices:
            raise RefusedError(
                _("an answer is one of the {choices} choices").format(choices=current.choices)
            )
        self.follow(current.code, learner)
        at, round_ = self._clock(), current.round
        self._do(
            lambda: self._store.put_answer(current.code, question, round_, learner, choice, at)
        )

    def tally(self, code: str, question: str, round_: int | None = None) -> list[int]:
        """How many learners chose each choice of the open ``question`` in round ``round_``
        (its current round by default); [] when ``question`` is not open."""
        current = self.state(code)
        counts = [0] * max(current.choices, 0)
        if question != current.question:
            return counts
        number = current.round if round_ is None else round_
        given = self._do(lambda: self._store.answers(current.code, question, number))
        for choice, _at in given.values():
            if 0 <= choice < len(counts):
                counts[choice] += 1
        return counts

    def answer_of(self, code: str, learner: str, question: str) -> int | None:
        """``learner``'s choice in the open ``question``'s current round, or None."""
        current = self.state(code)
        if not current.question or question != current.question:
            return None
        found = self._do(
            lambda: self._store.answer_of(current.code, question, current.round, learner)
        )
        return found[0] if found is not None else None

    def answer_rows(self, code: str, key: str) -> list[tuple[str, str, int, int, float]]:
        """Every answer the class gave, for its teacher: (learner id, question, round, choice,
        time answered), by question as asked, round and time. No names: ids are random."""
        self.check_key(code, key)
        current = self.state(code)
        rows = []
        for question, last in current.rounds:
            for number in range(1, last + 1):
                given = self._do(
                    lambda q=question, n=number: self._store.answers(current.code, q, n)
                )
                found = sorted(given.items(), key=lambda item: (item[1][1], item[0]))
                rows += [(who, question, number, c, at) for who, (c, at) in found]
        return rows


def _live_ask(fields: dict[str, str], now: float) -> str:
    """The token of the session that asks to lead, while its request has not lapsed."""
    token = fields.get("asking", "")
    try:
        at = float(fields.get("asking_at", "") or "nan")
    except ValueError:
        return ""
    return token if TOKEN.fullmatch(token) and 0 <= now - at <= ASK_SECONDS else ""


def _int(text: str) -> int:
    return int(text) if text.isdigit() else 0


def _read_rounds(text: str) -> tuple[tuple[str, int], ...]:
    found = (part.partition(":") for part in text.split(",") if part)
    return tuple((q, int(n)) for q, _sep, n in found if QUESTION_ID.fullmatch(q) and n.isdigit())


def _code(text: str) -> str:
    try:
        return codes.read_code(text)
    except codes.BadCodeError as error:
        raise RefusedError(str(error)) from error


def _check_view(page: str, link: str) -> None:
    if not PAGE_ID.fullmatch(page) or len(link) > VIEW_MAX_CHARS:
        raise RefusedError(
            _("a class view is a page and a link of {VIEW_MAX_CHARS} characters at most").format(
                VIEW_MAX_CHARS=VIEW_MAX_CHARS
            )
        )
