"""Real Chromium: a learner works through page 11 (K/V groups, the window, the KV cache's
steps by keyboard, RoPE) and every number read from the screen is the core's; the link then
opens the same page on a phone. The learner then goes on to page 13 and changes the latent
width and a tile size: the caches' bytes and the tiles' numbers on the screen are the core's.
Then page 12, in a test of its own: a source cell and a target cell typed, the cross-attention
weights read from the screen are the core's, and the copied link reopens them."""

from __future__ import annotations

import re

import pytest

from attention_core.cross import decoder_layer, target_of
from attention_core.embeddings import display_labels
from attention_core.flash_tiles import tiled_attention
from attention_core.formatting import format_number, format_vector
from attention_core.head_split import trace_head_split
from attention_core.kv_cache import generate
from attention_core.latent_attention import latent_attention
from attention_core.memory_estimates import estimate, gigabytes, model_size
from tests.e2e import expected, learner, screen
from tests.e2e.screen import wait_for, wait_idle

pytestmark = pytest.mark.e2e

PAGE = "Todays_attention"


def link_value(page, name: str) -> str | None:
    found = re.search(rf"[?&]{name}=([^&]*)", page.url)
    return found.group(1) if found else None


def wait_for_link(page, name: str, value: str) -> None:
    wait_for(page, lambda p: link_value(p, name), lambda found: found == value)
    wait_idle(page)


def cache_sentence(page) -> str:
    """The line that gives head 1's weights of the newest query over the cache."""
    text = page.get_by_text("Head 1's weights of the new query over the cache").first
    return text.inner_text()


def expected_cache_sentence(page) -> str:
    settings = expected.settings_of(page.url)
    steps = generate(settings.embeddings(), settings.config())
    step = steps[int(settings["kv_step"]) - 1]
    labels = display_labels(settings.tokens)
    decimals = int(settings["decimals"])
    parts = [
        f"{labels[row]} {format_number(w, decimals)}"
        for row, w in zip(step.cached_rows, step.weights[0].tolist(), strict=True)
    ]
    return "Head 1's weights of the new query over the cache: " + ", ".join(parts) + "."


def wait_for_cache_sentence(page) -> None:
    """Until the cache's line says what the core computes for the link's step."""
    want = expected_cache_sentence(page)
    wait_for(page, cache_sentence, lambda said: said == want)


