"""Validation: every bad setting raises the project's error with a sentence naming the problem."""

import itertools
import math
import re
from dataclasses import fields

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from attention_core import AttentionConfig, AttentionInputError, make_embeddings, run_attention
from attention_core.embeddings import Embeddings, display_labels, preset_embeddings
from attention_core.formatting import format_number, format_scientific
from attention_core.knobs.links import link_params, read_params
from attention_core.knobs.settings import default_settings
from attention_core.knobs.settle import follow_tokens, restore, settle, wishes_after
from attention_core.knobs.table import CONFIG_PARAMS, PARAMS
from attention_core.knobs.text import (
    FLOAT32_TINY,
    VALUE_LIMIT,
    as_linked,
    check_label,
    check_text,
    format_matrix,
    parse_int,
    parse_matrix,
    parse_number,
)
from tests.link_values import HOSTILE, is_bad


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"d_out": 6, "heads": 4}, "d_out must be divisible by heads: 6 is not divisible by 4"),
        ({"d_out": 0}, "d_out must be between 1 and 8, not 0"),
        ({"heads": 9}, "heads must be between 1 and 8, not 9"),
        ({"seed": 2**32}, "seed must be between 0 and 4294967295, not 4294967296"),
        ({"seed": -1}, "seed must be between 0 and 4294967295"),
        ({"dropout": 1.0}, "dropout must be between 0 and 0.9, not 1.0"),
        ({"dropout": float("nan")}, "dropout must be between 0 and 0.9, not nan"),
        ({"scaling": "sqrt"}, "scaling must be one of none, d, sqrt_d, not 'sqrt'"),
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


def test_typed_weights_bring_their_own_width_whatever_d_out_says():
    # A review: three typed columns with three heads were refused because d_out (2, unused
    # with typed weights) is not divisible by 3.
    eye = tuple(tuple(float(i == j) for j in range(3)) for i in range(3))
    config = AttentionConfig(init="custom", custom_weights=(eye, eye, eye), heads=3)
    trace = run_attention(preset_embeddings("journey"), config)
    assert trace.num_heads == 3 and trace.head_dim == 1
    with pytest.raises(AttentionInputError, match="3 is not divisible by 2"):
        run_attention(preset_embeddings("journey"), config.replace(heads=2))


def test_identity_init_needs_d_in_divisible_by_heads():
    with pytest.raises(AttentionInputError, match="3 is not divisible by 2"):
        run_attention(preset_embeddings("journey"), AttentionConfig(init="identity", heads=2))


def test_a_ragged_custom_mask_and_float64_embeddings_are_refused_in_words():
    # A review: both reached torch and raised its own ValueError / RuntimeError.
    ragged = ((True, False), (True,), (True, True))
    with pytest.raises(AttentionInputError, match="rows of true/false of equal length"):
        config = AttentionConfig(mask="custom", custom_mask=ragged)
        run_attention(preset_embeddings("nugues"), config)
    with pytest.raises(AttentionInputError, match="must be float32"):
        Embeddings(("a", "b"), torch.ones(2, 3, dtype=torch.float64))


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
        ("1e999", "must be between −10 and 10, not 1e999"),
        ("0x10", "is not a number"),
        ("１２", "is not a number written with the digits 0-9"),
        ("٣", "is not a number written with the digits 0-9"),
        ("", "is empty"),
        ("10.5", "must be between −10 and 10"),
        ("1e308", "must be between −10 and 10"),
        ("0,5", r"not a number .*'0,5' \(write the decimals after a point: 0\.5\)$"),
        ("-12,75", r"'-12,75' \(write the decimals after a point: -12\.75\)$"),
        ("1,000,000", r"'1,000,000'$"),  # thousands, not a decimal comma: no hint
        ("1e-400", "too close to 0 to compute in float32: .* not 1e-400$"),  # 0.0 as a float
        ("-1e-39", "too close to 0 .* at least 1.2e-38 in size, not -1e-39$"),  # float32: not 0
    ],
)
def test_parse_number_is_strict(text, message):
    with pytest.raises(AttentionInputError, match=message):
        parse_number(text, "row 1, column 2")


