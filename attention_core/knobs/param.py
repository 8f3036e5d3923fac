"""One row of the parameter table: a knob's type, default, limits and learner text."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from attention_core.errors import AttentionInputError
from attention_core.knobs.text import (
    check_text,
    echo,
    format_matrix,
    parse_bool,
    parse_int,
    parse_matrix,
    parse_number,
    parse_tokens,
)
from translation import _

MAX_TOKENS = 12  # rows of a typed matrix: the editor, a link and the command line alike
MAX_DIMS = 16  # columns of a typed matrix


@dataclass(frozen=True)
class Param:
    """One knob.

    ``scope`` says what it belongs to: ``input`` (the embedding matrix), ``config`` (a field of
    :class:`~attention_core.config.AttentionConfig`), ``view`` (how the dashboard shows things)
    or ``lesson`` (a control that lives on one lesson page, named by ``page``).
    ``tokens`` is ``index`` for a 1-based token position, ``count`` for 0..num_tokens,
    ``position`` for a token position that is not narrowed to the matrix (0: none; page 10's
    sentences are longer), or empty. A position follows its token when an edit moves it.
    ``internal`` lists choices a program may set but a person never types (``custom``).
    ``widget`` is the dashboard's control (empty: none, e.g. a matrix carried only by links).
    ``only_when`` names another knob's value that must hold for this knob to matter.
    ``dashboard_only`` knobs are not command-line flags (they only change how a page looks).
    ``choice_labels`` name a choice's values, or an ``int`` knob's values from ``low`` up.
    """

    name: str
    kind: str  # "int", "float", "bool", "choice", "text", "labels" or "matrix"
    default: Any
    label: str
    help: str
    scope: str
    low: float | None = None
    high: float | None = None
    step: float | None = None
    choices: tuple[str, ...] = ()
    choice_labels: tuple[str, ...] = ()
    internal: tuple[str, ...] = ()
    tokens: str = ""
    widget: str = ""
    group: str = ""
    page: str = ""
    only_when: tuple[str, str] | None = None
    dashboard_only: bool = False
    unset: str = "none"  # what a missing value (default None) means, in a notice's "using …"

    def choice_label(self, choice: Any) -> str:
        """The learner's words for one choice, translated (the choice itself if it has none)."""
        if choice in self.choices and self.choice_labels:
            return _(self.choice_labels[self.choices.index(choice)])
        if self.kind == "int" and self.choice_labels and self.low is not None:
            index = int(choice) - int(self.low)
            if 0 <= index < len(self.choice_labels):
                return f"{choice} · {_(self.choice_labels[index])}"
        return str(choice)

    def matters(self, values: Mapping[str, Any]) -> bool:
        """True when this knob changes what is computed or shown, given the other knobs'
        ``values``: its ``only_when`` holds (the padding only with the padding mask)."""
        if self.only_when is None:
            return True
        other, wanted = self.only_when
        return values.get(other) == wanted

    def limits(self, num_tokens: int | None = None) -> tuple[float, float]:
        """The inclusive range of a number; token-dependent knobs narrow it to the tokens."""
        assert self.low is not None and self.high is not None, self.name
        if self.tokens == "index" and num_tokens is not None:
            return self.low, min(self.high, num_tokens)
        if self.tokens == "count" and num_tokens is not None:
            return self.low, min(self.high, num_tokens)
        return self.low, self.high

    def parse(self, text: str) -> Any:
        """Parse text typed by a person (a link or a flag); raises with the reason."""
        if self.kind == "int":
            low, high = self.limits()
            if self.tokens in ("index", "count"):
                # Too many for this matrix, whatever the number: settling names the tokens
                # there are and uses the most they allow (window=40 on 6 tokens: 6).
                return parse_int(text, self.name, int(low), None)
            return parse_int(text, self.name, int(low), int(high))
        if self.kind == "float":
            low, high = self.limits()
            return self.check(parse_number(text, self.name, limit=high, low=low))
        if self.kind == "bool":
            return parse_bool(text, self.name)
        if self.kind == "labels":
            return parse_tokens(text, MAX_TOKENS)
        if self.kind == "matrix":
            return parse_matrix(text, int(self.high or MAX_TOKENS), MAX_DIMS)
        if self.kind == "text":
            return check_text(text, f"{self.name}: " + _("it"), int(self.high or 200))
        cleaned = text.strip()
        if cleaned not in self.choices:
            raise AttentionInputError(
                _("{name} must be one of {choices}, not {value}").format(
                    name=self.name, choices=", ".join(self.choices), value=echo(cleaned)
                )
            )
        return cleaned

    def check(self, value: Any) -> Any:
        """Validate a typed value (a program's, or a widget's); returns it, normalised."""
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise AttentionInputError(
                    _("{name} must be a whole number, not {value}").format(
                        name=self.name, value=repr(value)
                    )
                )
            low, high = self.limits()
            if not low <= value <= high:
                raise AttentionInputError(
                    _("{name} must be between {low} and {high}, not {value}").format(
                        name=self.name, low=int(low), high=int(high), value=value
                    )
                )
            return value
        if self.kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise AttentionInputError(
                    _("{name} must be a number, not {value}").format(
                        name=self.name, value=repr(value)
                    )
                )
            low, high = self.limits()
            if not low <= float(value) <= high:  # also refuses NaN
                raise AttentionInputError(
                    _("{name} must be between {low} and {high}, not {value}").format(
                        name=self.name, low=f"{low:g}", high=f"{high:g}", value=value
                    )
                )
            return float(value)
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise AttentionInputError(
                    _("{name} must be true or false, not {value}").format(
                        name=self.name, value=repr(value)
                    )
                )
            return value
        if self.kind == "choice":
            if value not in self.choices and value not in self.internal:
                raise AttentionInputError(
                    _("{name} must be one of {choices}, not {value}").format(
                        name=self.name, choices=", ".join(self.choices), value=repr(value)
                    )
                )
            return value
        if self.kind == "text":
            if not isinstance(value, str):
                raise AttentionInputError(
                    _("{name} must be text, not {value}").format(name=self.name, value=repr(value))
                )
            return check_text(value, f"{self.name}: " + _("it"), int(self.high or 200))
        return value

    def to_text(self, value: Any) -> str:
        """The inverse of :meth:`parse` for links and flags."""
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind == "float":
            return f"{value:g}"
        if self.kind == "labels":
            return ",".join(value)
        if self.kind == "matrix":
            return format_matrix(value)
        return str(value)
