"""Find English words left on a page drawn in another language (AppTest).

A page in Chinese still shows some Latin text by design: numbers, token labels, formulas,
code, the names of things (softmax, GloVe, PyTorch, d_out) and the sentences a learner types.
What must not be left is English prose: a label, a title, a help text or a sentence that did
not go through the catalog. :func:`english_left` finds it in one text; :func:`leftovers` in
every text a page shows, its charts' titles, axes and descriptions included.

Run it on a page to list what is left: ``python -m tests.ui.untranslated 5_Causal_mask``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable

from streamlit.testing.v1 import AppTest

from attention_core.knobs.table import PARAMS
from real_model import seed001
from tests.ui import apptest

# Names and symbols a Chinese page keeps in Latin letters.
KEPT = frozenset(
    [
        "softmax",
        "argmax",
        "sigmoid",
        "relu",
        "gelu",
        "tanh",
        "exp",
        "log",
        "max",
        "min",
        "sum",
        "mean",
        "sqrt",
        "norm",
        "cos",
        "sin",
        "nan",
        "inf",
        "glove",
        "minilm",
        "pytorch",
        "torch",
        "numpy",
        "pandas",
        "bert",
        "gpt",
        "llama",
        "mistral",
        "llm",
        "llms",
        "transformer",
        "transformers",
        "rope",
        "kv",
        "gqa",
        "mqa",
        "mha",
        "sdpa",
        "qkv",
        "csv",
        "json",
        "url",
        "http",
        "https",
        "www",
        "png",
        "svg",
        "ok",
        "d_out",
        "d_in",
        "d_k",
        "d_model",
        "num_heads",
        "head_dim",
        "num_tokens",
        "dim",
        "dims",
        "keepdim",
        "dtype",
        "float32",
        "cpu",
        "nn",
        "linear",
        "dropout_p",
        "is_causal",
        "attn_mask",
        "masked_fill",
        "triu",
        "tril",
        "matmul",
        "bmm",
        "einsum",
        "multiheadattention",
        "scaled_dot_product_attention",
        "causalattention",
        "selfattention_v1",
        "selfattention_v2",
        "multiheadattentionwrapper",
        "raschka",
        "sebastian",
        "nugues",
        "montreal",
        "leipzig",
        "odyssey",
        "amazon",
        "seed",
        "streamlit",
        "pageup",
        "pagedown",
        "enter",
        "tab",
        "esc",
        "shift",
        "ctrl",
        "alt",
        "space",
        "backspace",
        "delete",
        "true",
        "english",
        "cls",
        "sep",
        "unk",
        "false",
        "none",
        "null",
    ]
)
WORD = re.compile(r"[A-Za-z][A-Za-z'’_-]*[A-Za-z]|[A-Za-z]")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")
# Spans that are never prose: code, formulas, link targets, placeholders, echoes of input.
NOT_PROSE = (
    re.compile(r"(`+).*?\1", re.DOTALL),
    re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.DOTALL),
    re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]", re.DOTALL),
    re.compile(r"\]\([^)]*\)"),
    re.compile(r"https?://\S+"),
    re.compile(r"\b[\w-]+\.(csv|py|json|png)\b"),  # file names
    re.compile(r":material/[a-z_]+:"),
    re.compile(r"\\?['\"“‘«][^'\"”’»\n]{0,80}?\\?['\"”’»]"),
    re.compile(r"<[^>]+>"),
    re.compile(r"\b[A-Za-z]+_[A-Za-z0-9_]+\b"),  # identifiers: d_out, W_query, attn_scores
    re.compile(r"\b[A-Za-z]?[⁽(]?\d+[⁾)]?\b"),
    re.compile(r"\b[A-Za-z]\b"),  # one-letter symbols: x, q, W, K, V
)


def data_words() -> frozenset[str]:
    """Words that are data, not prose: every default token and sentence, seed 001's."""
    texts = [seed001.ODYSSEY, seed001.AMAZON]
    for param in PARAMS.values():
        if param.kind in ("text", "labels") and isinstance(param.default, str | tuple):
            texts.append(
                " ".join(param.default) if isinstance(param.default, tuple) else param.default
            )
    texts.append("Your journey starts with one step I live in Montreal")
    return frozenset(w.lower() for text in texts for w in WORD.findall(text))


def english_left(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English words of ``text`` that are prose: a text with no Chinese in it but an
    English word, or a run of three English words inside Chinese text."""
    kept = KEPT | {a.lower() for a in allowed}
    for pattern in NOT_PROSE:
        text = pattern.sub(" ", text)
    words = [w for w in WORD.findall(text) if w.lower().strip("'’-") not in kept and len(w) > 1]
    if not words:
        return []
    if not CJK.search(text):
        return words
    runs = re.findall(r"(?:[A-Za-z][A-Za-z'’-]*[\s,.;:]+){2,}[A-Za-z][A-Za-z'’-]*", text)
    return [run for run in runs if sum(w.lower() not in kept for w in WORD.findall(run)) >= 3]


def page_texts(at: AppTest) -> list[str]:
    """Every text the page shows a learner, help texts, buttons and tabs included."""
    code = {str(block.value) for block in at.get("code")}  # code is code in every language
    texts = [t for t in apptest.shown_texts(at) if t not in code]
    for kind in (*apptest.WIDGET_KINDS, "button", "checkbox", "text_area", "multiselect"):
        for widget in at.get(kind):
            texts += [getattr(widget, "label", "") or "", getattr(widget, "help", "") or ""]
    texts += [tab.label for tab in at.tabs]
    for spec in apptest.vega_specs(at):
        texts += list(_axis_texts(spec))
    return [t for t in texts if t]


def _axis_texts(spec: object) -> Iterable[str]:
    """Titles, legend titles and descriptions anywhere in a Vega-Lite spec."""
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key in ("title", "description", "aria") and isinstance(value, str):
                yield value
            elif key == "title" and isinstance(value, list):
                yield " ".join(map(str, value))
            elif key not in ("data", "datasets", "values"):
                yield from _axis_texts(value)
    elif isinstance(spec, list):
        for item in spec:
            yield from _axis_texts(item)


def leftovers(at: AppTest, allowed: Iterable[str] = ()) -> dict[str, list[str]]:
    """Each text of the page with English prose left in it, and the words found."""
    allowed = {*allowed, *data_words()}
    found = {}
    for text in page_texts(at):
        words = english_left(text, allowed)
        if words:
            found[text[:160]] = words[:8]
    return found


if __name__ == "__main__":
    for key in sys.argv[1:] or list(apptest.PAGES):
        at = apptest.open_page(key, {"lang": "zh_CN"})
        print(f"== {key}: {len(at.exception)} exceptions")
        for text, words in leftovers(at).items():
            print(f"  {words}  <- {text!r}")
