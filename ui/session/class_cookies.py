"""What a browser keeps of its classes: cookies of this app.

- The teacher key of a class, in the teacher's browser: a session that opens a class's link in
  the browser that keeps its key leads that class again with no key typed (a reload, a new
  tab, a page reconnected to another worker). Only a teacher's page gets the script that writes
  it; a learner's never does.
- A learner's random id in a class, in the learner's browser: a learner who reloads, or opens
  the link again in another tab, is the same learner (counted once, their answer kept), not
  a second one for the next 15 seconds.

A cookie goes to this app's pages only (its base path), never with a request from another site
(``SameSite=Strict``), only over HTTPS where the page came by it, and lasts as long as an idle
class (renewed at each whole run). Ending the class removes the teacher's. Cookies belong to an
address: a browser keeps them for ``localhost`` and for the network address apart.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

import streamlit as st

from classroom.codes import CODE_ALPHABET, CODE_LENGTH
from classroom.store import IDLE_SECONDS

NAME = "attention_teacher_{code}"  # its value: the teacher key of class {code}
LEARNER_NAME = "attention_learner_{code}"  # its value: this browser's learner id in class {code}
LEARNER_TEXT = re.compile(r"[0-9a-f]{16}")  # a learner id as classroom.codes writes it
CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
KEY_TEXT = re.compile(r"[A-Za-z0-9_-]{20,100}")  # a teacher key as classroom.codes writes it
ENDED_HERE = "_class_ended_here"  # the codes of the classes this session ended: their cookie goes


def browser_cookies() -> Mapping[str, str]:
    """The cookies this session's browser sent when it connected (AppTest has none: its
    tests put their own here)."""
    return st.context.cookies


def _kept(name: str, form: re.Pattern[str]) -> str:
    """The cookie ``name`` this browser sent, if it has the ``form`` this app writes ("")."""
    try:
        value = browser_cookies().get(name, "")
    except Exception:  # no browser (a bare run): no cookie
        return ""
    return value if isinstance(value, str) and form.fullmatch(value) else ""


def read(code: str) -> str:
    """The teacher key of class ``code`` this browser keeps ("" when it keeps none)."""
    return _kept(NAME.format(code=code), KEY_TEXT)


def learner_id(code: str) -> str:
    """This browser's learner id in class ``code`` ("" when it keeps none)."""
    return _kept(LEARNER_NAME.format(code=code), LEARNER_TEXT)


def kept_codes() -> list[str]:
    """The codes of the classes whose teacher key this browser keeps (a few at most)."""
    try:
        names = list(browser_cookies())
    except Exception:  # no browser (a bare run): no cookie
        return []
    prefix = NAME.format(code="")
    codes = [n[len(prefix) :] for n in names if n.startswith(prefix)]
    return sorted(c for c in codes if CODE.fullmatch(c) and read(c))[:5]


def forget(code: str) -> None:
    """The class ``code`` has ended: the next whole run removes its cookie."""
    st.session_state[ENDED_HERE] = (*st.session_state.get(ENDED_HERE, ()), code)[-10:]


def script(code: str = "", key: str = "", learner: str = "") -> str | None:
    """The script that keeps ``key`` for class ``code`` (a leading teacher's) or the learner
    id ``learner`` (a learner's, unless the browser sent it already), and removes the cookies
    of the classes this session ended; None when there is nothing to do."""
    wanted = {NAME.format(code=ended): ("", 0) for ended in st.session_state.get(ENDED_HERE, ())}
    if code and KEY_TEXT.fullmatch(key):
        wanted[NAME.format(code=code)] = (key, IDLE_SECONDS)
    if code and LEARNER_TEXT.fullmatch(learner) and learner_id(code) != learner:
        wanted[LEARNER_NAME.format(code=code)] = (learner, IDLE_SECONDS)
    if not wanted:
        return None
    prefix = str(st.get_option("server.baseUrlPath") or "").strip("/")
    path = f"/{prefix}" if prefix else "/"
    # JSON, with "<" written \u003c: a value can close neither the string nor the script.
    data = json.dumps({"path": path, "cookies": wanted}).replace("<", "\\u003c")
    return (
        f"(function () {{ const d = {data}; "
        "const secure = location.protocol === 'https:' ? '; Secure' : ''; "
        "for (const [name, [value, age]] of Object.entries(d.cookies)) { "
        "document.cookie = name + '=' + value + '; Max-Age=' + age + '; Path=' + d.path + "
        "'; SameSite=Strict' + secure; } })();"
    )
