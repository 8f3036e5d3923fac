"""Link fuzzing (issue 11, item 4): every page × every link parameter × hostile values.

A link carries one hostile value over a rich, valid base. Whatever it is: no exception, a
notice in the learner's words for a bad value (shown as text: the notice is inert Markdown,
its only markup the setting's name in bold and code spans), the parameter falls back on its
own, and every other value of the link is kept, in the URL and in the widgets.
"""

from __future__ import annotations

import functools

import pytest

from attention_core.embeddings import JOURNEY_VALUES
from attention_core.knobs.links import read_params
from attention_core.knobs.settings import Settings
from attention_core.knobs.table import PARAMS
from attention_core.knobs.text import echo
from tests.budget import in_rotation
from tests.link_values import HOSTILE, TEXTS, is_bad
from tests.ui.apptest import (
    PAGES,
    as_read,
    assert_clean,
    guarded_messages,
    markup_problems,
    notices,
    open_page,
    shown_settings,
    url_params,
)

NOTICE_MARKUP = frozenset({"strong", "code"})  # the setting's name, and words set as code

BASE = {
    "preset": "journey",
    "tokens": "Your,journey,starts,with,one,step",
    "x": "0.44,0.15,0.89;0.55,0.87,0.66;0.57,0.85,0.64;0.22,0.58,0.33;0.77,0.25,0.1;0.05,0.8,0.55",
    "d_out": "4",
    "heads": "2",
    "head": "2",
    "init": "linear",
    "seed": "7",
    "scaling": "d",
    "mask": "padding",
    "padding": "2",
    "dropout": "0.25",
    "dropout_seed": "3",
    "mask_strategy": "zero_renorm",
    "qkv_bias": "true",
    "out_proj": "identity",
    "query": "3",
    "decimals": "3",
    "weight_scale": "fixed",
    "input_scale": "2.5",
    "inspect": "neg_inf",
    "peek_token": "4",
    "peek_amount": "1.5",
    "lesson_padding": "2",
    "wq": "1,0;0,1;0.5,0.5",
    "wk": "0.2,0.1;-1,0.3;0,2",
    "wv": "1,1;0,-1;0.25,0",
    "my_mask": ";".join(",".join("1" if j <= i else "0" for j in range(6)) for i in range(6)),
    "sentence": "We process and ship your order",
    "word": "order",
    "text": "own",
    "own": "the bank by the river",
    "compare": "and",
    "layer": "2",
    "model_head": "3",
    "samples": "40",
}
# A token-dependent value one past the 6 tokens, and a head past the 2 heads.
OUT_OF_RANGE = {"query": "7", "padding": "7", "peek_token": "7", "lesson_padding": "7", "head": "3"}
CLAMPED = {"query": "6", "padding": "6", "peek_token": "6", "lesson_padding": "6", "head": "2"}
DEPENDENTS = {"heads": {"head"}}  # a head count that falls back may leave no head 2


@functools.cache
def reference(page: str) -> Settings:
    """What the base link shows on ``page`` (clean: no notice, nothing refused)."""
    at = open_page(page, BASE)
    assert_clean(at)
    assert notices(at) == []
    return shown_settings(at)


def check_one(page: str, name: str, value: str | list[str], bad: bool) -> None:
    """Open ``page`` from the base link with ``name=value``; ``bad``: the value is refused."""
    check_many(page, {name: (value, bad)})


def check_many(page: str, changes: dict[str, tuple[str | list[str], bool]]) -> None:
    """Open ``page`` from the base link with each ``name=value`` of ``changes`` at once; each
    value's ``bad``: it is refused. Each parameter is noticed and falls back on its own: the
    others of the link, changed or not, are unaffected by it."""
    at = open_page(page, {**BASE, **{name: value for name, (value, _bad) in changes.items()}})
    texts = {name for name in changes if name in TEXTS and PARAMS[name].page in ("", page)}
    assert_clean(at, allow_guarded=bool(texts))  # a word no model knows
    found = notices(at)
    dependents = {d for name in changes for d in DEPENDENTS.get(name, ())}
    allowed = {PARAMS[name].label for name in changes | dict.fromkeys(dependents)}
    assert [n for n in found if n[2:].split("**")[0] not in allowed] == [], (
        f"only {sorted(changes)} may be noticed: {found}"
    )
    settings, kept = shown_settings(at), reference(page)  # the URL parses clean, widgets agree
    url = url_params(at)
    for name, (value, bad) in changes.items():
        _check_param(page, name, value, bad, found, at, settings, url)
    for key in kept.values.keys() - changes.keys() - dependents:
        # A bad mask falls back to none: the padding it leaves unused is not in the link.
        if PARAMS[key].matters(settings.values):
            assert settings[key] == kept[key], key
    assert settings.tokens == kept.tokens
    assert "x" in changes or settings.rows == kept.rows


