"""Strict parsing of numbers, matrices and labels typed by people (command line, link, editor)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from attention_core.errors import AttentionInputError
from attention_core.formatting import MINUS, with_minus
from translation import _

VALUE_LIMIT = 10.0
# float32's smallest normal number (torch.finfo(torch.float32).tiny): a number nearer 0 than
# this would be stored as 0 or with fewer digits than typed, and 1e-400 is 0 even as a float.
FLOAT32_TINY = 1.1754943508222875e-38
LABEL_MAX_CHARS = 20
ECHO_CHARS = 24  # how much of a refused value a message repeats

# A decimal number written plainly in ASCII digits: no nan, inf, hex, underscores, 1e999, or
# full-width and other non-ASCII digits (Python's float() and re's \d accept those).
_NUMBER = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?$", re.ASCII)
_DECIMAL_COMMA = re.compile(r"^[+-]?[0-9]{1,3},[0-9]{1,12}$", re.ASCII)  # 0,5 for 0.5
_INTEGER = re.compile(r"^[+-]?[0-9]+$", re.ASCII)
_INT_DIGITS = 20  # more (leading zeros aside) is out of every range: not worth reading
# Characters a label may not contain: Unicode categories for controls (Cc), format characters
# such as zero-width spaces and direction overrides (Cf), separators other than the plain space
# (Zl, Zp, and Zs beyond U+0020), surrogates (Cs), private use (Co) and unassigned (Cn).
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def echo(text: str) -> str:
    """A refused value as a message may repeat it: shortened, with invisible characters named."""
    shown = "".join(ch if _printable(ch) else f"U+{ord(ch):04X}" for ch in text[: ECHO_CHARS + 1])
    return repr(shown[:ECHO_CHARS] + ("…" if len(text) > ECHO_CHARS else ""))


def parse_number(
    text: str, where: str, limit: float = VALUE_LIMIT, low: float | None = None
) -> float:
    """Parse one plainly written decimal number within ±limit (from ``low`` instead, when
    given); ``where`` names it in errors. The minus sign (−, as the app prints numbers) reads
    as the hyphen-minus: a number copied from the screen pastes back."""
    typed = text.strip()
    cleaned = typed.replace(MINUS, "-")
    if not cleaned:
        raise AttentionInputError(_("{where} is empty: type a number").format(where=where))
    if not _NUMBER.match(cleaned):
        if _DECIMAL_COMMA.match(cleaned):
            raise AttentionInputError(
                _(
                    "{where} is not a number written with the digits 0-9: {value} (write the "
                    "decimals after a point: {fixed})"
                ).format(where=where, value=echo(typed), fixed=typed.replace(",", "."))
            )
        raise AttentionInputError(
            _("{where} is not a number written with the digits 0-9: {value}").format(
                where=where, value=echo(typed)
            )
        )
    value = float(cleaned)
    if value == 0.0 and cleaned.lower().partition("e")[0].strip("+-0.") != "":
        value = FLOAT32_TINY / 2  # 1e-400 is no float at all: refused as too close to 0
    return check_value(value, typed[:ECHO_CHARS], where, limit, low)


def check_value(
    value: float, shown: str, where: str, limit: float = VALUE_LIMIT, low: float | None = None
) -> float:
    """``value`` if it lies within ±limit (from ``low`` when given) and is 0 or at least
    float32's smallest normal number in size; ``shown`` is how the message repeats it."""
    low = -limit if low is None else low
    if not low <= value <= limit:  # False for NaN too
        raise AttentionInputError(
            _("{where} must be between {low} and {high}, not {value}").format(
                where=where,
                low=with_minus(f"{low:g}"),
                high=with_minus(f"{limit:g}"),
                value=shown,
            )
        )
    if 0.0 < abs(value) < FLOAT32_TINY:
        raise AttentionInputError(
            _(
                "{where} is too close to 0 to compute in float32: type 0 or a number of at least "
                "1.2e-38 in size, not {value}"
            ).format(where=where, value=shown)
        )
    return value


def parse_matrix(
    text: str, max_rows: int, max_columns: int, limit: float = VALUE_LIMIT
) -> tuple[tuple[float, ...], ...]:
    """Parse ``"0.43,0.15,0.89;0.55,0.87,0.66"`` (rows by ``;``, values by ``,``) strictly.

    Sizes are checked before any number is parsed, so a huge matrix costs nothing.
    """
    rows = text.strip().strip(";").split(";")
    if rows == [""]:
        raise AttentionInputError(_("the matrix is empty: give rows separated by ';'"))
    if len(rows) > max_rows:
        raise AttentionInputError(
            _("the matrix has {count} rows; at most {limit} tokens").format(
                count=len(rows), limit=max_rows
            )
        )
    parsed = []
    for i, row in enumerate(rows):
        cells = row.split(",")
        if len(cells) > max_columns:
            raise AttentionInputError(
                _("row {row} has {count} values; at most {limit} per token").format(
                    row=i + 1, count=len(cells), limit=max_columns
                )
            )
        parsed.append(
            tuple(
                parse_number(
                    cell, _("row {row}, column {column}").format(row=i + 1, column=j + 1), limit
                )
                for j, cell in enumerate(cells)
            )
        )
    widths = {len(row) for row in parsed}
    if len(widths) > 1:
        raise AttentionInputError(
            _(
                "rows have different lengths ({lengths}): every row needs the same number of values"
            ).format(lengths=", ".join(str(len(r)) for r in parsed))
        )
    return tuple(parsed)


