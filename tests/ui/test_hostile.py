"""Hostile input, driven by Hypothesis: nothing raises, nothing shows NaN, last valid state kept."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_core import AttentionConfig, make_embeddings, run_attention
from attention_core.params import ALL_PARAMS
from tests.ui.helpers import edit_matrix, latex_vector, open_app

BOOK = [0.3061, 0.8210]
HOSTILE_TEXT = st.one_of(
    st.sampled_from(
        [
            "",
            "nan",
            "NaN",
            "inf",
            "-inf",
            "1e308",
            "1e999",
            "-1",
            "4294967296",
            "99999999999999",
            "0x10",
            "1_000",
            "<script>alert(1)</script>",
            '<img src=x onerror="alert(1)">',
            "**bold**",
            "[link](javascript:alert(1))",
            "‮txet",
            "😀",
            "a" * 10_000,
            ";;;",
            ",,,",
            "1,2;3",
            "true",
            "none",
            "sqrt_d",
            "causal",
        ]
    ),
    st.text(max_size=40),
)
CHEAP = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def assert_sane(app) -> list[float]:
    """No exception, and the focused context vector is a vector of finite numbers."""
    assert not app.exception, app.exception
    vector = latex_vector(app)
    assert vector and all(math.isfinite(v) for v in vector)
    assert "nan" not in app.latex[0].value.lower()
    return vector


@CHEAP
@given(
    params=st.dictionaries(
        st.sampled_from([*ALL_PARAMS, "present", "bogus"]), HOSTILE_TEXT, max_size=4
    )
)
def test_any_link_parameters_open_a_working_page(params):
    app = open_app(params=params)
    assert_sane(app)


@CHEAP
@given(
    value=st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        HOSTILE_TEXT,
        st.none(),
        st.integers(min_value=-(10**20), max_value=10**20),
    )
)
def test_any_cell_value_is_accepted_exactly_or_refused_keeping_the_last_matrix(value):
    app = open_app()
    edit_matrix(app, edited_rows={2: {"d2": value}})
    vector = assert_sane(app)
    try:
        number = float(value)  # the editor's number column coerces what float() accepts
        acceptable = math.isfinite(number) and abs(number) <= 10
    except (TypeError, ValueError):
        acceptable = False
    if not acceptable:
        assert vector == pytest.approx(BOOK, abs=1e-4)  # the last valid matrix stays


@CHEAP
@given(label=HOSTILE_TEXT)
def test_any_token_label_is_accepted_or_named_and_never_breaks_the_page(label):
    app = open_app()
    edit_matrix(app, edited_rows={4: {"token": label}})
    assert_sane(app)
    accepted = app.session_state["_tokens"][4] != "one"
    clean = label.strip()
    if accepted:
        assert app.session_state["_tokens"][4] == clean
        assert 0 < len(clean) <= 20 and not set(clean) & set("<>,;")
    else:
        assert app.error, "a refused label is always explained"


@pytest.mark.parametrize("heads", range(1, 9))
@pytest.mark.parametrize("d_out", range(1, 9))
def test_every_d_out_and_heads_combination(d_out, heads):
    app = open_app(params={"d_out": str(d_out), "heads": str(heads)})
    vector = assert_sane(app)
    if d_out % heads == 0:
        trace = run_attention(
            make_embeddings(*_journey()), AttentionConfig(d_out=d_out, heads=heads)
        )
        assert vector == pytest.approx(trace.head_context[0, 1].tolist(), abs=1e-4)
    else:
        assert any("divisible" in w.value for w in app.warning)


@pytest.mark.parametrize("mask", ["none", "causal", "padding"])
@pytest.mark.parametrize("strategy", ["neg_inf", "zero_renorm", "zero_scores", "zero_no_renorm"])
@pytest.mark.parametrize("dropout", ["0", "0.9"])
def test_every_mask_and_strategy_with_fully_masked_rows(mask, strategy, dropout):
    params = {"mask": mask, "mask_strategy": strategy, "padding": "6", "dropout": dropout}
    assert_sane(open_app(params=params))


def _journey():
    from attention_core.embeddings import JOURNEY_TOKENS, JOURNEY_VALUES

    return JOURNEY_TOKENS, JOURNEY_VALUES
