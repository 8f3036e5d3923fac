"""Golden numbers printed by the seed notebooks, reproduced by the core (tolerance 1e-4)."""

import math

import pytest
import torch

from attention_core import AttentionConfig, make_embeddings, preset_embeddings, run_attention, steps
from attention_core.knobs.links import read_params
from attention_core.knobs.settings import default_settings
from attention_core.masks import ROW_SUM_TOLERANCE, MaskVerdict, judge_mask

TOL = 1e-4  # the seeds print four decimals


def close(actual: torch.Tensor, expected: list, tol: float = TOL) -> None:
    torch.testing.assert_close(actual, torch.tensor(expected, dtype=actual.dtype), atol=tol, rtol=0)


# --- seed 000: simplified attention on "Your journey starts with one step" -------------------

SEED000_SCORES = [
    [0.9995, 0.9544, 0.9422, 0.4753, 0.4576, 0.6310],
    [0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865],
    [0.9422, 1.4754, 1.4570, 0.8296, 0.7154, 1.0605],
    [0.4753, 0.8434, 0.8296, 0.4937, 0.3474, 0.6565],
    [0.4576, 0.7070, 0.7154, 0.3474, 0.6654, 0.2935],
    [0.6310, 1.0865, 1.0605, 0.6565, 0.2935, 0.9450],
]
SEED000_WEIGHTS = [
    [0.2098, 0.2006, 0.1981, 0.1242, 0.1220, 0.1452],
    [0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581],
    [0.1390, 0.2369, 0.2326, 0.1242, 0.1108, 0.1565],
    [0.1435, 0.2074, 0.2046, 0.1462, 0.1263, 0.1720],
    [0.1526, 0.1958, 0.1975, 0.1367, 0.1879, 0.1295],
    [0.1385, 0.2184, 0.2128, 0.1420, 0.0988, 0.1896],
]
SEED000_CONTEXT = [
    [0.4421, 0.5931, 0.5790],
    [0.4419, 0.6515, 0.5683],
    [0.4431, 0.6496, 0.5671],
    [0.4304, 0.6298, 0.5510],
    [0.4671, 0.5910, 0.5266],
    [0.4177, 0.6503, 0.5645],
]
SIMPLIFIED = AttentionConfig(init="identity", scaling="none")


def test_seed000_simplified_scores_weights_and_context():
    trace = run_attention(preset_embeddings("journey"), SIMPLIFIED)
    close(trace.scores[0], SEED000_SCORES)
    close(trace.weights[0], SEED000_WEIGHTS)
    close(trace.context, SEED000_CONTEXT)
    close(trace.context[1], [0.4419, 0.6515, 0.5683])


def test_seed000_sum_normalisation_of_journey_row():
    trace = run_attention(preset_embeddings("journey"), SIMPLIFIED.replace(norm="sum"))
    close(trace.weights[0, 1], [0.1455, 0.2278, 0.2249, 0.1285, 0.1077, 0.1656])
    assert trace.diagnostics.row_sums[0, 1].item() == pytest.approx(1.0, abs=1e-6)


def test_seed000_naive_softmax_equals_softmax_on_small_scores():
    trace = run_attention(preset_embeddings("journey"), SIMPLIFIED.replace(norm="naive_softmax"))
    close(trace.weights[0, 1], [0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581])


# Seed 000, masked section: printed softmax weights (cell 26) and masked scores (cell 37).
SEED000_V2_WEIGHTS = [
    [0.1578, 0.1763, 0.1760, 0.1620, 0.1627, 0.1652],
    [0.1656, 0.1692, 0.1691, 0.1650, 0.1649, 0.1662],
    [0.1657, 0.1691, 0.1690, 0.1651, 0.1649, 0.1662],
    [0.1671, 0.1669, 0.1669, 0.1664, 0.1662, 0.1666],
    [0.1681, 0.1675, 0.1674, 0.1656, 0.1651, 0.1664],
    [0.1658, 0.1676, 0.1675, 0.1662, 0.1663, 0.1665],
]
SEED000_MASKED_NORM = [
    [1.0000, 0, 0, 0, 0, 0],
    [0.4946, 0.5054, 0, 0, 0, 0],
    [0.3288, 0.3357, 0.3355, 0, 0, 0],
    [0.2504, 0.2501, 0.2501, 0.2493, 0, 0],
    [0.2016, 0.2009, 0.2008, 0.1986, 0.1980, 0],
    [0.1658, 0.1676, 0.1675, 0.1662, 0.1663, 0.1665],
]
NEG = -math.inf
SEED000_MASKED_SCORES = [
    [0.1242, NEG, NEG, NEG, NEG, NEG],
    [0.0485, 0.0790, NEG, NEG, NEG, NEG],
    [0.0486, 0.0777, 0.0769, NEG, NEG, NEG],
    [0.0104, 0.0087, 0.0085, 0.0043, NEG, NEG],
    [0.0368, 0.0317, 0.0311, 0.0158, 0.0114, NEG],
    [0.0121, 0.0266, 0.0265, 0.0153, 0.0158, 0.0180],
]


