"""CSV export in Chromium (issue 12): formula-like labels come out quoted, the rest unchanged."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pandas as pd
import pytest
import torch

from tests.e2e import expected, screen

pytestmark = pytest.mark.e2e

LABELS = ["=1+1", "+x", "-y", "@z", "a=b", "ok"]


def test_the_inputs_csv_round_trips_through_pandas(server, page):
    screen.open_page(page, expected.link(server, "", tokens=",".join(LABELS), seed="7"))
    settings = expected.settings_of({"tokens": ",".join(LABELS), "seed": "7"})
    assert list(settings.tokens) == LABELS  # the link's labels were accepted
    page.get_by_role("tab", name="Reproduce in PyTorch").click()  # the Playground's panel
    button = page.get_by_role("button", name="Download inputs.csv")
    button.wait_for(timeout=60_000)
    with page.expect_download() as download:
        button.click()
    assert download.value.suggested_filename == "inputs.csv"
    text = download.value.path().read_text(encoding="utf-8")

    frame = pd.read_csv(io.StringIO(text), dtype={"token": str}, keep_default_na=False)
    assert frame["token"].tolist() == ["'=1+1", "'+x", "'-y", "'@z", "a=b", "ok"]
    inputs = expected.trace_of(settings).inputs  # float32, written in full
    assert frame[["c1", "c2", "c3"]].to_numpy().tolist() == inputs.tolist()

    # The script beside it (issue 53), downloaded and run, prints the view's context vectors.
    with page.expect_download() as download:
        page.get_by_role("button", name="Download attention.py").click()
    script = download.value.path().read_text(encoding="utf-8")
    assert "torch.manual_seed(7)  # the book: 123" in script
    printed = exported_printout(script)
    torch.testing.assert_close(printed, expected.trace_of(settings).output, atol=1e-5, rtol=0)


def exported_printout(script: str) -> torch.Tensor:
    """What the script prints when run, as the numbers of one tensor."""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    printed = [float(v) for v in re.findall(r"-?\d+\.\d*", result.stdout)]
    return torch.tensor(printed).reshape(-1, 2)
