"""Real Chromium: the Playground's heatmap/lines choice and the Compare page, as a learner
uses them (a click, then a slider, then an edit, then the copied link in a fresh context).

Every number is read from the screen and compared with ``attention_core`` run on the
settings the page's URL carries.
"""

from __future__ import annotations

import pytest

from attention_core.compare import compare_weights, read_pin
from attention_core.embeddings import display_labels
from attention_core.formatting import format_number
from tests.e2e import expected, learner, screen
from tests.e2e.screen import wait_idle
from ui.specs import colors

pytestmark = pytest.mark.e2e

LINES_TITLE = "attention weights as lines"


def open_fresh(browser, url: str):
    """The link opened in a new browser context (no cookies or state of the first one)."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    screen.open_page(page, url)
    wait_idle(page)
    return context, page


def test_lines_then_a_slider_then_the_copied_link_then_back_to_the_heatmap(server, browser, page):
    screen.open_page(page, server)
    wait_idle(page)
    learner.click_radio(page, "weights_view", "lines")  # the choice under the chart
    assert LINES_TITLE in screen.wait_for(page, screen.chart_titles, lambda t: LINES_TITLE in t)
    wait_idle(page)
    assert "weights_view=lines" in page.url
    before = screen.summary_text(page)
    learner.press_slider(page, "d_out")
    screen.after_change(page, screen.summary_text, before)
    settings = expected.settings_of(page.url)
    assert settings["d_out"] == 3 and settings["weights_view"] == "lines"
    assert screen.summary_text(page) == expected.summary(settings)
    assert LINES_TITLE in screen.chart_titles(page)

    context, other = open_fresh(browser, screen.share_link(page))
    try:
        assert LINES_TITLE in screen.chart_titles(other)
        assert screen.summary_text(other) == expected.summary(settings)
    finally:
        context.close()

    learner.click_radio(page, "weights_view", "heatmap")
    titles = screen.wait_for(page, screen.chart_titles, lambda t: "attention weights" in t)
    assert "attention weights" in titles
    wait_idle(page)
    settings = expected.settings_of(page.url)
    assert "weights_view" not in page.url and settings["d_out"] == 3
    trace = expected.trace_of(settings)
    assert screen.heatmap(page, "attention weights") == expected.weight_cells(settings, trace)


LEGEND = (
    """([sel, title]) => {"""
    + screen.TITLE_OF
    + """
    for (const chart of document.querySelectorAll(sel)) {
        if (titleOf(chart) !== title) continue;
        const svg = chart.querySelector('svg');
        svg.__id = svg.__id || Math.random();  // a rebuilt chart has a new svg without one
        const labels = chart.querySelectorAll('.role-legend-label text');
        return {svg: svg.__id, labels: [...labels].map(e => e.textContent)};
    }
    return null;
}"""
)


def expected_legend(settings) -> list[str]:
    """The fitted colour range of the weights, low / middle / high, from the core's numbers."""
    weights = expected.trace_of(settings).weights_after_dropout[0].flatten().tolist()
    low, high = colors.nice_range(min(weights), max(weights))
    if min(weights) >= 0 and max(weights) <= 1:  # probabilities: no colour beyond 0–1
        low, high = max(low, 0.0), min(high, 1.0)
    return [f"{v:.2f}" for v in (low, low + 0.5 * (high - low), high)]


def test_one_tokens_legend_stays_within_0_and_1_then_follows_a_new_token(page, server):
    """A single token's weight is 1: the legend used to run from 0.40 to 1.60."""
    screen.open_page(page, f"{server}/?x=0.5,0.2&tokens=solo")
    wait_idle(page)
    shown = page.evaluate(LEGEND, [screen.CHART, "attention weights"])
    assert shown["labels"] == ["0.40", "0.70", "1.00"]
    before = screen.summary_text(page)
    learner.add_row(page)
    screen.after_change(page, screen.summary_text, before)
    wait_idle(page)
    settings = expected.settings_of(screen.share_link(page))
    assert settings.tokens == ("solo", "new")
    shown = page.evaluate(LEGEND, [screen.CHART, "attention weights"])
    assert shown["labels"] == expected_legend(settings)
    assert float(shown["labels"][0]) >= 0 and float(shown["labels"][-1]) <= 1


