"""Seed 001's numbers on the real GloVe vectors, computed by attention_core.

Every golden number below is copied from the printed output of seed 001 (GloVe 6B 50d, the
two "ship" sentences): 1e-4 where it prints four decimals, 5e-3 for its two-decimal tables.
"""

import math

import pytest
import torch
import torch.nn.functional as F

from attention_core.knobs.table import SENTENCE_TOKENS
from real_model import glove_attention, seed001_checks

ODYSSEY = "I must go back to my ship and to my crew"
AMAZON = "We process and ship your order"

# Seed 001, In [18]: attn_cos_weights(X_o)[6]
COSINE_ROW_SHIP_O = [
    0.3466, 0.4178, 0.4068, 0.4853, 0.5401, 0.3791, 1.0000, 0.4586, 0.5401, 0.3791, 0.7848,
]  # fmt: skip
# Seed 001, In [22]: attn_weights_o[6] = softmax(X_o X_oᵀ / √50)[6]
SOFTMAX_ROW_SHIP_O = [
    0.0303, 0.0302, 0.0276, 0.0407, 0.0459, 0.0343, 0.5530, 0.0297, 0.0459, 0.0343, 0.1281,
]  # fmt: skip
# Seed 001, In [32]: attn_weights_a[3]
SOFTMAX_ROW_SHIP_A = [0.0431, 0.0258, 0.0419, 0.7811, 0.0490, 0.0590]
# Seed 001, In [29]: self_attention_output_o[6], first and last five values
CONTEXT_SHIP_O_FIRST = [1.0387, 0.1033, 0.3426, -0.4320, 0.2237]
CONTEXT_SHIP_O_LAST = [-0.1755, -0.2213, -0.3995, 0.2119, -0.3610]
# Seed 001, In [34]: attention_output_a[3], first and last five values
CONTEXT_SHIP_A_FIRST = [1.2758, 0.1034, 0.2720, -0.4776, 0.1746]
CONTEXT_SHIP_A_LAST = [-0.1845, -0.2390, -0.4307, 0.3828, -0.4905]
# Seed 001, In [20]: (attn_cos_weights(X_o) @ X_o)[6], first five and the two largest (e-notation)
COSINE_CONTEXT_SHIP_O_FIRST = [3.2319, 0.64082, 1.4718, -2.3434, 2.2358]
COSINE_CONTEXT_SHIP_O_25_30 = (-10.567, 18.220)

