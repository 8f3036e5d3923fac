"""Whether this browser has seen the Playground's first steps: a cookie of this app.

The cookie holds no more than "seen"; it goes to this app's pages only (its base path),
never with a request from another site, and lasts a year. A browser that refuses cookies
sees the steps unfolded each visit, and can fold them.
"""

from __future__ import annotations

import json

import streamlit as st

NAME = "attention_first_steps"
SEEN = "seen"
YEAR = 365 * 24 * 3600  # seconds


def seen() -> bool:
    """True when this browser sent the cookie as it connected (AppTest sends none)."""
    try:
        return st.context.cookies.get(NAME) == SEEN
    except Exception:  # no browser (a bare run): a first visit
        return False


def remember_script() -> str:
    """The script that keeps, in this browser, that the steps were shown."""
    prefix = str(st.get_option("server.baseUrlPath") or "").strip("/")
    path = json.dumps(f"/{prefix}" if prefix else "/").replace("<", "\\u003c")
    return (
        "(function () { const secure = location.protocol === 'https:' ? '; Secure' : ''; "
        f"document.cookie = '{NAME}={SEEN}; Max-Age={YEAR}; Path=' + {path} + "
        "'; SameSite=Strict' + secure; })();"
    )