def test_the_legend_follows_each_slider_step_and_the_chart_is_updated_in_place(page, server):
    """The colour range moves with the numbers, read by the legend from the chart's data: the
    spec stays the same, so the browser swaps the data of the chart it has (same svg node)."""
    screen.open_page(page, server)
    wait_idle(page)
    first = page.evaluate(LEGEND, [screen.CHART, "attention weights"])
    assert first["labels"] == expected_legend(expected.settings_of(page.url))
    for key in ("ArrowRight", "ArrowRight", "ArrowLeft", "ArrowLeft"):
        before = screen.summary_text(page)
        learner.press_slider(page, "d_out", key)
        screen.after_change(page, screen.summary_text, before)
        wait_idle(page)
        shown = page.evaluate(LEGEND, [screen.CHART, "attention weights"])
        settings = expected.settings_of(page.evaluate("location.href"))
        assert shown["labels"] == expected_legend(settings), settings["d_out"]
        assert shown["svg"] == first["svg"]  # not rebuilt
    assert settings["d_out"] == 2


def largest_change_text(url: str) -> str:
    """The first sentence the Compare page must state for the link ``url``, from the core."""
    settings = expected.settings_of(url)
    first = expected.trace_of(read_pin(settings["pin"]))
    second = expected.trace_of(settings)
    top = compare_weights(first, second, head=0).largest[0]
    labels = display_labels(second.tokens)
    more = "more" if top.change > 0 else "less"
    return (
        f"{labels[top.query]} now attends {format_number(abs(top.change), 4)} {more} to "
        f"{labels[top.key]}"
    )


def test_pin_then_a_slider_then_a_row_deleted_then_the_copied_link(server, browser, page):
    screen.open_page(page, f"{server}/Compare")
    wait_idle(page)
    page.get_by_role("button", name="Pin these settings as A").click()
    assert "pin=" in screen.wait_for(
        page, lambda p: p.evaluate("location.href"), lambda u: "pin=" in u
    )
    wait_idle(page)
    learner.press_slider(page, "d_out")
    changes = ".st-key-compare_changes"
    page.wait_for_selector(changes, timeout=60_000)
    wait_idle(page)
    assert largest_change_text(page.url) in page.locator(changes).inner_text()

    page.get_by_text("Embedding matrix (edit me)", exact=True).click()
    wait_idle(page)
    learner.delete_row(page, 5)
    said = "A has 6 tokens and B has 5"
    found = screen.wait_for(page, screen.alerts, lambda seen: any(said in a for a in seen))
    assert any(said in a for a in found), found
    wait_idle(page)
    assert len(expected.settings_of(page.url).tokens) == 5
    assert [a for a in screen.alerts(page) if said not in a] == []  # no error beside it
    assert page.locator(changes).count() == 0  # nothing subtracted

    context, other = open_fresh(browser, screen.share_link(page))
    try:
        assert any(said in a for a in screen.alerts(other))
        assert other.locator(changes).count() == 0
    finally:
        context.close()


