"""Independent checks: the same computation through PyTorch's own attention implementations."""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from attention_core import rope
from attention_core.trace import AttentionTrace
from translation import _

MATCH_TOLERANCE = 1e-5


@dataclass(frozen=True)
class TorchCheck:
    """Largest absolute differences against PyTorch, or None with the reason it does not apply."""

    sdpa_max_diff: float | None
    sdpa_reason: str
    mha_copied_max_diff: float | None
    mha_bypass_max_diff: float | None
    mha_reason: str

    @property
    def sdpa_matches(self) -> bool:
        """True when F.scaled_dot_product_attention agrees within MATCH_TOLERANCE."""
        return self.sdpa_max_diff is not None and self.sdpa_max_diff < MATCH_TOLERANCE


def check_against_torch(trace: AttentionTrace) -> TorchCheck:
    """Compare the trace with ``F.scaled_dot_product_attention`` and ``nn.MultiheadAttention``.

    The first gets our queries, keys and values (biases included) and is compared per head;
    the second gets our matrices and biases copied in and is compared on the output, after
    the output projection.
    """
    reason = _common_reason(trace)
    sdpa = None if reason else _sdpa_diff(trace)
    mha_reason = reason or _mha_reason(trace)
    copied = bypass = None
    if not mha_reason:
        bypass = _mha_diff(trace, copy_weights=False)
        if trace.inputs.shape[1] <= trace.queries.shape[1]:
            copied = _mha_diff(trace, copy_weights=True)
    return TorchCheck(sdpa, reason, copied, bypass, mha_reason)


def _common_reason(trace: AttentionTrace) -> str:
    config = trace.config
    if config.scoring != "dot":
        return _("PyTorch's attention scores with dot products only (this run uses cosine)")
    if config.norm != "softmax":
        return _("PyTorch's attention normalises with softmax (this run uses {norm})").format(
            norm=config.norm
        )
    if config.mask_strategy not in ("neg_inf", "zero_renorm"):
        return _("the {mask_strategy} strategy is a pitfall PyTorch does not implement").format(
            mask_strategy=config.mask_strategy
        )
    if config.dropout_active:
        return _("PyTorch draws dropout from its global generator, so samples cannot be compared")
    return ""


def _mha_reason(trace: AttentionTrace) -> str:
    if trace.config.rope:
        return _("nn.MultiheadAttention has no rotary position embeddings")
    if trace.config.scaling != "sqrt_d":
        return _("nn.MultiheadAttention always divides by the square root of d_k")
    return ""


def _sdpa_diff(trace: AttentionTrace) -> float:
    """Per head against F.scaled_dot_product_attention, given only the K/V heads a cache
    would hold: ``enable_gqa`` repeats them for their groups itself."""
    queries, _keys = trace.scored()  # (num_heads, num_tokens, head_dim), turned by RoPE if on
    keys, values = trace.cached_keys_values()  # (kv_heads, num_tokens, head_dim)
    if trace.rope_angles is not None:
        keys = rope.rotate(keys, trace.rope_angles)
    expected = F.scaled_dot_product_attention(
        queries,
        keys,
        values,
        attn_mask=trace.allowed,
        scale=1.0 / trace.scale_divisor,
        enable_gqa=trace.kv_heads != trace.num_heads,
    )
    return float((expected - trace.head_context).abs().max())


def _mha_diff(trace: AttentionTrace, copy_weights: bool) -> float:
    """Run nn.MultiheadAttention with our matrices copied in (or the identity bypass of seed 001).

    nn.MultiheadAttention's boolean mask means True = may NOT attend, the opposite of ours.
    """
    layer, inputs = _mha_layer(trace, copy_weights)
    with torch.no_grad():
        output, mean_weights = layer(*inputs, attn_mask=~trace.allowed)
    # nn.MultiheadAttention returns NaN for a row with nothing to attend to; compare the others.
    rows = trace.allowed.any(dim=-1)
    if not rows.any():
        return 0.0
    output_diff = (output[0][rows] - trace.output[rows]).abs().max()
    weight_diff = (mean_weights[0][rows] - trace.mean_weights[rows]).abs().max()
    return float(torch.maximum(output_diff, weight_diff))


def _mha_layer(
    trace: AttentionTrace, copy_weights: bool
) -> tuple[torch.nn.MultiheadAttention, tuple[torch.Tensor, torch.Tensor, torch.Tensor]]:
    """The layer holding our parameters, and its query, key and value inputs (batch of one).

    Our biases go into ``in_proj_bias`` and ``out_proj.bias`` (zeros where we have none; the
    bypass is given queries, keys and values that already hold theirs).
    """
    width = trace.queries.shape[1]
    # Built on the meta device so that no initial values are drawn from the global generator:
    # every parameter is overwritten below.
    layer = torch.nn.MultiheadAttention(
        width, trace.num_heads, bias=True, batch_first=True, device="meta"
    ).to_empty(device="cpu")
    eye = torch.eye(width)
    with torch.no_grad():
        if copy_weights:
            padded = [_pad_rows(m, width) for m in (trace.W_query, trace.W_key, trace.W_value)]
            layer.in_proj_weight.copy_(torch.cat([m.T for m in padded]))
            biases = (trace.b_query, trace.b_key, trace.b_value)
            layer.in_proj_bias.copy_(torch.cat([_or_zeros(b, width) for b in biases]))
            source = _pad_columns(trace.inputs, width).unsqueeze(0)
            inputs = (source, source, source)
        else:
            layer.in_proj_weight.copy_(torch.cat([eye, eye, eye]))
            layer.in_proj_bias.zero_()
            inputs = (trace.queries[None], trace.keys[None], trace.values[None])
        layer.out_proj.weight.copy_(eye if trace.W_out is None else trace.W_out.T)
        layer.out_proj.bias.copy_(_or_zeros(trace.b_out, width))
    return layer, inputs


def _or_zeros(bias: torch.Tensor | None, width: int) -> torch.Tensor:
    return torch.zeros(width) if bias is None else bias


def _pad_rows(matrix: torch.Tensor, rows: int) -> torch.Tensor:
    return torch.cat([matrix, torch.zeros(rows - matrix.shape[0], matrix.shape[1])])


def _pad_columns(matrix: torch.Tensor, columns: int) -> torch.Tensor:
    return torch.cat([matrix, torch.zeros(matrix.shape[0], columns - matrix.shape[1])], dim=1)
