"""What a learner opened stays open while the numbers change, in Chromium.

A tab, an expander or any widget whose identity changes between runs (Streamlit derives it
from some of its arguments) comes back closed, and the click after that is lost.
"""

from __future__ import annotations

import math
import re

import pytest

from tests.core.test_golden import BOOK_ATTN_SCORES_2
from tests.e2e import screen
from tests.e2e.screen import step_slider, wait_for_change, wait_idle

pytestmark = pytest.mark.e2e

RAW = "scores ω = q·k (the book's attn_scores)"


def book_row(page, title: str) -> list[float]:
    """The "journey" row of the heatmap titled ``title``, as printed."""
    cells = screen.heatmap(page, title)
    return [screen.number(cells[f"journey, {key}"]) for key in BOOK_TOKENS]


BOOK_TOKENS = ("Your", "journey", "starts", "with", "one", "step")


def test_an_open_tab_stays_open_after_a_change_and_the_next_click_counts(server, page):
    page.goto(server)
    wait_idle(page)
    # First, one click from the first screen: the book's attn_scores_2 and the scaled scores.
    page.get_by_text("Show the scores ω behind these weights", exact=True).click()
    for shown, book in zip(book_row(page, RAW), BOOK_ATTN_SCORES_2, strict=True):
        assert abs(shown - book) <= 1e-4
    for shown, book in zip(book_row(page, "scores q·k ÷ √d_k"), BOOK_ATTN_SCORES_2, strict=True):
        assert abs(shown - book / math.sqrt(2)) <= 1.5e-4
    page.get_by_role("tab", name="Diagnostics").click()
    page.get_by_text("row sum after dropout").first.wait_for(timeout=30_000)
    assert "panel=checks" in page.url
    before = screen.shown_context_vector(page)
    step_slider(page, "d_out")
    wait_for_change(page, before)
    assert page.get_by_text("row sum after dropout").first.is_visible()  # still open
    page.get_by_role("tab", name="Queries, keys and values").click()
    page.get_by_text("queries = X · W_query").first.wait_for(timeout=30_000)
    assert "panel=qkv" in page.url


def test_an_open_mistake_stays_open_when_its_numbers_change(server, page):
    page.goto(f"{server}/Common_mistakes")
    wait_idle(page)
    section = page.locator("summary", has_text="Dividing by the number of tokens")
    section.click()
    page.get_by_text("keys.shape[0]").first.wait_for(timeout=30_000)
    first = page.get_by_text("The weights differ by up to").nth(1).inner_text()
    step_slider(page, "d_out")
    screen.wait_for(
        page,
        lambda p: p.get_by_text("The weights differ by up to").nth(1).inner_text(),
        lambda text: text != first,
    )
    wait_idle(page)
    assert page.get_by_text("keys.shape[0]").first.is_visible()  # the section is still open


def test_a_mistakes_sentence_states_the_largest_change_its_heatmap_shows(server, page):
    """A review: the sentence above the heatmaps gave the context vectors' largest change
    (0.0106) as "the outputs", beside a heatmap of weights whose cells reach 0.0114. It now
    gives both, and the weights' figure is the heatmap's largest cell, before and after a
    change of d_out."""
    page.goto(f"{server}/Common_mistakes")
    wait_idle(page)
    sentence = page.get_by_text("The weights differ by up to").first

    def stated(p) -> tuple[str, str]:
        text = sentence.inner_text()
        weights, outputs = re.findall(r"[0-9]+\.[0-9]+", text)
        return weights, outputs

    def largest_cell(p) -> str:
        cells = screen.heatmap(p, "mistake − correct").values()
        return max(cells, key=lambda text: abs(float(text.replace("−", "-"))))

    for change in range(2):
        if change:
            before = stated(page)
            step_slider(page, "d_out")
            screen.after_change(page, stated, before)
        weights, _ = stated(page)
        assert largest_cell(page).lstrip("−-") == weights


def alert_texts(page) -> str:
    return " ".join(page.locator('[data-testid="stAlertContainer"]').all_inner_texts())


def test_check_yourself_a_wrong_answer_its_hint_then_the_right_one(server, page):
    """Issue 54: the section opened with a click, a wrong answer sent with Enter gets the
    hint naming the step missed, the right one sent with *Check* is praised, counted in the
    title row, and its worked solution drawn by KaTeX with the learner's numbers."""
    from tests.ui.test_check_yourself import page_exercise

    exercise = page_exercise("masked_weight")
    unmasked = next(m for m in exercise.mistakes if m.key == "masked_after_softmax")
    page.goto(f"{server}/Causal_mask")
    wait_idle(page)
    assert page.get_by_text("0 of 3 solved").count() == 1
    page.locator("summary", has_text="Check yourself").click()
    field = page.locator(".st-key-exercise_answer_masked_weight input")
    field.wait_for(timeout=30_000)
    field.fill(f"{unmasked.value:.4f}")
    field.press("Enter")
    hint = screen.wait_for(page, alert_texts, lambda t: "without renormalising" in t, 40)
    assert "masked after the softmax without renormalising" in hint, hint
    field.fill(exercise.answer_text)
    form = page.locator('[data-testid="stForm"]').filter(has=field)
    form.get_by_role("button", name="Check").click()
    praise = screen.wait_for(page, alert_texts, lambda t: "Right: " in t, 40)
    assert f"Right: {exercise.answer_text}." in praise, praise
    screen.wait_for(page, lambda p: p.get_by_text("1 of 3 solved").count(), bool, 40)
    wait_idle(page)
    solution = page.locator(".st-key-formula_wide_exercise_solution_masked_weight .katex-html")
    assert exercise.answer_text in solution.inner_text()
    assert screen.exceptions(page) == []
