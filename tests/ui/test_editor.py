"""The matrix grid as the browser drives it: the cumulative edit state under the grid's key.

AppTest cannot type into the grid; it sends the state the browser would send after each
change (see tests/e2e for typing in Chromium).
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from attention_core.embeddings import JOURNEY_TOKENS, JOURNEY_VALUES
from attention_core.knobs.text import VALUE_LIMIT
from tests.ui.apptest import (
    as_read,
    assert_clean,
    grid_key,
    notices,
    open_page,
    send_edits,
    url_settings,
)
from tests.ui.oracle import check_numbers
from ui.session import matrix_edits


def test_row_positions_keep_the_order_with_added_rows_last():
    edits = {"deleted_rows": [0, 2, 9], "added_rows": [{"token": "a"}, {"token": "b"}]}
    assert matrix_edits.row_positions(4, edits) == {
        ("row", 1): 0,
        ("row", 3): 1,
        ("added", 0): 2,
        ("added", 1): 3,
    }
    assert matrix_edits.row_positions(2, None) == {("row", 0): 0, ("row", 1): 1}


@pytest.mark.parametrize(
    ("query", "deleted", "after"),
    [(4, [0], 3), (4, [0, 1], 2), (2, [4], 2), (4, [3], 4), (6, [5], 5)],
)
def test_the_focused_token_follows_its_token_when_rows_are_deleted(query, deleted, after):
    at = open_page(params={"query": str(query)})
    send_edits(at, {"edited_rows": {}, "added_rows": [], "deleted_rows": deleted})
    assert_clean(at)
    shown = url_settings(at)
    assert shown["query"] == after
    kept = [t for i, t in enumerate(JOURNEY_TOKENS) if i not in deleted]
    assert shown.tokens == tuple(kept)
    if query - 1 not in deleted:  # the same word, wherever it now is
        assert kept[after - 1] == JOURNEY_TOKENS[query - 1]
    check_numbers(at)


def test_the_focused_token_follows_it_across_several_edits():
    at = open_page(params={"query": "5"})  # "one"
    steps = [
        {"edited_rows": {}, "added_rows": [], "deleted_rows": [1]},
        {"edited_rows": {0: {"d1": 0.5}}, "added_rows": [], "deleted_rows": [1]},
        {"edited_rows": {0: {"d1": 0.5}}, "added_rows": [], "deleted_rows": [1, 0]},
    ]
    for edits, query in zip(steps, (4, 4, 3), strict=True):
        send_edits(at, edits)
        shown = url_settings(at)
        assert shown["query"] == query and shown.tokens[query - 1] == "one"


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
    assert [as_read(n) for n in notices(at)] == [
        "Matrix: row 2, column d2 must be between −10 and 10, not 1000000000.0. "
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


def test_the_grid_holds_its_numbers_as_text_with_the_points_lined_up():
    at = open_page()
    frame = at.data_editor(key=grid_key(at)).value
    assert list(frame["d1"]) == ["0.43", "0.55", "0.57", "0.22", "0.77", "0.05"]
    assert list(frame["d3"]) == ["0.89", "0.66", "0.64", "0.33", "0.10", "0.55"]


MATRICES = st.lists(
    st.lists(
        st.floats(-VALUE_LIMIT, VALUE_LIMIT, allow_nan=False)
        | st.decimals(-10, 10, places=3).map(float),
        min_size=3,
        max_size=3,
    ),
    min_size=1,
    max_size=6,
)


@given(MATRICES)
@example([[0.0, 0.0, 2.0**-24]])  # float formatting at 23 decimals reads back as its neighbour
@example([[-0.0, 1e-7, -9.999999999999998]])
def test_every_number_the_grid_shows_reads_back_as_exactly_that_number(rows):
    columns = matrix_edits.text_columns(tuple(tuple(row) for row in rows))
    read = [[float(columns[c][r]) for c in range(3)] for r in range(len(rows))]
    assert read == rows  # exact, not rounded
    for column in columns:  # the points line up down each column
        short = [t for t in column if len(t.split(".")[1]) <= 6]
        assert len({len(t.split(".")[1]) for t in short}) <= 1
    assert all(len(t.split(".")[1]) >= 2 for column in columns for t in column)


def test_each_column_has_its_own_decimals():
    """Found in Chromium: one precise number (0.123456) gave every column 6 decimals, so d3
    read 0.890000 and -10 read -10.000000; each column keeps the fewest it needs."""
    rows = ((0.3, 0.15, 0.89), (0.001, 0.123456, 0.66), (-10.0, 0.5, 0.55))
    assert matrix_edits.text_columns(rows) == [
        ["0.300", "0.001", "-10.000"],
        ["0.150000", "0.123456", "0.500000"],
        ["0.89", "0.66", "0.55"],
    ]


@pytest.mark.parametrize(
    ("typed", "value"),
    [("1e-3", 0.001), (" -2.5 ", -2.5), ("1E+0", 1.0), ("+.5", 0.5), ("-0", 0.0)],
)
def test_a_number_typed_as_text_is_read_as_written(typed, value):
    at = open_page()
    send_edits(at, {"edited_rows": {0: {"d1": typed}}})
    assert_clean(at)
    assert notices(at) == []
    assert url_settings(at).rows[0] == (value, 0.15, 0.89)
    check_numbers(at)


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        (
            "0,5",
            "row 1, column d1 is not a number written with the digits 0-9: '0,5' "
            "(write the decimals after a point: 0.5)",
        ),
        (
            "12345678901234567890",
            "row 1, column d1 must be between −10 and 10, not 12345678901234567890",
        ),
        ("1e999", "row 1, column d1 must be between −10 and 10, not 1e999"),
        (
            "1e-400",
            "row 1, column d1 is too close to 0 to compute in float32: type 0 or a number of "
            "at least 1.2e-38 in size, not 1e-400",
        ),
        ("", "row 1, column d1 is empty: type a number"),
        ("½", "row 1, column d1 is not a number written with the digits 0-9: '½'"),
    ],
)
def test_a_bad_number_typed_as_text_is_named_and_the_last_valid_matrix_stays(typed, says):
    at = open_page()
    send_edits(at, {"edited_rows": {3: {"d2": 0.75}}})  # a valid edit first: it stays
    send_edits(at, {"edited_rows": {3: {"d2": 0.75}, 0: {"d1": typed}}})
    assert_clean(at)
    assert [as_read(n) for n in notices(at)] == [
        f"Matrix: {says}. The results use the last valid matrix."
    ]
    assert url_settings(at).rows[3] == (0.22, 0.75, 0.33)
    assert url_settings(at).rows[0] == JOURNEY_VALUES[0]


def test_a_number_copied_from_the_screen_pastes_into_the_grids_with_its_minus_sign():
    """Issue 39, item 7: every number on screen carries the minus sign "−" (U+2212); pasted
    into the embedding grid or a typed weight grid, it is that negative number."""
    base = (JOURNEY_TOKENS, tuple(tuple(r) for r in JOURNEY_VALUES))
    pasted = {"edited_rows": {0: {"d1": "\u22120.2104"}, 2: {"d3": " \u22122.8e\u221206 "}}}
    tokens, rows = matrix_edits.apply_edits(*base, pasted)
    assert tokens == JOURNEY_TOKENS
    assert rows[0] == (-0.2104, *JOURNEY_VALUES[0][1:])
    assert rows[2] == (*JOURNEY_VALUES[2][:2], -2.8e-06)
    typed = matrix_edits.numbers_frame(((1.0, 0.5),), ["c1", "c2"]).assign(c2=["\u22120.5"])
    assert matrix_edits.numbers_from_frame(typed, "W_query") == ((1.0, -0.5),)


def test_several_bad_cells_are_all_located_in_one_message():
    # Found in Chromium: with six bad cells, only the first was named, and the learner who
    # fixed it met the next one only then.
    base = (JOURNEY_TOKENS, tuple(tuple(r) for r in JOURNEY_VALUES))
    bad = {1: {"d1": "abc", "d3": "nan"}, 2: {"d2": ""}, 4: {"token": "a,b", "d1": "1e999"}}
    with pytest.raises(matrix_edits.AttentionInputError) as refused:
        matrix_edits.apply_edits(*base, {"edited_rows": bad, "added_rows": [{"d1": "x"}]})
    assert str(refused.value) == (
        "row 2, column d1 is not a number written with the digits 0-9: 'abc'; 5 other cells "
        "cannot be read either: row 2, column d3; row 3, column d2; row 5, token; …"
    )
    with pytest.raises(matrix_edits.AttentionInputError) as refused:
        matrix_edits.apply_edits(*base, {"edited_rows": {0: {"d1": "abc"}, 5: {"d3": "2,5"}}})
    assert str(refused.value).endswith("; 1 other cell cannot be read either: row 6, column d3")
    with pytest.raises(matrix_edits.AttentionInputError) as refused:  # one bad cell: as before
        matrix_edits.apply_edits(*base, {"edited_rows": {0: {"d1": "abc"}}})
    assert "other" not in str(refused.value)


def test_typed_weights_are_read_as_written_and_a_bad_one_is_named():
    at = open_page("3_Trainable_weights", {"d_out": "2"})
    at.radio(key="weights_from").set_value("typed").run()
    start = url_settings(at)["wq"]
    grid = "grid_wq_3"
    assert at.data_editor(key=grid).value.iloc[0, 0] == matrix_edits.text_columns(start)[0][0]
    send_edits(at, {"edited_rows": {0: {"c1": "1e-1"}}}, grid)
    assert_clean(at)
    assert url_settings(at)["wq"][0] == (0.1, start[0][1])
    check_numbers(at)
    send_edits(at, {"edited_rows": {0: {"c1": "0,25"}}}, grid)
    assert_clean(at)
    warned = [as_read(w.value) for w in at.warning if "W_query" in as_read(w.value)]
    assert len(warned) == 1 and "row 1, column c1" in warned[0]
    assert "after a point: 0.25" in warned[0]
    assert url_settings(at)["wq"][0] == (0.1, start[0][1])  # the last valid W_query stays
