"""AppTest: the Real sentences page with the tiny model, and with a model that cannot load."""

import pytest

from tests.ui.helpers import open_app

PAGE = "pages/9_Real_sentences.py"


def test_page_reproduces_a_real_head_with_the_tiny_model():
    app = open_app(PAGE)
    assert not app.exception
    assert any("Reproduced: max |Δ|" in s.value and "✓" in s.value for s in app.success)
    app.selectbox(key="real_layer").set_value(1)
    app.selectbox(key="real_head").set_value(3).run()
    assert any("Reproduced" in s.value for s in app.success)
    metrics = {m.label: float(m.value) for m in app.metric}
    assert metrics["cosine of its two noncontextual vectors"] == pytest.approx(1.0, abs=1e-3)
    assert metrics["cosine of its two contextual vectors"] < 0.99


def test_page_explains_a_model_that_cannot_load(monkeypatch):
    monkeypatch.setenv("ATTENTION_MODEL", "/no/such/model/folder")
    app = open_app(PAGE)
    assert not app.exception
    assert any("The model cannot be loaded" in e.value for e in app.error)
    assert any("ATTENTION_MODEL" in m.value for m in app.markdown)
    other = open_app("streamlit_app.py")  # the rest of the app is unaffected
    assert not other.exception and not other.error


def test_a_long_sentence_of_your_own_is_cut_at_32_tokens():
    app = open_app(PAGE)
    app.selectbox(key="sentence_choice").set_value("my own").run()
    app.text_input(key="own_sentence").set_value(" ".join(["ship"] * 40)).run()
    assert not app.exception
    assert any("cut at 32 tokens" in c.value for c in app.caption)
    assert any("Reproduced" in s.value for s in app.success)