def test_masked_cells_are_grey_and_a_row_with_nothing_to_attend_to_says_so(server, browser, page):
    """Masked cells are drawn grey (Vega-Lite once dropped them, leaving white gaps); with
    every key padded the sentence says there is nothing to attend to (it once named the
    zeros "attended to most"); a padding of 5 names a key again; the copied link the same."""
    screen.open_page(page, expected.link(server, "", mask="causal"))
    fills = screen.cell_fills(page, "attention weights")
    assert len(fills) == 36
    assert fills.count(colors.MASKED) == 15  # above the diagonal

    learner.choose(page, "mask", "padding at the end")
    screen.wait_for(page, lambda p: p.locator(".st-key-padding input").count(), bool)
    for padding, says in (("6", "has nothing to attend to"), ("5", "attends most to")):
        before = screen.summary_text(page)
        learner.type_number(page, "padding", padding)
        shown = screen.after_change(page, screen.summary_text, before)
        settings = expected.settings_of(screen.share_link(page))
        assert (settings["mask"], settings["padding"]) == ("padding", int(padding))
        assert shown == expected.summary(settings)
        assert says in shown, shown
    fills = screen.cell_fills(page, "attention weights")
    assert len(fills) == 36 and fills.count(colors.MASKED) == 30  # 5 keys hidden per row

    learner.type_number(page, "padding", "6")
    screen.wait_for(page, screen.summary_text, lambda text: "nothing to attend to" in text)
    screen.wait_ready(page)
    assert screen.cell_fills(page, "attention weights") == [colors.MASKED] * 36
    context, other = open_fresh(browser, screen.share_link(page))
    try:
        assert screen.summary_text(other) == screen.summary_text(page)
        assert screen.cell_fills(other, "attention weights") == [colors.MASKED] * 36
    finally:
        context.close()


def test_the_tables_of_heatmaps_side_by_side_open_under_them_and_print_their_numbers(server, page):
    """Two heatmaps side by side: their tables once opened inside the half-width columns and
    ran under each other. They open under the row, one under the other, within the page,
    each with its chart's numbers; after a slider step they follow the new numbers."""
    screen.open_page(page, expected.link(server, "Dropout", dropout="0.3"))
    titles = ["before dropout (evaluation)", "training, p = 0.3 (✕ = dropped)"]
    assert all(title in screen.chart_titles(page) for title in titles)
    page.locator("summary").filter(has_text="Show these as tables").first.click()
    screen.wait_for(page, screen.tables, lambda shown: len(shown) >= 2)
    screen.wait_ready(page)

    def check() -> None:
        boxes = screen.table_boxes(page)[:2]
        assert all(box["right"] <= box["limit"] + 1 for box in boxes), boxes
        assert boxes[0]["bottom"] <= boxes[1]["top"], boxes  # one under the other
        for title, table in zip(titles, screen.tables(page), strict=False):
            cells = screen.heatmap(page, title)
            labels = display_labels(expected.settings_of(screen.share_link(page)).tokens)
            assert [line.split("\t")[1:] for line in table.splitlines()[1:]] == [
                [cells[f"{row}, {column}"] for column in labels] for row in labels
            ], title

    check()
    before = screen.tables(page)
    screen.step_slider(page, "dropout rate p")
    screen.after_change(page, screen.tables, before)
    titles[1] = "training, p = 0.35 (✕ = dropped)"
    check()


def test_the_sentence_names_the_output_projections_result_once_one_is_chosen(server, page):
    """A review: with nn.Linear as the output projection the sentence still said "context
    vector" for the projection's result."""
    screen.open_page(page, f"{server}/?heads=2&d_out=4")
    wait_idle(page)
    assert "; context vector " in screen.summary_text(page)
    before = screen.shown_context_vector(page)
    learner.open_more_settings(page)
    learner.click_radio(page, "out_proj", "nn.Linear with bias, as the book's MultiHeadAttention")
    screen.wait_for(page, lambda p: "out_proj=linear" in p.url, bool)
    screen.wait_for_change(page, before)
    settings = expected.settings_of(page.url)
    assert settings["out_proj"] == "linear"
    text = screen.summary_text(page)
    assert "; output after the output projection " in text
    assert text == expected.summary(settings)
    context, other = open_fresh(page.context.browser, screen.share_link(page))
    try:
        assert screen.summary_text(other) == text
    finally:
        context.close()


