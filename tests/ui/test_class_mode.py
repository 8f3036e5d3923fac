"""Class mode in one process (the in-memory store), through AppTest: a join link with a hostile
or unknown code is refused in words and the learner keeps working alone; a good one follows
the teacher's settings (the browser test, tests/e2e/test_class_browser.py, covers the rest)."""

from __future__ import annotations

import pytest

from tests.ui.apptest import alerts, assert_clean, open_page, shown_settings, url_params
from ui.session import class_mode
from ui.session.class_mode import classroom

HOSTILE = ("", "<img src=x onerror=alert(1)>", "**K7RM3Q**", "K0RM3Q", "x" * 500, "CCCCCC")


@pytest.mark.parametrize("code", HOSTILE)
def test_a_bad_join_link_is_refused_in_words_and_the_page_works_alone(code):
    at = open_page(params={"class": code, "d_out": "3"})
    assert_clean(at)
    said = [body for _, _, body in alerts(at) if "Could not join a class" in body]
    assert len(said) == 1, alerts(at)
    assert "You keep working on your own" in said[0]
    assert "<img" not in said[0] and "x" * 50 not in said[0]
    assert shown_settings(at)["d_out"] == 3
    assert "class" not in url_params(at)  # not a member: the link does not carry it


def test_a_join_link_shows_the_teachers_page_and_settings_but_not_their_type_size():
    room = classroom()  # the process's store, as the app's sessions share it
    code, _key = room.start("4_Scaling", "d_out=5&mask=causal&present=1")
    at = open_page(params={"class": code})
    assert_clean(at)
    settings = shown_settings(at)
    assert settings["d_out"] == 5 and settings["mask"] == "causal"
    assert not settings["present"]
    assert any("Following the teacher" in body for _, _, body in alerts(at))
    assert url_params(at)["class"] == [code]


def test_the_workers_push_holds_a_follower_until_it_explores_and_no_one_else():
    """What each whole run tells the worker's push (classroom/push.py): a follower is held
    with its class, an explorer is let go, a session in no class is never looked up."""
    room, push = classroom(), class_mode.push()
    code, _key = room.start("streamlit_app", "d_out=3")
    alone = open_page(params={"d_out": "3"})
    assert_clean(alone)
    assert class_mode.PUSHED not in alone.session_state  # never a follower: never looked up
    at = open_page(params={"class": code})
    assert_clean(at)
    assert code in push.following().values()
    held = {sid for sid, c in push.following().items() if c == code}
    assert len(held) == 1
    at.button(key="class_explore").click().run()
    assert_clean(at)
    assert any("Exploring on your own" in body for _, _, body in alerts(at))
    assert code not in push.following().values()


def test_a_teachers_page_this_app_does_not_have_keeps_the_learner_following_its_own_view():
    """A class led from another version of the app may name a page this one lacks: the learner
    stays on its page, still following (found when the push's bookkeeping detached it)."""
    code, _key = classroom().start("no_such_page", "d_out=5")
    at = open_page(params={"class": code, "d_out": "4"})
    assert_clean(at)
    assert shown_settings(at)["d_out"] == 4
    assert at.session_state[class_mode.MEMBERSHIP].following
    assert any("Following the teacher" in body for _, _, body in alerts(at))
