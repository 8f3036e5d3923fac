"""Class mode in a session: whether it teaches or follows a class, and what it last showed.

A teacher's session holds the class code and the secret teacher key (never in a link or on
a page); every run it finishes publishes its page and settings to the class. The teacher's
browser keeps the key too, in a cookie of this app (``class_cookies``): a session that opens
the class's link in that browser (a reload, a new tab, a page reconnected to another worker)
leads again with no key typed. One session leads at a time: the class's ``leader`` field holds
its random token, and a session that another took the lead from changes nothing. A learner's
session holds the code, a random id and whether it follows. The worker's push
(``classroom.push``: one thread per process reads each followed class five times a second)
reruns a follower the moment its class holds a newer view, and the run's read phase
(``ui.session.state.begin``) takes the teacher's view; the same thread says "still
following" for it. A timed fragment (``ui.blocks.class_panel``) looks too, every 15 s, as
the fallback. Any change of the learner's own detaches it ("Explore on my own"); *Back to the
teacher* follows again.

The class store (``classroom``) is one per process: in memory, or Redis when
``ATTENTION_CLASS_STORE`` names one (the lecture hall's workers share it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from urllib.parse import parse_qs, urlencode

import streamlit as st
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from attention_core.knobs.links import link_params, read_params
from attention_core.knobs.settings import Settings
from classroom import (
    ClassError,
    Classroom,
    ClassState,
    ClassUnavailableError,
    NoSuchClassError,
    NotLeaderError,
    open_store,
)
from classroom.codes import (
    BadCodeError,
    key_digest,
    new_key,
    new_leader_token,
    new_learner_id,
    read_code,
)
from classroom.push import LOST, Push
from translation import _
from ui.session import class_cookies, joining, nav

CLASS_KEY = "class"  # the link key of a join link: ?class=K7RM3Q
MEMBERSHIP = "_class_membership"
MESSAGE = "_class_message"  # a refusal to show once, in the class panel
PUSHED = "_class_pushed"  # the worker's push holds this session as a follower
GIVEAWAYS = "_class_giveaways"  # questions whose giveaways this run met above the question
OPEN_QUESTION = "_class_open_question"  # the unrevealed question a learner last saw open
HANDED = "_class_handed_over"  # this teacher's session has just let another lead
# What a follower keeps of its own: the teacher's view in its type size and its language.
PERSONAL = ("present", "lang")
SEEN_EVERY = 4.0  # seconds between a follower's "still here" (said by the worker's push)
LOOK_AGE = 0.2  # a follower's look may use what another session of its worker read this recently
PUSH_EVERY = 0.2  # seconds between the worker's reads of each followed class


@dataclass(frozen=True)
class Membership:
    """This session's part in a class."""

    code: str
    teacher_key: str = ""  # only a teacher's session holds it
    learner: str = ""
    following: bool = True
    applied: int = 0  # the class version whose view this session shows
    view: tuple[str, str] = ("", "")  # that view: (page key, link)
    lost: bool = False  # the class store could not be reached last time
    pending: tuple[str, str] = ("", "")  # a teacher's view the store missed
    just_led: bool = False  # this session's last whole run took the teacher's view
    leader: str = ""  # a teacher's session: its token, the class's leader while it leads
    superseded: bool = False  # a teacher's session another tab or device took the lead from
    unclaimed: bool = False  # led from the cookie while the store was down: leads once it is back
    asked: tuple[str, str] = ("", "")  # a learner's request to lead: (its token, its own key)

    @property
    def teaching(self) -> bool:
        return bool(self.teacher_key)


@st.cache_resource(show_spinner=False)
def classroom() -> Classroom:
    """The process's classes (shared by every session of this worker)."""
    return Classroom(open_store())


@st.cache_resource(show_spinner=False)
def push() -> Push:
    """The process's push to its following sessions (its thread starts with the first)."""
    made = Push(classroom(), lambda sid: _rerun_session(sid, made.retry), PUSH_EVERY, SEEN_EVERY)
    return made


