"""The memory calculator against the book's estimator scripts: their formulas stated again
(reference_memory.py) over a grid of arguments, and the totals the scripts' READMEs print."""

from __future__ import annotations

import itertools

import pytest

from attention_core import cli
from attention_core.errors import AttentionInputError
from attention_core.knobs.links import read_params
from attention_core.memory_estimates import (
    SWA_RATIOS,
    ModelSize,
    book_commands,
    estimate,
    gigabytes,
    model_size,
)
from tests.core import reference_memory


def size(**changes) -> ModelSize:
    values = dict(
        context_length=8192,
        emb_dim=2048,
        n_heads=24,
        n_layers=48,
        kv_heads=6,
        latent_dim=1024,
        window=1024,
        swa_ratio="1:0",
        dtype="bf16",
        batch_size=1,
    )
    return ModelSize(**{**values, **changes})


GRID = list(
    itertools.product(
        (1, 100, 8192),  # context_length
        (768, 2048, 4097),  # emb_dim (4097: head_dim rounds)
        ((12, 3), (24, 6), (32, 32), (7, 1)),  # (n_heads, kv_heads)
        (1, 7, 48),  # n_layers
        ("fp32", "bf16", "int8"),
        SWA_RATIOS,
    )
)


def test_the_calculator_gives_the_scripts_bytes_over_a_grid():
    for case in GRID:  # plain arithmetic: the whole grid takes milliseconds
        check_case(*case)


def check_case(context, emb, head_counts, layers, dtype, ratio):
    heads, kv = head_counts
    ours = estimate(
        size(
            context_length=context,
            emb_dim=emb,
            n_heads=heads,
            n_layers=layers,
            kv_heads=kv,
            latent_dim=emb // 3,
            window=512,
            swa_ratio=ratio,
            dtype=dtype,
            batch_size=3,
        )
    )
    group = heads // kv  # the scripts' --n_kv_groups
    expected = {
        **reference_memory.mha_gqa_mla(context, emb, heads, layers, group, emb // 3, 3, dtype),
        **reference_memory.swa(context, 512, emb, heads, layers, group, 3, dtype, ratio),
        **reference_memory.deltanet(3, context, emb, heads, layers, dtype),
    }
    for name, value in expected.items():
        assert getattr(ours, name) == pytest.approx(value, rel=1e-12), (name, context, emb)


def test_the_readmes_printed_totals_worked_by_hand():
    # memory_estimator_mla.py's README: 8192 tokens, 2048 wide, 24 heads, 48 layers,
    # --n_kv_groups 4 (6 K/V heads), bf16, latent 1024. head_dim = ceil(2048/24) = 86.
    mla = estimate(size())
    assert mla.mha == 8192 * 86 * 24 * 2 * 2 * 48 == 3_246_391_296
    assert (mla.gqa, mla.mla) == (811_597_824, 805_306_368)
    assert [gigabytes(x) for x in (mla.mha, mla.gqa, mla.mla)] == ["3.25 GB", "0.81 GB", "0.81 GB"]
    assert f"{mla.ratio('mla'):.2f}x {mla.saving('mla') * 100:.2f}%" == "4.03x 75.19%"
    # memory_estimator_swa.py's README: 32 layers at 5:1 are 27 window layers and 5 full.
    swa = estimate(
        size(
            context_length=32768,
            emb_dim=4096,
            n_heads=32,
            n_layers=32,
            kv_heads=8,
            swa_ratio="5:1",
        )
    )
    assert swa.size.swa_layers == (27, 5)
    assert swa.mha == 17_179_869_184 and swa.gqa == 4_294_967_296
    assert swa.mha_swa == 27 * 16_777_216 + 5 * 536_870_912 == 3_137_339_392
    assert [gigabytes(x) for x in (swa.mha, swa.gqa, swa.mha_swa, swa.gqa_swa)] == [
        "17.18 GB",
        "4.29 GB",
        "3.14 GB",
        "0.78 GB",
    ]
    # The DeltaNet plot's defaults: 2048 wide, 16 heads of 128, 48 layers, bf16, 131072 tokens.
    delta = estimate(
        size(context_length=131_072, n_heads=16, kv_heads=16, n_layers=48, latent_dim=1)
    )
    assert delta.deltanet == 16 * 128 * 128 * 2 * 48 == 25_165_824
    assert delta.mha == 51_539_607_552
    assert delta.deltanet_mix == 12 * 1_073_741_824 + 36 * 524_288


def test_deltanet_does_not_grow_with_the_context_and_the_cache_does():
    short, long = estimate(size(context_length=100)), estimate(size(context_length=10_000))
    assert short.deltanet == long.deltanet
    assert long.mha == 100 * short.mha and long.mla == 100 * short.mla


def test_the_commands_carry_the_scripts_meaning_of_kv_groups():
    commands = book_commands(size(n_heads=32, kv_heads=8, emb_dim=4096))
    assert "--n_heads 32" in commands["mla"] and "--n_kv_groups 4" in commands["mla"]
    assert commands["mla"].endswith("--latent_dim 1024")
    assert "--sliding_window_size 1024 --swa_ratio 1:0" in commands["swa"]
    assert commands["deltanet"].startswith("uv run plot_memory_estimates_gated_deltanet.py")


def test_kv_heads_that_do_not_divide_the_heads_are_refused_with_a_sentence():
    with pytest.raises(
        AttentionInputError, match="n_kv_heads must divide n_heads: 24 heads cannot share 5"
    ):
        size(kv_heads=5)


def test_the_command_line_prints_the_calculators_bytes_and_the_scripts_commands(capsys):
    argv = ["--n_heads", "32", "--n_kv_heads", "8", "--emb_dim", "4096", "--n_layers", "32"]
    argv += ["--context_length", "32768", "--swa_ratio", "5:1", "--lang", "en"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "17,179,869,184 B" in out and "3.14 GB" in out and "0.78 GB" in out
    assert "memory_estimator_swa.py --context_length 32768" in out
    assert "--n_kv_groups 4" in out  # the scripts' meaning: query heads per K/V head
    with pytest.raises(SystemExit):
        cli.main(["--n_kv_heads", "5"])
    assert "24 heads cannot share 5 K/V heads" in capsys.readouterr().err


def test_a_link_with_kv_heads_that_do_not_divide_the_heads_is_settled_with_a_notice():
    settings, notices = read_params({"n_heads": ["24"], "n_kv_heads": ["5"]})
    assert (settings["n_heads"], settings["n_kv_heads"]) == (24, 4)  # the most that divide
    assert [(n.param, n.used) for n in notices] == [("n_kv_heads", "4")]
    assert estimate(model_size(settings.values)).gqa == estimate(size(kv_heads=4)).gqa
