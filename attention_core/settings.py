"""Settings: the matrix, the config and the view, read one parameter at a time.

A link or a command line is a set of ``name=text`` pairs whose names come from the parameter
table. Each pair is parsed on its own: a bad value falls back to its previous value with a
notice that names it, and every other value is kept. :func:`settle` then brings values that
depend on each other (the focused token and the padding on the number of tokens, heads on the
width of queries) into range, again with a notice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from attention_core.config import AttentionConfig, Matrix
from attention_core.embeddings import Embeddings, make_embeddings, preset_embeddings
from attention_core.errors import AttentionInputError
from attention_core.formatting import counted
from attention_core.params import CONFIG_PARAMS, DEFAULTS, PARAMS, Param
from attention_core.parsing import echo

MATRIX_PARAMS = ("tokens", "x")  # the embedding matrix and its labels: Settings.tokens/rows
SCALARS = tuple(name for name in PARAMS if name not in MATRIX_PARAMS)


@dataclass(frozen=True)
class Notice:
    """One problem with a value (``problem``) and the value used instead (``used``, if any).

    ``param`` names the knob. Both texts may repeat what a person typed: show them as text.
    """

    param: str
    problem: str
    used: str = ""

    @property
    def message(self) -> str:
        """The problem and, when there is one, the value used instead."""
        return f"{self.problem}; using {self.used}" if self.used else self.problem


def _frozen(values: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(values))


@dataclass(frozen=True)
class Settings:
    """Every knob's value, and the token labels and embedding matrix they apply to."""

    values: Mapping[str, Any] = field(default_factory=lambda: _frozen(_scalar_defaults()))
    tokens: tuple[str, ...] = ()
    rows: Matrix = ()

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def replace(self, **changes: Any) -> Settings:
        """A copy with some values (or ``tokens``/``rows``) changed; not validated here."""
        tokens = changes.pop("tokens", self.tokens)
        rows = changes.pop("rows", self.rows)
        unknown = set(changes) - set(SCALARS)
        if unknown:
            raise AttentionInputError(f"unknown setting: {sorted(unknown)[0]}")
        return Settings(_frozen({**self.values, **changes}), tuple(tokens), tuple(rows))

    @property
    def num_tokens(self) -> int:
        """Number of tokens (rows of the matrix)."""
        return len(self.rows)

    @property
    def d_in(self) -> int:
        """Numbers per token (columns of the matrix)."""
        return len(self.rows[0]) if self.rows else 0

    @property
    def query_index(self) -> int:
        """The focused token, 0-based."""
        return int(self.values["query"]) - 1

    def config(self) -> AttentionConfig:
        """The attention config these settings describe (validated)."""
        return AttentionConfig(**{name: self.values[name] for name in CONFIG_PARAMS})

    def embeddings(self) -> Embeddings:
        """The token labels and matrix as validated embeddings."""
        return make_embeddings(self.tokens, self.rows)


def _scalar_defaults() -> dict[str, Any]:
    return {name: DEFAULTS[name] for name in SCALARS}


def preset_matrix(values: Mapping[str, Any]) -> tuple[tuple[str, ...], Matrix]:
    """The labels and rows of the preset the values name (seeded presets use ``seed``)."""
    embeddings = preset_embeddings(
        values["preset"], values["seed"], values["num_tokens"], values["d_in"]
    )
    return embeddings.tokens, embeddings.as_rows()


