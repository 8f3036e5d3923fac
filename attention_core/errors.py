"""The project's own error type: every message is one sentence a learner can act on."""

from __future__ import annotations

from typing import Any

import torch


class AttentionInputError(ValueError):
    """Raised when a setting, a matrix or a parameter is invalid; the message says which and why."""


def tensor_of(rows: Any, dtype: torch.dtype, what: str) -> torch.Tensor:
    """``rows`` (nested sequences) as a tensor; ragged or non-numeric rows raise the project's
    error: "``what`` must be rows of ... of equal length"."""
    try:
        return torch.tensor(rows, dtype=dtype)
    except (TypeError, ValueError) as error:
        kind = "true/false" if dtype == torch.bool else "numbers"
        raise AttentionInputError(f"{what} must be rows of {kind} of equal length") from error
