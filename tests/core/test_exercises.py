"""Exercises: every kind's answer against an independent computation in NumPy on random
settings, the forms of an answer a person writes, hostile answers, and each catalogued
mistake's answer getting its hint."""

import re
from dataclasses import replace

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import (
    AttentionConfig,
    AttentionInputError,
    Embeddings,
    preset_embeddings,
    run_attention,
)
from attention_core.cross import decoder_layer
from attention_core.exercises import KINDS, check, make_exercise, outcome, outcomes, page_set
from classroom.classes import CHOICES_MAX
from tests.core.test_properties import embeddings

configs = st.builds(
    AttentionConfig,
    d_out=st.sampled_from([2, 3, 4, 6]),
    heads=st.sampled_from([1, 1, 2]),
    seed=st.integers(0, 2**32 - 1),
    scaling=st.sampled_from(["none", "d", "sqrt_d"]),
    mask=st.sampled_from(["none", "causal"]),
    dropout=st.sampled_from([0.0, 0.3]),
    heads_layout=st.just("wrapper"),
)
DEFAULT = run_attention(preset_embeddings("journey"), AttentionConfig())


def numpy_trace(trace):
    """Head 1's queries, keys, values, scaled scores and weights, computed again in NumPy."""
    x = trace.inputs.double().numpy()
    hd = trace.head_dim
    q = (x @ trace.W_query.double().numpy())[:, :hd]
    k = (x @ trace.W_key.double().numpy())[:, :hd]
    v = (x @ trace.W_value.double().numpy())[:, :hd]
    return q, k, v


