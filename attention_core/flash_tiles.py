"""FlashAttention's tiles: one head's softmax attention computed tile by tile with a running
maximum and a running sum (online softmax), never holding the whole score matrix.

For each tile of queries, the key tiles are visited in order. Each visit scores the query tile
against one key tile, raises the running maximum m where the tile holds a larger score, scales
the running sum l and the partial output O by exp(m_old − m_new) so that they count from the
new maximum, and adds the tile's exp(score − m_new) and their weighted values. After the last
key tile, O / l is the query tile's output, written once.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from attention_core import steps
from attention_core.errors import AttentionInputError
from attention_core.reference import MATCH_TOLERANCE
from attention_core.trace import AttentionTrace
from translation import _


@dataclass(frozen=True)
class TileStep:
    """One visit of a query tile to a key tile.

    Shapes:
        scores: (query rows, key rows), scaled, −∞ where the mask hides a key
        max_before, max_after, sum_before, sum_after, rescale: (query rows,)
        partial_before, partial_after: (query rows, head_dim), the unnormalised output
        written: (query rows, head_dim) the finished rows (O / l) after the last key tile,
            else None
    """

    query_rows: tuple[int, int]  # 0-based, end excluded
    key_rows: tuple[int, int]
    reads_queries: bool  # the first key tile of this query tile: Q's rows are read in
    scores: torch.Tensor
    max_before: torch.Tensor
    max_after: torch.Tensor
    rescale: torch.Tensor  # exp(max_before − max_after): what the old sum and output are scaled by
    sum_before: torch.Tensor
    sum_after: torch.Tensor
    partial_before: torch.Tensor
    partial_after: torch.Tensor
    written: torch.Tensor | None

    @property
    def all_hidden(self) -> bool:
        """True when the mask hides every score of the tile (a kernel would skip it)."""
        return bool(torch.isneginf(self.scores).all())


@dataclass(frozen=True)
class TiledAttention:
    """Every step, the tiled output beside the plain one, and the score entries held at once.

    Shapes:
        output, plain: (num_tokens, head_dim)
    """

    head: int  # 0-based
    tile_queries: int
    tile_keys: int
    steps: tuple[TileStep, ...]
    output: torch.Tensor
    plain: torch.Tensor

    @property
    def max_difference(self) -> float:
        """Largest difference between the tiled and the plain output."""
        return float((self.output - self.plain).abs().max())

    @property
    def largest(self) -> float:
        """The plain output's largest magnitude, at least 1. Both outputs are float32 sums,
        good to about seven significant digits: two orders of summing differ in proportion
        to the numbers summed, so their difference is judged against this."""
        return max(1.0, float(self.plain.abs().max()))

    @property
    def bound(self) -> float:
        """The largest difference that is rounding: ``MATCH_TOLERANCE`` per unit of output
        (1e-5 for outputs up to 1, 2e-3 for outputs near 200)."""
        return MATCH_TOLERANCE * self.largest

    @property
    def matches(self) -> bool:
        """Whether the tiled output equals the plain one up to float32 rounding."""
        return self.max_difference <= self.bound

    @property
    def held_tiled(self) -> int:
        """Score entries held at once by the tiled computation: one tile's."""
        return max(step.scores.numel() for step in self.steps)

    @property
    def held_plain(self) -> int:
        """Score entries held at once by the plain computation: the whole matrix."""
        return int(self.plain.shape[0]) ** 2


def head_inputs(trace: AttentionTrace, head: int) -> tuple[torch.Tensor, ...]:
    """One head's queries and keys (as scored: turned by RoPE, normalised for cosine) and
    values. Shapes: returns three (num_tokens, head_dim)"""
    queries, keys = trace.scored()
    if trace.config.scoring == "cosine":
        queries, keys = F.normalize(queries, dim=-1), F.normalize(keys, dim=-1)
    values = steps.split_heads(trace.values, trace.num_heads)
    return queries[head], keys[head], values[head]


