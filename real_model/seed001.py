"""Every number seed 001 prints about "ship", beside the same number computed from GloVe.

The seed's notebook (GloVe 6B 50d, chapter 15 of Nugues' *Python for Natural Language
Processing*) prints vectors to four decimals, some tensors in e-notation (five significant
digits) and its tables to two decimals. The values below are copied from its output; a page
shows each beside ours with ✓ when they agree to the printed precision.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from real_model.glove_attention import GloveAttention, glove_attention
from translation import N_

ODYSSEY = "I must go back to my ship and to my crew"  # Odyssey, book I
AMAZON = "We process and ship your order"
SHIP_O, SHIP_A = 6, 3  # position of "ship" in each sentence (0-based, as the seed indexes)
FOUR_DECIMALS = 1e-4
TWO_DECIMALS = 5e-3 + 1e-6  # half a unit of the last printed digit, plus float32 noise


def _numbers(text: str) -> tuple[float, ...]:
    return tuple(float(number) for number in text.split())


def _table(text: str) -> tuple[tuple[float, ...], ...]:
    return tuple(_numbers(line) for line in text.strip().splitlines())


SHIP_VECTOR = _numbers(
    """
     1.5213  0.1052  0.3816 -0.5080  0.0324 -0.1348 -1.2474  0.7981  0.8469 -1.1010
     0.8874  1.3749  0.4293  0.6572 -0.2636 -0.4176 -0.4885  0.9106 -1.7158 -0.4380
     0.7839  0.1964 -0.4066 -0.5397  0.8244 -1.7434  0.1428  0.2804  1.1688  0.1690
     2.2271 -0.5827 -0.4572  0.6281  0.5444  0.2846  0.4448 -0.5534 -0.3649 -0.0164
     0.4088 -0.8715  1.5513 -0.8070 -0.1004 -0.2846 -0.3322 -0.5061  0.4827 -0.6620
"""
)
X_O_FIRST_ROW_START = _numbers(
    """
    1.1891e-01 1.5255e-01 -8.2073e-02 -7.4144e-01 7.5917e-01
    -4.8328e-01 -3.1009e-01 5.1476e-01 -9.8708e-01 6.1757e-04
"""
)
COSINE_ROW_SHIP_O = _numbers(
    """
     0.3466  0.4178  0.4068  0.4853  0.5401  0.3791  1.0000  0.4586  0.5401  0.3791  0.7848
"""
)
COSINE_CONTEXT_SHIP_O = _numbers(
    """
    3.2319e+00 6.4082e-01 1.4718e+00 -2.3434e+00 2.2358e+00
    -4.1877e-01 -4.1002e+00 2.6211e+00 1.8010e-01 -2.4360e+00
    1.3923e+00 3.7188e+00 -1.9603e+00 1.1980e+00 2.2394e+00
    9.3763e-01 -7.7049e-01 1.0349e+00 -3.0615e+00 -3.6259e+00
    8.3401e-01 2.9281e+00 1.3165e+00 -7.1303e-01 2.9667e+00
    -1.0567e+01 -1.3099e+00 2.0283e-01 3.5362e+00 -2.7571e+00
    1.8220e+01 2.4698e+00 -3.5804e+00 3.2604e-01 1.2760e+00
    6.5701e-01 1.5889e+00 1.1571e-02 7.6620e-01 -1.4560e+00
    -2.0362e-01 -1.2484e+00 2.1550e+00 -1.8767e-01 -5.0253e-01
    -2.9128e-01 -5.1006e-01 -1.9596e+00 -5.8853e-02 -6.7380e-01
"""
)
SOFTMAX_ROW_SHIP_O = _numbers(
    """
     0.0303  0.0302  0.0276  0.0407  0.0459  0.0343  0.5530  0.0297  0.0459  0.0343  0.1281
"""
)
CONTEXT_SHIP_O = _numbers(
    """
     1.0387  0.1033  0.3426 -0.4320  0.2237 -0.0958 -0.9926  0.6662  0.4424 -0.7942
     0.5638  0.9921  0.0205  0.5082  0.0743 -0.1773 -0.3408  0.5675 -1.1545 -0.5718
     0.4288  0.4191 -0.0658 -0.3339  0.6682 -1.7473 -0.0485  0.1531  0.8642 -0.1447
     2.6571 -0.0545 -0.5343  0.3160  0.4041  0.2277  0.3958 -0.2916 -0.1126 -0.1385
     0.1744 -0.5375  0.9499 -0.4145 -0.1039 -0.1755 -0.2213 -0.3995  0.2119 -0.3610
"""
)
SOFTMAX_ROW_SHIP_A = _numbers(
    """
     0.0431  0.0258  0.0419  0.7811  0.0490  0.0590
"""
)
CONTEXT_SHIP_A = _numbers(
    """
     1.2758  0.1034  0.2720 -0.4776  0.1746 -0.1060 -0.9901  0.6328  0.6967 -0.8847
     0.7106  1.2264  0.2491  0.5023 -0.1277 -0.2361 -0.3709  0.6545 -1.2587 -0.5332
     0.6681  0.1687 -0.2567 -0.4218  0.6960 -1.7077 -0.0052  0.1572  1.0763  0.0410
     2.5467 -0.3418 -0.5414  0.4175  0.4147  0.2666  0.3770 -0.4228 -0.2462 -0.0377
     0.3202 -0.7298  1.2020 -0.5636 -0.0899 -0.1845 -0.2390 -0.4307  0.3828 -0.4905
