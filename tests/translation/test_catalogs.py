"""The catalogs: complete for every message in the code, and every translation well-formed.

Babel extracts the messages from the app's files as ``pybabel extract`` does (the README's
"Translating"); each language's .po must translate all of them, none fuzzy, with the same
placeholders, Markdown marks and formulas as the English.
"""

from __future__ import annotations

import re
import string
import threading
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import translation
from translation import _, ngettext

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
TRANSLATED = [code for code in translation.LANGUAGES if code != translation.ENGLISH]
FORMULA = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.DOTALL)
CODE = re.compile(r"(`+)(.+?)\1", re.DOTALL)


def extracted() -> set[str | tuple[str, str]]:
    """Every message the app's files mark, as Babel's extractor finds it (babel.cfg's map)."""
    with (ROOT / "translation" / "babel.cfg").open() as config:
        from babel.messages.frontend import parse_mapping_cfg

        method_map, options_map = parse_mapping_cfg(config)
    found: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        found.add(tuple(message) if isinstance(message, tuple) else message)  # type: ignore[arg-type]
    return {m for m in found if m}


def catalog(code: str) -> Catalog:
    with translation.catalog_path(code).open("rb") as file:
        return read_po(file, locale=code)


@pytest.fixture(scope="module")
def messages() -> set[str | tuple[str, str]]:
    return extracted()


def test_the_extractor_finds_the_apps_messages(messages):
    assert len(messages) > 800  # the whole app: pages, blocks, charts, the core's messages
    assert "Presentation mode" in messages  # a parameter-table label, marked with N_
    assert "Pages" in messages  # a widget's label in ui/session


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_of_the_code_is_translated_and_none_is_fuzzy(code, messages):
    po = catalog(code)
    entries = {m.id: m for m in po if m.id}
    missing = sorted(str(m) for m in messages if m not in entries)
    untranslated = sorted(str(m.id) for m in entries.values() if not _strings(m))
    fuzzy = sorted(str(m.id) for m in entries.values() if m.fuzzy)
    assert missing == [], f"{len(missing)} messages are not in {code}'s catalog: {missing[:10]}"
    assert untranslated == [], f"{len(untranslated)} untranslated: {untranslated[:10]}"
    assert fuzzy == [], f"{len(fuzzy)} fuzzy: {fuzzy[:10]}"
    obsolete = sorted(str(m) for m in entries if m not in messages)
    assert obsolete == [], f"entries no code uses (run pybabel update): {obsolete[:10]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_babels_own_checks_pass(code):
    problems = [(m.id, [str(e) for e in errors]) for m, errors in catalog(code).check()]
    assert problems == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_placeholders_marks_and_formulas_are_kept(code):
    bad = []
    for message in catalog(code):
        if not message.id:
            continue
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        for source in english:
            for target in _strings(message):
                problem = _difference(source, target)
                if problem:
                    bad.append((source[:80], problem))
    assert bad == []


def _strings(message) -> list[str]:
    forms = message.string if isinstance(message.string, tuple) else (message.string,)
    return [s for s in forms if s]


def _difference(source: str, target: str) -> str:
    """What a translation changed that it must keep, or ''."""
    try:
        fields = sorted(f for _t, f, _s, _c in string.Formatter().parse(target) if f is not None)
    except ValueError as error:
        return f"broken format string: {error}"
    expected = sorted(f for _t, f, _s, _c in string.Formatter().parse(source) if f is not None)
    if fields != expected:
        return f"placeholders {fields} != {expected}"
    if sorted(FORMULA.findall(source)) != sorted(FORMULA.findall(target)):
        return "a formula changed"
    if source.count("**") != target.count("**"):
        return "bold marks"
    if source.count("\n\n") and not target.count("\n\n"):
        return "paragraph breaks"
    return ""


def test_a_check_of_the_checks_finds_each_kind_of_mistake():
    assert _difference("{name} must be positive", "{nom} 必须为正") != ""
    assert _difference("{name} is {value}", "{name} 是 {value") != ""
    assert _difference("the score $q \\cdot k$", "分数 $q k$") != ""
    assert _difference("**Predict.** Now", "预测。现在") != ""
    assert _difference("{name} must be positive", "{name} 必须为正") == ""


def test_english_is_the_source_and_an_unknown_message_stays_as_it_is():
    translation.use_language("en")
    assert _("Presentation mode") == "Presentation mode"
    translation.use_language("zh_CN")
    try:
        assert _("Presentation mode") == "演示模式"
        assert _("a message no catalog has") == "a message no catalog has"
        assert ngettext("{count} token", "{count} tokens", 1) != ""
    finally:
        translation.use_language("en")


@pytest.mark.parametrize(
    ("given", "code"),
    [
        ("zh_CN", "zh_CN"),
        ("zh-CN", "zh_CN"),
        ("zh-Hans-CN", "zh_CN"),
        ("zh", "zh_CN"),
        ("zh_CN.UTF-8", "zh_CN"),
        ("en-GB", "en"),
        ("en_US.UTF-8", "en"),
        ("zh-TW", None),
        ("fr", None),
        ("", None),
        (None, None),
        ("../../etc", None),
    ],
)
def test_a_language_is_read_from_a_link_a_browser_or_the_environment(given, code):
    assert translation.normalize(given) == code


def test_the_language_belongs_to_a_thread_never_to_the_process():
    """A Streamlit server runs each session's script in its own thread."""
    seen = {}

    def session(name: str, code: str, ready: threading.Barrier) -> None:
        translation.use_language(code)
        ready.wait()  # both threads have set theirs before either reads
        seen[name] = _("Presentation mode")

    ready = threading.Barrier(2)
    threads = [
        threading.Thread(target=session, args=("a", "zh_CN", ready)),
        threading.Thread(target=session, args=("b", "en", ready)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"a": "演示模式", "b": "Presentation mode"}
