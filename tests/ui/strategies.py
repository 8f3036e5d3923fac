"""Hypothesis strategies drawn from the parameter table: legal links and legal values.

A legal link is one a learner can make with the dashboard's own controls: every value inside
its row's range (token-dependent ranges narrowed to the matrix), heads that fit the width of
queries, labels the editor accepts.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from hypothesis import strategies as st

from attention_core.compare import PIN_SCOPES
from attention_core.knobs.param import Param
from attention_core.knobs.settle import query_width
from attention_core.knobs.table import PARAMS, lesson_params
from tests.conftest import TINY_HEADS, TINY_LAYERS

LINK_SCOPES = ("config", "view")
MODEL_COUNTS = {"layer": TINY_LAYERS, "model_head": TINY_HEADS}  # the tests' encoder (conftest)
LABELS = ("a", "b", "journey", "to", "x⁽¹⁾", "Ünïcødé", "🙂", "new", "token 7", "the")
SENTENCES = (
    "I must go back to my ship and to my crew",
    "We process and ship your order",
    "the bank by the river",
    "ship",
)
WORDS = ("ship", "crew", "order", "the", "river", "absent")
COMMON_WORDS = ("ship", "and")  # tokens of both of seed 001's sentences
HEADS_DEPEND_ON = ("init", "d_out", "heads_layout")


def number(param: Param, num_tokens: int) -> st.SearchStrategy[Any]:
    """A legal value of a numeric row, on its step grid."""
    low, high = param.limits(num_tokens)
    if param.kind == "int":
        return st.integers(int(low), int(high))
    steps = round((high - low) / (param.step or 1))
    return st.integers(0, steps).map(lambda k: round(low + k * (param.step or 1), 6))


def value(param: Param, num_tokens: int) -> st.SearchStrategy[Any]:
    """A legal value of any row but the matrices and labels (a layer and a head that the tests'
    encoder has: page 10 names one beyond it)."""
    if param.name in MODEL_COUNTS:
        return st.integers(1, MODEL_COUNTS[param.name])
    if param.kind in ("int", "float"):
        return number(param, num_tokens)
    if param.kind == "bool":
        return st.booleans()
    if param.kind == "choice":
        return st.sampled_from(param.choices)
    texts = {"sentence": SENTENCES, "own": SENTENCES, "word": WORDS, "compare": COMMON_WORDS}
    return st.sampled_from(texts[param.name])


def matrix_text(rows: list[list[float]]) -> str:
    return PARAMS["x"].to_text(tuple(tuple(r) for r in rows))


def matrices(rows: int, columns: int, limit: int = 1000) -> st.SearchStrategy[list[list[float]]]:
    """Matrices of numbers with two decimals within ±limit/100 (the editor's ±10 by default)."""
    cell = st.integers(-limit, limit).map(lambda k: k / 100)
    row = st.lists(cell, min_size=columns, max_size=columns)
    return st.lists(row, min_size=rows, max_size=rows)


# Knobs whose legal values depend on the heads: drawn after them.
AFTER_HEADS = ("kv_groups", "rope")


def legal_groups(heads: int) -> list[int]:
    """K/V group counts that divide ``heads``."""
    return [g for g in range(1, heads + 1) if heads % g == 0]


def legal_heads(values: dict[str, Any], d_in: int) -> list[int]:
    """Head counts the core accepts with these values."""
    counts = range(1, int(PARAMS["heads"].high) + 1)
    if values["init"] == "identity":
        return [h for h in counts if d_in % h == 0]
    if values["heads_layout"] == "wrapper":
        return list(counts)
    return [h for h in counts if values["d_out"] % h == 0]


@st.composite
def legal_links(draw: st.DrawFn, page: str) -> dict[str, str]:
    """A link to ``page`` whose every value is legal together; each knob present or not."""
    link: dict[str, str] = {}
    count = draw(st.sampled_from((1, 6, 12)) | st.integers(1, 12))
    d_in = draw(st.sampled_from((1, 2, 3, 4, 16)))
    if draw(st.booleans()):
        link["preset"] = "random"
        link["num_tokens"], link["d_in"] = str(count), str(d_in)
    else:
        link["preset"] = draw(st.sampled_from(PARAMS["preset"].choices))
        link["x"] = matrix_text(draw(matrices(count, d_in)))
        labels = draw(st.lists(st.sampled_from(LABELS), min_size=count, max_size=count))
        link["tokens"] = ",".join(labels)
    values: dict[str, Any] = {}
    # Not the language: these links' pages are read in English (tests/ui/test_translation.py
    # shows that a page in Chinese has the same numbers).
    names = [
        n for n, p in PARAMS.items() if (p.scope in LINK_SCOPES or p.page == page) and n != "lang"
    ]
    for name in names:
        param = PARAMS[name]
        if param.kind in ("matrix", "labels") or name in ("heads", "head", "pin", *AFTER_HEADS):
            continue
        values[name] = draw(value(param, count))
        if name == "query" or draw(st.integers(0, 3)):  # most knobs away from a bare link
            link[name] = param.to_text(values[name])
    effective = {n: values[n] if n in link else PARAMS[n].default for n in HEADS_DEPEND_ON}
    heads = draw(st.sampled_from(legal_heads(effective, d_in)))
    link["heads"] = str(heads)
    link["head"] = str(draw(st.integers(1, heads)))
    if draw(st.booleans()):  # K/V groups that divide the heads (0: one per head)
        link["kv_groups"] = str(draw(st.sampled_from([0, *legal_groups(heads)])))
    width = query_width({**effective, "heads": heads}, d_in) // heads
    if draw(st.booleans()):  # RoPE only on heads of an even width
        link["rope"] = "true" if width % 2 == 0 and draw(st.booleans()) else "false"
    if page == "3_Trainable_weights" and link.get("weights_from") == "typed":
        # typed weights set d_out: RoPE on needs an even width (of an odd one the page shows
        # the core's message, which names the width: not a legal link)
        width = draw(st.sampled_from((2, 4) if link.get("rope") == "true" else (1, 2, 3, 4)))
        for name in ("wq", "wk", "wv"):
            link[name] = matrix_text(draw(matrices(d_in, width)))
    if page == "5_Causal_mask" and draw(st.booleans()):
        row = st.lists(st.booleans(), min_size=count, max_size=count)
        rows = draw(st.lists(row, min_size=count, max_size=count))
        link["my_mask"] = matrix_text([[1.0 if v else 0.0 for v in r] for r in rows])
    # Page 13's steppers count tiles and tokens: the first tile pair always exists (the grid of
    # tests/ui/test_settings_sweep.py steps further), DeltaNet has one step per token.
    if "tile_step" in link:
        link["tile_step"] = "1"
    if "delta_step" in link:
        link["delta_step"] = str(min(int(link["delta_step"]), count))
    if "n_kv_heads" in link or "n_heads" in link:  # page 13's calculator: K/V heads that
        n_heads = int(link.get("n_heads", PARAMS["n_heads"].default))  # divide its heads
        shares = [k for k in range(1, n_heads + 1) if n_heads % k == 0]
        link["n_kv_heads"] = str(draw(st.sampled_from(shares)))
    if page == "0_Compare" and draw(st.booleans()):
        link["pin"] = pin_of(link, seed=draw(st.integers(0, 99)))
    return link


def pin_of(link: dict[str, str], **changes: object) -> str:
    """A pin of the link's matrix and settings (what *Pin* keeps), with some values changed."""
    kept = {k: v for k, v in link.items() if k in PARAMS and PARAMS[k].scope in PIN_SCOPES}
    return urlencode({**kept, **{k: str(v) for k, v in changes.items()}})


def page_lesson_names(page: str) -> tuple[str, ...]:
    """The lesson knobs of one page that have a widget."""
    return tuple(n for n in lesson_params(page) if PARAMS[n].widget)
