"""The embedding matrix as an editable table, and the browser's edits applied to it.

``st.data_editor`` sends its state as edits relative to the table it was drawn from:
``{"edited_rows": {row: {column: value}}, "added_rows": [{column: value}],
"deleted_rows": [row]}``. Its column limits are enforced only in the browser, so every value
is checked again here, sizes first (a paste of thousands of rows costs nothing), and a problem
is named by row and column.

Numbers travel as text (``text_columns``): the grid's own number cells keep only digits,
a minus sign and a point, so ``1e-3`` arrived as -13 and ``0,5`` as 5 without a word. As text,
what the learner typed reaches ``parse_number`` unchanged, and is taken or refused by name.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from numbers import Real
from typing import TypeVar

import pandas as pd

from attention_core import AttentionInputError
from attention_core.formatting import counted
from attention_core.knobs.param import MAX_TOKENS
from attention_core.knobs.text import check_label, check_value, echo, parse_number
from translation import _

TOKEN_COLUMN = "token"
NEW_LABEL = "new"  # what a row added in the grid is called until the learner names it
Matrix = tuple[tuple[float, ...], ...]
T = TypeVar("T")


class WholeEditError(AttentionInputError):
    """A change that no cell of the grid can fix: it is not applied, and the grid starts again
    from the last valid matrix (else the grid would show what the results do not use)."""


class TooLargeError(WholeEditError):
    """An edit that would make the matrix larger than the dashboard holds."""


class EmptyMatrixError(WholeEditError):
    """An edit that would delete every token."""


def column_names(width: int) -> list[str]:
    """The value columns: d1, d2, ..."""
    return [f"d{column + 1}" for column in range(width)]


SHARED_DECIMALS = (2, 6)  # the decimals every number of a grid shows, at least and at most


def decimals_needed(value: float) -> int:
    """The decimals of the shortest text that reads back as exactly ``value``."""
    exponent = Decimal(repr(float(value))).normalize().as_tuple().exponent
    return max(0, -int(exponent))


def exact_text(value: float, decimals: int) -> str:
    """``value`` with ``decimals`` decimals (at least :func:`decimals_needed`), padded from its
    shortest exact text: float formatting rounds the binary value instead, and next to a power
    of two that rounding can give a text that reads back as the neighbouring float
    (2⁻²⁴ at 23 decimals)."""
    return f"{Decimal(repr(float(value) + 0.0)):.{decimals}f}"  # + 0.0: -0.0 shows as 0


def text_columns(rows: Matrix) -> list[list[str]]:
    """A matrix's numbers as the grid shows them: exact, one column of text per dimension.

    Every number of a column shows the same decimals (the fewest, from 2 to 6, that write each
    of them exactly), so the points line up down the column and one precise number does not
    widen the others; a number that needs more than 6 shows all of its own. Read back with
    ``float``, every text gives the number it came from.
    """
    width = len(rows[0]) if rows else 0
    return [_column_text([row[c] for row in rows]) for c in range(width)]


def _column_text(values: Sequence[float]) -> list[str]:
    needed = [decimals_needed(v) for v in values]
    low, high = SHARED_DECIMALS
    shared = max([low, *(d for d in needed if d <= high)])
    return [exact_text(v, max(shared, need)) for v, need in zip(values, needed, strict=True)]


def to_frame(tokens: Sequence[str], rows: Matrix) -> pd.DataFrame:
    """A table with one row per token: its label, then one text column per dimension."""
    data: dict[str, list[object]] = {TOKEN_COLUMN: list(tokens)}
    width = len(rows[0]) if rows else 0
    data.update(zip(column_names(width), text_columns(rows), strict=True))
    return pd.DataFrame(data)


def numbers_frame(rows: Matrix, names: Sequence[str]) -> pd.DataFrame:
    """A matrix of numbers only (a weight matrix) as a grid of exact text, one column per name."""
    return pd.DataFrame(dict(zip(names, text_columns(rows), strict=True)))


def apply_edits(
    tokens: Sequence[str], rows: Matrix, edits: object
) -> tuple[tuple[str, ...], Matrix]:
    """The matrix after the browser's edits, validated.

    Raises:
        TooLargeError: when the result would have more rows than the dashboard holds.
        EmptyMatrixError: when it would have none.
        AttentionInputError: naming the first bad cell (row and column), what is wrong, and
            where the other bad cells are.
    """
    if not isinstance(edits, Mapping):
        return tuple(tokens), rows
    deleted, added = _deleted_and_added(len(rows), edits)
    count = len(rows) - len(deleted) + len(added)
    if count > MAX_TOKENS:
        raise TooLargeError(
            _(
                "the matrix holds at most {MAX_TOKENS} tokens; this change would make {count}, "
                "so it was not applied"
            ).format(MAX_TOKENS=MAX_TOKENS, count=count)
        )
    if count < 1:
        raise EmptyMatrixError(_("the matrix needs at least one token; the last one stays"))
    names = column_names(len(rows[0]))
    edited = edits.get("edited_rows") or {}
    cells = _Cells()
    new_tokens: list[str] = []
    new_rows: list[tuple[float, ...]] = []
    for index, (label, row) in enumerate(zip(tokens, rows, strict=True)):
        if index in deleted:
            continue
        change = edited.get(index, edited.get(str(index), {})) or {}
        position = len(new_rows) + 1
        new_tokens.append(cells.token(change.get(TOKEN_COLUMN, label), position))
        new_rows.append(_row(cells, change, row, names, position))
    for record in added:
        position = len(new_rows) + 1
        record = record if isinstance(record, Mapping) else {}
        new_tokens.append(cells.token(record.get(TOKEN_COLUMN, NEW_LABEL), position))
        new_rows.append(_row(cells, record, (0.0,) * len(names), names, position))
    cells.check()
    return tuple(new_tokens), tuple(new_rows)


class _Cells:
    """Reads every cell, so that a refusal names the first bad cell and where the others are
    (a learner who typed several bad cells once heard of the first one only)."""

    SHOWN = 3  # other bad cells named; more are "…"

    def __init__(self) -> None:
        self.problems: list[tuple[str, str]] = []  # (where, what is wrong)

    def read(self, parse: Callable[[object, str], T], raw: object, where: str, bad: T) -> T:
        """``parse(raw, where)``; on a refusal, ``bad`` stands in until :meth:`check` raises."""
        try:
            return parse(raw, where)
        except AttentionInputError as error:
            self.problems.append((where, str(error)))
            return bad

    def token(self, raw: object, position: int) -> str:
        return self.read(_label, raw, _("row {position}, token").format(position=position), "")

    def check(self) -> None:
        if not self.problems:
            return
        (_where, first), *others = self.problems
        if others:
            named = "; ".join(where for where, _problem in others[: self.SHOWN])
            more = "; …" if len(others) > self.SHOWN else ""
            first += _("; {counted} cannot be read either: {named}{more}").format(
                counted=counted(len(others), "other cell"), named=named, more=more
            )
        raise AttentionInputError(first)


def row_positions(count: int, edits: object) -> dict[tuple[str, int], int]:
    """Where each row sits after the browser's edits, 0-based: ``("row", i)`` for row ``i``
    of the table the grid was drawn from (absent when deleted), ``("added", j)`` for the
    ``j``-th row added since. Rows keep their order; added rows come last."""
    if not isinstance(edits, Mapping):
        return {("row", i): i for i in range(count)}
    deleted, added = _deleted_and_added(count, edits)
    kept = [("row", i) for i in range(count) if i not in deleted]
    kept += [("added", j) for j in range(len(added))]
    return {row: position for position, row in enumerate(kept)}


def _deleted_and_added(count: int, edits: Mapping) -> tuple[set[int], list[object]]:
    deleted = {int(i) for i in edits.get("deleted_rows") or [] if _is_index(i, count)}
    return deleted, list(edits.get("added_rows") or [])


def _is_index(value: object, count: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < count


def _row(
    cells: _Cells,
    change: Mapping[str, object],
    row: Sequence[float],
    names: list[str],
    position: int,
) -> tuple[float, ...]:
    return tuple(
        cells.read(
            _number,
            change.get(name, old),
            _("row {position}, column {name}").format(position=position, name=name),
            0.0,
        )
        for name, old in zip(names, row, strict=True)
    )


def _label(raw: object, where: str) -> str:
    if raw is None or (isinstance(raw, float) and math.isnan(raw)):
        raise AttentionInputError(_("{where} is empty: give the token a name").format(where=where))
    return check_label(str(raw), where)


def _number(raw: object, where: str) -> float:
    if raw is None or isinstance(raw, bool):
        raise AttentionInputError(_("{where} is empty: type a number").format(where=where))
    if isinstance(raw, Real):
        value = float(raw)
        if math.isnan(value):
            raise AttentionInputError(_("{where} is empty: type a number").format(where=where))
        return check_value(value, echo(str(raw))[1:-1], where)
    return parse_number(str(raw), where)


def numbers_from_frame(frame: pd.DataFrame, name: str) -> Matrix:
    """Validate a table of numbers only (a weight matrix); problems name the row and column."""
    rows = []
    for position, (_index, record) in enumerate(frame.iterrows(), start=1):
        rows.append(
            tuple(
                _number(
                    record[c],
                    _("{name}, row {position}, column {c}").format(
                        name=name, position=position, c=c
                    ),
                )
                for c in frame.columns
            )
        )
    return tuple(rows)