"""
)
COSINE_TABLE_O = _table(
    """
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
)
COSINE_TABLE_A = _table(
    """
    1.00 0.64 0.70 0.36 0.75 0.64
    0.64 1.00 0.61 0.29 0.52 0.67
    0.70 0.61 1.00 0.46 0.58 0.69
    0.36 0.29 0.46 1.00 0.37 0.52
    0.75 0.52 0.58 0.37 1.00 0.63
    0.64 0.67 0.69 0.52 0.63 1.00
"""
)
SOFTMAX_TABLE_O = _table(
    """
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
)
SOFTMAX_TABLE_A = _table(
    """
    0.61 0.06 0.06 0.02 0.20 0.05
    0.17 0.50 0.08 0.03 0.11 0.11
    0.22 0.12 0.30 0.08 0.15 0.13
    0.04 0.03 0.04 0.78 0.05 0.06
    0.14 0.03 0.03 0.02 0.74 0.04
    0.16 0.13 0.10 0.09 0.18 0.34
"""
)


@dataclass(frozen=True)
class SeedCheck:
    """One printed tensor of seed 001 beside ours, with the printed precision as tolerance."""

    printed_as: str  # code, as the seed prints it
    ours_as: str  # English words, marked for the catalog: shown as ``_(check.ours_as)``
    printed: torch.Tensor
    ours: torch.Tensor
    tolerance: torch.Tensor  # same shape as ``printed``

    @property
    def max_diff(self) -> float:
        """Largest absolute difference between the printed and our numbers."""
        return float((self.printed - self.ours).abs().max())

    @property
    def matches(self) -> bool:
        """True when every number agrees to the precision it was printed with."""
        return bool(((self.printed - self.ours).abs() <= self.tolerance).all())


def _check(
    printed_as: str, ours_as: str, printed: object, ours: torch.Tensor, kind: str
) -> SeedCheck:
    expected = torch.tensor(printed, dtype=torch.float32)
    if kind == "significant":  # e-notation: four decimals of the mantissa
        tolerance = FOUR_DECIMALS * expected.abs().clamp(min=1.0)
    else:
        tolerance = torch.full_like(expected, FOUR_DECIMALS if kind == "4" else TWO_DECIMALS)
    return SeedCheck(printed_as, ours_as, expected, ours.detach().clone(), tolerance)


def seed001_checks(
    odyssey: GloveAttention | None = None, amazon: GloveAttention | None = None
) -> list[SeedCheck]:
    """Every tensor seed 001 prints, beside ours (the two sentences are computed if not given)."""
    odyssey = glove_attention(ODYSSEY) if odyssey is None else odyssey
    amazon = glove_attention(AMAZON) if amazon is None else amazon
    o_cos, o_soft, a_cos, a_soft = odyssey.cosine, odyssey.softmax, amazon.cosine, amazon.softmax
    return [
        _check(
            "embeddings_dict['ship']",
            N_("GloVe vector of ship"),
            SHIP_VECTOR,
            odyssey.embeddings.values[SHIP_O],
            "4",
        ),
        _check(
            "X_o[0][:10]",
            N_("GloVe vector of i, first 10"),
            X_O_FIRST_ROW_START,
            odyssey.embeddings.values[0, :10],
            "significant",
        ),
        _check(
            "attn_cos_weights(X_o)[6]",
            N_("cosine weights, row ship"),
            COSINE_ROW_SHIP_O,
            o_cos.weights[0, SHIP_O],
            "4",
        ),
        _check(
            "(attn_cos_weights(X_o) @ X_o)[6]",
            N_("cosine context, ship"),
            COSINE_CONTEXT_SHIP_O,
            o_cos.context[SHIP_O],
            "significant",
        ),
        _check(
            "attn_weights_o[6]",
            N_("softmax weights, row ship"),
            SOFTMAX_ROW_SHIP_O,
            o_soft.weights[0, SHIP_O],
            "4",
        ),
        _check(
            "self_attention_output_o[6]",
            N_("contextual vector of ship"),
            CONTEXT_SHIP_O,
            o_soft.context[SHIP_O],
            "4",
        ),
        _check(
            "attn_weights_a[3]",
            N_("softmax weights, row ship"),
            SOFTMAX_ROW_SHIP_A,
            a_soft.weights[0, SHIP_A],
            "4",
        ),
        _check(
            "attention_output_a[3]",
            N_("contextual vector of ship"),
            CONTEXT_SHIP_A,
            a_soft.context[SHIP_A],
            "4",
        ),
        _check(
            "print_cos_weights(words_o)",
            N_("cosine weights"),
            COSINE_TABLE_O,
            o_cos.weights[0],
            "2",
        ),
        _check(
            "print_cos_weights(words_a)",
            N_("cosine weights"),
            COSINE_TABLE_A,
            a_cos.weights[0],
            "2",
        ),
        _check(
            "print_attn_weights(words_o)",
            N_("softmax weights"),
            SOFTMAX_TABLE_O,
            o_soft.weights[0],
            "2",
        ),
        _check(
            "print_attn_weights(words_a)",
            N_("softmax weights"),
            SOFTMAX_TABLE_A,
            a_soft.weights[0],
            "2",
        ),
    ]
