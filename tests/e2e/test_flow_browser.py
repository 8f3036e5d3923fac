"""Real Chromium: the Flow page steps with the keyboard, and the lines isolate a hovered token."""

from __future__ import annotations

import re
import time

import pytest

from attention_core.formatting import format_number, format_vector
from tests.e2e import expected, learner, screen
from tests.e2e.screen import wait_for, wait_idle

pytestmark = pytest.mark.e2e

PICTURE = '[data-testid="stVegaLiteChart"] svg'
LINES = f"{PICTURE} g.mark-rule.role-mark line"
FADED = 0.05  # lines of another token are drawn at 0.04 while one token is isolated


def picture_stage(page) -> int:
    """The stage the Flow picture says it shows: its header ("Stage 4 of 9 · scaling");
    projected it has none (the stage control above names the stage), and the picture's
    description, which a screen reader reads, says it."""
    texts = page.locator(f"{PICTURE} text").all_text_contents()
    stages = [re.match(r"Stage (\d+) of 9", t) for t in texts]
    found = [int(m.group(1)) for m in stages if m]
    if not found and page.locator(".st-key-pointer").count():  # the teacher's line: projected
        label = page.locator('[data-testid="stVegaLiteChart"]').first.get_attribute("aria-label")
        found = [int(m) for m in re.findall(r"Stage (\d+) of 9", label or "")]
    assert len(found) == 1, texts[:5]
    return found[0]


def url_stage(page) -> int:
    """The stage the link says (no parameter: the first stage)."""
    found = re.search(r"[?&]stage=(\d+)", page.url)
    return int(found.group(1)) if found else 1


def wait_for_stage(page, stage: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        wait_idle(page)
        if url_stage(page) == stage and picture_stage(page) == stage:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"stage {url_stage(page)} / {picture_stage(page)}, wanted {stage}")


def test_arrow_keys_and_a_clickers_page_keys_step_through_the_stages(server, page):
    page.goto(f"{server}/Flow?mask=causal")
    page.wait_for_selector(PICTURE, timeout=60_000)
    wait_idle(page)
    assert url_stage(page) == picture_stage(page) == 1
    page.evaluate("document.activeElement?.blur()")  # the keys go to the page, not a widget
    page.keyboard.press("ArrowRight")
    wait_for_stage(page, 2)
    page.keyboard.press("PageDown")  # what a presentation clicker sends
    wait_for_stage(page, 3)
    page.keyboard.press("ArrowRight")
    wait_for_stage(page, 4)
    page.keyboard.press("ArrowLeft")
    wait_for_stage(page, 3)
    page.keyboard.press("PageUp")
    wait_for_stage(page, 2)
    # A key pressed on a focused slider moves the slider alone, never the stage too.
    d_out = expected.settings_of(page.url)["d_out"]
    learner.press_slider(page, "d_out", "ArrowRight")
    screen.wait_for(page, lambda p: expected.settings_of(p.url)["d_out"], (d_out + 1).__eq__)
    wait_for_stage(page, 2)
    assert learner.slider_value(page, "d_out") == str(d_out + 1)
    # The link opens at the same stage in a fresh browser context.
    shared = page.context.browser.new_context(viewport={"width": 1280, "height": 720})
    other = shared.new_page()
    other.goto(page.url)
    other.wait_for_selector(PICTURE, timeout=60_000)
    wait_for_stage(other, 2)
    assert "mask=causal" in other.url
    shared.close()


