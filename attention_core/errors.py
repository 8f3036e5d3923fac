"""The project's own error type: every message is one sentence a learner can act on."""

from __future__ import annotations

from typing import Any

import torch

from translation import _


class AttentionInputError(ValueError):
    """Raised when a setting, a matrix or a parameter is invalid; the message says which and why."""


def tensor_of(rows: Any, dtype: torch.dtype, what: str) -> torch.Tensor:
    """``rows`` (nested sequences) as a tensor; ragged or non-numeric rows raise the project's
    error: "``what`` must be rows of ... of equal length"."""
    try:
        return torch.tensor(rows, dtype=dtype)
    except (TypeError, ValueError) as error:
        if dtype == torch.bool:
            message = _("{what} must be rows of true/false of equal length")
        else:
            message = _("{what} must be rows of numbers of equal length")
        raise AttentionInputError(message.format(what=what)) from error
