"""Formulas written out with the learner's numbers: every number in order, negative factors in
brackets, and broken over lines when one line would not fit its column (KaTeX does not wrap;
tests/e2e/test_page_audit.py measures the drawn width in Chromium)."""

from __future__ import annotations

import math
import re
from types import SimpleNamespace

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import AttentionConfig, make_embeddings, preset_embeddings, run_attention
from attention_core.explain import context_terms, score_terms
from attention_core.formatting import format_number
from ui.specs import formulas

NUMBER = re.compile(r"−?\d+\.\d+|\\text\{[^}]*\}")  # KaTeX takes the minus sign as "-"


def page(decimals: int = 4, query: int = 1) -> SimpleNamespace:
    """The two things the formulas read from a page: its number format and its query."""
    return SimpleNamespace(number=lambda v: format_number(float(v), decimals), query=query)


def rows(latex: str) -> list[str]:
    return latex.split(r" \\ ")


def test_the_books_score_fits_on_one_line_at_four_decimals():
    trace = run_attention(preset_embeddings("journey"), AttentionConfig())
    latex = formulas.score_latex(page(), trace, 1, 1)
    assert latex == (
        r"\omega_{2,2} = q^{(2)} \cdot k^{(2)} = 0.4306 \times 0.4433 + 1.4551 \times 1.1419"
        r" = 1.8524, \quad \omega_{2,2} / 1.4142 = 1.3098"
    )


def test_a_long_score_is_broken_over_aligned_lines():
    trace = run_attention(preset_embeddings("journey"), AttentionConfig(d_out=8))
    latex = formulas.score_latex(page(6), trace, 1, 1)
    assert latex.startswith(r"\begin{aligned} \omega_{2,2} &= q^{(2)} \cdot k^{(2)} \\ &= ")
    assert rows(latex)[-1].startswith(r"\omega_{2,2} / 2.828427 &= 2.938912")
    assert all(formulas.length(row) <= formulas.FULL_WIDTH for row in rows(latex))


def test_negative_factors_and_weights_are_in_brackets():
    embeddings = make_embeddings(["a", "b"], [[1.0, -2.0], [-0.5, 0.25]])
    trace = run_attention(embeddings, AttentionConfig(init="identity", scaling="none"))
    score = formulas.score_latex(page(2, 0), trace, 0, 1)
    assert r"1.00 \times (−0.50) + (−2.00) \times 0.25" in score
    assert "+ −" not in score and r"\times −" not in score and "-" not in score
    relu = run_attention(embeddings, AttentionConfig(init="identity", norm="sum"))
    assert re.search(r"&[=+] \(−\d\.\d\d\) \\cdot \[", formulas.context_latex(page(2, 0), relu))


def test_a_number_that_is_not_finite_is_text_not_italic_letters():
    assert formulas.entry(page(), math.nan) == r"\text{undefined}"
    assert formulas.number(page(), -math.inf) == r"\text{−∞}"
    assert formulas.number(page(), -0.5) == "(−0.5000)"


@settings(max_examples=80, deadline=None)
@given(
    tokens=st.integers(1, 6),
    dims=st.integers(1, 16),
    d_out=st.integers(1, 8),
    decimals=st.integers(1, 6),
    width=st.sampled_from([formulas.FULL_WIDTH, formulas.COLUMN_WIDTH]),
    seed=st.integers(0, 2**16),
)
def test_formulas_keep_every_number_in_order_and_fit_their_width(
    tokens, dims, d_out, decimals, width, seed
):
    generator = torch.Generator().manual_seed(seed)
    values = (torch.rand(tokens, dims, generator=generator) * 20 - 10).tolist()
    trace = run_attention(
        make_embeddings([f"t{i}" for i in range(tokens)], values), AttentionConfig(d_out=d_out)
    )
    shown = page(decimals, query=tokens - 1)
    fmt = shown.number
    score = formulas.score_latex(shown, trace, tokens - 1, 0, width=width)
    terms = score_terms(trace, tokens - 1, 0)
    pairs = [v for q, k in zip(terms.query_terms, terms.key_terms, strict=True) for v in (q, k)]
    expected = [*pairs, terms.total, terms.divisor, terms.scaled]
    assert [n for n in NUMBER.findall(score) if "." in n] == [fmt(v) for v in expected]
    context = formulas.context_latex(shown, trace, width=width)
    parts = context_terms(trace, tokens - 1, 0)
    flat = [v for w, row in zip(parts.weights, parts.value_rows, strict=True) for v in (w, *row)]
    assert NUMBER.findall(context) == [fmt(v) for v in (*flat, *parts.result)]
    assert formulas.length(score) <= width and formulas.length(context) <= width