def format_matrix(rows: tuple[tuple[float, ...], ...] | list[list[float]]) -> str:
    """The inverse of :func:`parse_matrix`, each value written by :func:`link_text`."""
    return ";".join(",".join(link_text(v) for v in row) for row in rows)


def link_text(value: float) -> str:
    """How a link writes a number: 6 decimals, or 6 significant digits below 1 in size.

    Six decimals alone would write an accepted 1e-7 as 0, and a copied link would then show
    other weights (cosine scores see a row's direction however small it is).
    """
    if abs(value) < 1:
        text = f"{value:.6g}"
        if 0 < abs(float(text)) < FLOAT32_TINY:  # rounding took a number at the limit below it
            text = repr(float(value))
    else:
        text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def as_linked(value: float) -> float:
    """``value`` as a copied link gives it back (see :func:`link_text`)."""
    return float(link_text(value))


def linked_rows(rows: Iterable[Iterable[float]]) -> tuple[tuple[float, ...], ...]:
    """A matrix (nested numbers, e.g. a tensor's ``tolist()``) as a copied link gives it back."""
    return tuple(tuple(as_linked(float(v)) for v in row) for row in rows)


def _printable(ch: str) -> bool:
    category = unicodedata.category(ch)
    if category == "Zs":
        return ch == " "
    return category not in _REFUSED_CATEGORIES


def check_text(text: str, where: str, limit: int) -> str:
    """Validate free text (a sentence, a word): 1 to ``limit`` printable characters."""
    cleaned = " ".join(text.split())
    if not cleaned:
        raise AttentionInputError(_("{where} is empty").format(where=where))
    if len(cleaned) > limit:  # first: a huge paste is not read character by character
        raise AttentionInputError(
            _("{where} has {count} characters; at most {limit}").format(
                where=where, count=len(cleaned), limit=limit
            )
        )
    bad = next((ch for ch in cleaned if not _printable(ch)), None)
    if bad is not None:
        raise AttentionInputError(
            _("{where} contains U+{code:04X}: type printable characters only").format(
                where=where, code=ord(bad)
            )
        )
    return cleaned


def check_label(label: str, where: str) -> str:
    """Validate one token label and return it without surrounding spaces.

    A label is 1 to 20 printable characters: no control, zero-width, direction-override or
    unusual space characters, and neither ',' nor ';' (they separate tokens in links).
    Any other text is allowed: it is always shown as text, never as markup.
    """
    text = label.strip()
    if not text:
        raise AttentionInputError(_("{where} is empty: give the token a name").format(where=where))
    bad = next((ch for ch in text if not _printable(ch)), None)
    if bad is not None:
        name = unicodedata.name(bad, _("an invisible or control character"))
        raise AttentionInputError(
            _(
                "{where} contains U+{code:04X} ({character}): labels take printable characters only"
            ).format(where=where, code=ord(bad), character=name.lower())
        )
    if len(text) > LABEL_MAX_CHARS:
        raise AttentionInputError(
            _("{where} has {count} characters; at most {limit}").format(
                where=where, count=len(text), limit=LABEL_MAX_CHARS
            )
        )
    if any(ch in text for ch in ",;"):
        raise AttentionInputError(
            _("{where} contains ',' or ';', which separate tokens in links").format(where=where)
        )
    return text


def parse_int(text: str, where: str, low: int, high: int | None) -> int:
    """Parse a whole number written plainly (no 1e3, no 2.0) within [low, high] (from low
    up, when ``high`` is None); the minus sign (−) reads as the hyphen-minus."""
    cleaned = text.strip().replace(MINUS, "-")
    if not _INTEGER.match(cleaned):
        raise AttentionInputError(
            _("{where} must be a whole number written with the digits 0-9, not {value}").format(
                where=where, value=echo(cleaned)
            )
        )
    sign = "-" if cleaned.startswith("-") else ""
    digits = cleaned.lstrip("+-").lstrip("0") or "0"  # Python refuses over 4300 digits
    between = _("{where} must be between {low} and {high}, not {value}")
    if len(digits) > _INT_DIGITS:
        too_long = between
        if high is None:
            too_long = _("{where} must be at most {digits} digits long, not {value}")
        raise AttentionInputError(
            too_long.format(
                where=where, low=low, high=high, digits=_INT_DIGITS, value=echo(cleaned)
            )
        )
    value = int(sign + digits)
    if value < low or (high is not None and value > high):
        outside = between if high is not None else _("{where} must be at least {low}, not {value}")
        raise AttentionInputError(outside.format(where=where, low=low, high=high, value=value))
    return value


def parse_bool(text: str, where: str) -> bool:
    """Parse true/false, 1/0, yes/no, on/off (any case)."""
    cleaned = text.strip().lower()
    if cleaned in ("true", "1", "yes", "on"):
        return True
    if cleaned in ("false", "0", "no", "off"):
        return False
    raise AttentionInputError(
        _("{where} must be true or false, not {value}").format(where=where, value=echo(cleaned))
    )


def parse_tokens(text: str, max_tokens: int) -> tuple[str, ...]:
    """Parse comma-separated token labels, each checked by :func:`check_label`."""
    labels = text.split(",")
    if len(labels) > max_tokens:
        raise AttentionInputError(
            _("{count} labels; at most {limit} tokens").format(count=len(labels), limit=max_tokens)
        )
    return tuple(
        check_label(label, _("token {number}").format(number=i + 1))
        for i, label in enumerate(labels)
    )
