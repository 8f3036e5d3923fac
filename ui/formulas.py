"""Formulas written out with the learner's numbers (KaTeX). Tokens appear by position only."""

from __future__ import annotations

from attention_core import AttentionTrace
from attention_core.explain import context_terms, score_terms
from ui.page import Page


def score_latex(page: Page, trace: AttentionTrace, query: int, key: int, head: int = 0) -> str:
    """ω_ij = q(i) · k(j) with every product, then the scaled score."""
    terms = score_terms(trace, query, key, head)
    if trace.config.scoring == "cosine":
        line = (
            rf"\omega_{{{query + 1},{key + 1}}} = \cos(q^{{({query + 1})}}, k^{{({key + 1})}})"
            rf" = {page.number(terms.total)}"
        )
        return _scaled(page, trace, line, terms.divisor, terms.scaled)
    products = " + ".join(
        f"{page.number(q)} \\times {page.number(k)}"
        for q, k in zip(terms.query_terms, terms.key_terms, strict=True)
    )
    line = rf"\omega_{{{query + 1},{key + 1}}} = q^{{({query + 1})}} \cdot k^{{({key + 1})}} = "
    line += rf"{products} = {page.number(terms.total)}"
    return _scaled(page, trace, line, terms.divisor, terms.scaled)


def _scaled(page: Page, trace: AttentionTrace, line: str, divisor: float, scaled: float) -> str:
    if trace.config.scaling == "none":
        return line
    return line + rf", \quad \omega / {page.number(divisor)} = {page.number(scaled)}"


def context_latex(page: Page, trace: AttentionTrace, head: int = 0) -> str:
    """z(i) = Σ_j α_ij v(j), written out with the trace's numbers (no labels: indices only)."""
    query = page.query
    terms = context_terms(trace, query, head)
    lines = [
        rf"{page.number(w)} \cdot [{', '.join(page.number(v) for v in row)}]"
        for w, row in zip(terms.weights, terms.value_rows, strict=True)
    ]
    result = ", ".join(page.number(v) for v in terms.result)
    body = r" \\ &+ ".join(lines)
    suffix = rf"_{{\text{{head {head + 1}}}}}" if trace.num_heads > 1 else ""
    return (
        rf"\begin{{aligned}} z^{{({query + 1})}}{suffix} &= \sum_j \alpha_{{{query + 1}j}}"
        rf"\, v^{{(j)}} \\ &= {body} \\ &= [{result}] \end{{aligned}}"
    )
