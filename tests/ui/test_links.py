"""AppTest: a link reproduces its view exactly; bad link parameters are named, never fatal."""

import pytest

from attention_core import AttentionConfig, make_embeddings, run_attention
from tests.ui.helpers import latex_vector, messages, open_app

LINK = {
    "tokens": "a,b,c,d",
    "x": "0.1,0.2,0.3;0.4,-0.5,0.6;1,0,0;0.25,0.5,-1",
    "d_out": "4",
    "heads": "2",
    "init": "linear",
    "seed": "42",
    "scaling": "d",
    "mask": "causal",
    "dropout": "0.3",
    "dropout_seed": "5",
    "query": "3",
}


def test_a_link_reproduces_the_cores_numbers_for_its_configuration():
    app = open_app(params=LINK)
    assert not app.exception
    assert [e.value for e in (*app.error, *app.warning)] == []
    embeddings = make_embeddings(
        ["a", "b", "c", "d"],
        [[0.1, 0.2, 0.3], [0.4, -0.5, 0.6], [1, 0, 0], [0.25, 0.5, -1]],
    )
    config = AttentionConfig(
        d_out=4,
        heads=2,
        init="linear",
        seed=42,
        scaling="d",
        mask="causal",
        dropout=0.3,
        dropout_seed=5,
    )
    trace = run_attention(embeddings, config)
    assert latex_vector(app) == pytest.approx(trace.head_context[0, 2].tolist(), abs=1e-4)
    # The URL written back holds the same view, so copying it gives the same numbers again.
    again = open_app(params={k: app.query_params[k] for k in app.query_params})
    assert latex_vector(again) == pytest.approx(latex_vector(app), abs=0)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"d_out": "abc"}, "d_out: d_out must be a whole number, not 'abc'"),
        ({"seed": "-1"}, "seed: seed must be between 0 and 4294967295, not -1"),
        ({"seed": "4294967296"}, "seed must be between 0 and 4294967295"),
        ({"dropout": "1.5"}, "dropout: dropout must be between -1 and 1"),
        ({"dropout": "nan"}, "dropout: dropout is not a number"),
        ({"mask": "bogus"}, "mask must be one of"),
        ({"zzz": "1"}, "unknown parameter 'zzz'"),
        ({"x": "1,2;3"}, "x: rows have different lengths"),
        ({"x": "1e999,0;0,1"}, "must be between -10 and 10"),
        ({"tokens": "a,b"}, "2 labels for 6 rows"),
        ({"tokens": "a,<b>,c,d,e,f"}, "token 2 ('<b>') contains '<' or '>'"),
        ({"query": "99"}, "query: query must be between 1 and 32"),
        ({"query": "9"}, "query: 9 is not a token"),
        ({"d_out": "12"}, "the dashboard allows 1 to 8, not 12"),
        ({"d_out": "3", "heads": "2"}, "d_out must be divisible by heads: 3 is not divisible by 2"),
        ({"init": "custom"}, "init 'custom' needs W_query, W_key and W_value"),
        ({"mask": "custom"}, "mask 'custom' needs custom_mask"),
        ({"present": "maybe"}, "present must be true or false"),
    ],
)
def test_bad_link_parameters_are_named_and_defaults_kept(params, message):
    app = open_app(params=params)
    assert not app.exception
    found = messages(app)
    assert any(message in m for m in found), found
    assert latex_vector(app) == pytest.approx([0.3061, 0.8210], abs=1e-4)


def test_repeated_parameter_uses_the_last_and_says_so():
    app = open_app(params={"d_out": ["2", "4"]})
    assert not app.exception
    assert any("'d_out' is given 2 times" in m for m in messages(app))
    assert app.slider(key="d_out").value == 4


def test_present_flag_turns_on_presentation_mode():
    app = open_app(params={"present": "1"})
    assert app.toggle(key="present").value is True
    assert app.query_params["present"] == "1"


def test_controls_keep_their_values_across_pages():
    app = open_app()
    app.slider(key="d_out").set_value(4)
    app.selectbox(key="mask").set_value("causal").run()
    app.switch_page("pages/3_Trainable_weights.py").run()
    assert not app.exception
    assert app.slider(key="d_out").value == 4 and app.selectbox(key="mask").value == "causal"
    app.slider(key="d_out").set_value(5).run()
    app.switch_page("streamlit_app.py").run()
    assert app.slider(key="d_out").value == 5
    assert len(latex_vector(app)) == 5
