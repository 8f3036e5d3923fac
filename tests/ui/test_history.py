"""The browser's Back and Forward: a run Streamlit marks as a history navigation shows the
earlier URL's settings, whatever the widgets' values the browser sends with it.

AppTest cannot press Back, so these tests send what the browser sends (the earlier URL, the
widgets as they are) and mark the run as Streamlit does; tests/e2e/test_history_browser.py
presses the real buttons.
"""

from __future__ import annotations

import dataclasses
from unittest.mock import patch
from urllib.parse import urlsplit

from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext

from tests.ui.apptest import (
    HOME,
    PAGES,
    assert_clean,
    current_page,
    notices,
    open_page,
    reopen_from_link,
    shared_link,
    url_params,
)
from tests.ui.oracle import check_numbers
from tests.ui.test_pages import snapshot
from ui.session import state


def entry(at) -> tuple[str, dict[str, list[str]], tuple]:
    """What a history entry holds (its page and URL) and what the page showed there."""
    return current_page(at), url_params(at), snapshot(at)


def navigate(at, page: str, params: dict[str, list[str]]):
    """Back or Forward to ``page`` with ``params``: the widgets keep the values they hold."""
    at.query_params.clear()
    for key, values in params.items():
        at.query_params[key] = values[0] if len(values) == 1 else values
    if page != current_page(at):
        at.switch_page(PAGES[page].path)
    with patch.object(state, "_history_navigation", return_value=True):
        return at.run()


def test_back_shows_each_earlier_link_and_forward_comes_back():
    at = open_page(HOME)
    seen = [entry(at)]
    at.slider(key="d_out").set_value(4).run()
    seen.append(entry(at))
    at.selectbox(key="mask").set_value("causal").run()
    seen.append(entry(at))
    assert seen[2][1]["mask"] == ["causal"] and seen[2][2] != seen[1][2]

    for index in (1, 0, 1, 2):  # Back, Back, Forward, Forward
        navigate(at, *seen[index][:2])
        assert_clean(at)
        check_numbers(at)  # and every widget shows what the URL says
        assert entry(at) == seen[index]
    assert at.slider(key="d_out").value == 4 and at.selectbox(key="mask").value == "causal"


def test_a_change_after_back_starts_from_the_earlier_link():
    at = open_page(HOME)
    first = entry(at)
    at.slider(key="d_out").set_value(6).run()
    at.selectbox(key="mask").set_value("causal").run()
    navigate(at, *first[:2])
    assert at.selectbox(key="mask").value == "none"
    at.slider(key="d_out").set_value(3).run()
    assert url_params(at) == {"d_out": ["3"]}  # not the causal mask left behind
    check_numbers(at)


def test_back_to_another_page_shows_that_page_with_its_link():
    at = open_page("6_Dropout", {"dropout": "0.5"})
    on_dropout = entry(at)
    at.switch_page(PAGES[HOME].path).run()
    at.slider(key="d_out").set_value(5).run()
    navigate(at, *on_dropout[:2])
    assert entry(at) == on_dropout
    check_numbers(at)


def test_back_keeps_the_lessons_of_other_pages_which_the_link_does_not_hold():
    at = open_page("6_Dropout", {"samples": "50"})
    at.switch_page(PAGES[HOME].path).run()
    first = entry(at)
    assert first[1] == {}  # the Playground's link leaves the Dropout lesson out
    at.slider(key="d_out").set_value(5).run()
    navigate(at, *first[:2])
    assert entry(at) == first
    at.switch_page(PAGES["6_Dropout"].path).run()
    assert url_params(at) == {"samples": ["50"]}


def test_back_to_a_link_with_a_bad_value_for_another_page_keeps_that_pages_value_silently():
    # A review: Back to "/?layer=99" after layer 2 was chosen on page 10 said "Using 1"
    # while layer stayed 2 (the URL's value for another page is not read on Back).
    at = open_page(HOME, {"layer": "99", "d_out": "3"})
    first = entry(at)
    assert [n for n in notices(at) if "(a setting of 10" in n]
    at.switch_page(PAGES["10_Real_sentences"].path).run()
    at.selectbox(key="layer").set_value(2).run()
    at.switch_page(PAGES[HOME].path).run()
    navigate(at, HOME, {"layer": ["99"], "d_out": ["3"]})
    assert notices(at) == []
    assert entry(at)[2] == first[2]
    at.switch_page(PAGES["10_Real_sentences"].path).run()
    assert url_params(at)["layer"] == ["2"]


def test_a_link_holds_what_its_view_uses_and_back_keeps_the_rest():
    # Issue 39, item 22: the random example's size stayed in the link under another example.
    at = open_page(HOME, {"preset": "random", "num_tokens": "8", "d_in": "5"})
    at.selectbox(key="preset").set_value("nugues").run()
    on_nugues = entry(at)
    assert on_nugues[1] == {"preset": ["nugues"]}
    assert urlsplit(shared_link(at)).query == "preset=nugues"
    assert snapshot(reopen_from_link(at)) == on_nugues[2]  # the same numbers elsewhere
    at.selectbox(key="mask").set_value("causal").run()
    navigate(at, *on_nugues[:2])
    assert entry(at) == on_nugues
    at.selectbox(key="preset").set_value("random").run()  # the size last chosen, as before
    assert url_params(at) == {"preset": ["random"], "num_tokens": ["8"], "d_in": ["5"]}
    check_numbers(at)


def test_an_ordinary_run_is_not_a_history_navigation():
    at = open_page(HOME, {"d_out": "4"})
    at.slider(key="d_out").set_value(5).run()
    assert url_params(at)["d_out"] == ["5"]  # the widget's value, not the link's


def test_streamlit_still_marks_a_run_started_by_back_or_forward():
    # ui.session.state reads the mark with getattr (a renamed attribute must not break a page): this
    # test is what notices when an upgrade renames it.
    fields = {f.name for f in dataclasses.fields(ScriptRunContext)}
    assert "is_history_navigation" in fields
