"""Page 12, cross-attention: both grids edited, a refused cell, the sidebar's mask, the
target's labels in the page's language (AppTest: numbers and states; the browser's typing
is tests/e2e/test_todays_attention_browser.py)."""

from __future__ import annotations

import contextlib
import io

import torch

from attention_core import make_embeddings
from attention_core.cross import decoder_layer, target_of
from tests.ui.apptest import (
    assert_clean,
    chart,
    notices,
    open_page,
    records,
    reopen_from_link,
    send_edits,
    url_params,
)
from tests.ui.oracle import check_numbers, core_config
from tests.ui.test_class_mode import teach
from tests.ui.test_pages import snapshot
from ui.session import class_mode

PAGE = "12_Cross_attention"
WEIGHTS = "step 2 weights (rows: target queries × columns: source keys)"


def target_key(at) -> str:
    keys = [e.key for e in at.data_editor if e.key and e.key.startswith("target_grid_")]
    assert len(keys) == 1, keys
    return keys[0]


def test_editing_both_grids_recomputes_the_layer_and_the_link_carries_them():
    at = open_page(PAGE)
    before = snapshot(at)
    send_edits(at, {"edited_rows": {0: {"d1": "0.9"}}})  # a source cell
    send_edits(at, {"edited_rows": {1: {"token": "voyage", "d2": "-1.5"}}}, target_key(at))
    assert_clean(at)
    assert notices(at) == []
    settings = check_numbers(at)
    assert settings.rows[0][0] == 0.9
    assert settings["target"][1] == (0.52, -1.5, 0.70)
    assert settings["target_tokens"] == ("Your", "voyage", "begins")
    assert url_params(at)["target_tokens"] == ["Your,voyage,begins"]
    assert snapshot(at) != before
    again = reopen_from_link(at)  # a fresh session: the same two matrices, the same numbers
    assert_clean(again)
    assert snapshot(again) == snapshot(at)


def test_a_bad_target_cell_is_named_and_the_last_valid_target_kept():
    at = open_page(PAGE)
    key = target_key(at)
    send_edits(at, {"edited_rows": {0: {"d3": "0.5"}}}, key)
    good = snapshot(at)
    send_edits(at, {"edited_rows": {0: {"d3": "0.5"}, 2: {"d1": "1e9"}}}, key)
    warnings = [w.value.replace("\\,", ",") for w in at.warning]  # Markdown-escaped
    assert any("row 3, column d1 must be between" in w for w in warnings), warnings
    assert any("The results use the last valid target." in w for w in warnings)
    assert snapshot(at)[0] == good[0]  # the charts' cells: the last valid target's
    check_numbers(at)


def test_a_target_row_added_and_the_causal_mask_left_out_of_step_2():
    at = open_page(PAGE, {"mask": "causal", "heads": "2", "d_out": "4"})
    send_edits(
        at, {"added_rows": [{"token": "now", "d1": "1", "d2": "0", "d3": "0"}]}, target_key(at)
    )
    assert_clean(at)
    info = " ".join(i.value for i in at.info)
    assert "Step 2 leaves out the causal mask" in info
    assert len(records(chart(at, WEIGHTS))) == 4 * 6  # 4 target queries × 6 source keys
    settings = check_numbers(at)
    # Reproduce in PyTorch, opened: the script gives step 2's output on the learner's numbers.
    at.session_state["cross_export_open"] = True  # the folded section, as a click opens it
    at.run()
    scripts = [c.value for c in at.main.code if "# Step 2: cross-attention" in c.value]
    assert len(scripts) == 1
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(scripts[0], "attention.py", "exec"), namespace)
    target = target_of(settings["target"], settings["target_tokens"])
    layer = decoder_layer(
        target, make_embeddings(settings.tokens, settings.rows), core_config(settings)
    )
    torch.testing.assert_close(namespace["output"], layer.cross_attention.output, atol=1e-5, rtol=0)


def test_the_starting_target_speaks_the_pages_language():
    at = open_page(PAGE, {"lang": "zh_CN"})
    assert_clean(at)
    weights = chart(at, "第 2 步的权重（行：目标查询 × 列：源键）")
    assert weights["encoding"]["y"]["sort"] == ["你的", "旅程", "开始"]
    assert url_params(at) == {"lang": ["zh_CN"]}  # the starting target is not written out


def test_a_follower_sees_the_target_the_teacher_typed():
    teacher = open_page(PAGE)
    teach(teacher)
    code = teacher.session_state[class_mode.MEMBERSHIP].code
    follower = open_page(PAGE, {"class": code})
    send_edits(teacher, {"edited_rows": {2: {"token": "starts", "d1": "-2"}}}, target_key(teacher))
    assert url_params(teacher)["target_tokens"] == ["Your,trip,starts"]
    follower.run()  # its next run shows the teacher's view: the grid starts again from it
    assert_clean(follower)
    assert url_params(follower)["target"] == url_params(teacher)["target"]
    assert records(chart(follower, WEIGHTS)) == records(chart(teacher, WEIGHTS))
    check_numbers(follower)
