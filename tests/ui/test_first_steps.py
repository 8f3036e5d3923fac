"""The Playground's first steps (issue 53): unfolded on a browser's first visit, under the
weights; folded once the browser keeps the cookie; never in presentation mode."""

from __future__ import annotations

from tests.ui.apptest import open_page
from ui.session import first_visit

LABEL = "First steps: three things to try"


def steps_of(at) -> list:
    return [e for e in at.expander if e.label == LABEL]


def cookie_scripts(at) -> list[str]:
    return [h.proto.body for h in at.get("html") if first_visit.NAME in h.proto.body]


def test_a_first_visit_unfolds_three_steps_and_keeps_a_cookie(monkeypatch):
    at = open_page()
    (steps,) = steps_of(at)
    assert steps.proto.expanded
    text = [m.value for m in steps.markdown]
    assert text == [
        "1. Move **d_out**: every number on the page is recomputed at once.\n"
        "2. Watch the row of `journey` in the weights: how much it attends to each key.\n"
        "3. Open “Show the scores ω behind these weights” under the weights: the scores ω "
        "they come from."
    ]
    (script,) = cookie_scripts(at)
    assert "attention_first_steps=seen; Max-Age=31536000" in script

    monkeypatch.setattr(first_visit, "seen", lambda: True)  # the browser sent the cookie
    again = open_page()
    (steps,) = steps_of(again)
    assert not steps.proto.expanded and cookie_scripts(again) == []
    assert steps_of(open_page(params={"present": "true"})) == []