def test_seed000_zero_and_renormalise_matches_printed_masked_norm():
    allowed = torch.tril(torch.ones(6, 6, dtype=torch.bool))
    weights = torch.tensor(SEED000_V2_WEIGHTS).unsqueeze(0)
    renormalised = steps.mask_weights(weights, allowed, "zero_renorm")[0]
    # The inputs were printed with four decimals, so renormalising them is good to ~3e-4.
    close(renormalised, SEED000_MASKED_NORM, tol=3e-4)
    zeroed = steps.mask_weights(weights, allowed, "zero_no_renorm")[0]
    close(zeroed, (torch.tensor(SEED000_V2_WEIGHTS) * allowed).tolist())


def test_seed000_dividing_by_num_tokens_is_the_pitfall_it_prints():
    masked = torch.tensor(SEED000_MASKED_SCORES)
    pitfall = steps.normalise(steps.scale(masked, 6.0), "softmax")  # seed 000 divides by 6
    close(pitfall[1, :2], [0.4987, 0.5013])
    close(pitfall[5], [0.1665, 0.1669, 0.1669, 0.1666, 0.1666, 0.1666])
    correct = steps.normalise(steps.scale(masked, math.sqrt(2)), "softmax")  # d_k = 2
    close(correct[1, :2], [0.4946, 0.5054])  # = its own zero-and-renormalise result


# --- seed 001: the X_test matrix, self-attention without weights ------------------------------


def test_seed001_x_test_attention_output_and_weights():
    trace = run_attention(preset_embeddings("nugues"), AttentionConfig(init="identity"))
    assert trace.scale_divisor == 2.0  # sqrt(d_k) with d_k = 4
    close(
        trace.weights[0],
        [[0.4519, 0.2741, 0.2741], [0.1045, 0.5307, 0.3648], [0.1387, 0.4842, 0.3771]],
    )
    close(
        trace.context,
        [
            [0.4519, 0.6852, 0.5481, 1.0000],
            [0.1045, 1.1609, 0.8955, 1.0000],
            [0.1387, 1.1034, 0.8613, 1.0000],
        ],
    )


# --- seed 002: causal masking, right and wrong, on printed scores ------------------------------

SEED002_SCORES = [
    [
        [2.9553, 0.9264, 0.0417, 0.6856, -2.0050],
        [-0.4110, 0.0301, 1.2666, -0.1143, -0.8055],
        [-0.9198, 1.1590, 3.5975, 1.1701, -2.0234],
        [-1.6577, 0.7734, 3.6305, 1.1457, -1.4466],
        [-1.0227, -1.0987, -2.8207, -1.0246, 2.7426],
    ],
    [
        [-0.2186, -0.7892, -0.1712, 0.4683, -1.5515],
        [-0.3396, -0.2679, -0.3899, 0.5105, -0.3881],
        [0.3817, 0.1084, 0.5549, -1.2537, -1.8937],
        [0.5263, -0.9256, 0.4854, -0.1689, -2.1769],
        [0.7852, 0.1437, 0.1935, 0.1885, -1.2148],
    ],
]
CAUSAL5 = torch.tril(torch.ones(5, 5, dtype=torch.bool))


def test_seed002_neg_inf_then_softmax_over_sqrt_d():
    scaled = steps.scale(torch.tensor(SEED002_SCORES), math.sqrt(8))
    weights = steps.normalise(steps.mask_scores(scaled, CAUSAL5, "neg_inf"), "softmax")
    close(weights[0, 1:3, :3], [[0.4611, 0.5389, 0], [0.1246, 0.2599, 0.6155]])
    close(weights[0, 4], [0.1372, 0.1336, 0.0727, 0.1371, 0.5194])
    close(weights[1, 3], [0.2971, 0.1778, 0.2928, 0.2323, 0])


