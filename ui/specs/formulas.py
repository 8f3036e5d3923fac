"""Formulas written out with the learner's numbers (KaTeX). Tokens appear by position only.

A formula that would run past its column is broken over lines (KaTeX does not wrap: a long
display is cut at the column's edge). Widths are counted in characters, measured at 7.9–8.5 px
each in Streamlit's KaTeX size in Chromium (a digit is 0.5 em; " + " with its spacing about
three characters).
"""

from __future__ import annotations

import math
import re
from typing import Protocol

from attention_core import AttentionTrace
from attention_core.explain import context_terms, score_terms
from attention_core.formatting import MINUS


class Page(Protocol):
    """What a formula takes from the page it is written on (``ui.session.run_order.Page``):
    the focused token and the page's one number format."""

    @property
    def query(self) -> int: ...

    def number(self, value: float) -> str: ...


# Characters per line: the main column (820 px at 1280 px wide) and the focus panel's formula
# column (455 px), each at 8.6 px a character with a margin.
FULL_WIDTH = 92
COLUMN_WIDTH = 50
INDENT = 2  # a continued line's extra indent, in characters


def entry(page: Page, value: float) -> str:
    """A number as KaTeX draws it, −∞, ∞ and "undefined" as text (not as italic letters)."""
    text = page.number(value)
    return text if math.isfinite(value) else rf"\text{{{text}}}"


def number(page: Page, value: float) -> str:
    """A number in a sum or a product: a negative one in brackets, so a sum reads
    "+ (−0.2)" and a product "× (−0.2)", never "+ −0.2" (KaTeX draws the minus sign as it
    draws "-")."""
    text = entry(page, value)
    return f"({text})" if text.startswith(MINUS) else text


def wrap(pieces: list[str], joiner: str, width: int, first: int, indent: int) -> list[str]:
    """``pieces`` joined by ``joiner`` into lines of at most about ``width`` characters, the
    first line starting at character ``first`` and the others at ``indent``: as few lines as
    filling them in order needs, as even as they can be. A piece wider than a line gets a line
    of its own."""
    greedy: list[list[str]] = [[]]
    used = first
    for piece in pieces:
        size = length(piece) + length(joiner)
        if greedy[-1] and used + size > width:
            greedy.append([])
            used = indent
        greedy[-1].append(piece)
        used += size
    per_line = max(1, math.ceil(len(pieces) / len(greedy)))
    even = [pieces[i : i + per_line] for i in range(0, len(pieces), per_line)]
    fits = all(
        (first if i == 0 else indent) + sum(length(p) + length(joiner) for p in line) <= width
        for i, line in enumerate(even)
    )
    return [joiner.join(line) for line in (even if fits and len(even) == len(greedy) else greedy)]


def length(latex: str) -> int:
    """About how many characters ``latex`` draws: a command is one symbol, ``\\quad`` two,
    ``\\text{…}`` its text; braces, ``^``, ``_`` and ``&`` nothing. Rows of an ``aligned``
    block are as wide as the widest left side plus the widest right side."""
    if r"\\" in latex:
        rows = [row.partition("&") for row in latex.split(r"\\")]
        return max(length(left) for left, _, _ in rows) + max(length(r) for _, _, r in rows)
    plain = re.sub(r"\\text\{([^}]*)\}", r"\1", latex).replace(r"\quad", "  ")
    plain = re.sub(r"\\(begin|end)\{aligned\} ?", "", plain)
    plain = re.sub(r"\\[a-zA-Z]+", "x", plain)
    return len(re.sub(r"[{}^_\\&]", "", plain))


def score_latex(
    page: Page, trace: AttentionTrace, query: int, key: int, head: int = 0, width: int = FULL_WIDTH
) -> str:
    """ω_ij = q(i) · k(j) with every product, then the scaled score; over several lines when
    one would not fit ``width`` characters."""
    terms = score_terms(trace, query, key, head)
    omega = rf"\omega_{{{query + 1},{key + 1}}}"
    total = number(page, terms.total)
    if trace.config.scoring == "cosine":
        steps = [rf"\cos(q^{{({query + 1})}}, k^{{({key + 1})}})", total]
    else:
        products = [
            rf"{number(page, q)} \times {number(page, k)}"
            for q, k in zip(terms.query_terms, terms.key_terms, strict=True)
        ]
        # With RoPE the dot product is of the turned query and key (q̃, k̃).
        q, k = (r"\tilde q", r"\tilde k") if trace.config.rope else ("q", "k")
        steps = [rf"{q}^{{({query + 1})}} \cdot {k}^{{({key + 1})}}", " + ".join(products), total]
    scaled = None
    if trace.config.scaling != "none":
        scaled = (rf"{omega} / {number(page, terms.divisor)}", number(page, terms.scaled))
    one_line = f"{omega} = " + " = ".join(steps)
    if scaled:
        one_line += rf", \quad {scaled[0]} = {scaled[1]}"
    if length(one_line) <= width:
        return one_line
    left = max(length(omega), length(scaled[0]) if scaled else 0) + 3  # "ω … = "
    rows = [rf"{omega} &= {steps[0]}"]
    if trace.config.scoring != "cosine":
        first, *more = wrap(products, " + ", width, left, left + INDENT + 2)
        rows += [f"&= {first}", *(rf"&\quad + {line}" for line in more)]
    rows.append(f"&= {total}")
    if scaled:
        rows.append(f"{scaled[0]} &= {scaled[1]}")
    return r"\begin{aligned} " + r" \\ ".join(rows) + r" \end{aligned}"


def context_latex(page: Page, trace: AttentionTrace, head: int = 0, width: int = FULL_WIDTH) -> str:
    """z(i) = Σ_j α_ij v(j), written out with the trace's numbers (no labels: indices only);
    a vector too long for ``width`` characters continues on the next line."""
    query = page.query
    terms = context_terms(trace, query, head)
    suffix = rf"_{{\text{{head {head + 1}}}}}" if trace.num_heads > 1 else ""
    left = f"z^{{({query + 1})}}{suffix}"
    rows = [rf"{left} &= \sum_j \alpha_{{{query + 1}j}}\, v^{{(j)}}"]
    start = length(left)
    for index, (weight, values) in enumerate(zip(terms.weights, terms.value_rows, strict=True)):
        lead = f"{'=' if index == 0 else '+'} {number(page, weight)} \\cdot ["
        rows += _vector_rows(lead, [entry(page, v) for v in values], width, start)
    rows += _vector_rows("= [", [entry(page, v) for v in terms.result], width, start)
    return r"\begin{aligned} " + r" \\ ".join(rows) + r" \end{aligned}"


def _vector_rows(lead: str, values: list[str], width: int, start: int) -> list[str]:
    """``lead v1, v2, …]`` as aligned rows, the vector continued on indented rows."""
    lines = wrap(values, ", ", width, start + length(lead) + 1, start + INDENT + 3)
    rows = [f"&{lead}{lines[0]}"] + [rf"&\qquad {line}" for line in lines[1:]]
    rows[:-1] = [row + "," for row in rows[:-1]]
    rows[-1] += "]"
    return rows