def _rerun_session(session_id: str, retry: Callable[[str], None]) -> bool:
    """Ask session ``session_id`` to run again with its last client state, on its event loop:
    what Streamlit itself does when a source file is saved (``runOnSave``). Not while one of
    its runs is under way: that run started from the browser's newest widget values, and a
    rerun from the last client state would put older ones back; ``retry`` then asks the push
    to try again at its next look. False when the session is gone; True, doing nothing,
    where there is no such session API (the timed look then catches up)."""
    if not Runtime.exists():
        return False
    session = Runtime.instance().get_app_session(session_id)
    if session is None:
        return False
    loop, last = getattr(session, "_event_loop", None), "_client_state"
    if loop is None or not hasattr(session, last) or not hasattr(session, "_scriptrunner"):
        return True

    def again() -> None:  # on the session's event loop, where its state may be read
        if session._scriptrunner is not None:
            retry(session_id)
        else:
            session.request_rerun(getattr(session, last))

    try:
        loop.call_soon_threadsafe(again)
    except RuntimeError:  # the loop has closed: the server is stopping
        return False
    return True


def _tell_push() -> None:
    """At the end of a whole run: whether this session is a learner of a class (following
    or exploring), and what it shows. A session that never was one is not even looked up."""
    member = membership()
    learning = member is not None and not member.teaching
    if not learning and not st.session_state.get(PUSHED):
        return
    context = get_script_run_ctx(suppress_warning=True)
    if context is None:
        return
    st.session_state[PUSHED] = learning
    if not learning:
        push().forget(context.session_id)
    else:
        shown = LOST if member.lost else member.applied
        push().shows(context.session_id, member.code, shown, member.learner, member.following)


def membership() -> Membership | None:
    return st.session_state.get(MEMBERSHIP)


def _set(member: Membership | None) -> None:
    st.session_state[MEMBERSHIP] = member


def say(message: str) -> None:
    """A sentence for the class panel to show once."""
    st.session_state[MESSAGE] = message


def message() -> str | None:
    """The sentence :func:`say` left, taken (shown once)."""
    return st.session_state.pop(MESSAGE, None)


def view_link(settings: Settings) -> str:
    """The settings a class shares, as a query string (the learner's own type size left out)."""
    params = {k: v for k, v in link_params(settings).items() if k not in PERSONAL}
    return urlencode(params)


# --- starting, joining, leaving ---------------------------------------------------------------


def start(page: str, settings: Settings) -> None:
    """Teach a class from this session (a button's callback)."""
    leader = new_leader_token()
    try:
        code, key = classroom().start(page, view_link(settings), leader)
    except ClassError as error:
        say(_("No class was started: {error}.").format(error=error))
        return
    view = (page, view_link(settings))
    _set(Membership(code, teacher_key=key, view=view, applied=1, leader=leader))


def join(text: str) -> None:
    """Follow the class whose code is ``text`` (a join link or the join box); a refusal is
    said, and the learner keeps working alone."""
    try:
        current = classroom().state(text)
    except ClassError as error:
        say(_("Could not join a class: {error}. You keep working on your own.").format(error=error))
        return
    # The id this browser keeps for the class: a reload is the same learner, counted once.
    learner = class_cookies.learner_id(current.code) or new_learner_id()
    _set(Membership(current.code, learner=learner))


def take_over(code_text: str, key: str) -> None:
    """Lead an existing class from this session, with its teacher key (this browser keeps
    it from now on: a reload here leads too)."""
    leader = new_leader_token()
    try:
        current = classroom().take_lead(code_text, key, leader)
    except ClassError as error:
        say(_("Could not lead that class: {error}.").format(error=error))
        return
    _set(Membership(current.code, teacher_key=key, applied=0, leader=leader))


def ask_lead() -> None:
    """Ask the class's leading screen to let this session lead (a button's callback): a
    teacher's second device, with no key typed or shown. This session makes a key of its own;
    the store gets only its digest, and the leading screen allows it or refuses."""
    member = membership()
    if member is None or member.teaching:
        return
    token, key = new_leader_token(), new_key()
    try:
        classroom().ask_lead(member.code, token, key_digest(key))
    except ClassError as error:
        say(_("Could not ask to lead: {error}.").format(error=error))
        return
    _set(replace(member, asked=(token, key)))