def test_seed002_multiplying_scores_by_the_mask_gives_negative_weights():
    masked = steps.mask_scores(torch.tensor(SEED002_SCORES), CAUSAL5, "zero_scores")
    weights = steps.normalise(masked, "sum")
    close(weights[0, 1, :2], [1.0790, -0.0790])
    close(weights[0, 4], [0.3172, 0.3408, 0.8749, 0.3178, -0.8507])
    # This row's scores sum to -0.08, so dividing amplifies the rounding of the printed inputs.
    close(weights[1, 3, :4], [-6.3572, 11.1813, -5.8639, 2.0398], tol=5e-3)
    assert (weights < 0).any()


# --- seed 003: "I live in Montreal", Q and K printed -------------------------------------------

SEED003_Q = [
    [1.71085486, -0.03367367, 1.09812443, 1.09528995, -0.39000119, -0.45841432, -0.48539386, 1.5718894],
    [0.00965999, 0.54801593, 0.75797904, 0.67755443, 1.90984137, 1.62987475, -0.33656417, 1.08604924],
    [0.12680977, -0.47276565, -1.48679567, 0.19848653, 0.19646147, -0.01184547, 1.69037273, 0.47946585],
    [0.57315114, -0.63954299, -1.77893003, -0.22080153, 0.34005573, 0.51011648, 0.15552844, 0.10861496],
]  # fmt: skip
SEED003_K = [
    [-0.59194089, -0.81207564, 1.46555827, -1.79502953, 0.48312732, -0.86651849, -1.86632717, -0.77304799],
    [0.83096345, -1.55802823, 0.44207751, 0.17283549, -0.4557931, 0.51542019, 0.20530228, 1.55508918],
    [2.32427521, -0.04541923, 2.12979551, -0.72525274, -0.36016954, -0.771219, 1.25401108, -0.17451855],
    [-2.03744382, 1.8421055, 0.91399836, -0.97696761, -1.67673923, 0.66197614, 0.34689897, -1.02507032],
]  # fmt: skip


def seed003_config(**changes) -> AttentionConfig:
    # With the identity matrix as inputs, custom W_query = Q and W_key = K give queries Q, keys K.
    weights = (
        tuple(map(tuple, SEED003_Q)),
        tuple(map(tuple, SEED003_K)),
        tuple(map(tuple, SEED003_Q)),
    )
    return AttentionConfig(d_out=8, init="custom", custom_weights=weights, **changes)


def test_seed003_scaled_scores_and_causal_weights():
    embeddings = make_embeddings(("I", "live", "in", "Montreal"), torch.eye(4).tolist())
    trace = run_attention(embeddings, seed003_config(mask="causal"))
    close(trace.scores[0, 0], [-1.44252979, 4.43514305, 5.13343669, -5.04338883])
    close(trace.scaled_scores[0, 1], [-0.44447519, 0.42277123, -0.50768281, -0.82474603])
    close(
        trace.weights[0],
        [
            [1.0, 0, 0, 0],
            [0.29582759, 0.70417241, 0, 0],
            [0.05730396, 0.64851518, 0.29418086, 0],
            [0.15960052, 0.57792451, 0.16391464, 0.09856034],
        ],
    )
    unmasked = run_attention(embeddings, seed003_config())
    close(unmasked.weights[0, 0], [0.0512946, 0.40979482, 0.52454996, 0.01436062])
    assert unmasked.diagnostics.scaled_score_variance == pytest.approx(1.0870739852373434, abs=1e-4)


# --- seed 004: the book's chapter 3 (Raschka), reproduced with seeds 123 and 789 ----------------
# Seed 004's text prints the second context vector [0.3061, 0.8210]; the other values are the
# book's printed outputs for the same cells, which seed 004 reproduces when run.


# The book's attn_scores_2 (section 3.4.1): the scores of "journey", before scaling.
BOOK_ATTN_SCORES_2 = [1.2705, 1.8524, 1.8111, 1.0795, 0.5577, 1.5440]


def test_seed004_book_init_seed_123():
    trace = run_attention(preset_embeddings("journey"), AttentionConfig())
    close(trace.queries[1], [0.4306, 1.4551])
    close(trace.scores[0, 1], BOOK_ATTN_SCORES_2)
    close(trace.weights[0, 1], [0.1500, 0.2264, 0.2199, 0.1311, 0.0906, 0.1820])
    close(trace.context[1], [0.3061, 0.8210])
    close(
        trace.context,
        [
            [0.2996, 0.8053],
            [0.3061, 0.8210],
            [0.3058, 0.8203],
            [0.2948, 0.7939],
            [0.2927, 0.7891],
            [0.2990, 0.8040],
        ],
    )


def test_seed004_book_init_seed_123_causal_keeps_first_row_on_itself():
    trace = run_attention(preset_embeddings("journey"), AttentionConfig(mask="causal"))
    close(trace.weights[0, 0], [1, 0, 0, 0, 0, 0])
    close(trace.context[0], trace.values[0].tolist())