def by_label(names) -> list[list[str]]:
    """``names`` in groups whose notices can be told apart: no two of a group share a label
    (page 5's padding and the Playground's are both "padding tokens at the end")."""
    groups: list[list[str]] = []
    for name in names:
        label = PARAMS[name].label
        group = next((g for g in groups if label not in {PARAMS[n].label for n in g}), None)
        if group is None:
            groups.append(group := [])
        group.append(name)
    return groups


def _check_param(page, name, value, bad, found, at, settings, url) -> None:
    """One parameter of ``check_many``'s link: noticed if refused or repeated, in the
    learner's words, and in the URL as the page reads it."""
    given = value[-1] if isinstance(value, list) else value
    param = PARAMS[name]
    applies = param.page in ("", page)
    named = [n for n in found if n.startswith(f"**{param.label}**: ")]
    if name == "pin":  # a text that is no pin is refused by the page, through its error path
        named += [m for m in guarded_messages(at) if "the pinned settings A" in m]
    repeated = isinstance(value, list)
    expected = bad or repeated
    if name == "pin" and not applies:  # only Compare reads a pin's content: here, what the
        # link parser refuses (an empty or an over-long pin)
        scopes = ("input", "config", "view", "lesson")
        expected = repeated or bool(read_params({name: [given]}, scopes=scopes)[1])
    assert bool(named) == expected, (name, given[:40], found)
    if not applies:  # another page's lesson: the notice names that page
        title = PAGES[param.page].title
        assert all(f"(a setting of {title})" in as_read(notice) for notice in named), named
    for notice in named:
        assert markup_problems(notice, NOTICE_MARKUP) == [], notice
        assert as_read(notice).startswith((f"{param.label}: ", "the pinned settings A"))
    if not applies:
        assert name not in url
    elif name in OUT_OF_RANGE and given == OUT_OF_RANGE[name]:
        assert param.to_text(settings[name]) == CLAMPED[name]
    elif name == "x":
        assert settings.rows == JOURNEY_VALUES  # the preset's matrix, as the notice says
    elif name == "tokens":
        pass  # labels travel with the matrix: checked with settings.tokens above
    elif bad:
        assert name not in url  # back to its default, which a link leaves out
    else:
        assert param.to_text(settings[name]) == " ".join(given.split())


# The parser meets every parameter × every hostile value (tests/core/test_params.py, 784
# cases in 0.1 s). A page run checks what only a page can get wrong: the notice is shown as
# text, the other values are kept in the URL and the widgets. So a free-text parameter (shown
# as the learner typed it) meets half the hostile values on the pages in turn, the other half
# the next day (``tests.budget.in_rotation``; every one in the thorough profile); any other meets
# two values in turn (each value still meets several parameters: the values rotate), the
# first on the parameter's own lesson page and the second on a page where it is another
# page's setting.
PER_PARAM = 2


def _cases() -> list[tuple[str, str, str]]:
    pages, cases = list(PAGES), []
    for n, (name, param) in enumerate(PARAMS.items()):
        every = param.kind in ("text", "labels")
        values = (
            [value for j, value in enumerate(HOSTILE) if in_rotation(j + n)]
            if every
            else [HOSTILE[(n * PER_PARAM + j) % len(HOSTILE)] for j in range(PER_PARAM)]
        )
        for j, value in enumerate(values):
            page = param.page if j == 0 and param.page else pages[(len(cases) + j) % len(pages)]
            cases.append((page, name, value))
    return cases


CASES = _cases()


@pytest.mark.parametrize("name", list(PARAMS))
def test_hostile_values_fall_back_alone_with_a_notice(name):
    for page, param, value in CASES:
        if param == name:
            check_one(page, param, value, is_bad(param, value))


@pytest.mark.parametrize("page", PAGES)
def test_values_out_of_range_for_the_tokens_are_brought_in_with_a_notice(page):
    # A few in one link (those a notice tells apart): each is brought in alone, with its own.
    for group in by_label(OUT_OF_RANGE):
        check_many(page, {name: (OUT_OF_RANGE[name], True) for name in group})


@pytest.mark.parametrize("page", PAGES)
def test_a_repeated_key_uses_its_last_value_and_says_so(page):
    repeated = {"d_out": (["6", "2"], False), "seed": (["nan", "11"], False)}
    check_many(page, {**repeated, "scaling": (["none", "bogus"], True)})


UNKNOWN = ("zzz", "D_OUT", "x[]", "**k**", "<b>k</b>", "[k](http://evil.example)", "k" * 500)


@pytest.mark.parametrize("page", PAGES)
def test_unknown_keys_are_named_and_ignored(page):
    at = open_page(page, {**BASE, **dict.fromkeys(UNKNOWN, "1")})
    assert_clean(at)
    found = notices(at)
    assert len(found) == len(UNKNOWN)
    for key, notice in zip(UNKNOWN, found, strict=True):
        assert notice.startswith("**Link**: ") and "is not a setting" in as_read(notice)
        assert markup_problems(notice, NOTICE_MARKUP) == [], notice
        assert f"{echo(key)} is not a setting" in as_read(notice)  # the key as it was typed
    assert shown_settings(at) == reference(page)