def lead_answered() -> bool:
    """For a session that asked to lead: True once the leading screen has answered (it now
    leads, or is told the answer) or the request has lapsed; False while it waits."""
    member = membership()
    if member is None or member.teaching or not member.asked[0]:
        return False
    found = current_state()
    member = membership()
    if found is None or member is None:
        return member is None
    token, key = member.asked
    if found.leader == token:
        # It leads now: no longer one of the learners the teacher counts (else for 15 s more).
        with contextlib.suppress(ClassError):
            classroom().unfollow(member.code, member.learner)
        view = (found.page, found.link)
        _set(Membership(member.code, teacher_key=key, leader=token, view=view, applied=0))
        say(_("You lead class {code} now.").format(code=member.code))
    elif found.refused == token:
        _set(replace(member, asked=("", "")))
        say(
            _("The leading screen did not let this one lead: you follow class {code}.").format(
                code=member.code
            )
        )
    elif found.asking != token:
        _set(replace(member, asked=("", "")))
        say(_("The request to lead went unanswered; you may ask again."))
    else:
        return False
    return True


def answer_lead(allow: bool) -> None:
    """The leading teacher allows or refuses the open request to lead (a button's
    callback); allowed, the asking screen leads and this one says another leads now."""
    member = membership()
    if member is None or not member.teaching or member.superseded:
        return
    found = current_state()
    if found is None or not found.asking:
        return
    try:
        classroom().answer_lead(member.code, member.teacher_key, member.leader, found.asking, allow)
    except NoSuchClassError:
        _ended(member)
        return
    except ClassError as error:
        say(_("The request to lead was not answered: {error}.").format(error=error))
        return
    if allow:
        _set(replace(member, superseded=True))
        st.session_state[HANDED] = True  # the whole page is drawn again, as another's
    push().wake()  # the asking screen, if it is on this worker: now


def lead_request() -> str:
    """The token of a session that asks to lead this teacher's class ("" when none asks, or
    this session does not lead)."""
    member = membership()
    if member is None or not member.teaching or member.superseded or member.lost:
        return ""
    found = current_state(LOOK_AGE)
    return found.asking if found is not None else ""


def handed_over() -> bool:
    """True once, right after this session let another lead."""
    return bool(st.session_state.pop(HANDED, False))


def kept_classes() -> list[str]:
    """The live classes whose teacher key this browser keeps (none when the store cannot
    say): a tab opened without the class's link can lead one with a click."""
    live = []
    for code in class_cookies.kept_codes():
        try:
            classroom().check_key(code, class_cookies.read(code))
        except ClassError:
            continue
        live.append(code)
    return live


def lead_kept(code: str) -> None:
    """Lead class ``code`` from this tab with the key this browser keeps (a button's
    callback): like a take-over, what this tab shows becomes the class's view."""
    take_over(code, class_cookies.read(code))


def lead_again() -> None:
    """Lead from this session again, with its own key, after another took the lead."""
    member = membership()
    if member is None or not member.teaching:
        return
    leader = new_leader_token()
    try:
        classroom().take_lead(member.code, member.teacher_key, leader)
    except NoSuchClassError:
        _ended(member)
        return
    except ClassError as error:
        say(_("Could not lead that class: {error}.").format(error=error))
        return
    # view ("", ""): the next whole run publishes what this tab shows.
    _set(replace(member, leader=leader, superseded=False, view=("", ""), pending=("", "")))


def _lead_from_cookie(code_text: str) -> bool:
    """A fresh session opened on class ``code_text``'s link in the browser that keeps its
    teacher key (a reload, a new tab, a worker restarted): it leads; True when it does."""
    try:
        code = read_code(code_text)
    except BadCodeError:
        return False
    key = class_cookies.read(code)
    if not key:
        return False
    leader = new_leader_token()
    try:
        current = classroom().take_lead(code, key, leader)
    except ClassUnavailableError:  # the key is checked, and the lead taken, once it is back
        _set(Membership(code, teacher_key=key, leader=leader, lost=True, unclaimed=True))
        return True
    except ClassError:  # an old key, a class gone: the link joins as usual
        return False
    view = (current.page, current.link)
    _set(Membership(code, teacher_key=key, view=view, applied=current.version, leader=leader))
    return True


