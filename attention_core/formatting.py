"""The one number format of the project: heatmaps, tables, formulas and the command line."""

from __future__ import annotations

import math

from translation import N_, _, ngettext

DEFAULT_DECIMALS = 4  # the book prints four decimals
MINUS = "\u2212"  # the minus sign (−) every number on screen carries, not the hyphen (-)

NONFINITE_TEXT = {"neg_inf": f"{MINUS}∞", "pos_inf": "∞", "nan": N_("undefined")}
NONFINITE_ASCII = {"neg_inf": "-inf", "pos_inf": "inf", "nan": "undefined"}


def format_number(
    value: float, decimals: int = DEFAULT_DECIMALS, *, ascii_only: bool = False
) -> str:
    """``value`` with a fixed number of decimals; −∞ (a masked score), ∞ and NaN in words.

    A negative number is written with the minus sign, "−0.2104", as legends and formulas
    write it (``ascii_only``: with the hyphen, "-0.2104", for the command line and files). A
    negative zero is written as zero. Infinities and NaN are never printed as Python's
    ``inf``/``nan``: a masked score reads −∞, and NaN (0/0, or ∞/∞ after an overflow) reads
    "undefined".
    """
    words = NONFINITE_ASCII if ascii_only else NONFINITE_TEXT
    if math.isnan(value):
        return words["nan"] if ascii_only else _(words["nan"])
    if math.isinf(value):
        return words["neg_inf"] if value < 0 else words["pos_inf"]
    text = f"{value:.{decimals}f}"
    if text.startswith("-") and float(text) == 0.0:
        text = text[1:]
    return text if ascii_only else with_minus(text)


def format_scientific(value: float, digits: int = 1) -> str:
    """``value`` in scientific notation with ``digits`` decimals, "2.8e−06", for a number the
    page's decimals would round to 0 or a largest difference; ∞ and NaN as
    :func:`format_number` writes them."""
    if not math.isfinite(value):
        return format_number(value)
    return with_minus(f"{value:.{digits}e}")


def with_minus(text: str) -> str:
    """A number's text with each hyphen-minus written as the minus sign: "−0.5", "1e−05"."""
    return text.replace("-", MINUS)


def format_vector(values: list[float], decimals: int = DEFAULT_DECIMALS) -> str:
    """``[a, b, …]`` with every number in the one format."""
    return "[" + ", ".join(format_number(v, decimals) for v in values) + "]"


# Each counted noun's singular and plural, as the catalog has them (a language may count
# otherwise: Chinese puts a measure word between the number and the noun).
_COUNTED = {
    "row": lambda n: ngettext("{count} row", "{count} rows", n),
    "token": lambda n: ngettext("{count} token", "{count} tokens", n),
    "token label": lambda n: ngettext("{count} token label", "{count} token labels", n),
    "other cell": lambda n: ngettext("{count} other cell", "{count} other cells", n),
    "number": lambda n: ngettext("{count} number", "{count} numbers", n),
    "head": lambda n: ngettext("{count} head", "{count} heads", n),
    "sample": lambda n: ngettext("{count} sample", "{count} samples", n),
    "dropout sample": lambda n: ngettext("{count} dropout sample", "{count} dropout samples", n),
    "answer": lambda n: ngettext("{count} answer", "{count} answers", n),
}


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun`` in the current language, plural unless the count is 1: "1 row",
    "2 rows". ``noun`` is one of ``_COUNTED``'s."""
    return _COUNTED[noun](count).format(count=count)
