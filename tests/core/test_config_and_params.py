"""Validation: every bad setting raises the project's error with a sentence naming the problem."""

import pytest
import torch

from attention_core import AttentionConfig, AttentionInputError, make_embeddings, run_attention
from attention_core.embeddings import display_labels, preset_embeddings
from attention_core.params import Settings, build_embeddings, check_query, parse_params
from attention_core.parsing import format_matrix, parse_matrix, parse_number


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"d_out": 6, "heads": 4}, "d_out must be divisible by heads: 6 is not divisible by 4"),
        ({"d_out": 0}, "d_out must be between 1 and 16, not 0"),
        ({"heads": 9}, "heads must be between 1 and 8, not 9"),
        ({"seed": 2**32}, "seed must be between 0 and 4294967295, not 4294967296"),
        ({"seed": -1}, "seed must be between 0 and 4294967295"),
        ({"dropout": 1.0}, "dropout must satisfy 0 <= p < 1, not 1.0"),
        ({"dropout": -0.1}, "dropout must satisfy 0 <= p < 1"),
        ({"scaling": "sqrt"}, "scaling must be one of none, d, sqrt_d; got 'sqrt'"),
        ({"mask": "custom"}, "mask 'custom' needs custom_mask"),
        ({"init": "custom"}, "init 'custom' needs W_query, W_key and W_value"),
        ({"d_out": 2.5}, "d_out must be a whole number"),
        ({"train": "yes"}, "train must be true or false"),
    ],
)
def test_config_rejects_bad_settings_with_a_clear_sentence(changes, message):
    with pytest.raises(AttentionInputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        AttentionConfig(**changes)


def test_wrapper_layout_does_not_need_divisibility():
    trace = run_attention(
        preset_embeddings("journey"), AttentionConfig(d_out=3, heads=2, heads_layout="wrapper")
    )
    assert trace.output.shape == (6, 6)
    assert trace.head_dim == 3


def test_identity_init_needs_d_in_divisible_by_heads():
    with pytest.raises(AttentionInputError, match="3 is not divisible by 2"):
        run_attention(preset_embeddings("journey"), AttentionConfig(init="identity", heads=2))


def test_padding_larger_than_tokens_is_rejected():
    with pytest.raises(AttentionInputError, match="padding must be at most the number of tokens"):
        run_attention(preset_embeddings("nugues"), AttentionConfig(mask="padding", padding=4))


def test_padding_mask_blocks_the_last_keys():
    trace = run_attention(preset_embeddings("journey"), AttentionConfig(mask="padding", padding=2))
    assert torch.all(trace.weights[0, :, 4:] == 0)
    assert torch.all(trace.weights[0, :, :4] > 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nan", "is not a number"),
        ("inf", "is not a number"),
        ("1e999", "must be between -10 and 10, not 1e999"),
        ("0x10", "is not a number"),
        ("", "is empty"),
        ("10.5", "must be between -10 and 10"),
        ("1e308", "must be between -10 and 10"),
    ],
)
def test_parse_number_is_strict(text, message):
    with pytest.raises(AttentionInputError, match=message):
        parse_number(text, "row 1, column 2")


def test_parse_number_accepts_plain_numbers():
    assert parse_number(" -0.5 ", "cell") == -0.5
    assert parse_number("1e-3", "cell") == 0.001
    assert parse_number(".25", "cell") == 0.25


def test_matrix_round_trip_and_ragged_rows():
    rows = parse_matrix("0.43,0.15,0.89;0.55,0.87,0.66")
    assert rows == ((0.43, 0.15, 0.89), (0.55, 0.87, 0.66))
    assert format_matrix(rows) == "0.43,0.15,0.89;0.55,0.87,0.66"
    with pytest.raises(AttentionInputError, match="rows have different lengths"):
        parse_matrix("1,2;3")
    with pytest.raises(AttentionInputError, match="row 2, column 1 is not a number"):
        parse_matrix("1,2;x,3")


def test_embeddings_reject_non_finite_values_naming_the_cell():
    with pytest.raises(AttentionInputError, match="row 2, column 1 is not a finite number"):
        make_embeddings(["a", "b"], [[1.0], [float("nan")]])


def test_duplicate_labels_are_disambiguated_by_position():
    tokens = ["i", "must", "go", "back", "to", "my", "ship", "and", "to", "my", "crew"]
    labels = display_labels(tokens)
    assert labels[4] == "to·5" and labels[8] == "to·9"
    assert labels[0] == "i"


def test_parse_params_reports_each_bad_parameter_and_keeps_the_rest():
    settings, errors = parse_params({"d_out": "4", "seed": "abc", "mask": "causal", "zzz": "1"})
    assert settings.config.d_out == 4 and settings.config.mask == "causal"
    assert settings.config.seed == 123  # the bad value kept the base value
    assert "seed: seed must be a whole number, not 'abc'" in errors
    assert "unknown parameter 'zzz'" in errors


def test_parse_params_keeps_base_config_when_the_combination_is_invalid():
    base = Settings()
    settings, errors = parse_params({"d_out": "3", "heads": "2"}, base)
    assert settings.config == base.config
    assert errors == ["d_out must be divisible by heads: 3 is not divisible by 2"]


def test_explicit_matrix_and_tokens_build_embeddings():
    settings, errors = parse_params({"x": "1,0;0,1", "tokens": "a,b", "query": "2"})
    assert errors == []
    embeddings = build_embeddings(settings)
    assert embeddings.tokens == ("a", "b")
    assert check_query(settings, embeddings.num_tokens) == 1
    bad, _ = parse_params({"x": "1,0;0,1", "tokens": "a,b,c"})
    with pytest.raises(AttentionInputError, match="3 labels for 2 rows"):
        build_embeddings(bad)


def test_montreal_and_random_presets_follow_the_seed():
    first = preset_embeddings("montreal", seed=1)
    assert first.values.shape == (4, 8) and first.tokens == ("I", "live", "in", "Montreal")
    assert torch.equal(first.values, preset_embeddings("montreal", seed=1).values)
    assert not torch.equal(first.values, preset_embeddings("montreal", seed=2).values)
    random = preset_embeddings("random", seed=5, num_tokens=7, d_in=2)
    assert random.values.shape == (7, 2)
    assert torch.all((random.values >= 0) & (random.values <= 1))