def test_a_learner_shares_heads_narrows_the_window_steps_the_cache_and_turns_rope_on(server, page):
    page.goto(f"{server}/{PAGE}")
    page.wait_for_selector('[data-testid="stVegaLiteChart"]', timeout=60_000)
    wait_idle(page)
    # One head by default: the section shows the example; its button sets 4 heads in 2 K/V
    # groups (d_out 8) on every page.
    page.get_by_role("button", name="Use 4 heads in 2 groups (d_out 8)").click()
    wait_for_link(page, "kv_groups", "2")
    settings = expected.settings_of(page.url)
    assert (settings["d_out"], settings["heads"]) == (8, 4)
    assert learner.chosen(page, "heads") == "4"
    trace = expected.trace_of(settings)
    for head, kv in ((0, 1), (1, 1), (2, 2), (3, 2)):
        shown = screen.heatmap(page, f"head {head + 1} · K/V {kv}")
        assert shown == expected.weight_cells(settings, trace, head)
    memory = next(t for t in screen.tables(page) if "bytes per token" in t)
    assert "this setting: 2 groups\t2\t2 × 2 × 2 = 8\t32 B" in memory
    # Multi-query: every head reads head 1's keys and values.
    learner.choose(page, "kv_groups", "1 · shared by all (multi-query)")
    wait_for_link(page, "kv_groups", "1")
    settings = expected.settings_of(page.url)
    shown = screen.heatmap(page, "head 4 · K/V 1")
    assert shown == expected.weight_cells(settings, expected.trace_of(settings), 3)
    # A window of 2 tokens, with the causal mask.
    learner.choose(page, "window", "2")
    wait_for_link(page, "window", "2")
    settings = expected.settings_of(page.url)
    causal = expected.trace_of(settings, mask="causal")
    shown = screen.heatmap(page, "causal, window 2 (head 1)")
    assert shown == expected.weight_cells(settings, causal, 0)
    # The cache, stepped with the keyboard: each step's weights are the core's.
    page.evaluate("document.activeElement?.blur()")
    for step in (2, 3):
        page.keyboard.press("ArrowRight")
        wait_for_link(page, "kv_step", str(step))
        wait_for_cache_sentence(page)
    page.locator(".st-key-kv_step_previous button").click()
    wait_for_link(page, "kv_step", "2")
    wait_for_cache_sentence(page)
    # RoPE on: the heads' weights change to the core's with RoPE.
    page.locator(".st-key-rope").get_by_text("RoPE: rotate queries and keys").click()
    wait_for_link(page, "rope", "true")
    settings = expected.settings_of(page.url)
    turned = expected.trace_of(settings)
    assert turned.config.rope and turned.config.window == 2
    wait_for(
        page,
        lambda p: screen.heatmap(p, "head 2 · K/V 1"),
        expected.weight_cells(settings, turned, 1).__eq__,
    )
    # The pitfall's wrong view: its "head 1" rows are the core's, read from the screen.
    split = trace_head_split(turned)
    pitfall = next(t for t in screen.tables(page) if "wrong view" in t.split("\n")[0])
    wrong = [row.split("\t")[2] for row in pitfall.split("\n")[1:]]
    decimals = int(settings["decimals"])
    assert wrong == [format_vector(v, decimals) for v in split.wrong_queries[0].tolist()]
    angles = next(t for t in screen.tables(page) if t.startswith("token\tposition"))
    assert "1.0000 rad (57°)" in angles  # position 1, pair 1 turns by 1 radian
    assert screen.exceptions(page) == []
    # The copied link opens the same numbers on a phone.
    phone = page.context.browser.new_context(viewport={"width": 390, "height": 844})
    other = phone.new_page()
    other.goto(page.url)
    other.wait_for_selector('[data-testid="stVegaLiteChart"]', timeout=60_000)
    wait_idle(other)
    assert screen.tables(other) == screen.tables(page)
    assert cache_sentence(other) == cache_sentence(page)

    # 390 px wide is a phone's layout, whatever the browser calls itself (issue 66): the same
    # numbers, to the decimals a phone's chart prints.
    def as_on_a_phone(shown: dict[str, str]) -> bool:
        printed = [len(t.split(".")[1]) for t in shown.values() if "." in t]
        fewest = min(printed, default=0)
        return fewest >= 2 and shown == expected.weight_cells(settings, turned, 3, fewest)

    assert as_on_a_phone(
        wait_for(other, lambda p: screen.heatmap(p, "head 4 · K/V 1"), as_on_a_phone)
    )
    phone.close()
    saving_memory(page)


def table_starting(page, heading: str) -> list[list[str]]:
    """The rows of the one Markdown table whose header starts with ``heading``, cell by cell."""
    text = next(t for t in screen.tables(page) if t.startswith(heading))
    return [row.split("\t") for row in text.split("\n")]


