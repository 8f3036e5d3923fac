"""Hypothesis properties of attention that must hold for every input the core accepts."""

import threading

import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from attention_core import AttentionConfig, make_embeddings, run_attention, steps

values = st.floats(min_value=-3, max_value=3, allow_nan=False, width=32)


@st.composite
def embeddings(draw, min_tokens: int = 1, max_tokens: int = 8):
    num_tokens = draw(st.integers(min_tokens, max_tokens))
    d_in = draw(st.integers(1, 6))
    rows = draw(
        st.lists(
            st.lists(values, min_size=d_in, max_size=d_in),
            min_size=num_tokens,
            max_size=num_tokens,
        )
    )
    return make_embeddings([f"t{i}" for i in range(num_tokens)], rows)


configs = st.builds(
    AttentionConfig,
    d_out=st.sampled_from([2, 4]),
    heads=st.sampled_from([1, 2]),
    init=st.sampled_from(["book", "linear"]),
    seed=st.integers(0, 2**32 - 1),
    scaling=st.sampled_from(["none", "d", "sqrt_d"]),
    heads_layout=st.sampled_from(["split", "wrapper"]),
    qkv_bias=st.booleans(),
    out_proj=st.sampled_from(["none", "linear", "identity"]),
)


@settings(max_examples=60, deadline=None)
@given(embeddings(), configs, st.sampled_from(["none", "causal"]))
def test_weight_rows_sum_to_one(inputs, config, mask):
    trace = run_attention(inputs, config.replace(mask=mask))
    torch.testing.assert_close(trace.weights.sum(-1), torch.ones_like(trace.weights.sum(-1)))


@settings(max_examples=60, deadline=None)
@given(embeddings(min_tokens=2), configs, st.data())
def test_causal_is_zero_above_diagonal_and_ignores_later_tokens(inputs, config, data):
    config = config.replace(mask="causal")
    trace = run_attention(inputs, config)
    upper = ~torch.tril(torch.ones(inputs.num_tokens, inputs.num_tokens, dtype=torch.bool))
    assert torch.all(trace.weights[:, upper] == 0)
    changed_row = data.draw(st.integers(1, inputs.num_tokens - 1))
    new_values = inputs.values.clone()
    new_values[changed_row] = new_values[changed_row] + 1.5
    changed = run_attention(make_embeddings(inputs.tokens, new_values.tolist()), config)
    torch.testing.assert_close(changed.output[:changed_row], trace.output[:changed_row])


@settings(max_examples=60, deadline=None)
@given(embeddings(min_tokens=2), configs, st.randoms(use_true_random=False))
def test_without_mask_permuting_tokens_permutes_outputs(inputs, config, rnd):
    order = list(range(inputs.num_tokens))
    rnd.shuffle(order)
    permuted = make_embeddings([inputs.tokens[i] for i in order], inputs.values[order].tolist())
    trace = run_attention(inputs, config)
    permuted_trace = run_attention(permuted, config)
    torch.testing.assert_close(permuted_trace.output, trace.output[order], atol=1e-5, rtol=1e-4)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(values, min_size=1, max_size=10),
    st.floats(-50, 50, allow_nan=False),
)
def test_adding_a_constant_to_a_score_row_leaves_softmax_unchanged(row, constant):
    scores = torch.tensor([row])
    torch.testing.assert_close(
        steps.normalise(scores + constant, "softmax"), steps.normalise(scores, "softmax")
    )


@settings(max_examples=60, deadline=None)
@given(embeddings(), configs, st.data())
def test_neg_inf_strategy_equals_zero_and_renormalise(inputs, config, data):
    n = inputs.num_tokens
    cells = data.draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))
    allowed = tuple(tuple(cells[i * n : (i + 1) * n]) for i in range(n))
    config = config.replace(mask="custom", custom_mask=allowed)
    neg_inf = run_attention(inputs, config)
    renorm = run_attention(inputs, config.replace(mask_strategy="zero_renorm"))
    torch.testing.assert_close(neg_inf.weights, renorm.weights, atol=1e-6, rtol=1e-5)
    assert not torch.isnan(neg_inf.weights).any()
    empty = [i for i in range(n) if not any(allowed[i])]
    assert list(neg_inf.diagnostics.fully_masked_rows) == empty
    for row in empty:
        assert torch.all(neg_inf.context[row] == 0)
        # the output projection maps a zero context vector to its bias
        bias = neg_inf.b_out if neg_inf.b_out is not None else torch.zeros_like(neg_inf.output[row])
        assert torch.equal(neg_inf.output[row], bias)


@settings(max_examples=40, deadline=None)
@given(
    embeddings(),
    configs,
    st.sampled_from(["softmax", "naive_softmax", "sum", "none"]),
    st.sampled_from(["none", "padding", "custom"]),
    st.sampled_from(["zero_renorm", "zero_no_renorm", "zero_scores"]),
)
def test_with_nothing_masked_every_strategy_leaves_the_weights_alone(
    inputs, config, norm, mask, strategy
):
    """No mask, padding 0 or an all-True grid: no strategy may change a weight (zero and
    renormalise once divided unnormalised weights by their row sums with nothing masked)."""
    n = inputs.num_tokens
    everyone = tuple((True,) * n for _ in range(n))
    config = config.replace(norm=norm, mask=mask, padding=0, custom_mask=everyone)
    plain = run_attention(inputs, config)
    other = run_attention(inputs, config.replace(mask_strategy=strategy))
    for mine, theirs in ((plain.weights, other.weights), (plain.output, other.output)):
        torch.testing.assert_close(mine, theirs, rtol=0, atol=0, equal_nan=True)


