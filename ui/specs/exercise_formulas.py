"""An exercise's numbers and worked solution as KaTeX, broken over lines to fit the column.

The core writes them as plain math text ("α(2,3) = exp(0.9858) / Σ", "2 × 16 × 1 × 2",
"head_dim"), built from its own numbers and symbols only (never a token label); this turns
that text into LaTeX the way ``ui.specs.formulas`` writes the lessons' formulas.
"""

from __future__ import annotations

import re

from attention_core.exercises import Given, Line
from attention_core.formatting import format_number
from ui.specs.formulas import INDENT, length, wrap

_SYMBOLS = {
    "ω": r"\omega ",
    "α": r"\alpha ",
    "Σ": r"\Sigma ",
    "·": r"\cdot ",
    "×": r"\times ",
    "…": r"\ldots ",
    "‖": r"\Vert ",
}
_TOKEN = re.compile(r"√(\d+(?:\.\d+)?)|exp|[A-Za-z]+(?:_[A-Za-z]+)+|[A-Za-z]{2,}|.", re.S)


def tex(text: str) -> str:
    """The core's math text as LaTeX: Greek letters and operators as commands, √n as a root,
    words (``head_dim``, ``view``) upright."""
    parts = []
    for match in _TOKEN.finditer(text):
        token = match[0]
        if match[1] is not None:
            parts.append(rf"\sqrt{{{match[1]}}}")
        elif token == "exp":
            parts.append(r"\exp")
        elif len(token) > 1:
            parts.append(r"\text{" + token.replace("_", r"\_") + "}")
        else:
            parts.append(_SYMBOLS.get(token, token))
    return "".join(parts)


def given_latex(items: tuple[Given, ...], decimals: int, width: int) -> str:
    """``name = [v1, v2, …]`` for each item, one aligned row each, a long vector continued
    on the next rows."""
    rows = []
    for item in items:
        values = [format_number(v, decimals) for v in item.values]
        name = tex(item.name)
        if len(values) == 1:
            rows.append(f"{name} &= {values[0]}")
            continue
        start = length(name) + 4
        lines = wrap(values, ", ", width, start, start + INDENT)
        rows.append(f"{name} &= [{lines[0]}" + ("," if len(lines) > 1 else "]"))
        rows += [rf"&\quad {line}," for line in lines[1:-1]]
        if len(lines) > 1:
            rows.append(rf"&\quad {lines[-1]}]")
    return r"\begin{aligned} " + r" \\ ".join(rows) + r" \end{aligned}"


def solution_latex(lines: tuple[Line, ...], width: int) -> str:
    """Each line of a worked solution, ``left = terms = result``, the terms continued on the
    next rows when they do not fit ``width`` characters."""
    rows = []
    for line in lines:
        left = tex(line.left)
        terms = [tex(term) for term in line.terms]
        joiner = tex(line.joiner)
        start = length(left) + 3
        if terms:
            result = tex(line.result)
            first, *more = wrap(terms, joiner, width, start, start + INDENT + 2)
            if not more and start + length(first) + length(result) + 3 <= width:
                rows.append(f"{left} &= {first} = {result}")
                continue
            rows.append(f"{left} &= {first}")
            continued = joiner.strip()
            rows += [rf"&\quad {continued} {part}" for part in more]
            rows.append(f"&= {result}")
        else:
            rows.append(f"{left} &= {tex(line.result)}")
    return r"\begin{aligned} " + r" \\ ".join(rows) + r" \end{aligned}"