def test_a_whole_number_too_long_to_be_in_range_is_called_out_of_range():
    # Found in Chromium: 23 nines were "not a whole number written with the digits 0-9".
    with pytest.raises(AttentionInputError, match="seed must be between 0 and 4294967295"):
        parse_int("9" * 23, "seed", 0, 2**32 - 1)
    assert parse_int("0" * 30 + "7", "seed", 0, 2**32 - 1) == 7
    assert parse_int("-" + "0" * 5000 + "7", "x", -10, 10) == -7  # int() refuses 4301 digits
    with pytest.raises(AttentionInputError, match="written with the digits 0-9"):
        parse_int("9" * 23 + "x", "seed", 0, 2**32 - 1)


def test_parse_number_accepts_plain_numbers():
    assert parse_number(" -0.5 ", "cell") == -0.5
    assert parse_number("1e-3", "cell") == 0.001
    assert parse_number(".25", "cell") == 0.25
    assert parse_number("0e-400", "cell") == parse_number("-0.000", "cell") == 0.0
    assert parse_number("1.2e-38", "cell") == 1.2e-38
    assert torch.finfo(torch.float32).tiny == FLOAT32_TINY


def test_a_number_copied_from_the_screen_reads_back_with_its_minus_sign():
    """Issue 39, item 7: the app prints "−0.2104" (U+2212) everywhere; copied from a table or
    a sentence, it must paste back into the grid, a link or a flag."""
    shown = format_number(-0.2104)
    assert shown == "\u22120.2104"
    assert parse_number(shown, "cell") == -0.2104
    assert parse_number(format_scientific(-2.8e-06), "cell") == -2.8e-06  # "−2.8e−06"
    assert parse_int("\u22123", "x", -10, 10) == -3
    assert parse_matrix("\u22120.5,1;2,\u22121e\u22123", 12, 16) == ((-0.5, 1.0), (2.0, -0.001))
    with pytest.raises(AttentionInputError, match="must be between \u221210 and 10, not 11"):
        parse_number("11", "cell")
    with pytest.raises(AttentionInputError, match="'\u2212\u22121'"):  # echoed as typed
        parse_number("\u2212\u22121", "cell")


def test_matrix_round_trip_and_ragged_rows():
    rows = parse_matrix("0.43,0.15,0.89;0.55,0.87,0.66", 12, 16)
    assert rows == ((0.43, 0.15, 0.89), (0.55, 0.87, 0.66))
    assert format_matrix(rows) == "0.43,0.15,0.89;0.55,0.87,0.66"
    with pytest.raises(AttentionInputError, match="rows have different lengths"):
        parse_matrix("1,2;3", 12, 16)
    with pytest.raises(AttentionInputError, match="row 2, column 1 is not a number"):
        parse_matrix("1,2;x,3", 12, 16)
    with pytest.raises(AttentionInputError, match="the matrix has 13 rows; at most 12 tokens"):
        parse_matrix(";".join(["1"] * 13), 12, 16)


@given(st.floats(-VALUE_LIMIT, VALUE_LIMIT).filter(lambda v: v == 0 or abs(v) >= FLOAT32_TINY))
def test_a_link_keeps_every_accepted_number_however_small(value):
    """What a link writes is accepted again, never turns a number into 0, stays within 6
    significant digits (6 decimals from 1 up), and reads back to itself."""
    text = format_matrix(((value,),))
    back = parse_matrix(text, 12, 16)[0][0]
    assert back == as_linked(value)
    assert (back == 0) == (value == 0) and math.copysign(1, back) * value >= 0
    assert abs(back - value) <= (5e-7 if abs(value) >= 1 else 5e-6 * abs(value))
    assert format_matrix(((back,),)) == text