def test_the_presentation_mode_picture_and_the_last_stage(server, page):
    page.goto(f"{server}/Flow?stage=9&present=1")
    page.wait_for_selector(PICTURE, timeout=60_000)
    wait_for_stage(page, 9)
    box = page.locator('[data-testid="stVegaLiteChart"]').first.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 1280  # not cut off at the right
    page.evaluate("document.activeElement?.blur()")
    page.keyboard.press("ArrowRight")  # nothing after the last stage
    wait_idle(page)  # a run the key started would show within its quiet window
    assert url_stage(page) == picture_stage(page) == 9
    # Issue 52: the teacher's clicker steps back and forth, and the class reads the numbers:
    # the focused token's row of X at 3 decimals and 16 px or more, the picture says it rounds.
    page.keyboard.press("PageUp")
    wait_for_stage(page, 8)
    page.keyboard.press("PageDown")
    wait_for_stage(page, 9)
    settings = expected.settings_of(page.url)
    row = expected.trace_of(settings).inputs[settings.query_index].tolist()
    drawn = page.evaluate(PICTURE_NUMBERS_JS)
    for value in row:
        assert format_number(value, 3) in drawn, (value, sorted(drawn)[:12])
    assert min(drawn.values()) >= 16, drawn
    assert page.get_by_text("The picture rounds to 3 decimals").count() == 1
    assert page.locator(".st-key-pointer").count() == 1  # the teacher's line, projected
    # Compare, projected in the same tab: A and B side by side, their numbers on the screen.
    page.goto(f"{server}/Compare?present=1&pin=seed%3D7%26mask%3Dcausal")
    shown = {name: screen.heatmap(page, f"{name}: weights") for name in "AB"}
    pinned = expected.settings_of("seed=7&mask=causal")
    for name, run in (("A", pinned), ("B", expected.settings_of(page.url))):
        weights = expected.trace_of(run).weights_after_dropout[0]
        assert shown[name]["journey, Your"] == format_number(float(weights[1, 0]), 2), shown
    boxes = [page.locator(CHART).nth(n).bounding_box() for n in (0, 1)]
    assert boxes[0]["y"] == boxes[1]["y"] and boxes[1]["x"] > boxes[0]["x"] + boxes[0]["width"]
    # The clicker's PageDown brings B − A onto the screen, with the focus left on the page's
    # body (Streamlit scrolls its main area, not the document: the key once moved nothing).
    page.evaluate("document.activeElement?.blur()")
    difference = page.get_by_role("heading", name="B − A")
    start = difference.bounding_box()["y"]
    assert start > 720
    page.keyboard.press("PageDown")
    below = screen.wait_for(page, lambda p: difference.bounding_box()["y"], lambda y: y < 720)
    assert 0 <= below < 720
    page.keyboard.press("PageUp")
    back = screen.wait_for(page, lambda p: difference.bounding_box()["y"], start.__eq__)
    assert back == start


# Every number the Flow picture prints and its size on the screen (px).
PICTURE_NUMBERS_JS = """() => {
  const svg = document.querySelector('[data-testid=stVegaLiteChart] svg');
  const scale = svg.getBoundingClientRect().width / svg.width.baseVal.value;
  const found = {};
  for (const t of svg.querySelectorAll('text')) {
    if (!/^-?[0-9.−]+$/.test(t.textContent.trim()) || getComputedStyle(t).opacity === '0') continue;
    const size = parseFloat(getComputedStyle(t).fontSize) * scale;
    found[t.textContent.trim()] = Math.min(found[t.textContent.trim()] ?? 99, size);
  }
  return found; }"""
CHART = '[data-testid="stVegaLiteChart"] svg'


def stage_sentence(page, stage: int) -> str:
    """The sentence under the Flow picture that explains stage ``stage``."""
    sentence = page.locator('[data-testid="stMarkdownContainer"]').filter(
        has_text=f"Stage {stage}."
    )
    return sentence.first.inner_text().strip()


def test_stage_8_says_when_a_row_of_weights_is_undefined(server, page, browser):
    """Someone's link where every score is 0 and is divided by its row's sum (0/0): stage 8
    says the focused token's weights are undefined (it once named whom it attended to); a
    stable softmax defines them and the sentence gives the core's context vector."""
    zeros = ";".join(["0,0,0"] * 6)
    page.goto(f"{server}/Flow?x={zeros}&norm=sum&mask=causal&stage=7")
    page.wait_for_selector(PICTURE, timeout=60_000)
    wait_for_stage(page, 7)
    page.evaluate("document.activeElement?.blur()")
    page.keyboard.press("ArrowRight")
    wait_for_stage(page, 8)
    sentence = stage_sentence(page, 8)
    assert "journey (x⁽²⁾) has undefined weights (0/0" in sentence, sentence
    assert "attends most" not in sentence

    learner.open_more_settings(page)
    learner.choose(page, "norm", "softmax (stable)")
    screen.after_change(page, lambda p: stage_sentence(p, 8), sentence)
    wait_for_stage(page, 8)
    settings = expected.settings_of(screen.share_link(page))
    assert settings["norm"] == "softmax"
    trace = expected.trace_of(settings)
    z = format_vector(trace.head_context[0, settings.query_index].tolist(), settings["decimals"])
    sentence = stage_sentence(page, 8)
    assert f"= {z}: journey (x⁽²⁾) attends most to" in sentence, (z, sentence)
    assert "undefined" not in sentence

    fresh = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        other = fresh.new_page()
        other.goto(screen.share_link(page))
        other.wait_for_selector(PICTURE, timeout=60_000)
        wait_for_stage(other, 8)
        assert stage_sentence(other, 8) == sentence
    finally:
        fresh.close()


def lines_chart(page):
    """The lines chart: the first chart of the Playground when lines are chosen."""
    chart = page.locator(PICTURE).first
    assert "attention weights as lines" in (chart.text_content() or "")
    return chart


