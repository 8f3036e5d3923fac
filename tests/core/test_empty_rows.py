"""Which queries are left with no weight, and why (the sentence under a weights heatmap)."""

from __future__ import annotations

import torch

from attention_core import AttentionConfig, preset_embeddings, run_attention


def test_dropout_and_a_mask_each_leave_rows_without_weight_named_by_their_cause():
    allowed = ((False, False, False), (True, False, False), (True, True, True))
    config = AttentionConfig(mask="custom", custom_mask=allowed, d_out=3)
    masked = run_attention(preset_embeddings("nugues"), config)
    assert masked.rows_without_weight() == ((0, "mask"),)
    # causal, p = 0.9, seed 0: the first three queries lose every weight they had
    dropped = run_attention(
        preset_embeddings("journey"), AttentionConfig(mask="causal", dropout=0.9)
    )
    empty = dropped.rows_without_weight()
    assert empty == ((0, "dropout"), (1, "dropout"), (2, "dropout"))
    for row, _why in empty:
        assert torch.equal(dropped.weights_after_dropout[0, row], torch.zeros(6))
        assert torch.equal(dropped.context[row], torch.zeros(2))
    kept = [row for row in range(6) if row not in {r for r, _w in empty}]
    assert all(bool(dropped.weights_after_dropout[0, row].ne(0).any()) for row in kept)
    assert (
        run_attention(preset_embeddings("journey"), AttentionConfig()).rows_without_weight() == ()
    )
