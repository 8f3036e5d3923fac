"""Class mode in one process (the in-memory store), through AppTest: a join link with a hostile
or unknown code is refused in words and the learner keeps working alone; a good one follows
the teacher's settings (the browser test, tests/e2e/test_class_browser.py, covers the rest)."""

from __future__ import annotations

import pytest

from tests.ui.apptest import alerts, assert_clean, open_page, shown_settings, url_params
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