def default_settings() -> Settings:
    """The book's defaults: "Your journey starts with one step"."""
    values = _scalar_defaults()
    tokens, rows = preset_matrix(values)
    return Settings(_frozen(values), tokens, rows)


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
            notices.append(Notice(name, f"{echo(name)} is not a setting; ignored"))
            continue
        if not given:
            continue
        if len(given) > 1:
            notices.append(
                Notice(name, f"{name} is given {len(given)} times; the last one is used")
            )
        texts[name] = given[-1]
    for name, text in texts.items():
        param = PARAMS[name]
        if name in MATRIX_PARAMS:
            continue
        try:
            values[name] = param.parse(text)
        except AttentionInputError as error:
            notices.append(Notice(name, str(error), _used(param, values[name])))
    tokens, rows = _read_matrix(texts, values, base, notices)
    settled, more = settle(Settings(_frozen(values), tokens, rows))
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
            notices.append(Notice("x", f"{PARAMS['x'].label}: {error}", "the preset's matrix"))
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
            Notice("tokens", f"{PARAMS['tokens'].label}: {error}", _labels(default_tokens))
        )
        return default_tokens, rows
    if len(tokens) != len(rows):
        notices.append(
            Notice(
                "tokens",
                f"{counted(len(tokens), 'token label')} for {counted(len(rows), 'row')} of the "
                "matrix",
                _labels(default_tokens),
            )
        )
        return default_tokens, rows
    return tokens, rows


def _labels(tokens: Sequence[str]) -> str:
    shown = ", ".join(tokens[:4]) + (", …" if len(tokens) > 4 else "")
    return shown


def query_width(values: Mapping[str, Any], d_in: int) -> int:
    """How many numbers a query has: d_in without projections, else d_out (per head if wrapped)."""
    if values["init"] == "identity":
        return d_in
    if values["heads_layout"] == "wrapper":
        return values["heads"] * values["d_out"]
    return values["d_out"]


def head_choices(values: Mapping[str, Any], d_in: int) -> list[int]:
    """Head counts that fit: they divide the width of queries (wrapped heads always fit)."""
    low, high = (int(v) for v in PARAMS["heads"].limits())
    if values["heads_layout"] == "wrapper" and values["init"] != "identity":
        return list(range(low, high + 1))
    width = query_width(values, d_in)
    return [h for h in range(low, high + 1) if width % h == 0]


def settle(settings: Settings) -> tuple[Settings, list[Notice]]:
    """Bring values that depend on the tokens or on each other into range, saying what changed."""
    values = dict(settings.values)
    notices: list[Notice] = []
    count = settings.num_tokens
    for name, param in PARAMS.items():
        if param.tokens not in ("index", "count") or name not in values:
            continue
        low, high = param.limits(count)
        if not low <= values[name] <= high:
            used = int(min(max(values[name], low), high))
            # A default (focus on token 2, a lesson's change token 6) is no one's choice: it
            # is brought in silently (a link with one token never asked for token 2).
            given = values[name] != param.default
            if given and _matters(param, values):
                notices.append(Notice(name, _token_problem(param, values[name], count), str(used)))
            values[name] = used
    choices = head_choices(values, settings.d_in)
    if values["heads"] not in choices:
        used = max(h for h in choices if h <= values["heads"])
        width = query_width(values, settings.d_in)
        notices.append(
            Notice(
                "heads",
                f"heads must divide the width of queries: {width} is not divisible by "
                f"{values['heads']}",
                str(used),
            )
        )
        values["heads"] = used
    if values["head"] > values["heads"]:  # which head a page shows
        heads = values["heads"]
        notices.append(
            Notice(
                "head",
                f"head: there is no head {values['head']} with {heads} head{'s' * (heads > 1)}",
                str(heads),
            )
        )
        values["head"] = heads
    return Settings(_frozen(values), settings.tokens, settings.rows), notices


# A value ``settle`` replaced for another setting's sake (2 heads while d_out is 5): kept as
# (asked, used) so that it comes back when that setting allows it again (d_out 6).
RESTORABLE = ("heads", "head")
Wishes = Mapping[str, tuple[Any, Any]]


