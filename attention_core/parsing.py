"""Strict parsing of numbers, matrices and labels typed by people (command line, URL, editor)."""

from __future__ import annotations

import math
import re

from attention_core.errors import AttentionInputError

VALUE_LIMIT = 10.0
LABEL_MAX_CHARS = 20

# A decimal number written plainly: no nan, inf, hex, underscores or 1e999.
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,3})?$")
_INTEGER = re.compile(r"^[+-]?\d{1,20}$")


def parse_number(text: str, where: str, limit: float = VALUE_LIMIT) -> float:
    """Parse one plainly written decimal number within ±limit; ``where`` names it in errors."""
    cleaned = text.strip()
    if not cleaned:
        raise AttentionInputError(f"{where} is empty: type a number")
    if not _NUMBER.match(cleaned):
        raise AttentionInputError(f"{where} is not a number: {cleaned[:20]!r}")
    value = float(cleaned)
    if not math.isfinite(value) or abs(value) > limit:
        raise AttentionInputError(
            f"{where} must be between -{limit:g} and {limit:g}, not {cleaned}"
        )
    return value


def parse_matrix(text: str, limit: float = VALUE_LIMIT) -> tuple[tuple[float, ...], ...]:
    """Parse ``"0.43,0.15,0.89;0.55,0.87,0.66"`` (rows by ``;``, values by ``,``) strictly."""
    rows = [row for row in text.strip().strip(";").split(";")]
    if not rows or rows == [""]:
        raise AttentionInputError("the matrix is empty: give rows separated by ';'")
    parsed = []
    for i, row in enumerate(rows):
        cells = row.split(",")
        parsed.append(
            tuple(
                parse_number(cell, f"row {i + 1}, column {j + 1}", limit)
                for j, cell in enumerate(cells)
            )
        )
    widths = {len(row) for row in parsed}
    if len(widths) > 1:
        raise AttentionInputError(
            f"rows have different lengths ({', '.join(str(len(r)) for r in parsed)}): "
            "every row needs the same number of values"
        )
    return tuple(parsed)


def format_matrix(rows: tuple[tuple[float, ...], ...] | list[list[float]]) -> str:
    """The inverse of :func:`parse_matrix`, with up to 4 decimals per value."""
    return ";".join(",".join(_compact(v) for v in row) for row in rows)


def _compact(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def check_label(label: str, where: str) -> str:
    """Validate one token label: non-empty, at most 20 characters, no markup or separators."""
    text = label.strip()
    if not text:
        raise AttentionInputError(f"{where} is empty: give the token a name")
    if any(ch in text for ch in "<>"):
        raise AttentionInputError(
            f"{where} ({text[:30]!r}) contains '<' or '>': labels are plain words, not HTML"
        )
    if len(text) > LABEL_MAX_CHARS:
        raise AttentionInputError(f"{where} is longer than {LABEL_MAX_CHARS} characters")
    if any(ch in text for ch in ",;"):
        raise AttentionInputError(f"{where} contains ',' or ';', which separate tokens in links")
    return text


def parse_int(text: str, where: str, low: int, high: int) -> int:
    """Parse a whole number written plainly (no 1e3, no 2.0) within [low, high]."""
    cleaned = text.strip()
    if not _INTEGER.match(cleaned):
        raise AttentionInputError(f"{where} must be a whole number, not {cleaned[:20]!r}")
    value = int(cleaned)
    if not low <= value <= high:
        raise AttentionInputError(f"{where} must be between {low} and {high}, not {value}")
    return value


def parse_bool(text: str, where: str) -> bool:
    """Parse true/false, 1/0, yes/no, on/off (any case)."""
    cleaned = text.strip().lower()
    if cleaned in ("true", "1", "yes", "on"):
        return True
    if cleaned in ("false", "0", "no", "off"):
        return False
    raise AttentionInputError(f"{where} must be true or false, not {cleaned[:20]!r}")


def parse_tokens(text: str) -> tuple[str, ...]:
    """Parse comma-separated token labels, each checked by :func:`check_label`."""
    labels = text.split(",")
    return tuple(check_label(label, f"token {i + 1}") for i, label in enumerate(labels))