def test_a_link_writes_small_numbers_with_their_digits():
    assert format_matrix(((1e-7, -1.5e-30, 0.000012),)) == "1e-07,-1.5e-30,1.2e-05"
    assert format_matrix(((0.123456789, 12.3456789, -0.0),)) == "0.123457,12.345679,0"
    tiny = torch.finfo(torch.float32).tiny  # six digits would round it below the limit
    assert parse_matrix(format_matrix(((tiny,),)), 12, 16) == ((tiny,),)


def test_embeddings_reject_non_finite_values_naming_the_cell():
    with pytest.raises(AttentionInputError, match="row 2, column 1 is not a finite number"):
        make_embeddings(["a", "b"], [[1.0], [float("nan")]])


def test_duplicate_labels_are_disambiguated_by_position():
    tokens = ["i", "must", "go", "back", "to", "my", "ship", "and", "to", "my", "crew"]
    labels = display_labels(tokens)
    assert labels[4] == "to·5" and labels[8] == "to·9"
    assert labels[0] == "i"


def test_read_params_reports_each_bad_parameter_and_keeps_the_rest():
    settings, notices = read_params(
        {"d_out": ["4"], "seed": ["abc"], "mask": ["causal"], "zzz": ["1"], "init": ["nope"]}
    )
    config = settings.config()
    assert config.d_out == 4 and config.mask == "causal"
    assert config.seed == 123 and config.init == "book"  # each bad value fell back on its own
    by_param = {notice.param: notice.message for notice in notices}
    assert by_param["seed"] == (
        "seed must be a whole number written with the digits 0-9, not 'abc'; using 123"
    )
    assert by_param["init"].startswith("init must be one of book, linear, identity")
    assert by_param["zzz"] == "'zzz' is not a setting; ignored"


def test_out_proj_and_qkv_bias_come_from_the_table_with_the_book_defaults():
    assert PARAMS["out_proj"].choices == ("none", "linear", "identity")
    assert AttentionConfig().out_proj == "none" and AttentionConfig().qkv_bias is False
    settings, notices = read_params({"out_proj": ["seeded"], "qkv_bias": ["maybe"]})
    assert settings["out_proj"] == "none" and settings["qkv_bias"] is False
    by_param = {notice.param: notice.message for notice in notices}
    assert by_param["out_proj"] == (
        "out_proj must be one of none, linear, identity, not 'seeded'; using none"
    )
    assert by_param["qkv_bias"] == "qkv_bias must be true or false, not 'maybe'; using false"


def test_a_clash_falls_back_on_the_dependent_value_only():
    settings, notices = read_params({"d_out": ["3"], "heads": ["2"], "seed": ["7"]})
    assert settings["d_out"] == 3 and settings["seed"] == 7
    assert settings["heads"] == 1
    assert [n.message for n in notices] == [
        "heads must divide the width of queries: 3 is not divisible by 2; using 1"
    ]
    settings, _ = read_params({"d_out": ["8"], "heads": ["6"]})
    assert settings["heads"] == 4  # the largest head count that fits


def learner_step(settings, wishes, **changes):
    """One run as ui.session.state.begin makes it: the change, the wishes given back, then
    settle."""
    changed, restored, waiting = restore(settings.replace(**changes), wishes)
    settled, notices = settle(changed)
    return settled, restored + notices, wishes_after(changed, settled, notices, waiting)


