"""Cross-attention: queries from the target, keys and values from the source, checked against
PyTorch's nn.MultiheadAttention (kdim/vdim, weights copied in) and F.scaled_dot_product_attention
(a non-square attn_mask), over random shapes; and the decoder layer built on it."""

import contextlib
import io
import json
import re
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import AttentionConfig, AttentionInputError, cli, make_embeddings, run_attention
from attention_core.compare import changed_settings, pin_text
from attention_core.cross import TARGET_LABELS, cross_config, decoder_layer, target_of
from attention_core.embeddings import preset_embeddings
from attention_core.export import export_decoder_script, export_script
from attention_core.knobs.links import link_params, read_params
from attention_core.steps import split_heads

TOLERANCE = 1e-5


def random_matrix(rows: int, columns: int, seed: int, prefix: str):
    generator = torch.Generator().manual_seed(seed)
    values = torch.randn(rows, columns, generator=generator)
    return make_embeddings([f"{prefix}{i}" for i in range(rows)], values.tolist())


@st.composite
def cross_cases(draw):
    """Source and target lengths 1-12, heads, widths, padding on the source; dropout off."""
    heads = draw(st.sampled_from([1, 2, 4]))
    head_dim = draw(st.integers(1, 2))
    num_source = draw(st.integers(1, 12))
    case = {
        "num_target": draw(st.integers(1, 12)),
        "num_source": num_source,
        "d_source": draw(st.integers(1, 6)),
        "seed": draw(st.integers(0, 10_000)),
    }
    config = AttentionConfig(
        d_out=heads * head_dim,
        heads=heads,
        init="linear",
        seed=case["seed"],
        mask=draw(st.sampled_from(["none", "padding"])),
        padding=draw(st.integers(0, num_source - 1)),  # a source token is always left
        qkv_bias=draw(st.booleans()),
        out_proj=draw(st.sampled_from(["none", "linear"])),
    )
    return case, config


def multihead_attention(trace) -> torch.nn.MultiheadAttention:
    """nn.MultiheadAttention with the trace's matrices copied in: its embed_dim is the queries'
    input width (= the width of queries), kdim = vdim the source's width."""
    width = trace.queries.shape[1]
    d_source = trace.source_inputs.shape[1]
    module = torch.nn.MultiheadAttention(
        width, trace.num_heads, bias=True, kdim=d_source, vdim=d_source, batch_first=True
    )
    zeros = torch.zeros(width)
    with torch.no_grad():
        # PyTorch stores a projection as (out, in) and computes input @ weight.T: transpose.
        matrices = (trace.W_query.T, trace.W_key.T, trace.W_value.T)
        if module.in_proj_weight is not None:  # kdim = embed_dim: one stacked matrix
            module.in_proj_weight.copy_(torch.cat(matrices))
        else:
            for name, matrix in zip(("q", "k", "v"), matrices, strict=True):
                getattr(module, f"{name}_proj_weight").copy_(matrix)
        biases = (trace.b_query, trace.b_key, trace.b_value)
        module.in_proj_bias.copy_(torch.cat([zeros if b is None else b for b in biases]))
        module.out_proj.weight.copy_(torch.eye(width) if trace.W_out is None else trace.W_out.T)
        module.out_proj.bias.copy_(zeros if trace.b_out is None else trace.b_out)
    return module.eval()


@settings(max_examples=60, deadline=None)
@given(cross_cases())
def test_cross_attention_matches_multihead_attention_with_kdim_and_vdim(case_and_config):
    case, config = case_and_config
    width = config.d_out  # nn.MultiheadAttention projects queries from embed_dim to embed_dim
    target = random_matrix(case["num_target"], width, case["seed"], "y")
    source = random_matrix(case["num_source"], case["d_source"], case["seed"] + 1, "x")
    trace = run_attention(target, config, source=source)
    module = multihead_attention(trace)
    # nn.MultiheadAttention's boolean attn_mask is True where attention is NOT allowed: the
    # opposite of ours (and of F.scaled_dot_product_attention's), so it gets ~allowed.
    with torch.no_grad():
        output, weights = module(
            target.values[None],
            source.values[None],
            source.values[None],
            attn_mask=~trace.allowed,
            need_weights=True,
            average_attn_weights=False,
        )
    assert trace.weights.shape == (config.heads, case["num_target"], case["num_source"])
    assert (weights[0] - trace.weights).abs().max() < TOLERANCE
    assert (output[0] - trace.output).abs().max() < TOLERANCE


