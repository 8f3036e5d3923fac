"""Screenshots of every page at 1280×720, in normal and presentation mode, in presentation
mode at 1920×1080, and on a phone (390×844, touch), for the README.

    python docs/make_screenshots.py [--lang zh_CN] [--only-class] [--only-exercises]

Starts `streamlit run streamlit_app.py` on a free local port, opens each page in Debian's
Chromium and writes docs/screenshots/<page>.png, <page>-presentation.png,
<page>-presentation-1920.png and <page>-phone.png; with ``--lang`` another language's, in
docs/screenshots/<lang>/ (the pages only, not the guides' extra views). The test suite never
writes here: run this script when the pages change. ``--only-class`` writes the class mode's
two views alone (the join slide, and a question's two votes as the teacher's screen shows
them); ``--only-exercises`` the *Check yourself* view alone (a wrong answer's hint and the
worked solution on 5 · Causal mask).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e import screen  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.e2e.screen import wait_idle, wait_ready  # noqa: E402
from tests.e2e.server import start_server, stop_server  # noqa: E402
from ui.session.nav import PAGES  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
# Views the README shows besides each page's default: (file name, path and query).
# A view scrolled to a heading shows that heading at the top.
EXTRA = (
    ("flow-stage-4", "Flow?stage=4&mask=causal", None),
    ("lines-hover", "?weights_view=lines&mask=causal&isolate=5", None),  # as hovering token 5
    ("compare-difference", "Compare?pin=preset%3Djourney&d_out=3", "B − A"),
    ("todays_attention-grouped", "Todays_attention?d_out=8&heads=4&kv_groups=2", None),
    (
        "todays_attention-cache",
        "Todays_attention?d_out=8&heads=4&kv_groups=2&window=3&kv_step=4&rope=true",
        "KV cache: generation step by step",
    ),
    ("cross_attention-decoder", "Cross_attention", "The decoder layer, in order"),
)
# The join slide's link, as a room's network would give it (192.0.2.0/24 is for documentation).
JOIN_ADDRESS = "http://192.0.2.10:8501/"
LAPTOP = {"viewport": {"width": 1280, "height": 720}}
PHONE = screen.PHONE  # a phone's screen, touch, and a browser that says it is a phone
PROJECTOR = {"viewport": {"width": 1920, "height": 1080}}  # a lecture hall's 1080p projector
# Each page's shots: (suffix, query, device). A phone shows a page's first screen.
SHOTS = (
    ("", "", LAPTOP),
    ("-presentation", "?present=1", LAPTOP),
    ("-presentation-1920", "?present=1", PROJECTOR),
    ("-phone", "", PHONE),
)


# Still drawing: a spinner (the encoder loading), a placeholder, or a 3D plot without its SVG.
_STILL_DRAWING_JS = """() =>
  document.querySelector('[data-testid="stSpinner"], [data-testid^="stSkeleton"]') !== null
  || [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
       .some(c => !c.querySelector('.main-svg'))"""


def wait_drawn(page, timeout: float = 180.0) -> None:
    """Wait until the whole page is drawn: a screenshot taken while the encoder loads or the
    3D plot's code arrives shows a spinner or grey placeholders."""
    wait_ready(page, timeout)
    deadline = time.monotonic() + timeout
    while page.evaluate(_STILL_DRAWING_JS):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{page.url} was still drawing after {timeout:.0f} s")
        time.sleep(0.2)
    wait_idle(page)
    page.wait_for_timeout(500)  # the last transitions (Plotly's camera, tabs) settle


def main() -> None:
    """Write one screenshot per page and mode."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", default="en", help="a language of translation.LANGUAGES")
    parser.add_argument("--only-class", action="store_true", help="the class mode's views only")
    parser.add_argument("--only-exercises", action="store_true", help="Check yourself only")
    args = parser.parse_args()
    only = args.only_class or args.only_exercises
    lang = args.lang
    out = OUT if lang == "en" else OUT / lang
    out.mkdir(parents=True, exist_ok=True)
    process, url = start_server(env={"ATTENTION_PUBLIC_URL": JOIN_ADDRESS})
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for info in () if only else PAGES:
                name = info.url_path or "playground"
                for suffix, query, device in SHOTS:
                    context = browser.new_context(**device)
                    page = context.new_page()
                    if lang != "en":
                        query += ("&" if query else "?") + f"lang={lang}"
                    page.goto(f"{url}/{info.url_path}{query}")
                    wait_drawn(page)
                    target = out / f"{name.lower()}{suffix}.png"
                    page.screenshot(path=str(target))
                    print(target.relative_to(ROOT))
                    context.close()
            for name, path, heading in EXTRA if lang == "en" and not only else ():
                context = browser.new_context(viewport={"width": 1280, "height": 720})
                page = context.new_page()
                page.goto(f"{url}/{path}")
                wait_drawn(page)
                if heading is not None:
                    found = page.get_by_role("heading", name=heading, exact=True)
                    found.evaluate("element => element.scrollIntoView({block: 'start'})")
                    page.wait_for_timeout(500)
                page.screenshot(path=str(OUT / f"{name}.png"))
                print(f"docs/screenshots/{name}.png")
                context.close()
            if lang == "en" and not args.only_exercises:
                join_slide(browser, url)
                two_votes(browser, url)
            if lang == "en" and not args.only_class:
                check_yourself(browser, url)
            browser.close()
    finally:
        stop_server(process)


def join_slide(browser, url: str) -> None:
    """The teacher's join slide at 1280×720: Class → Teach a class, then *Join slide*."""
    context = browser.new_context(**LAPTOP)
    page = context.new_page()
    page.goto(url)
    wait_drawn(page)
    page.locator(".st-key-class_menu button").first.click()
    page.locator(".st-key-class_start button").first.click()
    page.locator(".st-key-class_bar_slide button").first.wait_for()
    page.keyboard.press("Escape")
    page.locator(".st-key-class_bar_slide button").first.click()
    page.locator(".st-key-join_qr img").wait_for()
    wait_idle(page)  # the slide has no sidebar, whose link wait_drawn waits for
    page.wait_for_timeout(500)
    page.screenshot(path=str(OUT / "class-join_slide.png"))
    print("docs/screenshots/class-join_slide.png")
    context.close()


# A class of five answering 4 · Scaling's question: each learner's first and second vote.
VOTES = ((3, 1), (1, 1), (3, 1), (0, 1), (3, 3))


def two_votes(browser, url: str) -> None:
    """The teacher's screen after two votes on 4 · Scaling's question, in presentation mode:
    the first vote's histogram, the second's beside it, and the shift in words."""
    teacher_context = browser.new_context(**LAPTOP)
    teacher = teacher_context.new_page()
    teacher.goto(f"{url}/Scaling?present=1")
    wait_drawn(teacher)
    teacher.locator(".st-key-class_menu button").first.click()
    teacher.locator(".st-key-class_start button").first.click()
    teacher.locator(".st-key-class_bar_slide button").first.wait_for()
    teacher.keyboard.press("Escape")
    banner = " ".join(teacher.locator("[data-testid='stAlertContainer']").all_inner_texts())
    code = re.search(r"Teaching class ([A-Z0-9]{6})", banner).group(1)
    learners = []
    for _ in VOTES:
        context = browser.new_context(**PHONE)
        page = context.new_page()
        page.goto(f"{url}/?class={code}")
        wait_ready(page)
        learners.append(page)
    wait_idle(teacher)
    teacher.get_by_role("button", name="Ask the class", exact=True).click()
    for round_number in (0, 1):
        if round_number:
            teacher.get_by_role("button", name="Vote again", exact=True).click()
            wait_idle(teacher)
        for page, votes in zip(learners, VOTES, strict=True):
            group = page.get_by_role("radiogroup", name=re.compile("Your answer"))
            group.wait_for()
            while round_number and group.locator("input:checked").count():  # the new round
                page.wait_for_timeout(100)
            group.locator("label").nth(votes[round_number]).click()
            wait_idle(page)
        teacher.get_by_text(f"{len(VOTES)} answers so far").first.wait_for()
        teacher.get_by_role("button", name="Show the answers", exact=True).click()
        wait_idle(teacher)
    shift = teacher.get_by_text(re.compile("Correct .B.:")).first
    shift.wait_for()
    teacher.get_by_text("Predict, then reveal.").first.evaluate(
        "element => element.scrollIntoView({block: 'start'})"
    )
    teacher.wait_for_timeout(500)
    teacher.screenshot(path=str(OUT / "class-two_votes.png"))
    print("docs/screenshots/class-two_votes.png")
    for page in learners:
        page.context.close()
    teacher_context.close()


def check_yourself(browser, url: str) -> None:
    """*Check yourself* on 5 · Causal mask at 1280×720: the masked weight answered twice
    wrong (the hint, then the worked solution with the learner's numbers)."""
    context = browser.new_context(**LAPTOP)
    page = context.new_page()
    page.goto(f"{url}/Causal_mask")
    wait_drawn(page)
    page.locator("summary", has_text="Check yourself").click()
    field = page.locator(".st-key-exercise_answer_masked_weight input")
    for typed in ("0.5", "0.1500"):  # the second: softmax over the whole row
        field.fill(typed)
        field.press("Enter")
        wait_idle(page)
    page.get_by_text("3. A masked weight").first.evaluate(
        "element => element.scrollIntoView({block: 'start'})"
    )
    page.wait_for_timeout(500)
    page.screenshot(path=str(OUT / "check_yourself.png"))
    print("docs/screenshots/check_yourself.png")
    context.close()


if __name__ == "__main__":
    main()
