"""Every legal setting works on every page: a covering grid, then Hypothesis over the table.

Settings arrive through links (a fresh session each), the cheapest way to set them all at
once; ``test_session_machine`` sets them through the widgets. Each page must run with no
exception, show no nan/inf/traceback, produce no message from the error path and no notice
(the values are legal), and show the core's numbers for the settings it shows.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_core.knobs.table import MASK_STRATEGIES, PARAMS
from tests.budget import examples
from tests.ui.apptest import PAGES, assert_clean, notices, open_page
from tests.ui.oracle import check_numbers
from tests.ui.strategies import LABELS, legal_heads, legal_links, matrix_text, pin_of

STRATEGIES = tuple(MASK_STRATEGIES)
D_OUT_HIGH = int(PARAMS["d_out"].high)  # the grid's 12 links hold every d_out up to it
# Every choice knob but the language: these pages are read in English (a page in Chinese has
# the same numbers: tests/ui/test_translation.py).
CHOICES = {name: p.choices for name, p in PARAMS.items() if p.kind == "choice" and name != "lang"}


def grid_link(k: int) -> dict[str, str]:
    """The k-th of 12 links that together hold every choice of every choice knob, every
    mask × strategy, 1, 6 and 12 tokens with every mask, d_out 1..8, padding 0 and n (every
    row fully masked), dropout 0 and 0.9, training on and off, 1 to 6 decimals."""
    count = (1, 6, 12)[k // 4]
    d_in = (3, 1, 16, 2)[k % 4]
    mask = ("none", "causal", "padding")[k % 3]
    values = {
        "init": ("book", "linear", "identity")[(k // 2) % 3],
        "d_out": k % D_OUT_HIGH + 1,
        "heads_layout": ("split", "wrapper")[k % 2],
    }
    heads = [h for h in legal_heads(values, d_in) if h <= k % 4 + 1][-1]
    link = {
        **{name: str(v) for name, v in values.items()},
        "preset": CHOICES["preset"][k % len(CHOICES["preset"])],  # random at k = 4 and 9
        "seed": str(k * 1000),
        "heads": str(heads),
        "head": str(heads),
        "scaling": CHOICES["scaling"][(k // 4 + k) % 3],
        "mask": mask,
        "padding": str({2: 1, 5: 0, 8: 12, 11: 5}.get(k, 0)),
        "dropout": ("0", "0.9")[((k + 1) // 2) % 2],
        "train": ("true", "false")[k % 3 == 1],
        "dropout_seed": str(k),
        "scoring": CHOICES["scoring"][(k // 2) % 2],
        "norm": CHOICES["norm"][k % 4],
        "mask_strategy": STRATEGIES[k // 3],
        "qkv_bias": ("false", "true")[(k // 3) % 2],
        "out_proj": CHOICES["out_proj"][(k + 1) % 3],
        "query": str((1, count)[k % 2]),
        "decimals": str(k % 6 + 1),
        "weight_scale": CHOICES["weight_scale"][k // 6],
        "present": ("false", "true")[k in (3, 10)],
        "panel": CHOICES["panel"][k % 5],
        "weights_view": CHOICES["weights_view"][k % len(CHOICES["weights_view"])],
    }
    if link["preset"] == "random":
        link |= {"num_tokens": str(count), "d_in": str(d_in)}
    else:
        rows = [[((i * 7 + j * 3 + k) % 41 - 20) / 2 for j in range(d_in)] for i in range(count)]
        link |= {
            "x": matrix_text(rows),
            "tokens": ",".join(LABELS[(i * 3 + k) % 7] for i in range(count)),
        }
    width = k % 4 + 1
    lessons = {
        "input_scale": ("1", "30")[k % 2],
        "inspect": STRATEGIES[k % 4],
        "peek_token": str(count),
        "peek_amount": ("-2", "2")[k % 2],
        "lesson_padding": str((0, count)[k % 2]),
        "weights_from": CHOICES["weights_from"][k % 2],
        "wq": matrix_text([[0.5 * (i - j) for j in range(width)] for i in range(d_in)]),
        "wk": matrix_text([[0.25 * (i + j) for j in range(width)] for i in range(d_in)]),
        "wv": matrix_text([[1.0 if i == j else 0.0 for j in range(width)] for i in range(d_in)]),
        "samples": ("1", "5000")[k % 2],
        "text": CHOICES["text"][k % 3],
        "own": "the bank by the river",
        "layer": str(k % 2 + 1),
        "model_head": str(k % 4 + 1),
        "sentence": ("ship", "We process and ship your order")[k % 2],
        "word": ("order", "ship")[k % 2],
        "compare": ("ship", "and")[k % 2],
        "stage": str(k % 9 + 1),
        "swa_ratio": CHOICES["swa_ratio"][k % len(CHOICES["swa_ratio"])],  # page 13's calculator
        "dtype": CHOICES["dtype"][k % len(CHOICES["dtype"])],
        "pin": pin_of(link, seed=k + 1),
    }
    return link | lessons


GRID = [grid_link(k) for k in range(12)]


def assert_works(page: str, link: dict[str, str]) -> None:
    at = open_page(page, link)
    assert_clean(at)
    assert notices(at) == []
    check_numbers(at)


def test_the_grid_covers_every_choice_and_mask_strategy():
    for name, choices in CHOICES.items():
        assert {link[name] for link in GRID} >= set(choices), name
    assert {(link["mask"], link["mask_strategy"]) for link in GRID} == {
        (m, s) for m in CHOICES["mask"] if m != "custom" for s in STRATEGIES
    }
    assert {link["d_out"] for link in GRID} == {str(d) for d in range(1, D_OUT_HIGH + 1)}


@pytest.mark.parametrize("page", PAGES)
def test_every_grid_setting_works_on_every_page(page):
    for link in GRID:
        assert_works(page, link)


# 40 by default (was 80): the walks (test_session_machine) now open every page from a drawn
# legal link and change every control it draws to drawn values, in every run.
@settings(
    max_examples=examples(default=40, thorough=300),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_any_legal_link_works_on_any_page(data):
    page = data.draw(st.sampled_from(list(PAGES)), label="page")
    assert_works(page, data.draw(legal_links(page), label="link"))


def test_typed_weights_with_kv_groups_in_the_link_show_one_head_of_the_typed_matrices():
    """Found by this sweep (2026-12-07): page 3's typed weights give one head whatever the link's
    ``heads`` and ``kv_groups`` say; the oracle that checks its numbers had kept the link's
    K/V groups for that one head, and the core refused them."""
    zeros = ";".join(["0"] * 3)
    assert_works(
        "3_Trainable_weights",
        {
            "weights_from": "typed",
            "d_out": "4",
            "heads": "4",
            "kv_groups": "2",
            "wq": zeros,
            "wk": zeros,
            "wv": zeros,
        },
    )
