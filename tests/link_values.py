"""Hostile link values (issue 11): what the link fuzz gives every parameter, and which of them
a parameter refuses. Shared by the parser's test (tests/core) and the pages' (tests/ui)."""

from __future__ import annotations

import unicodedata

from attention_core.compare import read_pin
from attention_core.errors import AttentionInputError
from attention_core.knobs.table import PARAMS

HOSTILE = (
    "",
    "   ",
    "9" * 400,  # huge
    "-99999",
    "nan",
    "1e999",
    "١٢",  # Arabic-Indic digits: int() reads 12, a link must not
    "１２",  # full-width digits
    "**bold** _it_",
    "[click](http://evil.example/x)",
    "![pixel](http://evil.example/p.png)",
    "<img src=x onerror=alert(1)>",
    ":material/home: :red[x]",
    "`x` $x^2$ \\ {#} ~ %",
    "\u202eevil",  # a direction override
    "a" * 10_000,
)
TEXTS = {name for name, p in PARAMS.items() if p.kind == "text"}
REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def legal_text(name: str, value: str) -> bool:
    """Free text a widget accepts: printable, not empty, within its row's length."""
    cleaned = " ".join(value.split())
    printable = all(
        unicodedata.category(ch) not in REFUSED and (ch == " " or not ch.isspace())
        for ch in cleaned
    )
    return bool(cleaned) and printable and len(cleaned) <= PARAMS[name].high


def is_bad(name: str, value: str) -> bool:
    """Every hostile value is refused, except free text a learner may type."""
    if name == "pin":  # the Compare page reads a pin whole, as a link's query string, or not at all
        return not legal_text(name, value) or not _reads_as_pin(value)
    return not legal_text(name, value) if name in TEXTS else True


def _reads_as_pin(value: str) -> bool:
    try:
        read_pin(" ".join(value.split()))
    except AttentionInputError:
        return False
    return True
