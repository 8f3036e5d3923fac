"""The translation layer: every word a learner reads goes through ``_``.

Catalogs are gettext files, ``translation/locales/<code>/LC_MESSAGES/messages.po``, managed with
Babel (the README's "Translating" says how to extract, update and check them). A catalog is read
the first time its language is used and kept as a dictionary.

The language is a context variable, never a global: a Streamlit server runs each session's
script in its own thread, and one learner's language must not leak into another's. The
dashboard sets it at the top of every run (``ui.session.run_order``); a thread that starts
without it (a callback or a fragment's rerun, before the page's first line) asks the source
registered with :func:`set_source`. The command line sets it from ``--lang`` or ``LANG``.

Numbers, token labels, formulas and code are never translated.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

LOG = logging.getLogger(__name__)

ENGLISH = "en"
# Every language the app speaks: code -> its own name. Adding a language is one catalog and one
# line here (README, "Translating").
LANGUAGES: dict[str, str] = {
    ENGLISH: "English",
    "zh_CN": "简体中文",
}
LOCALES = Path(__file__).parent / "locales"
DOMAIN = "messages"

_language: ContextVar[str | None] = ContextVar("language", default=None)
_source: Callable[[], str | None] = lambda: None  # noqa: E731


def N_(message: str) -> str:  # noqa: N802 (gettext's name)
    """Mark ``message`` for the catalog without translating it yet (a module-level constant,
    translated with ``_`` where it is shown)."""
    return message


def _(message: str) -> str:
    """``message`` in the current language (itself in English or when the catalog lacks it)."""
    code = language()
    if code == ENGLISH or not message:
        return message
    translated = catalog(code).get(message)
    return translated if isinstance(translated, str) and translated else message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural form for ``count``, in the current language."""
    code = language()
    english = singular if count == 1 else plural
    if code == ENGLISH:
        return english
    forms = catalog(code).get((singular, plural))
    if not isinstance(forms, tuple) or not any(forms):
        return english
    return forms[min(_plural_index(code, count), len(forms) - 1)] or english


def _plural_index(code: str, count: int) -> int:
    """Which plural form ``count`` takes: Chinese has one form; English-like rules otherwise."""
    return 0 if code.startswith("zh") or count == 1 else 1


def language() -> str:
    """The current language's code."""
    code = _language.get()
    if code is None:
        code = normalize(_source()) or ENGLISH
        _language.set(code)
    return code


def use_language(code: str | None) -> str:
    """Make ``code`` (or English, when it is unknown) the language of this context; returns the
    code used."""
    used = normalize(code) or ENGLISH
    _language.set(used)
    return used


@contextmanager
def speaking(code: str | None) -> Iterator[str]:
    """Use ``code`` (or English) in this context for the ``with`` block, then the language
    before it: a command line run inside a test, a notebook or a server thread."""
    token = _language.set(normalize(code) or ENGLISH)
    try:
        yield _language.get() or ENGLISH
    finally:
        _language.reset(token)


def from_environment(environ: Mapping[str, str]) -> str | None:
    """The language the environment asks for, as gettext reads it: LANGUAGE, LC_ALL,
    LC_MESSAGES, then LANG (the first set; LANGUAGE may list several, separated by ':')."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            for code in value.split(":"):
                if normalize(code):
                    return normalize(code)
            return None
    return None


def set_source(source: Callable[[], str | None]) -> None:
    """Where a context that has no language yet reads it (the dashboard: the session's)."""
    global _source
    _source = source


def normalize(code: str | None) -> str | None:
    """A known language's code for ``code`` (``zh-CN``, ``zh_cn``, ``zh-Hans-CN``, ``zh``,
    ``en-GB``, ``zh_CN.UTF-8``), or None when the app does not speak it."""
    if not code:
        return None
    cleaned = str(code).split(".")[0].split("@")[0].replace("-", "_").strip().lower()
    parts = [part for part in cleaned.split("_") if part]
    if not parts:
        return None
    if parts[0] == ENGLISH:
        return ENGLISH
    by_lower = {known.lower(): known for known in LANGUAGES}
    if "_".join(parts) in by_lower:
        return by_lower["_".join(parts)]
    if parts[0] == "zh" and not ({"tw", "hk", "mo", "hant"} & set(parts[1:])):
        return "zh_CN" if "zh_CN" in LANGUAGES else None
    return None


def every_language(message: str) -> set[str]:
    """``message`` in each language the app speaks (a widget's label may come back from the
    browser in the language it was drawn in, before a change of language)."""
    forms = {message}
    for code in LANGUAGES:
        if code != ENGLISH:
            translated = catalog(code).get(message)
            if isinstance(translated, str) and translated:
                forms.add(translated)
    return forms


def catalog_path(code: str) -> Path:
    """The .po file of one language."""
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def catalog(code: str) -> dict[str | tuple[str, str], str | tuple[str, ...]]:
    """One language's translations: msgid (or (singular, plural)) -> msgstr (or its forms).

    Fuzzy and empty entries are left out, so their English shows. Read once per process.
    """
    from babel.messages.pofile import read_po  # only when a language other than English is used

    path = catalog_path(code)
    try:
        with path.open("rb") as file:
            entries = read_po(file, locale=code, domain=DOMAIN)
    except (OSError, ValueError) as error:  # a missing or broken catalog: English, logged
        LOG.error("cannot read the %s catalog %s: %s", code, path, error)
        return {}
    table: dict[str | tuple[str, str], str | tuple[str, ...]] = {}
    for message in entries:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            table[(message.id[0], message.id[1])] = tuple(message.string)
        elif message.string:
            table[message.id] = message.string
    return table