BOOK_V2_CONTEXT = [
    [-0.0739, 0.0713],
    [-0.0748, 0.0703],
    [-0.0749, 0.0702],
    [-0.0760, 0.0685],
    [-0.0763, 0.0679],
    [-0.0754, 0.0693],
]
BOOK_V2_WEIGHTS_ROW1 = [0.1921, 0.1646, 0.1652, 0.1550, 0.1721, 0.1510]
BOOK_V2_CAUSAL = [
    [1.0000, 0, 0, 0, 0, 0],
    [0.5517, 0.4483, 0, 0, 0, 0],
    [0.3800, 0.3097, 0.3103, 0, 0, 0],
    [0.2758, 0.2460, 0.2462, 0.2319, 0, 0],
    [0.2175, 0.1983, 0.1984, 0.1888, 0.1971, 0],
    [0.1935, 0.1663, 0.1666, 0.1542, 0.1666, 0.1529],
]


def test_seed004_linear_init_seed_789():
    trace = run_attention(preset_embeddings("journey"), AttentionConfig(init="linear", seed=789))
    close(trace.context, BOOK_V2_CONTEXT)
    close(trace.weights[0, 0], BOOK_V2_WEIGHTS_ROW1)


def test_seed004_linear_init_seed_789_causal_weights():
    config = AttentionConfig(init="linear", seed=789, mask="causal")
    trace = run_attention(preset_embeddings("journey"), config)
    close(trace.weights[0], BOOK_V2_CAUSAL)
    zero_renorm = run_attention(
        preset_embeddings("journey"), config.replace(mask_strategy="zero_renorm")
    )
    close(zero_renorm.weights[0], BOOK_V2_CAUSAL)


def test_linear_init_equals_nn_linear_under_the_same_seed():
    config = AttentionConfig(init="linear", seed=789, d_out=5)
    trace = run_attention(preset_embeddings("journey"), config)
    # Reference: the global-seed recipe of the book, run here only to compare.
    state = torch.random.get_rng_state()
    try:
        torch.manual_seed(789)
        layers = [torch.nn.Linear(3, 5, bias=False) for _ in range(3)]
    finally:
        torch.random.set_rng_state(state)
    for layer, ours in zip(layers, (trace.W_query, trace.W_key, trace.W_value), strict=True):
        assert torch.equal(layer.weight.T, ours)


def test_book_parity_panel_matches_every_printed_tensor():
    from attention_core.book import book_parity

    rows = book_parity()
    assert len(rows) == 11
    assert all(row.matches for row in rows), [(r.book_name, r.max_diff) for r in rows]
    settings = {row.setting.split(":")[0] for row in rows}
    assert {"3.5.3 CausalAttention", "3.6.1 MultiHeadAttentionWrapper"} <= settings
    assert "3.6.2 MultiHeadAttention" in settings


@pytest.mark.parametrize(
    ("strategy", "fault"),
    [
        ("neg_inf", None),
        ("zero_renorm", None),
        ("zero_scores", "leak"),
        ("zero_no_renorm", "row_sum"),
    ],
)
def test_seed004_mask_strategies_are_judged_as_the_lesson_teaches(strategy, fault):
    """The two right ways pass; multiplying the scores by the mask leaks (exp(0) is not 0),
    and zeroing after softmax without renormalising breaks the row sums."""
    config = AttentionConfig(init="linear", seed=789, mask="causal", mask_strategy=strategy)
    verdict = judge_mask(run_attention(preset_embeddings("journey"), config))
    assert verdict.fault == fault
    if fault is None:
        assert verdict.leaked == 0 and verdict.worst_row_sum_error < ROW_SUM_TOLERANCE
    trace = run_attention(preset_embeddings("journey"), config)
    sums = trace.weights[0].sum(dim=-1)  # every row may attend to itself
    worst = int((sums - 1).abs().argmax())
    assert verdict.worst_row_sum == pytest.approx(float(sums[worst]), abs=1e-7)
    assert abs(verdict.worst_row_sum - 1) == pytest.approx(verdict.worst_row_sum_error, abs=1e-7)
    if fault == "row_sum":  # zeroing without renormalising leaves the first rows short of 1
        assert verdict.worst_row_sum < 1 - ROW_SUM_TOLERANCE


