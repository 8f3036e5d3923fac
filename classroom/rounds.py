"""Two rounds of a question compared: how the share of the correct choice moved (peer
instruction's vote, discuss, vote again)."""

from __future__ import annotations

from collections.abc import Sequence


def correct_shift(first: Sequence[int], second: Sequence[int], correct: int) -> tuple[int, int]:
    """The share (whole per cent) of each round's answers that chose ``correct``."""
    return _share(first, correct), _share(second, correct)


def _share(counts: Sequence[int], choice: int) -> int:
    total = sum(counts)
    return round(100 * counts[choice] / total) if total and 0 <= choice < len(counts) else 0