def cookie_script() -> str | None:
    """The script that keeps a leading teacher's key in this browser (a learner's id in its
    class), or removes the key of a class this session ended (None: nothing to do)."""
    member = membership()
    if member is None:
        return class_cookies.script()
    if not member.teaching:
        return class_cookies.script(member.code, learner=member.learner)
    return class_cookies.script(member.code, member.teacher_key)


def end_class() -> None:
    """End this teacher's class for everyone (a button's callback): its keys leave the store,
    every learner is detached, and this browser forgets the key."""
    member = membership()
    if member is None or not member.teaching:
        return
    try:
        classroom().end(member.code, member.teacher_key)
    except NoSuchClassError:
        pass  # it had ended (expired) already
    except ClassError as error:
        say(_("The class did not end: {error}.").format(error=error))
        return
    push().wake()  # this worker's learners: now, not at the next look
    class_cookies.forget(member.code)
    leave()
    say(_("Class {code} has ended: every learner now works on their own.").format(code=member.code))


def _ended(member: Membership) -> None:
    """The class of ``member`` ended (by its teacher, or after 4 idle hours): said, and left."""
    if member.teaching:
        class_cookies.forget(member.code)
        say(_("Class {code} has ended.").format(code=member.code))
    else:
        say(_("Class {code} has ended: you keep working on your own.").format(code=member.code))
    leave()


def _publish(member: Membership, view: tuple[str, str]) -> None:
    """Publish ``view`` as ``member``'s class's view, if ``member`` still leads it: kept to
    publish later when the store is down; the session told when another leads or the class
    has ended."""
    if member.unclaimed:
        member = _claim(member)
        if member is None or member.unclaimed:
            if member is not None:
                _set(replace(member, lost=True, pending=view))
            return
    try:
        version = classroom().lead(member.code, member.teacher_key, *view, leader=member.leader)
    except ClassUnavailableError:
        _set(replace(member, lost=True, pending=view))
        return
    except NotLeaderError:
        _set(replace(member, superseded=True))
        return
    except NoSuchClassError:
        _ended(member)
        return
    except ClassError as error:
        say(_("The class did not change: {error}.").format(error=error))
        return
    _set(replace(member, view=view, applied=version, lost=False, pending=("", "")))
    push().wake()  # this worker's followers: now, not at the next look


def _claim(member: Membership) -> Membership | None:
    """Take the lead for a session that was led from the cookie while the store was down;
    the membership as it is then (None when it ended: a wrong key, or no such class)."""
    try:
        classroom().take_lead(member.code, member.teacher_key, member.leader)
    except ClassUnavailableError:
        return member
    except NoSuchClassError:
        _ended(member)
        return None
    except ClassError as error:
        say(_("Could not lead that class: {error}.").format(error=error))
        leave()
        return None
    claimed = replace(member, unclaimed=False)
    _set(claimed)
    return claimed


def teacher_look() -> bool:
    """A teacher's timed look: True when the page must be drawn again because this session
    no longer leads (another tab or device took the lead) or the class has ended."""
    member = membership()
    if member is None or not member.teaching or member.superseded:
        return False
    found = current_state(LOOK_AGE)
    if membership() is None:  # ended: current_state said so
        return True
    if found is not None and not member.unclaimed and found.leader != member.leader:
        _set(replace(membership(), superseded=True))
        return True
    return False


def leave() -> None:
    _set(None)


def explore() -> None:
    """Detach from the teacher: this session's changes are its own."""
    member = membership()
    if member is not None and not member.teaching:
        _set(replace(member, following=False))


def back_to_teacher() -> None:
    """Follow again: the next run shows the teacher's current view."""
    member = membership()
    if member is not None and not member.teaching:
        _set(replace(member, following=True, applied=0))