def test_heads_replaced_for_d_out_come_back_when_d_out_allows_them_again():
    # d_out 4 → 5 → 6 with 2 heads, showing head 2: at 5 one head fits; at 6 both come back.
    settings, wishes = settle(default_settings().replace(d_out=4, heads=2, head=2))[0], {}
    settings, notices, wishes = learner_step(settings, wishes, d_out=5)
    assert (settings["heads"], settings["head"]) == (1, 1)
    assert wishes == {"heads": (2, 1), "head": (2, 1)}
    settings, notices, wishes = learner_step(settings, wishes, d_out=7)  # 2 does not fit yet
    assert (settings["heads"], settings["head"], notices) == (1, 1, [])
    settings, notices, wishes = learner_step(settings, wishes, d_out=6)
    assert (settings["heads"], settings["head"], wishes) == (2, 2, {})
    assert [n.message for n in notices] == [
        "heads: the 2 chosen before fits again; using 2",
        "head: the 2 chosen before fits again; using 2",
    ]


def test_a_head_replaced_for_a_heads_choice_does_not_come_back_with_the_next_one():
    # Issue 39, item 4: head 3 of 4, then 2 heads (head 2), then 4 heads again: the learner
    # chose the heads both times, so the head they now see stays; nothing comes back.
    settings = settle(default_settings().replace(d_out=8, heads=4, head=3))[0]
    settings, notices, wishes = learner_step(settings, {}, heads=2)
    assert (settings["head"], [n.param for n in notices], wishes) == (2, ["head"], {})
    settings, notices, wishes = learner_step(settings, wishes, heads=4)
    assert (settings["heads"], settings["head"], notices, wishes) == (4, 2, [], {})


def test_a_head_waits_for_its_heads_and_is_forgotten_when_the_learner_picks_them():
    settings = settle(default_settings().replace(d_out=4, heads=2, head=2))[0]
    settings, _, wishes = learner_step(settings, {}, d_out=5)
    assert wishes == {"heads": (2, 1), "head": (2, 1)}
    settings, notices, wishes = learner_step(settings, wishes, d_out=6, heads=2)
    # The learner chose 2 heads as d_out allowed them: a heads choice, so head 1 stays.
    assert (settings["heads"], settings["head"], notices, wishes) == (2, 1, [], {})


def test_heads_that_fit_only_in_part_wait_until_they_fit_whole():
    settings = settle(default_settings().replace(d_out=4, heads=4))[0]
    settings, _, wishes = learner_step(settings, {}, d_out=5)
    settings, notices, wishes = learner_step(settings, wishes, d_out=6)
    assert (settings["heads"], wishes["heads"], notices) == (1, (4, 1), [])
    settings, notices, wishes = learner_step(settings, wishes, d_out=8)
    assert (settings["heads"], wishes) == (4, {})


def test_a_replaced_value_is_forgotten_once_the_learner_chooses_another():
    settings = settle(default_settings().replace(d_out=4, heads=2))[0]
    settings, _, wishes = learner_step(settings, {}, d_out=5)
    settings, _, wishes = learner_step(settings, wishes, heads=5)  # chosen: 2 is forgotten
    assert wishes == {}
    settings, notices, wishes = learner_step(settings, wishes, d_out=6)
    assert settings["heads"] == 3  # 5 does not divide 6: the largest that fits
    assert wishes == {"heads": (5, 3)}
    assert [n.message for n in notices] == [
        "heads must divide the width of queries: 6 is not divisible by 5; using 3"
    ]


@given(st.lists(st.integers(1, 8), min_size=1, max_size=8), st.sampled_from([2, 3, 4]))
def test_wished_heads_are_back_whenever_d_out_allows_them(walk, asked):
    """Along any walk of d_out, the heads first asked for are used whenever they fit, and
    otherwise heads that fit (until then the replaced value stays: quick presses send the
    heads box's old value back, which must not read as the learner's choice)."""
    settings, _, wishes = learner_step(default_settings(), {}, d_out=8, heads=asked)  # a link
    for d_out in walk:
        settings, _, wishes = learner_step(settings, wishes, d_out=d_out)
        if d_out % asked == 0:
            assert settings["heads"] == asked
        else:
            assert settings["heads"] < asked and d_out % settings["heads"] == 0