def test_a_row_that_dropout_empties_is_said_to_be_dropped_slider_step_by_step(server, page):
    """The sentence for a query whose every weight dropout removed, driven from the sidebar's
    slider: at p = 0.9 (seed 0) the focused journey loses all its weights and the sentence
    says so instead of naming a "largest" 0; one step back names a key again; one step on
    and the copied link, in a fresh context, say it again, with the row's cells all ✕."""
    screen.open_page(page, expected.link(server, "", dropout_seed="0"))
    wait_idle(page)
    assert "attends most to" in screen.summary_text(page)
    seen = []
    dropped = "has every weight dropped by dropout"
    for keys, says in (("End", dropped), ("ArrowLeft", "attends most to"), ("ArrowRight", dropped)):
        before = screen.summary_text(page)
        learner.press_slider(page, "dropout", keys)
        shown = screen.after_change(page, screen.summary_text, before)
        settings = expected.settings_of(screen.share_link(page))
        seen.append(settings["dropout"])
        assert shown == expected.summary(settings)
        assert says in shown and shown.startswith("journey "), shown
    assert seen == [0.9, 0.85, 0.9]
    row = screen.heatmap(page, "attention weights", prefix=True)
    labels = display_labels(expected.settings_of(page.url).tokens)
    assert [row[f"journey, {key}"] for key in labels] == ["✕"] * len(labels)
    context, other = open_fresh(page.context.browser, screen.share_link(page))
    try:
        assert screen.summary_text(other) == screen.summary_text(page)
    finally:
        context.close()


def test_compare_says_a_change_in_the_sidebars_words_and_no_change_at_the_decimals(
    server, browser, page
):
    """A review: "From A to B" printed link codes (sqrt_d → d), and at 2 decimals the page
    listed changes that print as 0.00. Someone's link pins A; the learner picks ÷ d_k in the
    sidebar; then a link whose B moves one number by 0.005, at 2 and at 4 decimals."""
    screen.open_page(page, expected.link(server, "Compare", pin="preset=journey"))
    learner.click_radio(page, "scaling", "÷ d_k")
    said = "Scale the scores: ÷ √d_k → ÷ d_k"
    text = screen.wait_for(page, screen.main_text, lambda t: said in t)
    assert said in text and "sqrt_d" not in text
    wait_idle(page)
    assert largest_change_text(page.url) in page.locator(".st-key-compare_changes").inner_text()

    x = "0.43,0.15,0.89;0.55,0.87,0.66;0.57,0.85,0.64;0.22,0.58,0.33;0.77,0.25,0.1;0.05,0.8,0.555"
    for decimals in ("2", "4"):
        link = expected.link(server, "Compare", pin="preset=journey", x=x, decimals=decimals)
        context, other = open_fresh(browser, link)
        try:
            changes = other.locator(".st-key-compare_changes").inner_text()
            if decimals == "2":
                assert "No weight changed at the 2 decimals shown." in changes, changes
            else:
                assert changes.count("now attends") == 5, changes
                assert "0.0000 more" not in changes and "0.0000 less" not in changes
        finally:
            context.close()


def test_compare_names_another_example_whole_and_an_edit_as_an_edit(server, page):
    """A review: after pinning A and choosing another example, "From A to B" said "the
    embedding matrix (edited)" and cut the example's name and the tokens mid-word."""
    screen.open_page(page, f"{server}/Compare")
    wait_idle(page)
    page.get_by_role("button", name="Pin these settings as A").click()
    screen.wait_for(page, lambda p: p.evaluate("location.href"), lambda u: "pin=" in u)
    wait_idle(page)
    learner.choose(page, "preset", "“I live in Montreal” (4 × 8)")
    said = "From A to B:"
    text = screen.wait_for(page, screen.main_text, lambda t: "Montreal" in t and said in t)
    wait_idle(page)
    text = page.locator(".st-key-compare_from_a_to_b").inner_text()
    assert "“I live in Montreal” (4 × 8)" in text, text
    assert "the number of tokens: 6 → 4" in text and "the embedding matrix." in text, text
    assert "edited" not in text and "…" not in text, text

    page.get_by_text("Embedding matrix (edit me)", exact=True).click()
    wait_idle(page)
    learner.type_in_cell(page, 1, 0, "trip")  # a rename only: the matrix stays the example's
    text = screen.wait_for(
        page,
        lambda p: p.locator(".st-key-compare_from_a_to_b").inner_text(),
        lambda t: "trip" in t,
    )
    assert "the embedding matrix." in text and "edited" not in text, text
    learner.type_in_cell(page, 0, 1, "0.5")
    text = screen.wait_for(
        page,
        lambda p: p.locator(".st-key-compare_from_a_to_b").inner_text(),
        lambda t: "edited" in t,
    )
    assert "the embedding matrix (edited or replaced)." in text, text