# Seed 001, In [16] and [17]: print_cos_weights, two decimals
COSINE_TABLE_O = """
1.00 0.75 0.86 0.76 0.73 0.90 0.35 0.65 0.73 0.90 0.42
0.75 1.00 0.85 0.68 0.87 0.69 0.42 0.69 0.87 0.69 0.45
0.86 0.85 1.00 0.84 0.84 0.81 0.41 0.68 0.84 0.81 0.49
0.76 0.68 0.84 1.00 0.83 0.76 0.49 0.77 0.83 0.76 0.51
0.73 0.87 0.84 0.83 1.00 0.68 0.54 0.86 1.00 0.68 0.51
0.90 0.69 0.81 0.76 0.68 1.00 0.38 0.63 0.68 1.00 0.44
0.35 0.42 0.41 0.49 0.54 0.38 1.00 0.46 0.54 0.38 0.78
0.65 0.69 0.68 0.77 0.86 0.63 0.46 1.00 0.86 0.63 0.49
0.73 0.87 0.84 0.83 1.00 0.68 0.54 0.86 1.00 0.68 0.51
0.90 0.69 0.81 0.76 0.68 1.00 0.38 0.63 0.68 1.00 0.44
0.42 0.45 0.49 0.51 0.51 0.44 0.78 0.49 0.51 0.44 1.00
"""
COSINE_TABLE_A = """
1.00 0.64 0.70 0.36 0.75 0.64
0.64 1.00 0.61 0.29 0.52 0.67
0.70 0.61 1.00 0.46 0.58 0.69
0.36 0.29 0.46 1.00 0.37 0.52
0.75 0.52 0.58 0.37 1.00 0.63
0.64 0.67 0.69 0.52 0.63 1.00
"""
# Seed 001, In [25] and [33]: print_attn_weights, two decimals
SOFTMAX_TABLE_O = """
0.36 0.05 0.07 0.05 0.04 0.19 0.01 0.02 0.04 0.19 0.01
0.14 0.20 0.10 0.06 0.11 0.10 0.03 0.05 0.11 0.10 0.02
0.18 0.09 0.14 0.09 0.08 0.13 0.02 0.04 0.08 0.13 0.02
0.14 0.05 0.09 0.19 0.08 0.12 0.03 0.06 0.08 0.12 0.03
0.11 0.11 0.09 0.09 0.15 0.08 0.04 0.07 0.15 0.08 0.03
0.19 0.03 0.05 0.04 0.03 0.29 0.01 0.02 0.03 0.29 0.01
0.03 0.03 0.03 0.04 0.05 0.03 0.55 0.03 0.05 0.03 0.13
0.10 0.08 0.07 0.10 0.12 0.09 0.04 0.15 0.12 0.09 0.04
0.11 0.11 0.09 0.09 0.15 0.08 0.04 0.07 0.15 0.08 0.03
0.19 0.03 0.05 0.04 0.03 0.29 0.01 0.02 0.03 0.29 0.01
0.06 0.05 0.05 0.06 0.05 0.06 0.21 0.04 0.05 0.06 0.31
"""
SOFTMAX_TABLE_A = """
0.61 0.06 0.06 0.02 0.20 0.05
0.17 0.50 0.08 0.03 0.11 0.11
0.22 0.12 0.30 0.08 0.15 0.13
0.04 0.03 0.04 0.78 0.05 0.06
0.14 0.03 0.03 0.02 0.74 0.04
0.16 0.13 0.10 0.09 0.18 0.34
"""
TWO_DECIMALS = 5e-3 + 1e-6  # half a unit of the last printed digit, plus float32 noise


def _table(text: str) -> torch.Tensor:
    return torch.tensor([[float(x) for x in line.split()] for line in text.strip().splitlines()])


def _close(ours: torch.Tensor, printed: list[float], atol: float = 1e-4) -> bool:
    return bool(((ours - torch.tensor(printed)).abs() <= atol).all())


@pytest.fixture(scope="module")
def odyssey():
    return glove_attention(ODYSSEY)


@pytest.fixture(scope="module")
def amazon():
    return glove_attention(AMAZON)


def test_words_are_seed_001s(odyssey, amazon):
    # Seed 001, In [8]: words_o
    assert list(odyssey.words) == [
        "i", "must", "go", "back", "to", "my", "ship", "and", "to", "my", "crew",
    ]  # fmt: skip
    assert amazon.words == ("we", "process", "and", "ship", "your", "order")
    assert odyssey.unknown == amazon.unknown == ()
    assert odyssey.focus_index("Ship") == 6 and amazon.focus_index("ship") == 3


def test_cosine_row_of_ship_in_the_odyssey(odyssey):
    assert _close(odyssey.cosine.weights[0, 6], COSINE_ROW_SHIP_O)


def test_cosine_contextual_vector_of_ship(odyssey):
    context = odyssey.cosine.context[6]
    assert _close(context[:5], COSINE_CONTEXT_SHIP_O_FIRST)
    printed = torch.tensor(COSINE_CONTEXT_SHIP_O_25_30)
    assert ((context[[25, 30]] - printed).abs() <= 1e-4 * printed.abs()).all()


def test_softmax_row_of_ship_in_the_odyssey(odyssey):
    assert odyssey.softmax.scale_divisor == pytest.approx(math.sqrt(50))
    assert _close(odyssey.softmax.weights[0, 6], SOFTMAX_ROW_SHIP_O)


def test_softmax_row_of_ship_in_the_amazon_sentence(amazon):
    assert _close(amazon.softmax.weights[0, 3], SOFTMAX_ROW_SHIP_A)