def expected_answer(kind, exercise, trace):
    """The answer from the numbers the question gives, computed independently."""
    given_values = [np.array(g.values) for g in exercise.given]
    if kind in ("score", "context_entry", "dot_product"):
        return float(np.dot(given_values[0], given_values[1]))
    if kind == "vector_length":
        return float(np.linalg.norm(given_values[0]))
    if kind == "cosine":
        first, second = given_values
        lengths = np.linalg.norm(first) * np.linalg.norm(second)
        return float(first @ second / lengths) if lengths > 0 else 0.0
    if kind == "scaled_score":  # √d_k of the heads, or of a wider head's when d_k = 1
        d_k = int(exercise.solution[0].left.split("√")[1])
        wider = trace.head_dim == 1 and f"d_k = {d_k}" in exercise.question
        assert d_k == trace.head_dim or wider
        return float(given_values[0][0] / np.sqrt(d_k))
    if kind == "score_variance":  # over the row's keys, ÷ n; then the scaling's ÷ d_k
        d_k = int(exercise.solution[-1].left.split("√")[1].rstrip(")"))
        assert d_k == trace.head_dim or (
            trace.head_dim == 1 and f"d_k = {d_k}" in exercise.question
        )
        query = int(exercise.given[0].name[2:].split(",")[0]) - 1
        np.testing.assert_allclose(given_values[0], trace.scores[0, query].numpy(), atol=5.1e-5)
        return float(np.var(given_values[0] / np.sqrt(d_k)))
    if kind == "softmax_weight":
        row, key = given_values[0], int(exercise.given[1].name.split(",")[1].rstrip(")")) - 1
        return float(np.exp(row[key]) / np.exp(row).sum())
    if kind == "masked_weight":
        query, key = (int(n) - 1 for n in exercise.solution[-1].left[2:-1].split(","))
        allowed = trace.allowed.numpy()
        if allowed.all():
            allowed = np.tril(np.ones_like(allowed))
        row = given_values[0]
        kept = np.exp(row[allowed[query]])
        return float(np.exp(row[key]) / kept.sum())
    if kind == "dropout_weight":
        rate = float(exercise.solution[0].left.split("− ")[1].rstrip(")"))
        return float(given_values[0][0] / (1 - rate))
    if kind == "head_shape":
        width = trace.queries.shape[1]
        heads = trace.num_heads if trace.num_heads > 1 else 2
        width = width if trace.num_heads > 1 else width + width % 2
        batch = exercise.answer[0]
        return (batch, heads, trace.num_tokens, width // heads)
    if kind == "cache_size":
        tokens = int(exercise.question.split("after ")[1].split(" ")[0])
        return 2 * tokens * trace.kv_heads * trace.head_dim
    raise AssertionError(kind)


@settings(max_examples=40, deadline=None)
@given(embeddings(min_tokens=1, max_tokens=7), configs, st.integers(0, 2**32 - 1))
def test_every_kind_equals_an_independent_computation(inputs, config, seed):
    trace = run_attention(inputs, config)
    q, k, v = numpy_trace(trace)
    for kind in KINDS:
        exercise = make_exercise(kind, trace, seed, 4)
        expected = expected_answer(kind, exercise, trace)
        if isinstance(expected, tuple):
            assert exercise.answer == expected
        else:
            assert exercise.answer == pytest.approx(expected, abs=1e-9)
            assert check(exercise, exercise.answer_text).right
            # A wrong answer far off is wrong.
            assert not check(exercise, repr(float(expected) + 1 + 10 * exercise.tolerance)).right
        assert make_exercise(kind, trace, seed, 4) == exercise  # deterministic
        assert 3 <= len(outcomes(exercise)) <= CHOICES_MAX  # a class question's choices
        assert outcome(exercise, check(exercise, exercise.answer_text)) == 0
    # The given numbers are the learner's, rounded to the decimals shown.
    score = make_exercise("score", trace, seed, 4)
    query, key = (int(n) - 1 for n in score.solution[0].left[2:-1].split(","))
    np.testing.assert_allclose(score.given[0].values, q[query], atol=5.1e-5)
    np.testing.assert_allclose(score.given[1].values, k[key], atol=5.1e-5)
    context = make_exercise("context_entry", trace, seed, 4)
    column = int(context.given[1].name.split("[")[1].rstrip("]")) - 1
    np.testing.assert_allclose(context.given[1].values, v[:, column], atol=5.1e-5)
    # Page 1's are on the embeddings themselves, two different tokens where there are two.
    for kind in ("dot_product", "vector_length", "cosine"):
        exercise = make_exercise(kind, trace, seed, 4)
        rows = [int(g.name[2:-1]) - 1 for g in exercise.given]
        for g, row in zip(exercise.given, rows, strict=True):
            np.testing.assert_allclose(g.values, trace.inputs[row].numpy(), atol=5.1e-5)
        assert len(set(rows)) == min(len(rows), trace.num_tokens), (kind, rows)
        assert not any(word in exercise.question for word in ("q(", "k(", "head", "d_k"))


def test_the_default_settings_give_the_books_numbers():
    # α(2,2) of the book's section 3.4 (seed 004: 0.2264).
    exercise = make_exercise("softmax_weight", DEFAULT, 0, 4)
    assert exercise.kind == "softmax_weight"
    found = [
        make_exercise("softmax_weight", DEFAULT, seed, 4)
        for seed in range(40)
        if make_exercise("softmax_weight", DEFAULT, seed, 4).solution[-1].left == "α(2,2)"
    ]
    assert found and found[0].answer == pytest.approx(0.2264, abs=1e-4)


def test_a_different_seed_gives_another_exercise():
    questions = {make_exercise("score", DEFAULT, seed, 4).question for seed in range(10)}
    assert len(questions) > 1


@pytest.mark.parametrize(
    ("typed", "status"),
    [
        ("0.2264", "right"),
        (".2264", "right"),
        ("2.264e-1", "right"),
        ("22.64%", "right"),
        (" 0.2264 ", "right"),
        ("0.2265", "right"),  # within one unit of the last decimal shown
        ("0.2290", "wrong"),
        ("abc", "refused"),
        ("nan", "refused"),
        ("NaN", "refused"),
        ("inf", "refused"),
        ("-Infinity", "refused"),
        ("1e999", "refused"),
        ("1e300", "refused"),
        ("<b>0.2264</b>", "refused"),
        ("**0.2264**", "refused"),
        ("$0.2264$", "refused"),
        ("0,2264", "refused"),
        ("", "refused"),
        pytest.param("9" * 500, "refused", id="500 nines"),
        ("０.２２６４", "refused"),  # full-width digits
    ],
)
def test_answers_in_the_forms_a_person_writes(typed, status):
    exercise = next(
        make_exercise("softmax_weight", DEFAULT, seed, 4)
        for seed in range(100)
        if make_exercise("softmax_weight", DEFAULT, seed, 4).answer_text == "0.2264"
    )
    verdict = check(exercise, typed)
    assert verdict.status == status, verdict.message
    if status == "refused":
        assert verdict.message.endswith(".")
        assert not typed.strip() or typed.strip()[:6] not in verdict.message


def test_a_percentage_is_refused_where_the_answer_is_not_a_share():
    exercise = make_exercise("score", DEFAULT, 3, 4)
    assert check(exercise, "12%").status == "refused"


def test_too_few_decimals_says_so():
    exercise = make_exercise("softmax_weight", DEFAULT, 0, 4)
    short = f"{float(exercise.answer):.2f}"
    verdict = check(exercise, short)
    assert verdict.mistake == "too_few_decimals" and "4 decimals" in verdict.message


CATALOGUE = {  # the common mistakes page's catalogue, by the exercise that shows each
    "forgot_to_scale": "scaled_score",
    "scaled_by_d": "scaled_score",
    "wrong_axis": "softmax_weight",
    "masked_after_softmax": "masked_weight",
}


@settings(max_examples=30, deadline=None)
@given(embeddings(min_tokens=3, max_tokens=7), configs, st.integers(0, 2**32 - 1))
def test_each_catalogued_mistakes_answer_gets_its_hint(inputs, config, seed):
    trace = run_attention(inputs, config)
    for key, kind in CATALOGUE.items():
        exercise = make_exercise(kind, trace, seed, 4)
        row = np.array(exercise.given[0].values)
        if key == "forgot_to_scale":
            wrong = row[0]
        elif key == "scaled_by_d":
            wrong = row[0] / trace.head_dim
        elif key == "wrong_axis":
            column = np.array(exercise.given[1].values)
            query = int(exercise.given[0].name[2:].split(",")[0]) - 1
            wrong = np.exp(column[query]) / np.exp(column).sum()
        else:
            query, column = (int(n) - 1 for n in exercise.solution[-1].left[2:-1].split(","))
            wrong = np.exp(row[column]) / np.exp(row).sum()
        if abs(wrong - float(exercise.answer)) <= 2 * exercise.tolerance:
            continue  # the mistake happens to give the right number here
        verdict = check(exercise, f"{wrong:.4f}")
        assert verdict.status == "wrong" and verdict.mistake == key, (key, verdict.message)
        # A class counts it under that mistake's name.
        assert outcomes(exercise)[outcome(exercise, verdict)] == key


def test_dropout_mistakes_and_a_shape_answer():
    trace = run_attention(preset_embeddings("journey"), AttentionConfig(d_out=4, heads=2))
    shape = make_exercise("head_shape", trace, 1, 4)
    batch = shape.answer[0]
    assert check(shape, f"({batch}, 2, 6, 2)").right
    assert check(shape, f"{batch}×2×6×2").right
    assert check(shape, f"({batch}, 6, 2, 2)").mistake == "no_transpose"
    assert check(shape, f"[{batch}, 2, 6, 4]").mistake == "not_divided"
    assert check(shape, "(1, 2; DROP TABLE)").status == "refused"
    dropout = make_exercise("dropout_weight", trace, 2, 4)
    weight = dropout.given[0].values[0]
    assert check(dropout, f"{weight:.4f}").mistake == "not_rescaled"


def test_a_bad_kind_or_seed_is_refused_in_words():
    with pytest.raises(AttentionInputError, match="kind must be one of"):
        make_exercise("guess", DEFAULT, 1)
    with pytest.raises(AttentionInputError, match="exercise number"):
        make_exercise("score", DEFAULT, -1)


def test_one_hidden_key_is_named_in_the_singular():
    """ "The mask hides keys 3 from query 2": one key is "key 3", two are "keys 3, 4"."""
    trace = run_attention(preset_embeddings("journey"), AttentionConfig(mask="causal"))
    questions = {
        len(exercise.question.split("hides ")[1].split(" from")[0].split(",")): exercise
        for exercise in (make_exercise("masked_weight", trace, seed, 4) for seed in range(40))
    }
    one, two = questions[1], questions[2]
    assert re.search(r"The mask hides key \d from query", one.question), one.question
    assert re.search(r"The mask hides keys \d, \d from query", two.question), two.question
    assert "keys" not in one.mistakes[0].hint.split("Leave ")[1].split(" out")[0]


@settings(max_examples=40, deadline=None)
@given(embeddings(min_tokens=2, max_tokens=7), configs, st.integers(0, 2**32 - 1))
def test_a_softmax_question_under_a_mask_asks_a_weight_the_page_shows(inputs, config, seed):
    """Under the page's mask the asked weight is one the page draws (never a hidden key's
    0), computed over the keys the query sees: the hidden scores are given as −∞."""
    trace = run_attention(inputs, config)
    exercise = make_exercise("softmax_weight", trace, seed, 4)
    query, key = (int(n) - 1 for n in exercise.solution[-1].left[2:-1].split(","))
    assert bool(trace.allowed[query, key])
    assert exercise.answer == pytest.approx(float(trace.weights[0, query, key]), abs=2e-3)
    row = exercise.given[0].values
    hidden = [j for j in range(trace.num_tokens) if not bool(trace.allowed[query, j])]
    assert [j for j, v in enumerate(row) if v == -np.inf] == hidden
    if hidden:
        assert "−∞" in exercise.question


@settings(max_examples=30, deadline=None)
@given(embeddings(min_tokens=2, max_tokens=7), configs, st.integers(0, 2**32 - 1))
def test_a_dropout_question_asks_a_weight_the_pages_own_draw_kept(inputs, config, seed):
    """With the page's dropout on, the weight asked is one its draw kept, and the answer is
    the number the page shows after dropout."""
    trace = run_attention(inputs, config)
    exercise = make_exercise("dropout_weight", trace, seed, 4)
    query, key = (int(n) - 1 for n in exercise.given[0].name[2:-1].split(","))
    kept = trace.dropout_keep[0] & (trace.weights[0] > 0)
    if config.dropout > 0 and bool(kept.any()):
        assert bool(kept[query, key])
        assert "own draw" in exercise.question
        shown = float(trace.weights_after_dropout[0, query, key])
        assert exercise.answer == pytest.approx(shown, abs=2e-3)
        assert exercise.asks == {("dropped", query, key)}


def test_a_scaled_score_with_one_number_per_head_asks_about_a_wider_head():
    """d_k = 1: dividing by √1 changes nothing, so the question supposes a wider head."""
    trace = run_attention(preset_embeddings("journey"), AttentionConfig(d_out=1))
    for seed in range(8):
        exercise = make_exercise("scaled_score", trace, seed, 4)
        (omega,) = exercise.given[0].values
        assert "d_k = 1" in exercise.question
        assert abs(exercise.answer - omega) > 1e-9 or omega == 0
        assert exercise.asks == frozenset()  # the page's scaled scores are not this answer


PAGE_KIND_SETS = [
    ("dot_product", "vector_length", "cosine"),
    ("score", "scaled_score", "softmax_weight", "context_entry"),
    ("scaled_score", "score_variance", "softmax_weight"),
    ("scaled_score", "softmax_weight", "masked_weight"),
    ("softmax_weight", "dropout_weight", "context_entry"),
]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(4, 8),
    st.integers(2, 6),
    st.integers(0, 2**32 - 1),
    configs,
    st.sampled_from(PAGE_KIND_SETS),
    st.integers(0, 2**32 - 100),
    st.integers(0, 6),
)
def test_no_exercise_of_a_page_gives_another_ones_answer(
    tokens, width, draw, config, kinds, seed, focus
):
    """A page's exercises on a learner's kind of matrix (numbers that differ): none gives,
    among its numbers, the cell another one asks or its answer's value (the softmax row held
    the scaled score asked above it; the context row the weight asked; page 2's symmetric
    scores the score asked, by its mirror), and none asks about the focused token, whose row
    the page works out above."""
    generator = torch.Generator().manual_seed(draw)
    values = torch.rand(tokens, width, generator=generator) * 2 - 1
    trace = run_attention(Embeddings([f"t{i}" for i in range(tokens)], values), config)
    made = page_set(kinds, trace, tuple(seed + 7 * i for i in range(len(kinds))), 4, focus)
    assert list(made) == list(kinds)
    for kind, exercise in made.items():
        assert all(row != focus for _what, row, _column in exercise.asks), kind
        given = [v for g in exercise.given for v in g.values if np.isfinite(v)]
        for other, second in made.items():
            if other != kind:
                assert not exercise.asks & second.shows, (kind, other)
                if not isinstance(second.answer, tuple):  # no number that would count right
                    near = second.tolerance + 0.5 * 10.0**-second.decimals
                    assert all(abs(v - second.answer) > near for v in given), (kind, other)
    # and an asked cell of the page's own numbers, where the page scales and masks as the
    # question does, is the answer
    cells = {"scores": trace.scores[0], "weights": trace.weights[0]}
    for kind in set(kinds) & {"score", "softmax_weight"}:
        for what, row, column in made[kind].asks:
            if what in cells:
                value = float(cells[what][row, column])
                assert made[kind].answer == pytest.approx(value, abs=2e-3)


