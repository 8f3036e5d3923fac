"""The real-model path on the tiny model the tests build: tokens, two contexts, heads.

Loading failures are in test_loading_failures.py; the packaged MiniLM in test_minilm.py.
"""

import pytest

from attention_core import AttentionInputError
from attention_core.knobs.table import SENTENCE_TOKENS
from real_model import compare_word, load_model, reproduce_head
from real_model.analysis import encode, noncontextual_embeddings, token_count

ODYSSEY = "I must go back to my ship and to my crew"
ORDER = "We process and ship your order"


@pytest.fixture(scope="module")
def loaded(tiny_model):
    return load_model(str(tiny_model))


def test_preset_sentences_tokenise_as_the_model_splits_them(loaded):
    tokens, _ = encode(loaded, ODYSSEY)
    assert tokens == [
        "[CLS]",
        "i",
        "must",
        "go",
        "back",
        "to",
        "my",
        "ship",
        "and",
        "to",
        "my",
        "crew",
        "[SEP]",
    ]
    assert encode(loaded, ORDER)[0][1:-1] == ["we", "process", "and", "ship", "your", "order"]
    assert encode(loaded, "ships")[0][1:-1] == ["ship", "##s"]


def test_long_sentences_are_cut_at_the_parameter_tables_limit(loaded):
    tokens, _ = encode(loaded, " ".join(["ship"] * 50))
    assert len(tokens) == SENTENCE_TOKENS == 32 and tokens[-1] == "[SEP]"
    assert token_count(loaded, " ".join(["ship"] * 50)) == 52  # with [CLS] and [SEP]
    assert token_count(loaded, ORDER) == len(encode(loaded, ORDER)[0]) == 8


def test_every_layer_and_head_is_reproduced_to_1e_5(loaded):
    for layer in range(loaded.num_layers):
        for head in range(loaded.num_heads):
            result = reproduce_head(loaded, ODYSSEY, layer, head)
            assert result.max_diff < 1e-5, (layer, head, result.max_diff)
            assert result.trace.weights.shape == (1, 13, 13)


def test_two_contexts_move_ship_apart(loaded):
    comparison = compare_word(loaded, ODYSSEY, ORDER, "ship")
    assert comparison.noncontextual_cosine == pytest.approx(1.0, abs=1e-6)
    assert comparison.contextual_cosine < 0.99
    assert comparison.top_a[0][0] == "ship"  # a word attends most to itself (seed 001)
    embeddings = noncontextual_embeddings(loaded, ODYSSEY)
    assert embeddings.values.shape == (13, 16)


def test_a_word_missing_from_a_sentence_is_named(loaded):
    with pytest.raises(AttentionInputError, match="“crew” is not one of the model's tokens"):
        compare_word(loaded, ODYSSEY, ORDER, "crew")
