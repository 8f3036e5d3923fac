"""The exported script's opening in the book's own terms: its inputs, its seeded weights and
its class, then what the learner changed, written as edits to them.

A reader holding chapter 3 lines the script up with section 3.3.1's ``inputs``, section
3.4.1's ``torch.manual_seed(123)`` and ``torch.nn.Parameter(torch.rand(d_in, d_out),
requires_grad=False)``, and listing 3.1's class. Numbers are written as the learner typed or
saw them (0.43, not 0.4300000071525574): the shortest decimal that is the same float32.
"""

from __future__ import annotations

import struct

import torch

from attention_core.embeddings import JOURNEY_TOKENS, JOURNEY_VALUES
from attention_core.trace import AttentionTrace

BOOK_SEED = 123
BOOK_D_OUT = 2


def short(value: float) -> str:
    """The shortest decimal that reads back as the same float32 (``0.43`` for 0.43f)."""
    target = _float32(value)
    if target != target or target in (float("inf"), float("-inf")):
        return f"float({str(target)!r})"
    for digits in range(1, 10):
        text = f"{value:.{digits}g}"
        if _float32(float(text)) == target:
            return text if ("e" in text or "." in text) else f"{text}.0"
    return repr(target)


def _float32(value: float) -> float:
    return struct.unpack("f", struct.pack("f", value))[0]


def tensor(values: torch.Tensor) -> str:
    """A tensor as source: ``torch.tensor([[0.43, 0.15], ...])``, booleans as they are."""
    if values.dtype == torch.bool:
        return f"torch.tensor({values.tolist()!r})"
    return f"torch.tensor({_nested(values.tolist())})"


def _nested(values: object) -> str:
    if isinstance(values, list):
        return "[" + ", ".join(_nested(v) for v in values) + "]"
    return short(float(values))  # type: ignore[arg-type]


def input_lines(trace: AttentionTrace) -> list[str]:
    """``tokens`` and ``inputs``: section 3.3.1's, then the learner's edits to them, when the
    matrix has the book's shape and most of its numbers; otherwise the learner's own."""
    inputs = trace.inputs  # (num_tokens, d_in)
    book = torch.tensor(JOURNEY_VALUES, dtype=inputs.dtype)
    if inputs.shape != book.shape or int((inputs != book).sum()) > book.numel() // 2:
        return [
            f"tokens = {list(trace.tokens)!r}",
            f"inputs = {tensor(inputs)}  # (num_tokens, d_in): your embeddings",
        ]
    lines = [
        "# Section 3.3.1's sentence, one 3-dimensional embedding per token",
        f"tokens = {list(JOURNEY_TOKENS)!r}",
        "inputs = torch.tensor([",
        *(
            f"    [{', '.join(f'{v:.2f}' for v in row)}],  # {token}"
            for row, token in zip(book.tolist(), JOURNEY_TOKENS, strict=True)
        ),
        "])",
    ]
    edits = [
        f"tokens[{row}] = {token!r}  # the book: {book_token!r}"
        for row, (token, book_token) in enumerate(zip(trace.tokens, JOURNEY_TOKENS, strict=True))
        if token != book_token
    ]
    for row, col in (inputs != book).nonzero().tolist():
        value, was = short(float(inputs[row, col])), short(float(book[row, col]))
        edits.append(f"inputs[{row}, {col}] = {value}  # the book: {was}")
    if edits:
        lines += ["", "# your changes to the book's inputs", *edits]
    return lines


def book_draw(trace: AttentionTrace) -> bool:
    """True when W_query, W_key and W_value are what section 3.4.1's lines draw: three
    ``torch.rand(d_in, d_out)`` in turn after ``torch.manual_seed(seed)`` (checked by drawing
    them again from a generator of that seed)."""
    config = trace.config
    if config.init != "book" or config.qkv_bias:
        return False
    generator = torch.Generator().manual_seed(config.seed)
    shape = tuple(trace.W_query.shape)
    drawn = [torch.rand(shape, generator=generator) for _ in range(3)]
    return all(
        torch.equal(ours, again)
        for ours, again in zip((trace.W_query, trace.W_key, trace.W_value), drawn, strict=True)
    )


def weight_lines(trace: AttentionTrace) -> list[str]:
    """``d_in``, ``d_out`` and the three matrices, seeded as in section 3.4.1."""
    d_out = int(trace.W_query.shape[1])
    seed = trace.config.seed
    return [
        "# Section 3.4.1's weights: seeded, then drawn uniformly from [0, 1)",
        "d_in = inputs.shape[1]",
        f"d_out = {d_out}" + ("" if d_out == BOOK_D_OUT else f"  # the book: {BOOK_D_OUT}"),
        f"torch.manual_seed({seed})" + ("" if seed == BOOK_SEED else f"  # the book: {BOOK_SEED}"),
        *(
            f"W_{part} = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)"
            for part in ("query", "key", "value")
        ),
    ]


def plain(trace: AttentionTrace) -> bool:
    """True for the computation of listing 3.1's class: one head, dot products scaled by
    √d_k, softmax, no mask, no dropout, no bias, no output projection, no rotation."""
    config = trace.config
    return (
        trace.num_heads == 1
        and config.scoring == "dot"
        and config.scaling == "sqrt_d"
        and config.norm == "softmax"
        and bool(trace.allowed.all())
        and not config.dropout_active
        and trace.b_query is None
        and trace.W_out is None
        and trace.rope_angles is None
    )


CLASS_LINES = [
    "class SelfAttention(torch.nn.Module):",
    '    """Listing 3.1\'s SelfAttention_v1, in other words: project, score, normalise, mix."""',
    "",
    "    def __init__(self, W_query, W_key, W_value):",
    "        super().__init__()",
    "        self.W_query, self.W_key, self.W_value = W_query, W_key, W_value",
    "",
    "    def forward(self, x):",
    "        queries = x @ self.W_query  # (num_tokens, d_out)",
    "        keys = x @ self.W_key",
    "        values = x @ self.W_value",
    "        attn_scores = queries @ keys.T  # omega: every query against every key",
    "        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)",
    "        return attn_weights @ values  # the context vectors",
    "",
    "",
    "self_attention = SelfAttention(W_query, W_key, W_value)",
    "output = self_attention(inputs)",
]