def url_params() -> dict[str, str]:
    """What a member's URL carries besides its settings: the class code, so that a page that
    reconnects to a new session (its worker restarted) joins again."""
    member = membership()
    return {CLASS_KEY: member.code} if member is not None else {}


def join_from_link(given: list[str]) -> None:
    """A fresh session opened from a link with ``class=``: lead that class in the browser
    that keeps its teacher key, else join it."""
    if given and membership() is None and not _lead_from_cookie(given[-1]):
        join(given[-1])


# --- following ------------------------------------------------------------------------------


def current_state(max_age: float = 0.0) -> ClassState | None:
    """The class as the store has it (read at most ``max_age`` seconds ago by this process);
    None, and the session marked lost, when the store cannot be reached; None and the
    membership ended when the class has."""
    member = membership()
    if member is None:
        return None
    try:
        found = classroom().state(member.code, max_age)
    except ClassUnavailableError:
        _set(replace(member, lost=True))
        return None
    except NoSuchClassError:
        _ended(member)
        return None
    except ClassError:
        return None
    if member.lost:
        _set(replace(membership(), lost=False))
    return found


def behind() -> ClassState | None:
    """The class's state when it holds a view this following session does not show yet. An
    exploring session looks too: whether the link is lost or back, or the class ended."""
    member = membership()
    if member is None or member.teaching:
        return None
    found = current_state(LOOK_AGE)
    if found is None or not member.following or found.version == member.applied:
        return None
    return found


def led_settings(found: ClassState) -> Settings:
    """The teacher's settings of ``found`` (``keep_personal`` then keeps the learner's own)."""
    raw = parse_qs(found.link, keep_blank_values=True)
    settings, _notices = read_params(raw, scopes=("input", "config", "view", "lesson"))
    return settings


def view_to_show(page: str) -> tuple[Settings, str] | None:
    """In a following session's read phase: the teacher's settings and page when the class
    moved on since this session last showed it (the caller switches page if it differs)."""
    found = behind()
    member = membership()
    if found is None or member is None:
        return None
    if found.version == member.applied or not member.following:
        return None
    if found.page not in nav.BY_KEY:  # nothing this app can show: seen, and this view kept
        _set(replace(member, applied=found.version, just_led=True))
        return None
    _set(replace(member, applied=found.version, just_led=True))
    return led_settings(found), found.page


def keep_personal(led: Settings, own: Settings) -> Settings:
    """The teacher's settings with this learner's own type size and language."""
    return led.replace(**{name: own[name] for name in PERSONAL})


def after_run(page: str, settings: Settings) -> None:
    """At the end of every whole run: a teacher publishes its view; a follower whose own
    change moved it off the teacher's view is detached, and told so; the worker's push learns
    what this session now shows. A follower just detached runs again at once: its banner,
    drawn before this run knew, must say that it explores."""
    detached = _publish_or_compare(page, settings)
    _tell_push()
    if detached:
        st.rerun()


def _publish_or_compare(page: str, settings: Settings) -> bool:
    """Publish a teacher's view, or compare a follower's with the teacher's; True when the
    follower's own change has just detached it."""
    member = membership()
    if member is None:
        return False
    view = (page, view_link(settings))
    if member.teaching:
        if view != member.view and not member.superseded:
            _publish(member, view)
        return False
    if member.just_led:  # the teacher's view as this page settled it: what to compare with
        _set(replace(member, view=view, just_led=False))
    elif member.following and member.applied and view != member.view:
        _set(replace(member, following=False))
        say(_("You changed the view: you are exploring on your own."))
        return True
    return False


def join_link(code: str) -> str:
    """The link learners open to join ``code``: an address their devices can open
    (``ui.session.joining``) with ``?class=``."""
    return joining.join_link(code, CLASS_KEY)


def flush() -> None:
    """A teacher's view the store missed (it was down): published once it answers again."""
    member = membership()
    if member is None or not member.teaching or not member.pending[0]:
        return  # (not "lost": a look at the class may have cleared it meanwhile)
    if not member.superseded:
        _publish(member, member.pending)