@pytest.mark.parametrize(("d_out", "low", "high"), [(2, 1e-6, 1e-5), (8, 1e-11, 1e-10)])
def test_a_tiny_leak_of_multiplied_scores_is_still_a_leak(d_out, low, high):
    """Found in Chromium: large scores (page 5's link ?preset=random&num_tokens=12&d_in=16) shrink the leak of
    scores x mask below 1e-6, and with d_out 8 below 1e-10; page 5 once judged that correct
    (a tolerance of 1e-7), or wrong with a future weight of 0.0000. The right strategies give
    exactly 0 on the same scores."""
    link = {"preset": ["random"], "num_tokens": ["12"], "d_in": ["16"], "d_out": [str(d_out)]}
    settings, notices = read_params({**link, "mask": ["causal"]}, default_settings())
    assert notices == []
    embeddings = settings.embeddings()
    config = settings.config().replace(mask_strategy="zero_scores", dropout=0.0)
    verdict = judge_mask(run_attention(embeddings, config))
    assert low < verdict.leaked < high and verdict.fault == "leak"
    right = judge_mask(run_attention(embeddings, config.replace(mask_strategy="neg_inf")))
    assert right.leaked == 0 and right.fault is None


def test_undefined_weights_are_never_called_correct():
    """Found by a review: NaN compares False with every tolerance, so a row-sum normalisation
    dividing 0 by 0 was judged correct, the pitfalls included."""
    settings, notices = read_params(
        {"x": ["0,0;1,2;3,-1"], "norm": ["sum"], "mask": ["causal"]}, default_settings()
    )
    assert notices == []
    for strategy in ("neg_inf", "zero_renorm", "zero_scores", "zero_no_renorm"):
        config = settings.config().replace(mask_strategy=strategy, dropout=0.0)
        assert judge_mask(run_attention(settings.embeddings(), config)).fault == "undefined"
    assert MaskVerdict(math.nan, 0.0, False).fault == "undefined"
    assert MaskVerdict(0.0, math.nan, False).fault == "undefined"


def test_a_row_summing_to_1_through_negative_weights_is_judged_wrong():
    verdict = MaskVerdict(leaked=0.0, worst_row_sum_error=0.0, negative=True)
    assert verdict.fault == "negative"
    assert MaskVerdict(1e-30, 1.0, True).fault == "leak"  # the first fault is named


def test_the_trace_says_which_pairs_the_mask_leaves_without_weight():
    """Issue 39, item 24: the trace, not the page, decides which blocked pairs carry no weight."""
    journey = preset_embeddings("journey")
    causal = run_attention(journey, AttentionConfig(mask="causal"))
    above = torch.triu(torch.ones(6, 6, dtype=torch.bool), diagonal=1)
    assert torch.equal(causal.hidden_by_mask, above)
    assert bool((causal.weights[0][causal.hidden_by_mask] == 0).all())  # hidden: no weight
    # The pitfall multiplies the scores by the mask: blocked keys keep weight, none is hidden.
    pitfall = run_attention(journey, AttentionConfig(mask="causal", mask_strategy="zero_scores"))
    assert not bool(pitfall.hidden_by_mask.any())
    assert bool((pitfall.weights[0][above] > 0).all())
    assert not bool(run_attention(journey, AttentionConfig()).hidden_by_mask.any())


def test_the_row_sums_after_dropout_give_their_range_where_defined():
    """Issue 39, item 23: the range page 6 states comes from the trace's diagnostics."""
    config = AttentionConfig(dropout=0.5, train=True, dropout_seed=3)
    trace = run_attention(preset_embeddings("journey"), config)
    sums = trace.weights_after_dropout[0].sum(dim=-1)
    low, high = trace.diagnostics.row_sum_range_after_dropout(0)
    assert (low, high) == pytest.approx((float(sums.min()), float(sums.max())), abs=1e-6)
    assert low < 1 - 1e-3 or high > 1 + 1e-3  # dropout moved the sums off 1
    evaluation = run_attention(preset_embeddings("journey"), config.replace(train=False))
    assert evaluation.diagnostics.row_sum_range_after_dropout(0) == pytest.approx((1.0, 1.0))
    # Dividing by the row sum leaves a row of zero scores undefined (0/0): it has no sum.
    one_zero_row = make_embeddings(("a", "b"), ((0.0, 0.0), (1.0, 0.5)))
    by_sum = AttentionConfig(norm="sum", init="identity")
    assert run_attention(one_zero_row, by_sum).diagnostics.row_sum_range_after_dropout(0) == (
        pytest.approx(1.0),
        pytest.approx(1.0),
    )
    only_zeros = make_embeddings(("a",), ((0.0, 0.0),))
    assert run_attention(only_zeros, by_sum).diagnostics.row_sum_range_after_dropout(0) is None