def visible_lines(page) -> list[float]:
    """The stroke opacity of every line of the lines chart that is not faded out."""
    opacities = page.evaluate(
        f"() => [...document.querySelectorAll('{LINES}')]"
        ".map(l => parseFloat(l.getAttribute('stroke-opacity') ?? '1'))"
    )
    return [o for o in opacities if o > FADED]


def test_hovering_a_token_keeps_only_its_lines(server, page):
    page.goto(f"{server}/?weights_view=lines")
    page.wait_for_selector(LINES, state="attached", timeout=60_000)
    wait_idle(page)
    assert len(visible_lines(page)) == 36  # 6 queries × 6 keys, nothing masked
    label = lines_chart(page).locator("text", has_text=re.compile(r"^journey$")).first
    box = label.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    kept = wait_for(page, visible_lines, lambda lines: len(lines) == 6)
    assert len(kept) == 6  # journey's lines to the six keys
    assert len({round(o, 4) for o in kept}) > 1  # still drawn by weight
    page.mouse.move(5, 5)  # leaving the token shows every line again
    assert len(wait_for(page, visible_lines, lambda lines: len(lines) == 36)) == 36


def test_hovering_a_key_keeps_the_lines_into_it_and_masked_pairs_have_none(server, page):
    page.goto(f"{server}/?weights_view=lines&mask=causal")
    page.wait_for_selector(LINES, state="attached", timeout=60_000)
    wait_idle(page)
    assert len(visible_lines(page)) == 21  # causal: 1 + 2 + … + 6 pairs
    labels = lines_chart(page).locator("text", has_text=re.compile(r"^step$"))
    box = labels.last.bounding_box()  # the key column is drawn after the query column
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    # only "step" itself may attend to "step"
    assert len(wait_for(page, visible_lines, lambda lines: len(lines) == 1)) == 1


def test_a_compare_link_shows_a_b_and_the_largest_change(server, page):
    page.goto(f"{server}/Compare?pin=preset%3Djourney&d_out=3")
    page.wait_for_selector(".st-key-compare_changes", timeout=60_000)
    wait_idle(page)
    changes = page.locator(".st-key-compare_changes").inner_text()
    # The core's largest change for d_out 2 → 3 (tests/ui checks every number of it).
    assert "journey now attends 0.0551 less to step (0.1820 → 0.1269)" in changes
    assert "pin=preset%3Djourney" in page.url and "d_out=3" in page.url


PICTURE_NUMBERS = f"""() => [...document.querySelectorAll('{PICTURE} text')]
    .filter(t => /^−?[0-9]+[.][0-9]+$/.test(t.textContent.trim()))
    .map(t => [t.textContent.trim(), parseFloat(getComputedStyle(t).fontSize)])"""

PICTURE_TEXT = f"""() => [...document.querySelectorAll('{PICTURE} text')]
    .filter(t => t.textContent.trim())
    .map(t => [t.textContent.trim(), parseFloat(getComputedStyle(t).fontSize)])"""


def test_projected_the_picture_rounds_its_numbers_rather_than_shrink_them(server, page):
    """Six decimals and d_out 8 in presentation mode: the picture prints two decimals in type
    of 16 pixels and says so; the tables keep six; off again, the picture has six."""
    page.goto(f"{server}/Flow?stage=9&present=1&d_out=8&decimals=6")
    page.wait_for_selector(PICTURE, timeout=60_000)
    wait_for_stage(page, 9)
    numbers = page.evaluate(PICTURE_NUMBERS)
    assert len(numbers) > 40
    assert {len(text.split(".")[1]) for text, _ in numbers} == {2}
    assert min(size for _, size in numbers) >= 16
    every_text = page.evaluate(PICTURE_TEXT)  # the arrows' labels too (were 10 px)
    assert "softmax" in {text for text, _ in every_text}
    assert min(size for _, size in every_text) >= 16, sorted(every_text, key=lambda t: t[1])[:3]
    said = "The picture rounds to 2 decimals"
    assert said in screen.main_text(page)
    page.locator("summary").filter(has_text="Show as tables").click()
    table = screen.wait_for(page, screen.tables, lambda t: bool(t))
    assert re.search(r"\d\.\d{6}\b", table[0]), table[0][:200]

    learner.toggle_presentation(page)  # back to the screen's type (the sidebar was folded)
    screen.wait_for(
        page,
        lambda p: p.evaluate(PICTURE_NUMBERS),
        lambda n: bool(n) and "." in n[0][0] and len(n[0][0].split(".")[1]) == 6,
    )
    screen.wait_ready(page)
    assert {len(text.split(".")[1]) for text, _ in page.evaluate(PICTURE_NUMBERS)} == {6}
    assert said not in screen.main_text(page)
    assert expected.settings_of(screen.share_link(page))["present"] is False