def following_count() -> int | None:
    """How many learners follow this teacher's class (None when the store is unreachable)."""
    member = membership()
    if member is None:
        return None
    try:
        count = classroom().following(member.code)
    except ClassError:
        _set(replace(member, lost=True))
        return None
    if member.lost and not member.pending[0] and not member.unclaimed:
        _set(replace(member, lost=False))
    return count


def ask(question: str, choices: int) -> None:
    _teacher_does(lambda c, m: c.ask(m.code, m.teacher_key, question, choices))


def reveal(shown: bool = True) -> None:
    _teacher_does(lambda c, m: c.reveal(m.code, m.teacher_key, shown))


def close_question() -> None:
    _teacher_does(lambda c, m: c.close_question(m.code, m.teacher_key))


def vote_again() -> None:
    _teacher_does(lambda c, m: c.vote_again(m.code, m.teacher_key))


def show_answers(shown: bool = True) -> None:
    _teacher_does(lambda c, m: c.show_answers(m.code, m.teacher_key, shown))


def conceal(hidden: bool = True) -> None:
    _teacher_does(lambda c, m: c.conceal(m.code, m.teacher_key, hidden))


def _teacher_does(work) -> None:
    member = membership()
    if member is None or not member.teaching:
        say(_("Only the class's teacher can do that."))
        return
    if member.superseded or (not member.unclaimed and not _leads(member)):
        _set(replace(membership(), superseded=True))
        return
    try:
        work(classroom(), member)
    except ClassError as error:
        say(_("The class did not change: {error}.").format(error=error))
        return
    push().wake()


def _leads(member: Membership) -> bool:
    """Whether ``member`` leads its class now (True when the store cannot say: the change
    then fails in its own words)."""
    try:
        return classroom().state(member.code).leader == member.leader
    except ClassError:
        return True


def answer(question: str, widget_key: str) -> None:
    """A learner's answer to the open question (a radio button's callback)."""
    answer_choice(question, st.session_state.get(widget_key))


def answer_choice(question: str, choice: object) -> None:
    """A learner's choice in the open question (a radio's, or how a checked exercise's
    answer turned out)."""
    member = membership()
    if member is None or member.teaching or not isinstance(choice, int):
        return
    try:
        classroom().answer(member.code, member.learner, question, choice)
    except ClassError as error:
        say(_("Your answer was not counted: {error}.").format(error=error))


def tally(question: str, round_: int | None = None) -> list[int] | None:
    """The answers to round ``round_`` of the open ``question`` (None when unreadable)."""
    member = membership()
    if member is None:
        return None
    try:
        return classroom().tally(member.code, question, round_)
    except ClassError:
        return None


def saw_open(question: str) -> None:
    """A learner's run saw ``question`` open and unrevealed ("" for none): while the store
    cannot be read, that question's answer stays hidden on its screen."""
    st.session_state[OPEN_QUESTION] = question


def last_open() -> str:
    """The unrevealed question this learner last saw open ("" for none)."""
    return st.session_state.get(OPEN_QUESTION, "")


def mark_giveaway(question: str) -> None:
    """This run met a part of the page that gives away ``question``'s answer."""
    st.session_state.setdefault(GIVEAWAYS, set()).add(question)


def took_giveaway(question: str) -> bool:
    """Whether this run met a giveaway of ``question`` above it (and forget it: the next run
    says again)."""
    met = st.session_state.get(GIVEAWAYS, set())
    found = question in met
    met.discard(question)
    return found


def own_answer(question: str) -> int | None:
    """This learner's stored choice in the open question's current round (the radio is
    drawn from it: a widget hidden while the store was lost forgets its value)."""
    member = membership()
    if member is None or member.teaching:
        return None
    try:
        return classroom().answer_of(member.code, member.learner, question)
    except ClassError:
        return None


def answer_rows() -> list[tuple[str, str, int, int, float]] | None:
    """Every answer of this teacher's class (None when unreadable or not the teacher)."""
    member = membership()
    if member is None or not member.teaching:
        return None
    try:
        return classroom().answer_rows(member.code, member.teacher_key)
    except ClassError:
        return None
