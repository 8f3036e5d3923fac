"""The matrix grid as the browser drives it: the cumulative edit state under the grid's key.

AppTest cannot type into the grid; it sends the state the browser would send after each
change (see tests/e2e for typing in Chromium).
"""

from __future__ import annotations

from attention_core.embeddings import JOURNEY_TOKENS, JOURNEY_VALUES
from tests.ui.apptest import (
    assert_clean,
    grid_key,
    notices,
    open_page,
    send_edits,
    url_settings,
)
from tests.ui.oracle import check_numbers


def test_consecutive_edits_of_different_cells_are_each_kept():
    at = open_page()
    key = grid_key(at)
    edits: dict = {"edited_rows": {}, "added_rows": [], "deleted_rows": []}
    steps = [
        ("edited_rows", 0, "d1", 0.9),
        ("edited_rows", 3, "d3", -1.25),
        ("edited_rows", 1, "token", "voyage"),
        ("added_rows", None, None, {"token": "again", "d1": 0.1, "d2": 0.2, "d3": 0.3}),
        ("edited_rows", 5, "d2", 2.0),
        ("deleted_rows", None, None, 4),
        ("edited_rows", 0, "d2", -0.5),
    ]
    seen = [url_settings(at)]
    for where, row, column, value in steps:
        if where == "edited_rows":
            edits["edited_rows"].setdefault(row, {})[column] = value
        else:
            edits[where].append(value)
        send_edits(at, edits)
        assert grid_key(at) == key  # an edit never replaces the grid
        assert_clean(at)
        seen.append(check_numbers(at))
    matrices = [(s.tokens, s.rows) for s in seen]
    assert len(set(matrices)) == len(steps) + 1  # seven edits, seven changes
    tokens, rows = matrices[-1]
    assert tokens == ("Your", "voyage", "starts", "with", "step", "again")
    assert rows[0] == (0.9, -0.5, 0.89) and rows[3] == (0.22, 0.58, -1.25)
    assert rows[4] == (0.05, 2.0, 0.55) and rows[5] == (0.1, 0.2, 0.3)


def test_a_seed_change_keeps_an_edited_random_matrix_and_reset_brings_the_preset_back():
    at = open_page()
    at.selectbox(key="preset").set_value("montreal").run()
    preset = url_settings(at).rows
    send_edits(at, {"edited_rows": {2: {"d5": 7.5}}})
    edited = url_settings(at).rows
    assert edited != preset and edited[2][4] == 7.5
    at.number_input(key="seed").set_value(99).run()
    assert url_settings(at).rows == edited  # issue 11: a seed change overwrote the edit
    check_numbers(at)
    at.button(key="reset_matrix").click().run()
    reset = url_settings(at)
    assert reset.rows != edited and reset["seed"] == 99 and len(reset.rows[0]) == 8


def test_out_of_range_numbers_are_refused_by_cell_and_the_last_valid_matrix_stays():
    at = open_page()
    send_edits(at, {"edited_rows": {1: {"d2": 1e9}}})
    assert_clean(at)
    assert notices(at) == [
        "Matrix: `row 2, column d2 must be between -10 and 10, not 1000000000.0`. "
        "The results use the last valid matrix."
    ]
    assert url_settings(at).rows == JOURNEY_VALUES
    send_edits(at, {"edited_rows": {1: {"d2": 9.999}}})  # the learner corrects the cell
    assert notices(at) == [] and url_settings(at).rows[1] == (0.55, 9.999, 0.66)


def test_deleting_every_token_keeps_the_last_one():
    at = open_page()
    send_edits(at, {"deleted_rows": list(range(6))})
    assert_clean(at)
    assert any("at least one token" in n for n in notices(at))
    assert url_settings(at).tokens == JOURNEY_TOKENS
