"""Values that depend on each other brought into range, each change said in a notice: the
focused token and the padding on the number of tokens, heads on the width of queries, K/V
groups on the heads, RoPE on an even head width; values
replaced for another's sake given back when they fit again; token positions moved with their
tokens after an edit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attention_core.embeddings import TARGET_VALUES
from attention_core.formatting import counted
from attention_core.knobs.param import Param
from attention_core.knobs.settings import Notice, Settings, frozen_values
from attention_core.knobs.table import PARAMS
from translation import _


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
            if given and param.matters(values):
                notices.append(Notice(name, _token_problem(param, values[name], count), str(used)))
            values[name] = used
    choices = head_choices(values, settings.d_in)
    if values["heads"] not in choices:
        used = max(h for h in choices if h <= values["heads"])
        width = query_width(values, settings.d_in)
        notices.append(
            Notice(
                "heads",
                _(
                    "heads must divide the width of queries: {width} is not divisible by {heads}"
                ).format(width=width, heads=values["heads"]),
                str(used),
            )
        )
        values["heads"] = used
    notices += _settle_variants(values, settings.d_in)
    notices += _settle_target_labels(values)
    notices += _settle_model_size(values)
    if values["head"] > values["heads"]:  # which head a page shows
        heads = values["heads"]
        notices.append(
            Notice(
                "head",
                _("head: there is no head {head} with {heads}").format(
                    head=values["head"], heads=counted(heads, "head")
                ),
                str(heads),
            )
        )
        values["head"] = heads
    return Settings(frozen_values(values), settings.tokens, settings.rows), notices


# A value ``settle`` replaced for another setting's sake (2 heads while d_out is 5): kept as
# (asked, used) so that it comes back when that setting allows it again (d_out 6).
RESTORABLE = ("heads", "kv_groups", "rope", "head")
# The head a page shows comes back only with the heads it was replaced with: a head count the
# learner chose makes no wish, and choosing the heads again brings no head back.
FOLLOWS = {"head": "heads"}


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
        leader = FOLLOWS.get(name)
        if leader and leader not in waiting and not any(n.param == leader for n in notices):
            continue  # its leader was not replaced, or the learner chose it: forgotten
        if leader and leader in waiting:
            waiting[name] = (asked, used)
            continue
        wished = settings.replace(**{name: asked})
        got = settle(wished)[0][name]
        # K/V groups as many as the heads are standard attention, which settle writes as 0.
        if got == asked or (name == "kv_groups" and got == 0 and asked == wished["heads"]):
            settings = wished.replace(**{name: got})
            notices.append(
                Notice(
                    name,
                    _("{name}: the {asked} chosen before fits again").format(
                        name=name, asked=asked
                    ),
                    str(asked),
                )
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
        leader = FOLLOWS.get(name)
        if leader and leader not in wishes:
            continue  # replaced for a choice of the learner's own, not for another's sake
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
        if given and param.matters(settings.values):
            if used == 0:
                what = _(
                    "{name}: token {row} ({label}) was deleted, so every token's lines are shown"
                ).format(name=name, row=row + 1, label=before[row])
                notices.append(Notice(name, what))
            else:
                what = _("{name}: token {row} ({label}) was deleted").format(
                    name=name, row=row + 1, label=before[row]
                )
                notices.append(Notice(name, what, f"{used} ({settings.tokens[used - 1]})"))
    return (settings.replace(**changes) if changes else settings), notices


def _settle_variants(values: dict[str, Any], d_in: int) -> list[Notice]:
    """K/V groups that divide the heads, and RoPE only on heads of an even width."""
    notices = []
    heads, groups = values["heads"], values["kv_groups"]
    if groups and heads % groups:
        used = max(g for g in range(1, groups + 1) if heads % g == 0)
        notices.append(
            Notice(
                "kv_groups",
                _(
                    "kv_groups must divide heads: {heads} heads cannot share keys and values in "
                    "{kv_groups} equal groups"
                ).format(heads=heads, kv_groups=groups),
                str(used),
            )
        )
        values["kv_groups"] = used
    if values["kv_groups"] == heads:  # one group per head is standard attention: the default
        values["kv_groups"] = 0
    head_width = query_width(values, d_in) // values["heads"]
    if values["rope"] and head_width % 2:
        notices.append(
            Notice(
                "rope",
                _(
                    "rope: a head's width must be even, since RoPE turns pairs of numbers: "
                    "{head_width} is odd"
                ).format(head_width=head_width),
                "off",
            )
        )
        values["rope"] = False
    return notices


def _settle_target_labels(values: dict[str, Any]) -> list[Notice]:
    """The target's labels need one per row of the target (the starting one if none is given);
    others are dropped for the starting labels, saying so."""
    labels = values.get("target_tokens")
    rows = values.get("target") or TARGET_VALUES
    if labels is None or len(labels) == len(rows):
        return []
    values["target_tokens"] = None
    problem = _("{labels} for {rows} of the target matrix").format(
        labels=counted(len(labels), "token label"), rows=counted(len(rows), "row")
    )
    return [Notice("target_tokens", problem, PARAMS["target_tokens"].unset)]


def _settle_model_size(values: dict[str, Any]) -> list[Notice]:
    """The memory calculator's K/V heads: the most that divide its heads."""
    heads, kv_heads = values["n_heads"], values["n_kv_heads"]
    if not heads % kv_heads:
        return []
    used = max(k for k in range(1, min(kv_heads, heads) + 1) if heads % k == 0)
    values["n_kv_heads"] = used
    problem = _(
        "n_kv_heads must divide n_heads: {heads} heads cannot share {kv} K/V heads equally"
    ).format(heads=heads, kv=kv_heads)
    return [Notice("n_kv_heads", problem, str(used))]


def _token_problem(param: Param, asked: int, count: int) -> str:
    tokens = counted(count, "token")
    if param.tokens == "index":
        return _("{name}: there is no token {asked} (the matrix has {tokens})").format(
            name=param.name, asked=asked, tokens=tokens
        )
    return _("{name}: {asked} is more than the {tokens} of the matrix").format(
        name=param.name, asked=asked, tokens=tokens
    )