def test_token_dependent_values_are_brought_into_range_with_a_notice():
    settings, notices = read_params(
        {"preset": ["nugues"], "query": ["5"], "mask": ["padding"], "padding": ["9"]}
    )
    assert settings["query"] == 3 and settings["padding"] == 3
    messages = [n.message for n in notices]
    assert "query: there is no token 5 (the matrix has 3 tokens); using 3" in messages
    assert "padding: 9 is more than the 3 tokens of the matrix; using 3" in messages


@pytest.mark.parametrize(
    "name, asked, said",
    [
        ("window", "9", "window: 9 is more than the 6 tokens of the matrix; using 6"),
        ("window", "40", "window: 40 is more than the 6 tokens of the matrix; using 6"),
        ("kv_step", "40", "kv_step: there is no token 40 (the matrix has 6 tokens); using 6"),
        ("query", "13", "query: there is no token 13 (the matrix has 6 tokens); using 6"),
    ],
)
def test_a_token_value_beyond_any_matrix_is_named_by_the_tokens_this_one_has(name, asked, said):
    """Found in a review: window=9 said "more than the 6 tokens" and used 6, window=40 said
    "between 0 and 12" (7 to 12 fit no 6-token matrix either) and used 0. One rule now."""
    settings, notices = read_params({name: [asked]})
    assert settings[name] == 6
    assert [n.message for n in notices] == [said]
    with pytest.raises(AttentionInputError, match=re.escape(said.split(";")[0])):
        read_params({name: [asked]}, strict=True)  # the command line's flags


def test_a_default_brought_into_range_is_not_reported_as_the_links_choice():
    # Found in Chromium: a one-token link was told "there is no token 2"; it never asked.
    settings, notices = read_params({"x": ["0.5,0.2"], "tokens": ["solo"]})
    assert settings["query"] == 1 and notices == []
    settings, notices = read_params({"x": ["0.5,0.2"], "tokens": ["solo"], "query": ["3"]})
    assert [n.message for n in notices] == [
        "query: there is no token 3 (the matrix has 1 token); using 1"
    ]


def test_repeated_parameters_use_the_last_one_and_say_so():
    settings, notices = read_params({"seed": ["1", "2"]})
    assert settings["seed"] == 2
    assert notices[0].message == "seed is given 2 times; the last one is used"


def test_explicit_matrix_and_tokens():
    settings, notices = read_params({"x": ["1,0;0,1"], "tokens": ["a,b"], "query": ["2"]})
    assert notices == []
    assert settings.embeddings().tokens == ("a", "b") and settings.query_index == 1
    settings, notices = read_params({"x": ["1,0;0,1"], "tokens": ["a,b,c"]})
    assert settings.tokens == ("t1", "t2")
    assert notices[0].message == "3 token labels for 2 rows of the matrix; using t1, t2"
    settings, notices = read_params({"x": ["1,2,3;4,5,6"], "tokens": ["a"]})
    assert notices[0].message == "1 token label for 2 rows of the matrix; using t1, t2"
    settings, notices = read_params({"x": ["1,2,3"], "tokens": ["a,b"]})
    assert notices[0].message == "2 token labels for 1 row of the matrix; using t1"


def test_a_bad_matrix_falls_back_to_the_preset_and_keeps_its_labels_if_they_fit():
    settings, notices = read_params({"x": ["1,zz;0,1"], "tokens": ["a,b,c,d,e,f"], "d_out": ["3"]})
    assert settings.rows == preset_embeddings("journey").as_rows()
    assert settings.tokens == ("a", "b", "c", "d", "e", "f") and settings["d_out"] == 3
    assert notices[0].param == "x" and "row 1, column 2" in notices[0].message


