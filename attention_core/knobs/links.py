"""Links in and out: settings read one parameter at a time, and the parameters that give them back.

A link or a command line is a set of ``name=text`` pairs whose names come from the parameter
table. Each pair is parsed on its own: a bad value falls back to its previous value with a
notice that names it, and every other value is kept; :func:`settle` then brings values that
depend on each other into range, again with a notice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attention_core.config import Matrix
from attention_core.errors import AttentionInputError
from attention_core.formatting import counted
from attention_core.knobs.param import Param
from attention_core.knobs.settings import (
    MATRIX_PARAMS,
    Notice,
    Settings,
    default_settings,
    frozen_values,
    preset_matrix,
)
from attention_core.knobs.settle import settle
from attention_core.knobs.table import DEFAULTS, PARAMS
from attention_core.knobs.text import echo
from translation import _


def read_params(
    raw: Mapping[str, Sequence[str]],
    base: Settings | None = None,
    *,
    strict: bool = False,
    scopes: tuple[str, ...] = ("input", "config", "view", "lesson"),
) -> tuple[Settings, list[Notice]]:
    """Parse ``name -> texts`` over ``base``, one parameter at a time.

    Args:
        raw: each name's texts, as a link gives them (a name may repeat; the last one counts).
        base: the values used where a parameter is missing or bad (the defaults if None).
        strict: raise the first problem instead of noting it (the command line).
        scopes: which kinds of parameter are accepted.

    Returns:
        The settled settings and one notice per problem, each naming its parameter.
    """
    base = base or default_settings()
    notices: list[Notice] = []
    values = dict(base.values)
    texts: dict[str, str] = {}
    for name, given in raw.items():
        param = PARAMS.get(name)
        if param is None or param.scope not in scopes:
            notices.append(
                Notice(name, _("{name} is not a setting; ignored").format(name=echo(name)))
            )
            continue
        if not given:
            continue
        if len(given) > 1:
            notices.append(
                Notice(
                    name,
                    _("{name} is given {count} times; the last one is used").format(
                        name=name, count=len(given)
                    ),
                )
            )
        texts[name] = given[-1]
    for name, text in texts.items():
        param = PARAMS[name]
        if name in MATRIX_PARAMS:
            continue
        try:
            values[name] = param.parse(text)
        except AttentionInputError as error:
            # A cell's message names its row and column: the label names the matrix.
            named = param.kind in ("matrix", "labels")
            problem = f"{_(param.label)}: {error}" if named else str(error)
            notices.append(Notice(name, problem, _used(param, values[name])))
    tokens, rows = _read_matrix(texts, values, base, notices)
    settled, more = settle(Settings(frozen_values(values), tokens, rows))
    notices += more
    if strict:
        given = [notice for notice in notices if notice.param in raw]
        if given:
            raise AttentionInputError(given[0].problem)
    return settled, notices


def _used(param: Param, value: Any) -> str:
    return param.unset if value is None else param.to_text(value)


def _read_matrix(
    texts: Mapping[str, str], values: Mapping[str, Any], base: Settings, notices: list[Notice]
) -> tuple[tuple[str, ...], Matrix]:
    """The labels and rows a link describes; a bad part falls back on its own."""
    changed_source = any(name in texts for name in ("preset", "num_tokens", "d_in", "seed"))
    if "x" not in texts and "tokens" not in texts and not changed_source:
        return base.tokens, base.rows
    preset_tokens, preset_rows = preset_matrix(values)
    rows = preset_rows
    if "x" in texts:
        try:
            rows = PARAMS["x"].parse(texts["x"])
        except AttentionInputError as error:
            problem = f"{_(PARAMS['x'].label)}: {error}"  # the label, as a notice strips it
            notices.append(Notice("x", problem, _("the preset's matrix")))
    default_tokens = (
        preset_tokens
        if len(preset_tokens) == len(rows) and values["preset"] != "random"
        else tuple(f"t{i + 1}" for i in range(len(rows)))
    )
    if "tokens" not in texts:
        return default_tokens, rows
    try:
        tokens = PARAMS["tokens"].parse(texts["tokens"])
    except AttentionInputError as error:
        notices.append(
            Notice("tokens", f"{_(PARAMS['tokens'].label)}: {error}", _labels(default_tokens))
        )
        return default_tokens, rows
    if len(tokens) != len(rows):
        notices.append(
            Notice(
                "tokens",
                _("{labels} for {rows} of the matrix").format(
                    labels=counted(len(tokens), "token label"), rows=counted(len(rows), "row")
                ),
                _labels(default_tokens),
            )
        )
        return default_tokens, rows
    return tokens, rows


def _labels(tokens: Sequence[str]) -> str:
    shown = ", ".join(tokens[:4]) + (", …" if len(tokens) > 4 else "")
    return shown


def link_params(settings: Settings) -> dict[str, str]:
    """The parameters of a link that reproduces what these settings show, exactly.

    Values equal to their default are left out, and so are values that change nothing while
    another knob says so (``Param.only_when``: the random preset's size under another
    example, the padding under another mask); the matrix and its labels are written out
    whenever they differ from what the preset gives.
    """
    params = {
        name: PARAMS[name].to_text(value)
        for name, value in settings.values.items()
        if value != DEFAULTS[name] and value is not None and PARAMS[name].matters(settings.values)
    }
    tokens, rows = preset_matrix(settings.values)
    if settings.rows != rows:
        params["x"] = PARAMS["x"].to_text(settings.rows)
    if settings.tokens != tokens or "x" in params:
        params["tokens"] = PARAMS["tokens"].to_text(settings.tokens)
    return params