@settings(max_examples=30, deadline=None)
@given(embeddings(min_tokens=2, max_tokens=7), st.integers(0, 2**32 - 1))
def test_an_embeddings_length_and_cosine_name_the_step_missed(inputs, seed):
    """Page 1's mistakes: the sum of squares for a length (no square root), the numbers'
    sizes added; the dot product for a cosine (not divided by the lengths)."""
    trace = run_attention(inputs, AttentionConfig())
    length = make_exercise("vector_length", trace, seed, 4)
    (x,) = (np.array(g.values) for g in length.given)
    cosine = make_exercise("cosine", trace, seed, 4)
    a, b = (np.array(g.values) for g in cosine.given)
    for exercise, wrong, key in (
        (length, float(x @ x), "no_square_root"),
        (length, float(np.abs(x).sum()), "added_sizes"),
        (cosine, float(a @ b), "not_normalised"),
    ):
        if abs(wrong - float(exercise.answer)) <= 2 * exercise.tolerance:
            continue  # the mistake gives the right number here (a length of 1)
        verdict = check(exercise, f"{wrong:.4f}")
        assert verdict.status == "wrong" and verdict.mistake == key, (key, verdict.message)


@settings(max_examples=30, deadline=None)
@given(embeddings(min_tokens=2, max_tokens=7), configs, st.integers(0, 2**32 - 1))
def test_a_score_variances_mistakes_name_the_step_missed(inputs, config, seed):
    """Page 4's variance: the scores' own variance (not scaled), divided by √d_k (not d_k),
    the squared differences divided by n − 1 (not n)."""
    trace = run_attention(inputs, config)
    exercise = make_exercise("score_variance", trace, seed, 4)
    row = np.array(exercise.given[0].values)
    d_k = int(exercise.solution[-1].left.split("√")[1].rstrip(")"))
    for wrong, key in (
        (np.var(row), "forgot_to_scale"),
        (np.var(row) / np.sqrt(d_k), "variance_by_root"),
        (np.var(row, ddof=1) / d_k, "sample_variance"),
    ):
        if abs(wrong - float(exercise.answer)) <= 2 * exercise.tolerance:
            continue  # the mistake gives the right number here (scores all alike)
        if key not in {m.key for m in exercise.mistakes}:  # n = 2: n − 1 may be n / d_k
            assert any(abs(wrong - m.value) <= 1e-4 for m in exercise.mistakes), key
            continue
        verdict = check(exercise, f"{wrong:.4f}")
        assert verdict.status == "wrong" and verdict.mistake == key, (key, verdict.message)


