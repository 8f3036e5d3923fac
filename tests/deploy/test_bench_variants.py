"""bench/bench_page_parts.py edits copies of the code: each edit must still find its text."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.bench_page_parts import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
EDITS = sorted({edit for edits in VARIANTS.values() for edit in edits})


@pytest.mark.parametrize(
    ("file", "old", "new"), EDITS, ids=[f"{e[0]}:{i}" for i, e in enumerate(EDITS)]
)
def test_each_variant_edit_still_applies(file: str, old: str, new: str) -> None:
    text = (ROOT / file).read_text()
    assert text.count(old) == 1, f"{file} no longer holds, exactly once, the text a variant edits"
    assert old != new
