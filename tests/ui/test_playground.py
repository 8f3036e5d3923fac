"""AppTest: the Playground shows the book's numbers, and every control changes them."""

import pytest

from attention_core import AttentionConfig, preset_embeddings, run_attention
from tests.ui.helpers import edit_matrix, latex_vector, messages, open_app, table_with


def context_of(config: AttentionConfig, query: int = 1, preset: str = "journey") -> list[float]:
    trace = run_attention(preset_embeddings(preset), config)
    return trace.head_context[0, query].tolist()


def test_default_view_is_the_books_seed_004_numbers():
    app = open_app()
    assert not app.exception
    assert latex_vector(app) == pytest.approx([0.3061, 0.8210], abs=1e-4)
    focus = table_with(app, "weight")
    assert focus["weight"].tolist() == pytest.approx(
        [0.1500, 0.2264, 0.2199, 0.1311, 0.0906, 0.1820], abs=1e-4
    )
    assert any(
        "Matches torch.nn.functional.scaled_dot_product_attention" in s.value for s in app.success
    )
    assert app.query_params["seed"] == "123"


@pytest.mark.parametrize(
    ("widget", "kind", "value", "config"),
    [
        ("d_out", "slider", 4, AttentionConfig(d_out=4)),
        ("seed", "number_input", 7, AttentionConfig(seed=7)),
        ("scaling", "radio", "none", AttentionConfig(scaling="none")),
        ("scaling", "radio", "d", AttentionConfig(scaling="d")),
        ("mask", "selectbox", "causal", AttentionConfig(mask="causal")),
        ("init", "selectbox", "identity", AttentionConfig(init="identity")),
        ("dropout", "slider", 0.5, AttentionConfig(dropout=0.5)),
    ],
)
def test_each_control_changes_the_focused_context_vector(widget, kind, value, config):
    app = open_app()
    before = latex_vector(app)
    getattr(app, kind)(key=widget).set_value(value).run()
    assert not app.exception
    after = latex_vector(app)
    assert after != pytest.approx(before, abs=1e-6)
    assert after == pytest.approx(context_of(config), abs=1e-4)


def test_linear_init_with_seed_789_gives_the_books_v2_numbers():
    app = open_app()
    app.selectbox(key="init").set_value("linear")
    app.number_input(key="seed").set_value(789).run()
    assert latex_vector(app) == pytest.approx([-0.0748, 0.0703], abs=1e-4)


def test_dropout_in_eval_mode_restores_the_undropped_numbers():
    app = open_app()
    app.slider(key="dropout").set_value(0.5).run()
    dropped = latex_vector(app)
    app.toggle(key="train").set_value(False).run()
    assert latex_vector(app) == pytest.approx([0.3061, 0.8210], abs=1e-4)
    assert dropped != pytest.approx([0.3061, 0.8210], abs=1e-4)


def test_focus_query_changes_the_formula():
    app = open_app()
    app.selectbox(key="query").set_value(1).run()
    assert latex_vector(app) == pytest.approx([0.2996, 0.8053], abs=1e-4)
    assert "z^{(1)}" in app.latex[0].value


def test_two_heads_show_a_head_choice_and_match_the_core():
    app = open_app()
    app.slider(key="d_out").set_value(4)
    app.selectbox(key="heads").set_value(2).run()
    assert not app.exception
    trace = run_attention(preset_embeddings("journey"), AttentionConfig(d_out=4, heads=2))
    assert latex_vector(app) == pytest.approx(trace.head_context[0, 1].tolist(), abs=1e-4)
    app.radio(key="playground_head").set_value(1).run()
    assert latex_vector(app) == pytest.approx(trace.head_context[1, 1].tolist(), abs=1e-4)


def test_heads_not_dividing_d_out_is_named_and_the_last_valid_state_stays():
    app = open_app()
    app.slider(key="d_out").set_value(3).run()
    valid = latex_vector(app)
    app.selectbox(key="heads").set_value(2).run()
    assert not app.exception
    assert any(
        "d_out must be divisible by heads: 3 is not divisible by 2" in m for m in messages(app)
    )
    assert latex_vector(app) == pytest.approx(valid, abs=1e-6)