def test_contextual_vectors_of_ship(odyssey, amazon):
    assert _close(odyssey.softmax.context[6, :5], CONTEXT_SHIP_O_FIRST)
    assert _close(odyssey.softmax.context[6, -5:], CONTEXT_SHIP_O_LAST)
    assert _close(amazon.softmax.context[3, :5], CONTEXT_SHIP_A_FIRST)
    assert _close(amazon.softmax.context[3, -5:], CONTEXT_SHIP_A_LAST)


@pytest.mark.parametrize(
    ("sentence", "kind", "table"),
    [
        (ODYSSEY, "cosine", COSINE_TABLE_O),
        (AMAZON, "cosine", COSINE_TABLE_A),
        (ODYSSEY, "softmax", SOFTMAX_TABLE_O),
        (AMAZON, "softmax", SOFTMAX_TABLE_A),
    ],
    ids=["cosine-odyssey", "cosine-amazon", "softmax-odyssey", "softmax-amazon"],
)
def test_two_decimal_tables(sentence, kind, table):
    weights = getattr(glove_attention(sentence), kind).weights[0]
    assert ((weights - _table(table)).abs() <= TWO_DECIMALS).all()


def test_the_core_agrees_with_plain_torch(odyssey):
    """The same numbers as seed 001's own two lines of PyTorch, to float32 precision."""
    X = odyssey.embeddings.values
    softmax = F.softmax(X @ X.T / math.sqrt(50), dim=-1)
    cosine = F.normalize(X) @ F.normalize(X).T
    assert torch.allclose(odyssey.softmax.weights[0], softmax, atol=1e-6)
    assert torch.allclose(odyssey.softmax.context, softmax @ X, atol=1e-5)
    assert torch.allclose(odyssey.cosine.weights[0], cosine, atol=1e-6)
    assert torch.allclose(odyssey.cosine.context, cosine @ X, atol=1e-4)
    # Cosine weights are not normalised (seed 001 uses them as they are); softmax rows sum to 1.
    assert odyssey.cosine.weights[0, 6].sum() > 5
    assert torch.allclose(odyssey.softmax.weights[0].sum(dim=-1), torch.ones(11))


def test_every_printed_number_is_checked_and_matches(odyssey, amazon):
    checks = seed001_checks(odyssey, amazon)
    assert len(checks) == 12
    assert [c.printed_as for c in checks if not c.matches] == []
    assert max(c.max_diff for c in checks if "print_" not in c.printed_as) < 1e-3


def test_a_wrong_number_is_not_ticked(odyssey, amazon):
    check = seed001_checks(odyssey, amazon)[4]  # attn_weights_o[6]
    assert check.printed_as == "attn_weights_o[6]"
    shifted = type(check)(
        check.printed_as, check.ours_as, check.printed, check.ours + 2e-4, check.tolerance
    )
    assert check.matches and not shifted.matches


def test_unknown_words_are_named_and_left_out():
    result = glove_attention("We process and zqshipq your order")
    assert result.words == ("we", "process", "and", "your", "order")
    assert result.unknown == ("zqshipq",)
    assert result.softmax.weights.shape == (1, 5, 5)
    assert result.focus_index("zqshipq") == 0


def test_a_long_sentence_is_cut_to_the_parameter_tables_limit():
    """Issue 39, item 21: 33 known words were refused; page 10 cut at 32 tokens. Both cut
    at the table's ``SENTENCE_TOKENS`` and say how many there were."""
    result = glove_attention(" ".join(["ship", "zqshipq", "crew"] * 20))
    assert result.found == 40 and result.unknown == ("zqshipq",)
    assert result.words == ("ship", "crew") * (SENTENCE_TOKENS // 2)
    assert result.softmax.weights.shape == (1, SENTENCE_TOKENS, SENTENCE_TOKENS)
    short = glove_attention("We process and ship your order")
    assert short.found == len(short.words) == 6
