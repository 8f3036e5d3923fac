"""Real Chromium: random walks over what a page offers, for what only a browser can get wrong
(issue 64). The AppTest walks (tests/ui/test_session_machine.py) change every control of every
page; here a person's whole browser is walked: the controls the page draws, found on the
screen (a new control is walked without a new test), and the ways between views: the Pages
menu, the browser's Back, a reload, a new tab on the link, the language menu, a class taught
from this tab with its join slide, the matrix grid, and the buttons that move a page's view
(Flow's Previous and Next, Compare's pin and unpin).

What a walk may do next is offered by the screen, those not done yet first; after every step:
no traceback, every control on the screen shows its link's value, the page speaks the link's
language, and the Playground's numbers are the core's for the link. After the join slide,
the language menu, Back or a reload, a class's teacher is checked again once the page has
run by itself (the teacher's bar, every two seconds): that rerun is what spread a wrong
widget to the class (issue 69). Once the walk teaches, a learner on a phone follows (another
browser, joined by the class's link): after every step it shows the teacher's page and the
teacher's view, following still (issue 63).
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import (
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import translation
from attention_core.knobs.table import PARAMS
from tests.budget import walk_settings
from tests.e2e import expected, learner, machines, screen
from tests.e2e.test_screen_is_link_browser import (
    join_slide_and_back,
    later,
    playground_differences,
    teach,
)
from ui.session import nav

pytestmark = pytest.mark.e2e

STEPS = 10
# Checked again once a teacher's page has run by itself (two of its bar's timed reruns):
# after the ways that left a widget to be sent by the next run (issue 69).
AGAIN_AFTER = ("join slide and back", "language menu opened", "back", "reload")
START = "?d_out=4&scaling=d&mask=causal&dropout=0.2"  # no front knob at its first value
WALKED: dict[str, tuple[set[str], set[str]]] = {}  # page -> (offered, done)
EVERY_PAGE = "(any page)"  # the ways between views, wherever the walk offered them
# Every control of the table the browser can draw (the language's too: here it is walked).
NAMES = [name for name, p in PARAMS.items() if p.widget and p.widget != "tabs"]
TEXTS = {  # a legal other value for each free-text control
    "sentence": "the bank by the river",
    "word": "bank",
    "own": "I must go back to my ship",
    "compare": "river",
}


# The buttons that change the link (a stepper's Previous and Next, Compare's pin and unpin),
# as the screen offers them: enabled and in sight.
LINK_BUTTONS_JS = """() => [...new Set([...document.querySelectorAll('[class*="st-key-"]')]
  .map((box) => [box, (box.className.match(/st-key-([\\w-]+)/) || [])[1] || ''])
  .filter(([box, key]) => /(_previous|_next|^pin_a|^unpin_a)$/.test(key))
  .filter(([box]) => { const b = box.querySelector('button');
                       return b && !b.disabled && b.getClientRects().length; })
  .map(([, key]) => key))]"""


def page_key(page) -> str:
    """The page the tab shows, from its link (the Pages menu's key)."""
    path = re.sub(r"[?#].*", "", page.url).rstrip("/").rsplit("/", 1)[-1]
    return next((p.key for p in nav.PAGES if p.url_path == path), nav.PAGES[0].key)


def shown_controls(page) -> dict[str, dict]:
    return screen.controls(page, NAMES)


class Walk(machines.LearnerMachine):
    """One person's tab: what the screen offers, those not done yet first."""

    first_failure: tuple[list[str], BaseException] | None = None  # the steps, what failed

    def __init__(self) -> None:
        super().__init__()
        self.page.add_init_script(screen._COUNT_REPLIES_JS)
        self.teaching = False
        self.follower = None  # a phone's page following the class, once the walk teaches
        self.steps: list[str] = []

    # --- what the screen offers -------------------------------------------------------------

    def offered(self) -> dict[str, object]:
        actions: dict[str, object] = {}
        for name, control in shown_controls(self.page).items():
            if control["visible"] and not (control["kind"] == "text" and name not in TEXTS):
                actions[f"control {name}"] = (self.change, name, control["kind"])
        if (
            self.page.locator('.st-key-panel [role="tab"]').count()
            or self.page.locator('[data-testid="stTab"]').count()
        ):
            actions["tab"] = (self.tab,)
        for key in self.page.evaluate(LINK_BUTTONS_JS):
            actions[f"button {key}"] = (self.press, key)
        actions["pages menu"] = (self.pages_menu,)
        actions["language"] = (self.language,)
        actions["language menu opened"] = (self.language_menu,)
        actions["reload"] = (self.reload,)
        actions["new tab on the link"] = (self.new_tab,)
        if len(self.steps) > 0:
            actions["back"] = (self.back,)
        if self.teaching:
            actions["join slide and back"] = (self.join_slide,)
        elif self.page.locator(".st-key-class_menu").count():
            actions["teach"] = (self.teach,)
        if (
            page_key(self.page) == "streamlit_app"
            and self.page.locator('[data-testid="stDataFrame"]').first.is_visible()
        ):
            actions["grid cell"] = (self.cell,)
        return actions

    @initialize(data=st.data())
    def open_a_link(self, data) -> None:
        # Hypothesis' first example is its simplest (every number 0: always the first pick);
        # it is skipped, and the walk is the next one (``test_a_walk...`` asks for two).
        if self.skipped(data.draw(machines.WALK, label="walk")):
            return
        home = nav.PAGES[0].key  # the Playground, whose knobs lead its page, half the time
        start = data.draw(st.sampled_from([home] * 16 + [p.key for p in nav.PAGES]), label="page")
        info = nav.BY_KEY[start]
        screen.open_page(self.page, f"{self.server}/{info.url_path}{START}")

    @precondition(lambda self: not self.skip)
    @rule(picks=st.lists(st.integers(0, 9_999), min_size=4, max_size=4))
    def act(self, picks: list[int]) -> None:
        """One thing the screen offers. Every step draws the same four numbers, which pick
        among what is offered: the screen decides what there is to pick from, so a replay on
        another screen draws alike and only picks otherwise."""
        self.picks = iter(picks)
        offered = self.offered()
        here = page_key(self.page)
        done = WALKED.setdefault(here, (set(), set()))
        done[0].update(offered)
        everywhere = WALKED.setdefault(EVERY_PAGE, (set(), set()))  # the coverage line's
        everywhere[0].update(name for name in offered if not name.startswith("control "))
        fresh = sorted(set(offered) - done[1])
        # The ways between views first: every control is walked on every page by the AppTest
        # walks; what only a browser does is walked here.
        ways = sorted(n for n in offered if not n.startswith("control ") and n not in everywhere[1])
        name = self.pick(ways or fresh or sorted(offered))
        done[1].add(name)
        if not name.startswith("control "):
            everywhere[1].add(name)
        self.steps.append(f"{here}: {name}")
        action, *args = offered[name]
        try:
            action(*args)
            screen.wait_ready(self.page)
        except BaseException as error:
            self.failed(error)
            raise

    def failed(self, error: BaseException) -> None:
        """Keep the first failure with its steps: Hypothesis replays a failing walk to report
        it, and a replay on a screen that moved on may pick other steps."""
        if Walk.first_failure is None:
            Walk.first_failure = (list(self.steps), error)

    def pick(self, options: list):
        """One of ``options``, by the step's next drawn number."""
        return options[next(self.picks) % len(options)]

    # --- the actions --------------------------------------------------------------------------

    def change(self, name: str, kind: str) -> None:
        page, box = self.page, self.page.locator(f".st-key-{name}").first
        before = page.url
        if kind == "slider":
            key = self.pick(["ArrowRight", "ArrowLeft"])
            learner.press_slider(page, name, key)
        elif kind == "radio":
            labels = box.locator('[role="radiogroup"] label')
            texts = [t.strip() for t in labels.all_inner_texts()]
            current = shown_controls(page)[name]["value"]
            others = [t for t in texts if t != current] or texts
            pick = self.pick(others)
            labels.filter(has_text=pick).first.click()
        elif kind == "select":
            texts = learner.open_options(page, name)
            current = shown_controls(page)[name]["value"]
            others = [n for n, text in enumerate(texts) if text != current] or [0]
            learner.pick_option(page, self.pick(others))
        elif kind == "toggle":
            box.locator("label").first.click()
        elif kind == "number":
            step = self.pick(["Up", "Down"])
            button = box.locator(f'[data-testid="stNumberInputStep{step}"]')
            if button.is_disabled():
                button = box.locator(
                    f'[data-testid="stNumberInputStep{"Down" if step == "Up" else "Up"}"]'
                )
            button.click()
        elif kind == "text":
            field = box.locator("input, textarea").first
            field.fill(TEXTS[name])
            field.press("Enter")
        screen.wait_for(self.page, lambda p: p.url, lambda url: url != before, timeout=5)

    def press(self, key: str) -> None:
        """A button that moves the page's view (Flow's Previous and Next, Compare's pin)."""
        before = self.page.url
        self.page.locator(f".st-key-{key} button").first.click()
        screen.wait_for(self.page, lambda p: p.url, lambda url: url != before, timeout=10)

    def tab(self) -> None:
        tabs = self.page.locator('[data-testid="stTab"]')
        pick = self.pick(list(range(tabs.count())))
        tabs.nth(pick).click()

    def pages_menu(self) -> None:
        links = learner.open_page_menu(self.page)
        heading = self.page.locator("h1").first.inner_text()
        pick = self.pick(list(range(links.count())))
        here = links.nth(pick).get_attribute("aria-current") == "page"
        links.nth(pick).click()
        if not here:
            screen.wait_for(
                self.page, lambda p: p.locator("h1").first.inner_text(), lambda h: h != heading
            )
        else:
            learner.close_page_menu(self.page)

    def language(self) -> None:
        menu = learner.open_language_menu(self.page)
        menu.locator("label").first.wait_for()
        current = menu.locator("label:has(input:checked)").inner_text().strip()
        other = next(name for name in translation.LANGUAGES.values() if name != current)
        heading = self.page.locator("h1").first.inner_text()
        menu.get_by_text(other, exact=True).click()
        screen.wait_for(
            self.page, lambda p: p.locator("h1").first.inner_text(), lambda h: h != heading
        )

    def language_menu(self) -> None:
        learner.open_language_menu(self.page)
        screen.wait_idle(self.page)
        self.page.keyboard.press("Escape")

    def reload(self) -> None:
        self.page.reload()

    def back(self) -> None:
        self.page.go_back()
        if not self.page.url.startswith(self.server):  # before the walk's first page
            self.page.go_forward()

    def new_tab(self) -> None:
        """The link opened in a new tab: the same numbers."""
        screen.wait_ready(self.page)
        mine = screen.shown(self.page)
        # The sidebar's link to this view, or the address bar's (a teacher's holds the class)
        link = self.pick([screen.share_link(self.page), self.page.url])
        tab = self.context.new_page()  # a tab of this browser (its cache warm), a new session
        try:
            screen.open_page(tab, link)
            theirs = screen.shown(tab)
        finally:
            tab.close()
        if self.teaching and "class=" in link:  # it led the class (this browser keeps its key)
            again = self.page.locator(".st-key-class_lead_again button").first
            again.wait_for(timeout=30_000)
            again.click()
            self.page.locator(".st-key-class_lead_again").wait_for(state="detached")
            screen.wait_ready(self.page)
        assert {k: v for k, v in theirs.items() if k != "alerts"} == {
            k: v for k, v in mine.items() if k != "alerts"
        }, (link, self.steps)

    def teach(self) -> None:
        code = teach(self.page)
        self.teaching = True
        phone = self.browser.new_context(**screen.PHONE)
        self.follower = phone.new_page()
        screen.open_page(self.follower, f"{self.server}/?class={code}")

    def teardown(self) -> None:
        if self.follower is not None:
            self.follower.context.close()
        super().teardown()

    def join_slide(self) -> None:
        opener = self.pick(["class_bar_slide", "class_slide"])
        if opener == "class_slide":
            self.page.locator(".st-key-class_menu button").first.click()
            self.page.get_by_role("dialog").wait_for(state="visible")
        join_slide_and_back(self.page, opener)

    def cell(self) -> None:
        row, column = self.pick([0, 1, 2]), self.pick([1, 2, 3])
        value = self.pick(list(range(-99, 100))) / 100
        before = self.page.url
        learner.type_in_cell(self.page, row, column, f"{value:g}")
        screen.wait_for(self.page, lambda p: p.url, lambda url: url != before, timeout=10)

    # --- after every step ---------------------------------------------------------------------

    @invariant()
    def the_screen_is_the_link(self) -> None:
        if self.skip or not self.page.url.startswith("http"):
            return
        try:
            screen.wait_ready(self.page)
            self.check()
            if self.teaching and self.steps[-1:] and self.steps[-1].endswith(AGAIN_AFTER):
                later(self.page)  # the teacher's bar reruns the page by itself: check again
                self.check()
        except BaseException as error:
            self.failed(error)
            raise

    def check(self) -> None:
        page, steps = self.page, self.steps
        assert screen.exceptions(page) == [], steps
        assert "could not be computed" not in screen.main_text(page), steps
        found = expected.control_disagreements(shown_controls(page), page.url)
        assert found == {}, (page.url, steps)
        lang = expected.settings_of(page.url)["lang"]
        assert page.evaluate("document.documentElement.lang") == lang.replace("_", "-"), steps
        if page_key(page) == "streamlit_app" and page.locator(".st-key-result_summary").count():
            assert playground_differences(page) == {}, (page.url, steps)
        if self.follower is not None:
            self.check_follower()

    def check_follower(self) -> None:
        """The phone shows the teacher's page and view (its own language and type size
        apart), still following: what the class's invariant asks after every step."""
        wanted = (page_key(self.page), shared_view(self.page.url))
        follower = self.follower
        shown = screen.wait_for(
            follower,
            lambda p: (page_key(p), shared_view(p.url)),
            lambda seen: seen == wanted,
            timeout=30,
        )
        assert shown == wanted, (shown, wanted, self.steps)
        screen.wait_ready(follower)
        banner = " ".join(follower.locator('[data-testid="stAlertContainer"]').all_inner_texts())
        assert "Following the teacher" in banner, (banner[:200], self.steps)
        assert screen.exceptions(follower) == [], self.steps
        found = expected.control_disagreements(shown_controls(follower), follower.url)
        assert found == {}, (follower.url, self.steps)


def shared_view(url: str) -> dict[str, object]:
    """The settings a class shares, read from a page's link (type size and language are each
    screen's own; the class code is not a setting)."""
    settings = expected.settings_of(url)
    return {k: v for k, v in settings.values.items() if k not in ("present", "lang")}


def test_a_walk_over_what_the_screen_offers(server, browser, record_property):
    Walk.first_failure = None
    Walk.server, Walk.browser = server, browser
    try:
        run_state_machine_as_test(
            Walk,
            settings=walk_settings(STEPS, thorough=3),
        )
    except BaseException:
        if Walk.first_failure is None:
            raise
        steps, error = Walk.first_failure
        walked = "\n".join(f"  {n}. {step}" for n, step in enumerate(steps, 1))
        raise AssertionError(f"the walk failed after these steps:\n{walked}") from error
    finally:
        offered, done = WALKED.get(EVERY_PAGE, (set(), set()))
        record_property("browser_walks", json.dumps({EVERY_PAGE: [sorted(offered), sorted(done)]}))