def test_editing_a_cell_changes_the_numbers():
    app = open_app()
    edit_matrix(app, edited_rows={0: {"d1": 0.9}})
    assert not app.exception
    values = [list(r) for r in preset_embeddings("journey").as_rows()]
    values[0][0] = 0.9
    from attention_core import make_embeddings

    trace = run_attention(
        make_embeddings(preset_embeddings("journey").tokens, values), AttentionConfig()
    )
    assert latex_vector(app) == pytest.approx(trace.context[1].tolist(), abs=1e-4)
    assert app.query_params["x"].startswith("0.9,0.15,0.89;")


def test_adding_and_removing_tokens():
    app = open_app()
    edit_matrix(app, added_rows=[{"token": "again", "d1": 0.1, "d2": 0.2, "d3": 0.3}])
    assert not app.exception
    assert app.session_state["_tokens"][-1] == "again"
    edit_matrix(app, deleted_rows=[6, 5])
    assert app.session_state["_tokens"] == ("Your", "journey", "starts", "with", "one")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ({1: {"d2": None}}, "row 2, column d2 is empty"),
        ({1: {"d2": "abc"}}, "row 2, column d2 is empty or not a number"),
        ({1: {"d2": 11.0}}, "row 2, column d2 must be between -10 and 10"),
        ({1: {"d2": float("inf")}}, "row 2, column d2 must be between -10 and 10"),
        ({1: {"d2": float("nan")}}, "row 2, column d2 is empty or not a number"),
        ({2: {"token": ""}}, "row 3, token is empty"),
        ({2: {"token": "x" * 21}}, "row 3, token is longer than 20 characters"),
        (
            {2: {"token": "<script>alert(1)</script>"}},
            "row 3, token ('<script>alert(1)</script>') contains",
        ),
    ],
)
def test_bad_cells_are_named_and_the_last_valid_matrix_stays(edit, message):
    app = open_app()
    edit_matrix(app, edited_rows=edit)
    assert not app.exception
    assert any(message in m for m in messages(app)), messages(app)
    assert latex_vector(app) == pytest.approx([0.3061, 0.8210], abs=1e-4)


def test_duplicate_labels_are_allowed_and_explained():
    app = open_app()
    edit_matrix(app, edited_rows={3: {"token": "journey"}})
    assert not app.exception
    assert any("labels repeat" in m for m in messages(app))
    assert "journey·4" in table_with(app, "weight")["key"].tolist()


def test_reset_brings_back_the_preset():
    app = open_app()
    edit_matrix(app, edited_rows={0: {"d1": 0.9}})
    app.button(key="reset_matrix").click().run()
    assert app.session_state["_rows"][0] == (0.43, 0.15, 0.89)
    assert latex_vector(app) == pytest.approx([0.3061, 0.8210], abs=1e-4)


def test_presets_load_their_matrices():
    app = open_app()
    app.selectbox(key="preset").set_value("nugues").run()
    assert app.session_state["_tokens"] == ("w1", "w2", "w3")
    app.selectbox(key="preset").set_value("random").run()
    app.number_input(key="num_tokens").set_value(9).run()
    assert len(app.session_state["_tokens"]) == 9
    assert not app.exception


def test_csv_and_script_export_are_offered():
    app = open_app()
    buttons = [b for b in app.get("download_button")]
    assert len(buttons) == 2
    code = [c.value for c in app.code if "import torch" in c.value]
    assert code and "print(output)" in code[0]


@pytest.mark.parametrize(
    ("steps", "config"),
    [
        (
            [("selectbox", "mask", "padding"), ("slider", "padding", 2)],
            AttentionConfig(mask="padding", padding=2),
        ),
        (
            [("slider", "dropout", 0.5), ("number_input", "dropout_seed", 9)],
            AttentionConfig(dropout=0.5, dropout_seed=9),
        ),
        ([("radio", "scoring", "cosine")], AttentionConfig(scoring="cosine")),
        ([("selectbox", "norm", "sum")], AttentionConfig(norm="sum")),
        (
            [("selectbox", "mask", "causal"), ("selectbox", "mask_strategy", "zero_scores")],
            AttentionConfig(mask="causal", mask_strategy="zero_scores"),
        ),
        (
            [("selectbox", "heads", 2), ("radio", "heads_layout", "wrapper")],
            AttentionConfig(heads=2, heads_layout="wrapper"),
        ),
    ],
)
def test_more_controls_match_the_core_by_value(steps, config):
    app = open_app()
    for kind, key, value in steps:
        getattr(app, kind)(key=key).set_value(value).run()
    assert not app.exception
    assert latex_vector(app) == pytest.approx(context_of(config), abs=1e-4)
