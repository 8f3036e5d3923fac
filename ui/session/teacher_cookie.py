"""The teacher key of a class, kept in the teacher's browser: a cookie of this app.

A session that opens a class's link in the browser that keeps its key leads that class again
with no key typed (a reload, a new tab, a page reconnected to another worker). Only a leading
teacher's page gets the script that writes the cookie; a learner's never does. The cookie
goes to this app's pages only (its base path), never with a request from another site
(``SameSite=Strict``), only over HTTPS where the page came by it, and lasts as long as an
idle class (renewed at each whole run while the teacher leads). Ending the class removes it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

import streamlit as st

from classroom.codes import CODE_ALPHABET, CODE_LENGTH
from classroom.store import IDLE_SECONDS

NAME = "attention_teacher_{code}"  # its value: the teacher key of class {code}
CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
KEY_TEXT = re.compile(r"[A-Za-z0-9_-]{20,100}")  # a teacher key as classroom.codes writes it
ENDED_HERE = "_class_ended_here"  # the codes of the classes this session ended: their cookie goes


def browser_cookies() -> Mapping[str, str]:
    """The cookies this session's browser sent when it connected (AppTest has none: its
    tests put their own here)."""
    return st.context.cookies


def read(code: str) -> str:
    """The teacher key of class ``code`` this browser keeps ("" when it keeps none)."""
    try:
        value = browser_cookies().get(NAME.format(code=code), "")
    except Exception:  # no browser (a bare run): no cookie
        return ""
    return value if isinstance(value, str) and KEY_TEXT.fullmatch(value) else ""


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


def script(code: str = "", key: str = "") -> str | None:
    """The script that keeps ``key`` for class ``code`` (a leading teacher's, or none) and
    removes the cookies of the classes this session ended; None when there is nothing to do."""
    wanted = {NAME.format(code=ended): ("", 0) for ended in st.session_state.get(ENDED_HERE, ())}
    if code and KEY_TEXT.fullmatch(key):
        wanted[NAME.format(code=code)] = (key, IDLE_SECONDS)
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