def test_links_round_trip_every_setting():
    settings, _ = read_params(
        {
            "preset": ["random"],
            "num_tokens": ["4"],
            "d_in": ["2"],
            "seed": ["9"],
            "mask": ["causal"],
            "dropout": ["0.35"],
            "train": ["false"],
            "query": ["3"],
            "qkv_bias": ["true"],
            "out_proj": ["linear"],
        }
    )
    assert settings.config().qkv_bias is True and settings.config().out_proj == "linear"
    edited = settings.replace(rows=((1.0, -2.5),) * 4, tokens=("a", "b", "a", "c"))
    for original in (settings, edited):
        params = link_params(original)
        again, notices = read_params({k: [v] for k, v in params.items()})
        assert notices == [] and again == original
    assert link_params(default_settings()) == {}


ONLY_WHEN = [name for name, param in PARAMS.items() if param.only_when is not None]


@pytest.mark.parametrize("name", ONLY_WHEN)
def test_a_link_leaves_out_a_value_its_view_does_not_use(name):
    # Issue 39, item 22: the random example's size stayed in the link under another example,
    # the padding under another mask, page 10's own sentence under seed 001's.
    param = PARAMS[name]
    other, wanted = param.only_when
    value = param.default + 1 if param.kind == "int" else "my own words"
    unused = default_settings().replace(**{name: value})
    assert unused[other] != wanted and link_params(unused) == {}
    used = unused.replace(**{other: wanted})
    assert link_params(used)[name] == PARAMS[name].to_text(value)


def test_a_link_without_unused_values_still_shows_the_same_numbers():
    settings, _ = read_params(
        {"preset": ["random"], "num_tokens": ["8"], "d_in": ["5"], "seed": ["7"]}
        | {"mask": ["padding"], "padding": ["3"], "d_out": ["4"]}
    )
    # The learner then chooses the Montreal example (seeded too) and the causal mask.
    montreal = preset_embeddings("montreal", seed=7)
    left = settings.replace(
        preset="montreal", mask="causal", tokens=montreal.tokens, rows=montreal.as_rows()
    )
    params = link_params(left)
    assert params == {"preset": "montreal", "seed": "7", "mask": "causal", "d_out": "4"}
    again, notices = read_params({k: [v] for k, v in params.items()})
    assert notices == [] and (again.tokens, again.rows) == (left.tokens, left.rows)
    assert again.config().replace(padding=3) == left.config()
    shown = run_attention(left.embeddings(), left.config())
    opened = run_attention(again.embeddings(), again.config())
    assert torch.equal(opened.weights, shown.weights) and torch.equal(opened.context, shown.context)


def test_the_config_follows_the_parameter_table():
    config_fields = [f.name for f in fields(AttentionConfig)]
    assert set(CONFIG_PARAMS) <= set(config_fields)
    assert set(config_fields) - set(CONFIG_PARAMS) == {"custom_weights", "custom_mask"}
    for name in CONFIG_PARAMS:
        assert getattr(AttentionConfig(), name) == PARAMS[name].default


def test_montreal_and_random_presets_follow_the_seed():
    first = preset_embeddings("montreal", seed=1)
    assert first.values.shape == (4, 8) and first.tokens == ("I", "live", "in", "Montreal")
    assert torch.equal(first.values, preset_embeddings("montreal", seed=1).values)
    assert not torch.equal(first.values, preset_embeddings("montreal", seed=2).values)
    random = preset_embeddings("random", seed=5, num_tokens=7, d_in=2)
    assert random.values.shape == (7, 2)
    assert torch.all((random.values >= 0) & (random.values <= 1))


@pytest.mark.parametrize(
    ("label", "message"),
    [
        ("a\u200bb", "contains U+200B (zero width space)"),
        ("\u202eabc", "contains U+202E (right-to-left override)"),
        ("a\x1b[2Jb", "contains U+001B"),
        ("tab\there", "contains U+0009"),
        ("x" * 21, "has 21 characters; at most 20"),
        ("a,b", "contains ',' or ';'"),
        ("   ", "is empty"),
    ],
)
def test_labels_take_printable_characters_only(label, message):
    with pytest.raises(AttentionInputError, match=re.escape(message)):
        check_label(label, "row 3, token")


