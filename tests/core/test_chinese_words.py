"""Chinese for a Chinese learner (issue 53): the book's sentence in Chinese, and the command
line's report in Chinese words around its flags."""

from __future__ import annotations

import contextlib
import io

import torch

from attention_core import AttentionConfig, preset_embeddings, run_attention
from attention_core.cli import main
from tests.core.test_golden import close

# The book's weights of "journey" (section 3.4.1), key by key.
BOOK_JOURNEY = {"Your": 0.1500, "journey": 0.2264, "starts": 0.2199, "with": 0.1311}
BOOK_JOURNEY |= {"one": 0.0906, "step": 0.1820}
ENGLISH_OF = {"你的": "Your", "旅程": "journey", "从": "with", "一": "one", "步": "step"}
ENGLISH_OF |= {"开始": "starts"}


def test_the_chinese_sentence_gives_the_books_weights_in_its_own_word_order():
    embeddings = preset_embeddings("zh_journey")
    assert embeddings.tokens == ("你的", "旅程", "从", "一", "步", "开始")
    trace = run_attention(embeddings, AttentionConfig())
    journey = embeddings.tokens.index("旅程")
    expected = [BOOK_JOURNEY[ENGLISH_OF[word]] for word in embeddings.tokens]
    close(trace.weights[0, journey], expected)
    assert not torch.equal(trace.weights[0, journey], torch.tensor(list(BOOK_JOURNEY.values())))


def report(*args: str) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(list(args))
    return out.getvalue().splitlines()


def test_the_chinese_report_says_its_flags_in_chinese_words():
    lines = report("--lang", "zh_CN", "--heads", "4", "--d_out", "8", "--kv_groups", "2")
    assert lines[2] == (
        "q、k、v 的偏置（qkv_bias）关，输出投影（out_proj）none，头的排布（heads_layout）split，"
        "键值组（kv_groups）2"
    )
    assert report("--heads", "4", "--d_out", "8", "--kv_groups", "2")[2] == (
        "qkv_bias off, out_proj none, heads_layout split, kv_groups 2"
    )