@settings(max_examples=60, deadline=None)
@given(cross_cases(), st.integers(1, 6))
def test_cross_attention_matches_sdpa_with_a_non_square_mask(case_and_config, d_target):
    case, config = case_and_config
    target = random_matrix(case["num_target"], d_target, case["seed"], "y")
    source = random_matrix(case["num_source"], case["d_source"], case["seed"] + 1, "x")
    trace = run_attention(target, config, source=source)
    heads = trace.num_heads
    queries = split_heads(target.values @ trace.W_query + _or_zero(trace.b_query), heads)
    keys = split_heads(source.values @ trace.W_key + _or_zero(trace.b_key), heads)
    values = split_heads(source.values @ trace.W_value + _or_zero(trace.b_value), heads)
    allowed = torch.ones(case["num_target"], case["num_source"], dtype=torch.bool)
    if config.mask == "padding":
        allowed[:, case["num_source"] - config.padding :] = False
    expected = F.scaled_dot_product_attention(queries, keys, values, attn_mask=allowed)
    assert expected.shape == (heads, case["num_target"], trace.head_dim)
    assert torch.equal(trace.allowed, allowed)
    assert (trace.head_context - expected).abs().max() < TOLERANCE


def _or_zero(bias):
    return 0.0 if bias is None else bias


def test_the_trace_records_both_inputs_shapes_and_the_source():
    target, source = random_matrix(4, 2, 1, "y"), preset_embeddings("journey")
    trace = run_attention(target, AttentionConfig(d_out=2), source=source)
    assert trace.input_shapes == ((4, 2), (6, 3))
    assert trace.is_cross and trace.num_tokens == 4 and trace.num_keys == 6
    assert trace.key_tokens == source.tokens and trace.tokens == target.tokens
    assert trace.W_query.shape == (2, 2) and trace.W_key.shape == (3, 2)
    assert trace.scores.shape == (1, 4, 6)
    itself = run_attention(source, AttentionConfig())
    assert not itself.is_cross and itself.input_shapes == ((6, 3), (6, 3))


def test_a_source_equal_to_the_input_gives_self_attention_bit_for_bit():
    journey = preset_embeddings("journey")
    config = AttentionConfig(d_out=4, heads=2, mask="causal", qkv_bias=True, out_proj="linear")
    alone, crossed = run_attention(journey, config), run_attention(journey, config, source=journey)
    assert torch.equal(alone.output, crossed.output)
    assert torch.equal(alone.W_key, crossed.W_key)


def test_the_causal_mask_is_refused_on_a_non_square_score_matrix():
    target, source = random_matrix(3, 3, 1, "y"), preset_embeddings("journey")
    with pytest.raises(AttentionInputError, match=r"3 target tokens query 6 source tokens"):
        run_attention(target, AttentionConfig(mask="causal"), source=source)
    square = run_attention(
        random_matrix(6, 3, 1, "y"), AttentionConfig(mask="causal"), source=source
    )
    assert torch.equal(square.allowed, torch.tril(torch.ones(6, 6, dtype=torch.bool)))


@pytest.mark.parametrize(("change", "word"), [({"rope": True}, "RoPE"), ({"window": 2}, "window")])
def test_positions_of_one_sequence_are_refused_across_two(change, word):
    target, source = random_matrix(3, 3, 1, "y"), preset_embeddings("journey")
    with pytest.raises(AttentionInputError, match=word):
        run_attention(target, AttentionConfig(**change), source=source)


def test_the_padding_mask_hides_the_sources_last_tokens():
    target, source = random_matrix(3, 2, 1, "y"), preset_embeddings("journey")
    trace = run_attention(target, AttentionConfig(mask="padding", padding=2), source=source)
    assert trace.allowed.shape == (3, 6)
    assert torch.equal(trace.weights[0, :, 4:], torch.zeros(3, 2))
    assert torch.allclose(trace.weights[0].sum(dim=-1), torch.ones(3))
    with pytest.raises(AttentionInputError, match="at most the number of tokens \\(6\\)"):
        run_attention(target, AttentionConfig(mask="padding", padding=7), source=source)


def test_without_projections_both_sequences_need_the_same_width():
    target, source = random_matrix(3, 2, 1, "y"), preset_embeddings("journey")
    with pytest.raises(AttentionInputError, match="2 is not 3"):
        run_attention(target, AttentionConfig(init="identity"), source=source)


def test_the_decoder_layer_runs_causal_self_attention_then_cross_attention():
    source = preset_embeddings("journey")
    target = target_of(None, None, "zh_CN")
    assert target.tokens == TARGET_LABELS["zh_CN"]
    config = AttentionConfig(d_out=4, heads=2, mask="padding", padding=1)
    layer = decoder_layer(target, source, config)
    first, second = layer.self_attention, layer.cross_attention
    assert torch.equal(first.allowed, torch.tril(torch.ones(3, 3, dtype=torch.bool)))
    assert torch.equal(first.weights.triu(1), torch.zeros(2, 3, 3))
    assert second.input_shapes == ((3, 4), (6, 3))  # queries from step 1's output
    assert torch.equal(second.inputs, first.output)
    assert torch.equal(second.allowed[:, 5], torch.zeros(3, dtype=torch.bool))  # padding kept
    assert second.config.seed == config.seed + 1  # its own matrices
    assert not torch.equal(second.W_query, first.W_query)
    assert layer.left_out == ()