@pytest.mark.parametrize(
    "label", ["<b>hi</b>", "![x](http://e)", "# head", "$x^2$", "étoile", "東京"]
)
def test_labels_with_markup_characters_are_accepted_as_text(label):
    assert check_label(f" {label} ", "token") == label


def _without(settings, *deleted):
    """The settings after rows ``deleted`` (0-based) left the matrix, positions unmoved, and
    where each row went."""
    kept = [i for i in range(settings.num_tokens) if i not in deleted]
    after = settings.replace(
        tokens=tuple(settings.tokens[i] for i in kept), rows=tuple(settings.rows[i] for i in kept)
    )
    moved = {i: (kept.index(i) if i in kept else None) for i in range(settings.num_tokens)}
    return after, moved, settings.tokens


def test_token_positions_follow_their_token_through_deletions_above_them():
    settings = default_settings().replace(query=4, isolate=6, peek_token=2, padding=2)
    moved, notices = follow_tokens(*_without(settings, 0, 2))
    assert (moved["query"], moved["isolate"], moved["peek_token"]) == (2, 4, 1)
    assert moved["padding"] == 2  # a count of tokens at the end, not a token
    assert notices == []
    everyone = settings.replace(isolate=0)  # 0: every token, not a position
    assert follow_tokens(*_without(everyone, 0))[0]["isolate"] == 0


def test_a_setting_whose_own_token_is_deleted_moves_on_and_says_so():
    settings = default_settings().replace(query=4, isolate=4, peek_token=4)
    moved, notices = follow_tokens(*_without(settings, 3))  # "with"
    assert moved.tokens[3] == "one" and moved["query"] == 4 and moved["peek_token"] == 4
    assert moved["isolate"] == 0  # every token's lines, rather than another token's
    assert [n.message for n in notices] == [
        "query: token 4 (with) was deleted; using 4 (one)",
        "isolate: token 4 (with) was deleted, so every token's lines are shown",
        "peek_token: token 4 (with) was deleted; using 4 (one)",
    ]
    last = default_settings().replace(query=6, isolate=6)  # peek_token: the lesson's 6
    moved, notices = follow_tokens(*_without(last, 5))
    assert (moved["query"], moved["isolate"], moved["peek_token"]) == (5, 0, 5)
    assert [n.param for n in notices] == ["query", "isolate"]  # no one chose token 6 to peek


def test_an_over_long_text_is_refused_by_its_length_before_its_characters_are_read():
    # A review measured 1.2 s for 10 MB once the browser no longer cut a paste.
    with pytest.raises(AttentionInputError, match="has 10000001 characters; at most 200"):
        check_text("x" * 10_000_000 + "\x07", "sentence", 200)
    with pytest.raises(AttentionInputError, match="contains U\\+0007"):
        check_text("x\x07", "sentence", 200)


def test_the_parser_refuses_every_hostile_value_alone_and_never_echoes_it_whole():
    """Every parameter × every hostile link value (issue 11): refused by name unless it is
    free text a learner may type; the other values stay the defaults; a notice quotes at most
    a short piece (the pages' side is tests/ui/test_link_fuzz.py, on a share of these)."""
    defaults = default_settings()
    for name, value in itertools.product(PARAMS, HOSTILE):
        settings, notices = read_params({name: [value]})
        refused = [notice for notice in notices if notice.param == name]
        # The parser refuses an empty or over-long pin; the Compare page refuses what it
        # cannot read as a pin (tests/ui).
        expected = bool(refused) if name == "pin" and is_bad(name, value) else is_bad(name, value)
        assert bool(refused) == expected, (name, value[:20])
        assert [notice for notice in notices if notice.param != name] == [], name
        assert all(len(notice.message) < 300 for notice in refused), name
        assert all(
            settings.values[other] == defaults.values[other]
            for other in PARAMS
            if other != name and other in defaults.values
        ), name
