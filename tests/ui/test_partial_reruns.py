"""What a change redraws in the sidebar (``ui.session.controls.drawn``): the groups a partial rerun
must redraw are exactly those whose widgets would be drawn differently (issue 16).

The partial reruns themselves run only in a real server; they are tested in Chromium
(tests/e2e/test_partial_reruns_browser.py).
"""

from __future__ import annotations

from attention_core.knobs.settings import default_settings
from attention_core.knobs.settle import settle
from attention_core.knobs.table import PARAMS
from ui.session import controls

GROUPS = [group for group, _ in controls.GROUPS]


def changed_groups(before, after) -> set[str]:
    old, new = controls.drawn(before, GROUPS), controls.drawn(after, GROUPS)
    return {PARAMS[n].group for n in old.keys() | new.keys() if old.get(n) != new.get(n)}


def test_d_out_changes_the_heads_choices_and_nothing_outside_its_group():
    before = default_settings()
    after = settle(before.replace(d_out=3))[0]
    assert (
        controls.drawn(before, ["weights"])["heads"] != controls.drawn(after, ["weights"])["heads"]
    )
    assert changed_groups(before, after) == {"weights"}


def test_a_renamed_token_changes_the_focused_tokens_choices():
    before = default_settings()
    tokens = list(before.tokens)
    tokens[1] = "trip"
    after = settle(before.replace(tokens=tuple(tokens)))[0]
    shown = dict(controls.drawn(after, ["input"])["query"][1:])
    assert shown[2] == "x(2) trip"
    assert changed_groups(before, after) == {"input"}


def test_an_edited_number_and_the_same_settings_redraw_no_group():
    before = default_settings()
    rows = [list(r) for r in before.rows]
    rows[0][0] = 0.9
    after = settle(before.replace(rows=tuple(tuple(r) for r in rows)))[0]
    assert changed_groups(before, after) == set()


def test_a_moved_slider_changes_its_value_and_not_its_limits():
    """What lets a change skip redrawing the slider the browser already shows at that value."""
    before = default_settings()
    after = settle(before.replace(d_out=3))[0]
    old, new = controls.drawn(before, GROUPS)["d_out"], controls.drawn(after, GROUPS)["d_out"]
    assert (old[0], new[0]) == (2, 3)
    assert old[1:] == new[1:]


def test_the_mask_shows_the_padding_control_only_with_padding():
    before = default_settings()
    after = settle(before.replace(mask="padding"))[0]
    assert "padding" not in controls.drawn(before, ["scores"])
    assert "padding" in controls.drawn(after, ["scores"])
