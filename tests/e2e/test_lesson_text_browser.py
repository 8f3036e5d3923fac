"""Lesson pages whose words must follow the numbers beside them, in Chromium.

Found by an exploratory review: page 5 titled its charts "−∞, then softmax" over weights divided
by the row sum; page 2's factor changed one section without saying so; page 6 said "some rows
lose most of their weight" above row sums of 0.94 to 1.25. Each test does what the learner did
and reads the words and the numbers from the screen, checked against ``attention_core``.
"""

from __future__ import annotations

import re

import pytest

from attention_core.formatting import format_number
from attention_core.masks import judge_mask
from tests.e2e import expected, learner, screen
from tests.e2e.screen import NUMBER

pytestmark = pytest.mark.e2e

CAPTION = '[data-testid="stCaptionContainer"]'


def captions(page) -> list[str]:
    return page.locator(f"{screen.MAIN} {CAPTION}").all_inner_texts()


def test_page_5_names_the_normalisation_chosen_in_the_sidebar(server, page):
    screen.open_page(page, expected.link(server, "Causal_mask"))
    assert "“The book” is Sebastian Raschka's Build a Large Language Model" in captions(page)[0]
    settings = expected.settings_of(page.url)
    assert "−∞, then softmax" in screen.chart_titles(page)
    # The row-sum pitfall states the row's sum, checked against the core.
    pitfall = expected.trace_of(
        settings, mask="causal", mask_strategy="zero_no_renorm", dropout=0.0
    )
    verdict = judge_mask(pitfall)
    worst = format_number(verdict.worst_row_sum, settings["decimals"])
    said = [alert.splitlines()[-1] for alert in screen.alerts(page)]  # after the icon's name
    assert f"wrong: a row sums to {worst} instead of 1" in said, said

    learner.open_more_settings(page)
    learner.choose(page, "norm", "÷ the row sum (a pitfall)")
    titles = screen.after_change(page, screen.chart_titles, screen.chart_titles(page))
    assert "norm=sum" in page.url
    assert "−∞, then row sum" in titles and "row sum, zero, renormalise" in titles, titles
    assert not [t for t in titles if "softmax" in t], titles
    settings = expected.settings_of(page.url)
    right = expected.trace_of(settings, mask="causal", mask_strategy="neg_inf", dropout=0.0)
    assert screen.heatmap(page, "−∞, then row sum") == expected.weight_cells(settings, right)
    said = [c for c in captions(page) if "give the same weights" in c]
    assert said and "the whole row's sum" in said[0] and "softmax" not in said[0], said

    learner.choose(page, "norm", "softmax (stable)")  # and back
    titles = screen.after_change(page, screen.chart_titles, titles)
    assert "−∞, then softmax" in titles


def test_page_2_says_which_tables_its_factor_multiplies(server, page):
    screen.open_page(page, expected.link(server, "Simplified_attention"))
    assert not [c for c in captions(page) if "Only these three tables" in c]
    before = screen.tables(page)
    learner.press_slider(page, "input_scale", "End")
    screen.after_change(page, screen.tables, before)
    assert learner.slider_value(page, "input_scale") == "30"
    said = [c for c in captions(page) if "Only these three tables" in c]
    assert said == [
        "Only these three tables multiply the embeddings by 30; sections 1, 3 and 4 use them "
        "as they are."
    ]
    learner.press_slider(page, "input_scale", "Home")
    screen.wait_for(page, lambda p: [c for c in captions(p) if "Only these" in c], lambda c: not c)
    assert not [c for c in captions(page) if "Only these three tables" in c]


def test_page_6_states_the_row_sums_it_shows(server, page):
    screen.open_page(page, expected.link(server, "Dropout"))
    for presses, wanted in ((4, "0.2"), (1, "0.25")):
        before = screen.heatmap(page, "training", prefix=True)
        for _ in range(presses):
            learner.press_slider(page, "dropout", "ArrowRight")
        in_link = f"dropout={wanted}&"
        screen.wait_for(page, lambda p: p.url + "&", lambda url, part=in_link: part in url)
        screen.after_change(page, lambda p: screen.heatmap(p, "training", prefix=True), before)
        assert f"dropout={wanted}" in page.url
        settings = expected.settings_of(page.url)
        p = settings["dropout"]
        train = expected.trace_of(settings, dropout=p, train=True)
        sums = train.diagnostics.row_sums_after_dropout[0]
        shown = next(c for c in captions(page) if "Row sums in training" in c)
        printed = [
            screen.number(v) for v in re.findall(NUMBER, shown.split("Row sums in training")[1])
        ]
        assert printed == pytest.approx(sums.tolist(), abs=1e-4)
        sentence = screen.main_text(page).split("After dropout the rows no longer sum to 1")[1]
        low, high, factor = (screen.number(v) for v in re.findall(NUMBER, sentence)[:3])
        assert (low, high) == (pytest.approx(min(printed)), pytest.approx(max(printed)))
        assert factor == pytest.approx(1 / (1 - p), abs=1e-4)


EFFECT_ALIGN_JS = """() => {
  for (const table of document.querySelectorAll('table')) {
    const heads = [...table.querySelectorAll('th')].map(th => th.innerText.trim());
    const at = heads.indexOf('effect');
    if (at < 0) continue;
    return [...table.querySelectorAll('tr')].map(tr => {
      const cell = tr.children[at];
      return [cell.innerText.trim(), getComputedStyle(cell).textAlign];
    });
  }
  return null;
}"""


def test_page_4_words_its_variance_and_aligns_its_sentences_left(server, page):
    screen.open_page(page, expected.link(server, "Scaling"))
    settings = expected.settings_of(page.url)
    trace = expected.trace_of(settings, scaling="sqrt_d")
    variance = format_number(trace.diagnostics.scaled_score_variance, settings["decimals"])
    said = [c for c in captions(page) if "All the scores: variance" in c]
    assert said and said[-1].endswith(f"All the scores: variance {variance}."), said
    cells = page.evaluate(EFFECT_ALIGN_JS)
    assert cells is not None and len(cells) == 4, cells  # the header and three rows
    assert cells[1][0] == "scores too large: the softmax saturates"
    assert {align for _, align in cells} == {"left"}, cells