LEGEND_JS = (
    """(title) => {"""
    + screen.TITLE_OF
    + """
    for (const chart of document.querySelectorAll('[data-testid="stVegaLiteChart"]'))
        if (titleOf(chart) === title)
            return [...chart.querySelectorAll('.role-legend-label text')].map(t => t.textContent);
    return null;
}"""
)


def test_a_narrow_colour_range_gets_legend_labels_that_differ(server, page):
    """A review: 16 words on page 10 give weights between 0.061 and 0.068; the legend under
    them read "0.06, 0.07, 0.07". Its labels now take the decimals that tell low, middle and
    high apart, and the cells' numbers lie between the first and the last."""
    words = "the quick brown fox jumps over the lazy dog near the river bank today"
    title = "softmax(X Xᵀ / √d)"
    screen.open_page(page, f"{server}/Real_sentences?text=own&own={words.replace(' ', '+')}")
    wait_idle(page)
    labels = screen.wait_for(page, lambda p: p.evaluate(LEGEND_JS, title), lambda v: bool(v))
    assert labels is not None and len(labels) == 3, labels
    values = [float(v) for v in labels]
    assert values == sorted(values) and len(set(labels)) == 3, labels
    cells = [float(v) for v in screen.heatmap(page, title).values()]
    assert values[0] <= min(cells) and max(cells) <= values[-1], (labels, min(cells), max(cells))
    assert values[-1] - values[0] < 0.05  # a narrow range, where two decimals repeat a label


def test_page_10_takes_a_sentence_of_ones_own_and_its_link_keeps_it(server, browser, page):
    """A review: the sentence was a select box, and typing a sentence into it only filtered
    the two examples (Enter picked one; the typed words were gone). The choices are now radio
    buttons; "my own sentence" opens the field the learner types into, and the link keeps it."""
    from real_model import noncontextual_embeddings, shared_model

    screen.open_page(page, f"{server}/Real_sentences")
    wait_idle(page)
    choice = page.locator(".st-key-text")
    assert choice.locator('input[role="combobox"]').count() == 0
    assert choice.locator('input[type="radio"]').count() == 3
    assert page.locator(".st-key-own").count() == 0
    said = "Tokens, as the model splits them:"
    tokens = page.locator("[data-testid='stMarkdownContainer'] p", has_text=said)
    before = tokens.inner_text()
    learner.click_radio(page, "text", "my own sentence")
    field = page.locator(".st-key-own input")
    field.wait_for(timeout=30_000)
    screen.after_change(page, lambda p: tokens.inner_text(), before)
    before = tokens.inner_text()
    field.fill("the river bank was muddy")
    field.press("Enter")
    shown = screen.after_change(page, lambda p: tokens.inner_text(), before)
    words = shown.split(":", 1)[1].split(" · ")
    model = noncontextual_embeddings(shared_model(), "the river bank was muddy")
    assert [w.strip() for w in words] == list(model.tokens)
    assert [w.strip() for w in words][1:4] == ["the", "river", "bank"]
    title = "softmax(X Xᵀ / √d)"
    cells = screen.heatmap(page, title)
    assert len(cells) == model.num_tokens**2
    link = screen.share_link(page)
    assert expected.settings_of(link)["own"] == "the river bank was muddy"
    other = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    screen.open_page(other, link)
    wait_idle(other)
    assert other.locator("[data-testid='stMarkdownContainer'] p", has_text=said).inner_text() == (
        shown
    )
    assert screen.heatmap(other, title) == cells
    other.context.close()