def saving_memory(page) -> None:
    """Page 13 in the same session: the latent width, then the query tile, changed."""
    learner.go_to(page, "13 · Saving memory")
    page.wait_for_selector(".st-key-latent_width", timeout=60_000)
    wait_idle(page)
    learner.choose(page, "latent_width", "3")
    wait_for_link(page, "latent_width", "3")
    settings = expected.settings_of(page.url)
    trace = expected.trace_of(settings)
    mla = latent_attention(settings.embeddings(), trace, 3)
    sizes = table_starting(page, "cached per token")
    tokens = trace.num_tokens
    assert sizes[1][2:] == [
        f"{mla.numbers_per_token(4) * 4} B",
        f"{mla.numbers_per_token(4) * 4 * tokens} B",
    ]
    assert sizes[-1] == ["latent (MLA)", "3", "12 B", f"{12 * tokens} B"]
    cells = screen.heatmap(page, "the latent cache (one row per token)")
    decimals = int(settings["decimals"])
    labels = display_labels(settings.tokens)
    assert cells == {
        f"{labels[i]}, c{j + 1}": format_number(v, decimals)
        for i, row in enumerate(mla.latents.tolist())
        for j, v in enumerate(row)
    }
    learner.choose(page, "tile_queries", "3")
    wait_for_link(page, "tile_queries", "3")
    settings = expected.settings_of(page.url)
    head = min(int(settings["head"]), trace.num_heads) - 1
    tiles = tiled_attention(expected.trace_of(settings), head, 3, int(settings["tile_keys"]))
    held = table_starting(page, "computation")
    assert held[1:] == [
        [f"tiled: 3 × {tiles.tile_keys}", str(tiles.held_tiled)],
        ["plain: every query × every key", str(tiles.held_plain)],
    ]
    first = tiles.steps[0]
    running = table_starting(page, "query\trunning max m")
    assert [row[3] for row in running[1:]] == [
        f"{format_number(a, decimals)} → {format_number(b, decimals)}"
        for a, b in zip(first.sum_before.tolist(), first.sum_after.tolist(), strict=True)
    ]
    # The calculator's defaults: the book's latent-attention example, in its own numbers.
    memory = estimate(model_size(settings.values))
    calculator = table_starting(page, "attention\tbytes kept")
    assert calculator[1][1:3] == [f"{memory.mha:,.0f} B", gigabytes(memory.mha)]
    assert calculator[3][1:3] == [f"{memory.mla:,.0f} B", "0.81 GB"]
    assert screen.exceptions(page) == []


CROSS_WEIGHTS = "step 2 weights (rows: target queries × columns: source keys)"


def cross_cells(page) -> dict[str, str]:
    """The cross-attention weights the core computes for the link's source and target."""
    settings = expected.settings_of(page.url)
    target = target_of(settings["target"], settings["target_tokens"])
    trace = decoder_layer(target, settings.embeddings(), settings.config()).cross_attention
    rows, columns = display_labels(target.tokens), display_labels(trace.key_tokens)
    weights = trace.weights_after_dropout[0]
    return expected.cells(weights, rows, columns, int(settings["decimals"]))


def grid_values(page, nth: int) -> list[list[object]]:
    """A grid's rows as labels and numbers, whatever decimals each cell prints."""
    rows = screen.grid_texts(page, nth)[1:]
    return [[row[0], *(screen.number(cell) for cell in row[1:])] for row in rows]


def test_a_learner_edits_the_source_and_the_target_of_cross_attention(server, page):
    page.goto(f"{server}/Cross_attention")
    page.wait_for_selector('[data-testid="stVegaLiteChart"]', timeout=60_000)
    wait_idle(page)
    assert screen.heatmap(page, CROSS_WEIGHTS) == cross_cells(page)
    learner.type_in_cell(page, 0, 1, "0.9", nth=0)  # the source: "Your", d1
    wait_for(page, lambda p: link_value(p, "x"), lambda found: bool(found))
    wait_idle(page)
    learner.type_in_cell(page, 1, 2, "-1.5", nth=1)  # the target: "trip", d2
    wait_for(page, lambda p: link_value(p, "target"), lambda found: bool(found))
    wait_idle(page)
    settings = expected.settings_of(page.url)
    assert settings.rows[0][0] == 0.9 and settings["target"][1][1] == -1.5
    shown = wait_for(page, lambda p: screen.heatmap(p, CROSS_WEIGHTS), cross_cells(page).__eq__)
    assert shown == cross_cells(page)
    assert screen.exceptions(page) == []
    # The copied link reopens the same two matrices and the same weights in a new session.
    other = page.context.new_page()
    other.goto(screen.share_link(page))
    other.wait_for_selector('[data-testid="stVegaLiteChart"]', timeout=60_000)
    wait_idle(other)
    assert screen.heatmap(other, CROSS_WEIGHTS) == shown
    for nth in (0, 1):  # the grids hold the same labels and numbers (typed "-1.5": -1.50)
        typed = grid_values(page, nth)
        # A grid mirrors its canvas as a table a moment after the charts are drawn.
        assert wait_for(other, lambda p, nth=nth: grid_values(p, nth), typed.__eq__) == typed
    other.close()