def plain_attention(trace: AttentionTrace, head: int) -> torch.Tensor:
    """softmax(masked scaled scores) @ values for one head, in one piece (rows with every key
    hidden give 0). Shapes: returns (num_tokens, head_dim)"""
    queries, keys, values = head_inputs(trace, head)
    scores = (queries @ keys.T) / trace.scale_divisor  # (num_tokens, num_tokens)
    hidden = torch.where(trace.allowed, scores, torch.tensor(float("-inf")))
    weights = torch.softmax(hidden, dim=-1).nan_to_num(0.0)
    return weights @ values


def tiled_attention(
    trace: AttentionTrace, head: int, tile_queries: int, tile_keys: int
) -> TiledAttention:
    """Run one head of ``trace`` tile by tile; every step recorded."""
    if tile_queries < 1 or tile_keys < 1:
        raise AttentionInputError(_("a tile needs at least one row"))
    queries, keys, values = head_inputs(trace, head)
    num_tokens, width = values.shape
    output = torch.zeros(num_tokens, width)
    recorded = []
    for q_start in range(0, num_tokens, tile_queries):
        q_rows = (q_start, min(q_start + tile_queries, num_tokens))
        count = q_rows[1] - q_rows[0]
        running = (
            torch.full((count,), float("-inf")),
            torch.zeros(count),
            torch.zeros(count, width),
        )
        for k_start in range(0, num_tokens, tile_keys):
            k_rows = (k_start, min(k_start + tile_keys, num_tokens))
            step = _visit(trace, (queries, keys, values), q_rows, k_rows, running)
            running = (step.max_after, step.sum_after, step.partial_after)
            recorded.append(step)
        finished = recorded[-1].written
        assert finished is not None
        output = torch.cat((output[: q_rows[0]], finished, output[q_rows[1] :]))
    return TiledAttention(
        head=head,
        tile_queries=tile_queries,
        tile_keys=tile_keys,
        steps=tuple(recorded),
        output=output,
        plain=plain_attention(trace, head),
    )


def _visit(
    trace: AttentionTrace,
    head_tensors: tuple[torch.Tensor, torch.Tensor, torch.Tensor],
    q_rows: tuple[int, int],
    k_rows: tuple[int, int],
    running: tuple[torch.Tensor, torch.Tensor, torch.Tensor],
) -> TileStep:
    """One query tile against one key tile: the online softmax's update."""
    queries, keys, values = head_tensors
    max_before, sum_before, partial_before = running
    q_slice, k_slice = slice(*q_rows), slice(*k_rows)
    scores = (queries[q_slice] @ keys[k_slice].T) / trace.scale_divisor  # (rows, cols)
    scores = torch.where(trace.allowed[q_slice, k_slice], scores, torch.tensor(float("-inf")))
    max_after = torch.maximum(max_before, scores.amax(dim=-1))
    # Rows whose every key so far is hidden keep −∞: count from 0 there so exp gives 0, not NaN.
    origin = torch.where(torch.isneginf(max_after), torch.zeros_like(max_after), max_after)
    rescale = torch.exp(max_before - origin)  # (rows,)
    exponentials = torch.exp(scores - origin[:, None])  # (rows, cols)
    sum_after = rescale * sum_before + exponentials.sum(dim=-1)
    partial_after = rescale[:, None] * partial_before + exponentials @ values[k_slice]
    last = k_rows[1] == queries.shape[0]
    written = None
    if last:
        safe_sum = torch.where(sum_after > 0, sum_after, torch.ones_like(sum_after))
        written = partial_after / safe_sum[:, None]
    return TileStep(
        query_rows=q_rows,
        key_rows=k_rows,
        reads_queries=k_rows[0] == 0,
        scores=scores,
        max_before=max_before,
        max_after=max_after,
        rescale=rescale,
        sum_before=sum_before,
        sum_after=sum_after,
        partial_before=partial_before,
        partial_after=partial_after,
        written=written,
    )