def restore(settings: Settings, wishes: Wishes) -> tuple[Settings, list[Notice], dict]:
    """Give back each value ``settle`` replaced once it fits again, saying so; a wish is
    forgotten once its setting holds another value than the one used for it (the learner
    chose). Returns the settings, the notices and the wishes still waiting."""
    notices: list[Notice] = []
    waiting: dict[str, tuple[Any, Any]] = {}
    for name, (asked, used) in wishes.items():  # heads before head: head fits with heads
        if settings[name] != used:
            continue
        wished = settings.replace(**{name: asked})
        if settle(wished)[0][name] == asked:
            settings = wished
            notices.append(
                Notice(name, f"{name}: the {asked} chosen before fits again", str(asked))
            )
        else:
            waiting[name] = (asked, used)
    return settings, notices, waiting


def wishes_after(
    before: Settings, after: Settings, notices: Sequence[Notice], waiting: Wishes
) -> dict[str, tuple[Any, Any]]:
    """The wishes still waiting and those ``settle`` made by replacing ``before``'s values."""
    wishes = dict(waiting)
    for notice in notices:
        name = notice.param
        if name in RESTORABLE and before[name] != after[name]:
            asked = wishes[name][0] if name in wishes else before[name]  # the first wish
            wishes[name] = (asked, after[name])
    return {name: wishes[name] for name in RESTORABLE if name in wishes}


def follow_tokens(
    settings: Settings, moved: Mapping[int, int | None], before: Sequence[str]
) -> tuple[Settings, list[Notice]]:
    """The settings with every token position (the focused token, the lines' token...) moved
    with its token, after an edit that deleted or added rows; a setting whose own token was
    deleted moves to the token that took its place (the last one when none did) or, for a
    position where 0 means every token, back to every token, and says so.

    Args:
        settings: the settings after the edit, positions still as they were before it.
        moved: each token's 0-based row before the edit -> its row after (None: deleted).
        before: the token labels before the edit (a notice names the deleted one).
    """
    changes: dict[str, int] = {}
    notices: list[Notice] = []
    for name, param in PARAMS.items():
        if param.tokens not in ("index", "position") or name not in settings.values:
            continue
        row = int(settings[name]) - 1
        if row not in moved:  # every token (0), or beyond the matrix: settle() decides
            continue
        now = moved[row]
        if now is not None:
            if now != row:
                changes[name] = now + 1
            continue
        kept_above = sum(1 for old, new in moved.items() if old < row and new is not None)
        used = 0 if param.tokens == "position" else min(kept_above, settings.num_tokens - 1) + 1
        changes[name] = used
        # A lesson's own default (change token 6) is no one's choice: it moves silently.
        given = param.scope != "lesson" or settings[name] != param.default
        if given and _matters(param, settings.values):
            what = f"{name}: token {row + 1} ({before[row]}) was deleted"
            if used == 0:
                notices.append(Notice(name, f"{what}, so every token's lines are shown"))
            else:
                notices.append(Notice(name, what, f"{used} ({settings.tokens[used - 1]})"))
    return (settings.replace(**changes) if changes else settings), notices


def _matters(param: Param, values: Mapping[str, Any]) -> bool:
    if param.only_when is None:
        return True
    other, wanted = param.only_when
    return values.get(other) == wanted


def _token_problem(param: Param, asked: int, count: int) -> str:
    tokens = f"{count} token{'s' if count != 1 else ''}"
    if param.tokens == "index":
        return f"{param.name}: there is no token {asked} (the matrix has {tokens})"
    return f"{param.name}: {asked} is more than the {tokens} of the matrix"


def link_params(settings: Settings) -> dict[str, str]:
    """The parameters of a link that reproduces these settings exactly.

    Values equal to their default are left out; the matrix and its labels are written out
    whenever they differ from what the preset gives.
    """
    params = {
        name: PARAMS[name].to_text(value)
        for name, value in settings.values.items()
        if value != DEFAULTS[name] and value is not None
    }
    tokens, rows = preset_matrix(settings.values)
    if settings.rows != rows:
        params["x"] = PARAMS["x"].to_text(settings.rows)
    if settings.tokens != tokens or "x" in params:
        params["tokens"] = PARAMS["tokens"].to_text(settings.tokens)
    return params