@settings(max_examples=10, deadline=None)
@given(
    embeddings(min_tokens=1, max_tokens=5),
    embeddings(min_tokens=1, max_tokens=7),
    configs,
    st.integers(0, 2**32 - 100),
)
def test_cross_attentions_exercises_ask_a_target_query_against_the_source_keys(
    target, source, config, seed
):
    """Page 12 asks about its own idea, step 2: a target token's query against a source
    token's key (it asked about step 1, self-attention over the target, and "token 1's key"
    read as the source's). Every key index is the source's; the score is the page's cell."""
    layer = decoder_layer(target, source, replace(config, mask="none", init="linear"))
    trace = layer.cross_attention
    made = page_set(("score", "scaled_score", "softmax_weight"), trace, (seed, seed + 1, seed + 2))
    score = made["score"]
    assert "target token" in score.question and "source token" in score.question
    ((_what, query, key),) = score.asks
    assert query < trace.num_tokens and key < trace.num_keys
    assert score.answer == pytest.approx(float(trace.scores[0, query, key]), abs=2e-3)
    softmax = made["softmax_weight"]
    assert len(softmax.given[0].values) == trace.num_keys  # a row over the source's keys
    assert len(softmax.given[1].values) == trace.num_tokens  # a column over the target's
    assert "target's tokens" in softmax.question
    for exercise in made.values():
        assert check(exercise, exercise.answer_text).right
