"""No message a learner reads names the project's insides.

A learner knows the book (Raschka's *Build a Large Language Model (From Scratch)*), its
sections and listings, and other sources by title and author (Nugues' *Python for Natural
Language Processing*). The names the project uses for itself are not theirs: "seed 000" to
"seed 004" (the notebooks the lessons were written from), environment variables, Python
modules and files, Streamlit's API. Configuration belongs in the README. Every message of the
catalog template, and every translation, is scanned for those words; the list is kept here.
The book's own ``torch.manual_seed`` values ("seed 123", "seed 789") are the book's, the
download "attention.py" is the learner's own file, and the command line names itself by the
module it is run as, as every argparse program does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import translation

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "translation" / "messages.pot"
TRANSLATED = [code for code in translation.LANGUAGES if code != translation.ENGLISH]

# What a learner must never read, each with the reason a reader of a failure needs.
INTERNAL = {
    "a seed notebook by number": re.compile(r"\bseeds?[\s_-]*0\d\d\b", re.IGNORECASE),
    "the seed notebooks": re.compile(
        r"\bseed notebooks?\b|\bthe seeds\b(?!\s*\d)|\bseeds? show\b", re.IGNORECASE
    ),
    "a seed notebook, in Chinese": re.compile(r"种子\s*0\d\d|seed\s*笔记本|种子笔记本"),
    "an environment variable": re.compile(
        r"\bATTENTION_MODEL\b|\bMODEL_ENV\b|\bHF_HUB_\w+|\bHF_HOME\b|\bTRANSFORMERS_\w+"
    ),
    "a saving API": re.compile(r"\bsave_pretrained\b"),
    "a Python file or module": re.compile(r"\b[\w-]+\.py\b"),
    "the app's own packages": re.compile(
        r"\b(?:attention_core|real_model|classroom|streamlit_app)\b|\bui\.(?:blocks|session|specs)\b"
        r"|\bpages/"
    ),
    "Streamlit's API": re.compile(r"\bst\.\w|\bsession_state\b"),
}
# Words that look internal but are the learner's: the download's name on its button, and the
# command line's program name before its errors (``python -m attention_core``). A placeholder
# is not skipped: {MODEL_ENV} is shown as the variable's name.
ALLOWED = re.compile(r"\battention\.py\b|^attention_core: ")


def internal_words(text: str) -> list[str]:
    """What ``text`` says that a learner must not read: "reason: word" for each one found."""
    text = ALLOWED.sub(" ", text)
    return [
        f"{reason}: {match.group()!r}"
        for reason, pattern in INTERNAL.items()
        for match in pattern.finditer(text)
    ]


def _texts(path: Path, code: str | None) -> Iterator[tuple[str, str]]:
    """(the English message, one of its texts) for every entry of a catalog: the msgid and
    its plural in the template, the translations in a language's catalog."""
    with path.open("rb") as file:
        catalog = read_po(file, locale=code)
    for message in catalog:
        if not message.id:
            continue  # the header
        english = message.id if isinstance(message.id, str) else message.id[0]
        if code is None:
            texts = message.id if isinstance(message.id, tuple) else (message.id,)
        else:
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in texts:
            if text:
                yield english, text


def _offences(path: Path, code: str | None) -> list[str]:
    return [
        f"{english!r}" + ("" if text == english else f" (translated {text!r})") + f": {word}"
        for english, text in _texts(path, code)
        for word in internal_words(text)
    ]


def test_no_english_message_names_the_projects_insides():
    offences = _offences(TEMPLATE, None)
    assert offences == [], f"{len(offences)} messages name internal things:\n" + "\n".join(offences)


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_translation_names_the_projects_insides(code):
    offences = _offences(translation.catalog_path(code), code)
    assert offences == [], f"{len(offences)} translations name internal things:\n" + "\n".join(
        offences
    )


def test_the_template_is_scanned():
    # The scan reads real messages, among them the one that names the learner's download.
    english = [text for _english, text in _texts(TEMPLATE, None)]
    assert len(english) > 800
    assert "Download attention.py" in english


@pytest.mark.parametrize(
    "planted",
    [
        "As in seed 001, attention needs no weights.",
        "Seed 000's first class divides by √d_in.",
        "the seeds show both",
        "mistakes found in the seed notebooks",
        "seed001's numbers",
        "和 seed 001 一样",
        "种子 002 打印出 −12.66",
        "Model: {source} (set ATTENTION_MODEL to use another).",
        "set {MODEL_ENV} to a folder",
        "the hub is switched off (HF_HUB_OFFLINE)",
        "a folder made with save_pretrained",
        "see ui/blocks/page_frame.py",
        "the download attention.py is made by ui/blocks/panels.py",
        "recomputed by attention_core",
        "the loader in real_model",
        "call st.session_state",
        "kept in session_state",
    ],
)
def test_the_check_finds_a_planted_internal_word(planted):
    assert internal_words(planted), planted


@pytest.mark.parametrize(
    "fine",
    [
        "book init, seed 123",
        "nn.Linear init, seed 789, causal",
        "seed must be between 0 and {SEED_MAX}, not {seed}",
        "Download attention.py",
        "Nugues' chapter 15 prints",
        "“The book” is Sebastian Raschka's *Build a Large Language Model (From Scratch)*.",
        "Model: {source}.",
        "attention_core: error: {message}",
        "attention_core: 错误：{message}",
        "the first 32 words, step 0.01",
    ],
)
def test_the_check_lets_the_learners_words_through(fine):
    assert internal_words(fine) == [], fine
