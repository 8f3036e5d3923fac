"""The one number format of the project: heatmaps, tables, formulas and the command line."""

from __future__ import annotations

import math

DEFAULT_DECIMALS = 4  # the book prints four decimals

NONFINITE_TEXT = {"neg_inf": "−∞", "pos_inf": "∞", "nan": "undefined"}
NONFINITE_ASCII = {"neg_inf": "-inf", "pos_inf": "inf", "nan": "undefined"}


def format_number(
    value: float, decimals: int = DEFAULT_DECIMALS, *, ascii_only: bool = False
) -> str:
    """``value`` with a fixed number of decimals; −∞ (a masked score), ∞ and NaN in words.

    A negative zero is written as zero. Infinities and NaN are never printed as Python's
    ``inf``/``nan``: a masked score reads −∞, and NaN (0/0, or ∞/∞ after an overflow) reads
    "undefined".
    """
    words = NONFINITE_ASCII if ascii_only else NONFINITE_TEXT
    if math.isnan(value):
        return words["nan"]
    if math.isinf(value):
        return words["neg_inf"] if value < 0 else words["pos_inf"]
    text = f"{value:.{decimals}f}"
    if text.startswith("-") and float(text) == 0.0:
        text = text[1:]
    return text


def format_vector(values: list[float], decimals: int = DEFAULT_DECIMALS) -> str:
    """``[a, b, …]`` with every number in the one format."""
    return "[" + ", ".join(format_number(v, decimals) for v in values) + "]"


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless the count is 1: "1 row", "2 rows"."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
