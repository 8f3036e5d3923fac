"""The embedding matrix as a table: build it for st.data_editor and validate what comes back.

``st.data_editor`` enforces its column limits only in the browser, so every value is checked
again here, on the server, and a problem is reported by row and column.
"""

from __future__ import annotations

import math
from numbers import Real

import pandas as pd

from attention_core import AttentionInputError
from attention_core.parsing import VALUE_LIMIT, check_label, parse_number

TOKEN_COLUMN = "token"


def to_frame(tokens: tuple[str, ...], rows: tuple[tuple[float, ...], ...]) -> pd.DataFrame:
    """A table with one row per token: its label, then one column per dimension."""
    width = len(rows[0]) if rows else 0
    data: dict[str, list[object]] = {TOKEN_COLUMN: list(tokens)}
    for column in range(width):
        data[f"d{column + 1}"] = [row[column] for row in rows]
    return pd.DataFrame(data)


def from_frame(
    frame: pd.DataFrame, max_tokens: int
) -> tuple[tuple[str, ...], tuple[tuple[float, ...], ...]]:
    """Validate an edited table and return its labels and rows.

    Raises:
        AttentionInputError: naming the first bad cell (row and column) and what is wrong.
    """
    count = len(frame)
    if not 1 <= count <= max_tokens:
        raise AttentionInputError(f"the matrix needs 1 to {max_tokens} tokens, not {count}")
    value_columns = [c for c in frame.columns if c != TOKEN_COLUMN]
    tokens, rows = [], []
    for position, (_, record) in enumerate(frame.iterrows(), start=1):
        tokens.append(_label(record.get(TOKEN_COLUMN), f"row {position}, token"))
        rows.append(tuple(_number(record[c], f"row {position}, column {c}") for c in value_columns))
    return tuple(tokens), tuple(rows)


def _label(raw: object, where: str) -> str:
    if raw is None or (isinstance(raw, float) and math.isnan(raw)):
        raise AttentionInputError(f"{where} is empty: give the token a name")
    return check_label(str(raw), where)


def _number(raw: object, where: str) -> float:
    if raw is None or isinstance(raw, bool):
        raise AttentionInputError(f"{where} is empty: type a number")
    if isinstance(raw, Real):
        value = float(raw)
        if math.isnan(value):
            raise AttentionInputError(f"{where} is empty or not a number")
        if not math.isfinite(value) or abs(value) > VALUE_LIMIT:
            raise AttentionInputError(
                f"{where} must be between -{VALUE_LIMIT:g} and {VALUE_LIMIT:g}, not {raw}"
            )
        return value
    return parse_number(str(raw), where)


def numbers_from_frame(frame: pd.DataFrame, name: str) -> tuple[tuple[float, ...], ...]:
    """Validate a table of numbers only (a weight matrix); problems name the row and column."""
    rows = []
    for position, (_, record) in enumerate(frame.iterrows(), start=1):
        rows.append(
            tuple(_number(record[c], f"{name}, row {position}, column {c}") for c in frame.columns)
        )
    return tuple(rows)
