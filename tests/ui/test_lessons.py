"""AppTest for every lesson page: runs fresh and from a link, and one interaction by value."""

import pytest

from attention_core import AttentionConfig, preset_embeddings
from attention_core.lessons import common_mistakes
from tests.ui.helpers import PAGES, latex_vector, open_app, table_with

DEEP_LINK = {
    "d_out": "4",
    "heads": "2",
    "mask": "causal",
    "seed": "9",
    "query": "3",
    "tokens": "a,b,c,d",
    "x": "0.1,0.2,0.3;0.4,0.5,0.6;0.7,0.8,0.9;1,-1,0.5",
}


def test_the_lessons_follow_the_seeds_order():
    assert [p.split("/")[-1] for p in PAGES] == [
        "1_Embeddings.py",
        "2_Simplified_attention.py",
        "3_Trainable_weights.py",
        "4_Scaling.py",
        "5_Causal_mask.py",
        "6_Dropout.py",
        "7_Multi-head_attention.py",
        "8_Common_mistakes.py",
        "9_Real_sentences.py",
    ]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_fresh_and_from_a_deep_link(page):
    fresh = open_app(page)
    assert not fresh.exception
    linked = open_app(page, DEEP_LINK)
    assert not linked.exception
    assert linked.session_state["_tokens"] == ("a", "b", "c", "d")
    assert linked.query_params["d_out"] == "4"  # the link is written back


@pytest.mark.parametrize("page", PAGES)
def test_predict_then_reveal_hides_the_answer_until_clicked(page):
    app = open_app(page)
    buttons = [b for b in app.button if b.key and b.key.startswith("reveal_")]
    assert buttons, "every lesson asks one question"
    texts_before = " ".join(
        str(e.value)
        for kind in ("markdown", "success", "info", "caption", "latex")
        for e in getattr(app, kind)
    )
    before = {s.value for s in app.success}
    buttons[0].click().run()
    revealed = [s.value for s in app.success if s.value not in before]
    assert len(revealed) == 1 and len(revealed[0]) > 40
    assert revealed[0][:40] not in texts_before


def test_embeddings_lengths_follow_the_preset():
    app = open_app("pages/1_Embeddings.py")
    assert table_with(app, "journey")["journey"].tolist() == [pytest.approx(1.223, abs=1e-3)]
    app.selectbox(key="preset").set_value("nugues").run()
    assert table_with(app, "w1")["w1"].tolist() == [pytest.approx(2**0.5, abs=1e-3)]


def test_simplified_page_shows_seed_000_sum_weight_and_naive_overflow():
    app = open_app("pages/2_Simplified_attention.py")
    weights = [f.value for f in app.dataframe if "weight" in f.value.columns]
    assert weights[0]["weight"].tolist()[0] == pytest.approx(0.1455, abs=1e-4)  # journey→Your
    assert weights[2]["weight"].tolist()[0] == pytest.approx(0.1385, abs=1e-4)
    assert not app.error
    app.slider(key="input_scale").set_value(12.0).run()
    assert any("Overflow" in e.value for e in app.error)
    stable = [f.value for f in app.dataframe if "weight" in f.value.columns][2]
    assert stable["weight"].sum() == pytest.approx(1.0, abs=1e-3)


def test_trainable_weights_parity_and_hand_edited_weights():
    app = open_app("pages/3_Trainable_weights.py")
    parity = table_with(app, "match")
    assert parity["match"].tolist() == ["✓"] * len(parity) and len(parity) == 8
    app.radio(key="weights_source").set_value("my own numbers").run()
    assert latex_vector(app, -1) == pytest.approx([0.3061, 0.8210], abs=1e-4)
    app.session_state["edit_W_query"] = {
        "edited_rows": {0: {"c1": 2.0}},
        "added_rows": [],
        "deleted_rows": [],
    }
    app.run()
    assert not app.exception
    assert latex_vector(app, -1) == pytest.approx([0.3103, 0.8330], abs=1e-4)


def test_scaling_table_measures_unit_variance_for_sqrt_d():
    app = open_app("pages/4_Scaling.py")
    table = table_with(app, "variance of scores")
    variance = dict(zip(table["scale factor"], table["variance of scores"], strict=True))
    assert 0.8 < variance["divide by √d"] < 1.2
    assert variance["no scaling"] > 300
    app.number_input(key="seed").set_value(5).run()
    again = table_with(app, "variance of scores")
    assert again["variance of scores"].tolist() != table["variance of scores"].tolist()


def test_causal_page_multiply_scores_lets_a_future_weight_through():
    app = open_app("pages/5_Causal_mask.py")
    metric = {m.label: m.value for m in app.metric}
    assert float(metric["largest weight above the diagonal"]) == 0.0
    app.selectbox(key="inspect_strategy").set_value("zero_scores").run()
    metric = {m.label: m.value for m in app.metric}
    assert float(metric["largest weight above the diagonal"]) > 0.05


def test_causal_page_no_peeking():
    app = open_app("pages/5_Causal_mask.py")
    moved = table_with(app, "output moved, with the causal mask")
    changed = 5  # by default the last token ("step", index 5) is changed
    assert all(v == 0 for v in moved["output moved, with the causal mask"][:changed])
    assert all(v > 0 for v in moved["output moved, without a mask"])


def test_dropout_average_converges_at_2000_samples():
    app = open_app("pages/6_Dropout.py")
    app.slider(key="dropout_samples").set_value(2000).run()
    gap = float(app.metric[0].value)
    assert gap < 0.05
    seed = app.session_state["_canon"]["dropout_seed"]
    app.button(key="new_sample").click().run()
    assert app.session_state["_canon"]["dropout_seed"] == seed + 1


def test_multihead_page_checks_pytorch_live():
    app = open_app("pages/7_Multi-head_attention.py")
    results = table_with(app, "reference")["result"].tolist()
    assert results[0] == "✓" and results[2] == "✓"
    app.slider(key="d_out").set_value(4)
    app.selectbox(key="heads").set_value(4).run()
    results = table_with(app, "reference")["result"].tolist()
    assert results == ["✓", "✓", "✓"]  # d_in 3 <= d_out 4: weights can be copied too


def test_common_mistakes_page_matches_the_core():
    app = open_app("pages/8_Common_mistakes.py")
    app.slider(key="d_out").set_value(4).run()
    expected = common_mistakes(preset_embeddings("journey"), AttentionConfig(d_out=4))
    labels = [e.label for e in app.expander if e.label[0].isdigit()]
    assert len(labels) == 6
    for label, run in zip(labels, expected, strict=True):
        assert label.endswith(f"{run.max_diff:.4f}")
