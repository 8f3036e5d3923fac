"""Pages 5, 9 and 10 as a learner reading the book meets them, and the grid on a phone
(issue 53)."""

from __future__ import annotations

from tests.ui.apptest import open_page
from tests.ui.oracle import title_of
from tests.ui.vega import chart_specs, records


def test_page_9_scales_cosines_to_1_says_why_rows_do_not_sum_to_1_and_folds_its_checks():
    at = open_page("9_Word_vectors")
    cosine = next(s for s in chart_specs(at) if title_of(s) == "cosine similarity as weights")
    first = records(cosine)[0]
    assert (first["low"], first["high"]) == (-1.0, 1.0)  # was 0 to 1.20
    assert any("no softmax makes a row sum to 1" in c.value for c in at.caption)
    assert [e.label for e in at.expander if "source" in e.label] == ["Checked against the source"]
    assert not [m for m in at.markdown if "Odyssey" in m.value]  # no screens of tables
    tables = [m.value for m in at.markdown if "Nugues' chapter 15 prints" in m.value]
    assert tables == []  # folded: computed only when opened
    at.session_state["glove_checks"] = True  # opened: one short table, every check a match
    at.run()
    tables = [m.value for m in at.markdown if m.value.startswith("| Nugues' chapter 15 prints")]
    assert len(tables) == 1
    rows = [line for line in tables[0].splitlines()[2:] if line.startswith("|")]
    assert len(rows) >= 5 and all(row.rstrip(" |").endswith("✓") for row in rows), rows


def test_page_10_draws_a_reproduced_head_once():
    at = open_page("10_Real_sentences")
    titles = [title_of(s) for s in chart_specs(at)]
    assert "the attention core with the head's weights" in titles
    assert "the model's own attention" not in titles
    assert [s.value for s in at.success if s.value.startswith("Reproduced: the model's own")]


def test_page_5_says_how_its_grid_starts():
    at = open_page("5_Causal_mask")
    grid = next(e for e in at.data_editor if e.key and e.key.startswith("custom_mask_"))
    start = grid.value.to_numpy().tolist()
    assert not any(start[0]) and all(start[1][:2])  # q1 empty, then the causal rows
    said = [m.value for m in at.markdown if m.value.startswith("Tick what each query")]
    assert len(said) == 1 and "starts as the causal mask with row q1 left empty" in said[0]


def test_the_grid_says_a_touch_screen_needs_two_taps():
    at = open_page()
    hint = "On a touch screen, tap a cell, then tap it again to type in it."
    assert [c.value for c in at.caption if hint in c.value], [c.value for c in at.caption]
