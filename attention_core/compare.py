"""Two settings side by side: the pinned settings A as link text, and how B's weights differ."""

from __future__ import annotations

import math
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode

import torch

from attention_core.errors import AttentionInputError
from attention_core.knobs.links import link_params, read_params
from attention_core.knobs.settings import Settings, default_settings
from attention_core.knobs.table import PARAMS
from attention_core.knobs.text import echo
from attention_core.trace import AttentionTrace
from translation import _

PIN_SCOPES = ("input", "config")  # what A fixes; the view (focused token, decimals) is shared
# Cross-attention's target (page 12): no part of the self-attention A and B compare.
NOT_PINNED = ("target", "target_tokens")
PIN_FIELDS = 60  # more parameters than the table has: a pin with more is refused unread
NO_CHANGE = 5e-5  # below half of the fourth printed decimal a weight has not changed


def no_change_at(decimals: int) -> float:
    """The smallest change that prints at ``decimals`` decimals: half of the last one."""
    return 0.5 * 10.0**-decimals


def pin_text(settings: Settings) -> str:
    """The matrix and the config of ``settings`` as a link's query string (never empty)."""
    params = {
        name: text
        for name, text in link_params(settings).items()
        if PARAMS[name].scope in PIN_SCOPES and name not in NOT_PINNED
    }
    return urlencode({"preset": settings["preset"], **params})


def read_pin(text: str) -> Settings:
    """The settings a pin describes, over the defaults.

    Raises:
        AttentionInputError: naming the first problem; a pin is used whole or not at all.
    """
    try:
        raw = parse_qs(text, keep_blank_values=True, max_num_fields=PIN_FIELDS)
    except ValueError as error:
        raise AttentionInputError(
            _("the pinned settings A are not a link's query string")
        ) from error
    if not raw:
        raise AttentionInputError(_("the pinned settings A are empty"))
    settings, notices = read_params(raw, default_settings(), scopes=PIN_SCOPES)
    # Only what the pin itself says counts: not the focused token that its matrix leaves out.
    problems = [n for n in notices if n.param in raw or PARAMS[n.param].scope in PIN_SCOPES]
    if problems:
        notice = problems[0]
        problem = notice.problem
        if notice.param not in PARAMS or PARAMS[notice.param].scope not in PIN_SCOPES:
            # The notice ends "; ignored", which a pin (used whole or not at all) is not.
            problem = _("{echo} is not a setting").format(echo=echo(notice.param))
        raise AttentionInputError(_("the pinned settings A: {problem}").format(problem=problem))
    return settings


def changed_settings(first: Settings, second: Settings) -> list[tuple[str, str, str]]:
    """The matrix and config values that differ: (name, value in A, value in B) as link text.

    A value that A or B does not use (the padding under another mask) is no difference: the
    knob that decides it (the mask) is named instead.
    """
    changes = []
    for name, param in PARAMS.items():
        if param.scope not in PIN_SCOPES or name in ("x", "tokens", *NOT_PINNED):
            continue
        if not (param.matters(first.values) and param.matters(second.values)):
            continue
        if first[name] != second[name]:
            changes.append((name, param.to_text(first[name]), param.to_text(second[name])))
    if first.tokens != second.tokens:
        changes.append(("tokens", ",".join(first.tokens), ",".join(second.tokens)))
    if first.rows != second.rows:
        changes.append(("x", PARAMS["x"].to_text(first.rows), PARAMS["x"].to_text(second.rows)))
    return changes


@dataclass(frozen=True)
class WeightChange:
    """One weight in A and in B; ``head`` is None when head-averaged weights are compared."""

    head: int | None
    query: int
    key: int
    before: float
    after: float

    @property
    def change(self) -> float:
        """B − A."""
        return self.after - self.before


@dataclass(frozen=True)
class WeightComparison:
    """How B's weights (after dropout) differ from A's.

    Shapes:
        first, second, difference: (num_heads, num_tokens, num_tokens), or (1, num_tokens,
        num_tokens) of head-averaged weights when A and B have different numbers of heads
        (``averaged``); difference = second − first.
    """

    first: torch.Tensor
    second: torch.Tensor
    difference: torch.Tensor
    averaged: bool
    largest: tuple[WeightChange, ...]

    @property
    def max_change(self) -> float:
        """The largest |B − A| of a finite weight (0 when nothing changed)."""
        finite = self.difference[torch.isfinite(self.difference)]
        return float(finite.abs().max()) if finite.numel() else 0.0


def compare_weights(
    first: AttentionTrace,
    second: AttentionTrace,
    head: int | None = None,
    count: int = 5,
    no_change: float = NO_CHANGE,
) -> WeightComparison:
    """B − A of the weights after dropout, and the ``count`` largest changes of head ``head``.

    Args:
        first, second: the runs of A and B, on the same number of tokens.
        head: the head whose changes are listed (0-based); None lists every head's.
        count: how many changes to list, largest |B − A| first.
        no_change: a smaller |B − A| is no change (half of the last printed decimal).

    Raises:
        AttentionInputError: when A and B have different numbers of tokens.
    """
    if first.num_tokens != second.num_tokens:
        raise AttentionInputError(
            _(
                "A has {num_tokens} tokens and B has {num_tokens2}: weights can only be "
                "subtracted for the same number of tokens"
            ).format(num_tokens=first.num_tokens, num_tokens2=second.num_tokens)
        )
    averaged = first.num_heads != second.num_heads
    if averaged:
        before, after = first.mean_weights[None], second.mean_weights[None]
    else:
        before, after = first.weights_after_dropout, second.weights_after_dropout
    difference = after - before  # (heads, num_tokens, num_tokens)
    listed = range(difference.shape[0]) if head is None or averaged else [head]
    candidates = []
    for h in listed:
        for i, row in enumerate(difference[h].tolist()):
            for j, value in enumerate(row):
                if math.isfinite(value) and abs(value) >= no_change:
                    old, new = float(before[h, i, j]), float(after[h, i, j])
                    candidates.append(WeightChange(None if averaged else h, i, j, old, new))
    candidates.sort(key=lambda c: (-abs(c.change), c.query, c.key))
    return WeightComparison(before, after, difference, averaged, tuple(candidates[:count]))
