"""What a change redraws in the sidebar (``ui.controls.drawn``): the groups a partial rerun
must redraw are exactly those whose widgets would be drawn differently (issue 16).

The partial reruns themselves run only in a real server; they are tested in Chromium
(tests/e2e/test_partial_reruns_browser.py).
"""

from __future__ import annotations

from attention_core.params import PARAMS
from attention_core.settings import default_settings, settle
from ui import controls

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


def test_the_views_pause_after_the_weights_only_in_a_partial_rerun(monkeypatch):
    """``page.paint_first`` parts the weights from the rest of a partial rerun's views
    (bench/RESULTS.md); a whole run (a page opened) must not wait."""
    from ui import page

    pauses: list[float] = []
    monkeypatch.setattr(page.time, "sleep", pauses.append)
    for partial in (False, True):
        monkeypatch.setattr(page, "_partial_run", lambda partial=partial: partial)
        page.paint_first()
    assert pauses == [page.FIRST_PAINT_PAUSE]
    assert 0 < page.FIRST_PAINT_PAUSE < 0.05  # a pause, not a wait a learner would see


def test_the_playground_pauses_right_after_drawing_its_weights():
    """The pause parts the weights from the rest only where it follows them directly."""
    from pathlib import Path

    app = Path(__file__).resolve().parents[2] / "streamlit_app.py"
    lines = [
        line.strip()
        for line in app.read_text().splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    weights = next(i for i, line in enumerate(lines) if line.startswith("lines_view.show_weights("))
    assert lines[weights + 1].startswith("run_order.paint_first()")
    assert sum("paint_first()" in line for line in lines) == 1