def test_the_decoder_layer_leaves_self_attentions_positions_out_of_step_2():
    config = AttentionConfig(d_out=4, mask="causal", window=2, rope=True)
    crossed, left_out = cross_config(config)
    assert left_out == ("mask", "window", "rope")
    assert (crossed.mask, crossed.window, crossed.rope) == ("none", 0, False)
    layer = decoder_layer(target_of(None, None), preset_embeddings("journey"), config)
    assert layer.self_attention.config.window == 2 and layer.self_attention.config.rope
    assert layer.cross_attention.weights.shape == (1, 3, 6)


def test_the_targets_labels_fall_back_to_positions_for_other_sizes():
    assert target_of(((1.0,), (2.0,)), None).tokens == ("y1", "y2")
    assert target_of(None, ("a", "b")).tokens == TARGET_LABELS["en"]  # not one per row
    assert target_of(((1.0,),), ("solo",)).tokens == ("solo",)


def _run_script(text: str, tmp_path, shape) -> torch.Tensor:
    script = tmp_path / "attention.py"
    script.write_text(text)
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    printed = [float(v) for v in re.findall(r"-?\d+\.\d*", result.stdout)]
    return torch.tensor(printed).reshape(shape)


def test_the_exported_decoder_layer_reproduces_both_steps(tmp_path):
    config = AttentionConfig(d_out=4, heads=2, mask="padding", padding=2, qkv_bias=True)
    layer = decoder_layer(target_of(None, None), preset_embeddings("journey"), config)
    second = layer.cross_attention
    text = export_decoder_script(layer.self_attention, second)
    assert "keys = source @ W_key" in text and "masked_fill(~allowed" in text
    printed = _run_script(text, tmp_path, second.output.shape)
    torch.testing.assert_close(printed, second.output, atol=1e-5, rtol=0)
    # One cross-attention run, its queries' input written out: run here (one subprocess, the
    # one above, shows that a script needs nothing but torch).
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(export_script(second), "attention.py", "exec"), namespace)
    torch.testing.assert_close(namespace["output"], second.output, atol=1e-5, rtol=0)


def test_a_link_carries_both_matrices_and_their_labels():
    raw = {
        "x": ["1,0;0,1"],
        "tokens": ["le,chat"],
        "target": ["0.5,0.5;1,-1;0,2"],
        "target_tokens": ["the,cat,sat"],
    }
    settings, notices = read_params(raw)
    assert notices == []
    assert settings["target"] == ((0.5, 0.5), (1.0, -1.0), (0.0, 2.0))
    assert settings["target_tokens"] == ("the", "cat", "sat")
    linked = link_params(settings)
    assert {k: [v] for k, v in linked.items() if k in raw} == raw
    assert read_params({k: [v] for k, v in linked.items()})[0] == settings


def test_a_bad_target_cell_is_named_and_the_last_valid_target_kept():
    base = read_params({"target": ["1,2;3,4"]})[0]
    settings, notices = read_params({"target": ["1,2;3,abc"]}, base)
    assert settings["target"] == ((1.0, 2.0), (3.0, 4.0))
    assert [n.param for n in notices] == ["target"]
    assert notices[0].problem.startswith("target matrix: row 2, column 2 is not a number")
    settings, notices = read_params({"target_tokens": ["a,b,c,d"]})  # 3 starting rows
    assert settings["target_tokens"] is None
    assert notices[0].message == (
        "4 token labels for 3 rows of the target matrix; using the starting labels"
    )


def test_the_command_line_takes_the_target_beside_the_source(capsys):
    status = cli.main(["--target", "0.4,0.2;0.5,0.9", "--target_tokens", "A,B", "--json"])
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    layer = decoder_layer(
        make_embeddings(["A", "B"], [[0.4, 0.2], [0.5, 0.9]]),
        preset_embeddings("journey"),
        AttentionConfig(),
    )
    crossed = data["cross_attention"]
    assert crossed["source_tokens"] == list(preset_embeddings("journey").tokens)
    assert torch.tensor(crossed["output"]).allclose(layer.cross_attention.output)
    with pytest.raises(SystemExit):
        cli.main(["--target", "0.4,0.2;0.5"])
    assert "target matrix: rows have different lengths" in capsys.readouterr().err


def test_compare_neither_pins_nor_names_the_target():
    first = read_params({"target": ["1,2"], "target_tokens": ["a"]})[0]
    second = read_params({"target": ["3,4;5,6"], "d_out": ["3"]})[0]
    assert changed_settings(first, second) == [("d_out", "2", "3")]
    assert pin_text(first) == "preset=journey"