@settings(max_examples=30, deadline=None)
@given(embeddings(), configs, st.floats(0.0, 0.9), st.integers(0, 2**32 - 1))
def test_same_config_gives_bit_identical_trace(inputs, config, p, dropout_seed):
    config = config.replace(dropout=p, dropout_seed=dropout_seed)
    first, second = run_attention(inputs, config), run_attention(inputs, config)
    for name in ("W_query", "weights", "dropout_keep", "weights_after_dropout", "output"):
        assert torch.equal(getattr(first, name), getattr(second, name)), name


def test_seeded_traces_are_identical_whatever_other_threads_do():
    from attention_core import preset_embeddings

    inputs = preset_embeddings("journey")
    configs = [AttentionConfig(seed=s, dropout=0.3, dropout_seed=s) for s in range(8)]
    expected = [run_attention(inputs, c).output for c in configs]
    results: dict[int, list[torch.Tensor]] = {i: [] for i in range(8)}

    def work(index: int) -> None:
        for _ in range(25):
            torch.manual_seed(index)  # another session meddling with the global generator
            torch.rand(10)
            results[index].append(run_attention(inputs, configs[index]).output)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for index, outputs in results.items():
        assert all(torch.equal(out, expected[index]) for out in outputs)


# --- zero-and-renormalise equals -inf over the whole float32 range ------------------------------

FLOAT32_MAX = float(torch.finfo(torch.float32).max)
any_score = st.floats(-FLOAT32_MAX, FLOAT32_MAX, allow_nan=False, width=32)


@st.composite
def scores_and_masks(draw):
    num_heads, num_tokens = draw(st.integers(1, 3)), draw(st.integers(1, 8))
    cells = num_heads * num_tokens * num_tokens
    scores = draw(st.lists(any_score, min_size=cells, max_size=cells))
    allowed = draw(st.lists(st.booleans(), min_size=num_tokens**2, max_size=num_tokens**2))
    return (
        torch.tensor(scores).reshape(num_heads, num_tokens, num_tokens),
        torch.tensor(allowed).reshape(num_tokens, num_tokens),
    )


def zero_renorm_weights(scores: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    softmax_all = steps.normalise(steps.mask_scores(scores, allowed, "zero_renorm"), "softmax")
    return steps.mask_weights(softmax_all, allowed, "zero_renorm", scores)


def neg_inf_weights(scores: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    return steps.normalise(steps.mask_scores(scores, allowed, "neg_inf"), "softmax")


# The row: a blocked score of 1000 used to push the kept weight to 0, giving [0, 0].
@example((torch.tensor([[[0.0, 1000.0], [0.0, 1000.0]]]), torch.tensor([[True, False]] * 2)))
@settings(max_examples=300, deadline=None)
@given(scores_and_masks())
def test_zero_renorm_equals_neg_inf_for_any_float32_scores(case):
    scores, allowed = case
    before = scores.clone()
    renorm = zero_renorm_weights(scores, allowed)
    expected = neg_inf_weights(scores, allowed)
    assert torch.equal(scores, before)  # the step did not edit its input
    assert not torch.isnan(renorm).any()
    torch.testing.assert_close(renorm, expected, atol=1e-6, rtol=1e-5)
    keeps = allowed.any(dim=-1)
    sums = renorm.sum(dim=-1)  # (num_heads, num_tokens)
    torch.testing.assert_close(sums[:, keeps], torch.ones_like(sums[:, keeps]))
    assert torch.all(renorm[:, ~keeps] == 0)
    assert torch.all(renorm[:, ~allowed] == 0)


def test_zero_renorm_keeps_the_weight_a_huge_blocked_score_would_underflow():
    scores = torch.tensor([[[-3e38, 3e38, 0.0]]])
    allowed = torch.tensor([[True, False, True]])
    torch.testing.assert_close(zero_renorm_weights(scores, allowed), torch.tensor([[[0, 0, 1.0]]]))
    nothing = torch.zeros(1, 1, dtype=torch.bool)
    assert torch.equal(zero_renorm_weights(torch.tensor([[[5.0]]]), nothing), torch.zeros(1, 1, 1))


HUGE = float(torch.tensor(1e18))  # as a float32; scores x·x reach ~3e36 for three numbers
huge_values = st.floats(-HUGE, HUGE, allow_nan=False, width=32)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 6), st.integers(1, 3), st.data())
def test_zero_renorm_equals_neg_inf_end_to_end_with_huge_scores(n, d_in, data):
    rows = data.draw(
        st.lists(st.lists(huge_values, min_size=d_in, max_size=d_in), min_size=n, max_size=n)
    )
    cells = data.draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))
    allowed = tuple(tuple(cells[i * n : (i + 1) * n]) for i in range(n))
    big = make_embeddings([f"t{i}" for i in range(n)], rows)
    config = AttentionConfig(init="identity", scaling="none", mask="custom", custom_mask=allowed)
    neg_inf = run_attention(big, config)
    renorm = run_attention(big, config.replace(mask_strategy="zero_renorm"))
    assert not torch.isnan(renorm.weights).any()
    torch.testing.assert_close(renorm.weights, neg_inf.weights, atol=1e-6, rtol=1e-5)
    scale = float(big.values.abs().max()) + 1.0
    torch.testing.assert_close(renorm.output, neg_inf.output, atol=1e-5 * scale, rtol=1e-5)
