"""Page 5's mask of your own: the grid the browser is sent holds the ticks the weights use.

Found in Chromium (tests/e2e/test_custom_mask_browser.py, about 1 run in 9 under load): after
a tick on a grid just drawn (a fresh page, or after Back), the link and the "your mask"
heatmap had the tick and the grid showed the cell unticked for good. The server drew the grid
from its unchanged start on every run, so the browser showed a tick only through its own
layer of edits, and nothing put back a tick that layer lost. AppTest cannot lose it; it
checks that each run sends the grid the current ticks, as the same widget.
"""

from __future__ import annotations

import io

import pyarrow as pa

from tests.ui.apptest import open_page, send_edits, url_settings


def _grid(at):
    grids = [e for e in at.data_editor if e.key and e.key.startswith("custom_mask_")]
    assert len(grids) == 1, [e.key for e in at.data_editor]
    return grids[0]


def _sent_ticks(at) -> list[list[bool]]:
    """The table the browser is given for the grid (before its own edits)."""
    table = pa.ipc.open_stream(io.BytesIO(_grid(at).proto.arrow_data.data)).read_all()
    frame = table.to_pandas()
    return [[bool(v) for v in row] for row in frame.itertuples(index=False)]


def test_each_tick_reaches_the_grid_the_browser_is_sent_and_the_grid_stays_the_same_widget():
    at = open_page("5_Causal_mask")
    key, element_id = _grid(at).key, _grid(at).proto.id
    mask = [[i > 0 and j <= i for j in range(6)] for i in range(6)]
    assert _sent_ticks(at) == mask
    edits: dict[int, dict[str, bool]] = {}
    for row, column in [(5, 5), (0, 0), (5, 3), (5, 5)]:  # the last unticks the first again
        mask[row][column] = not mask[row][column]
        edits.setdefault(row, {})[f"k{column + 1}"] = mask[row][column]
        send_edits(at, {"edited_rows": edits}, key=key)
        assert _sent_ticks(at) == mask
        assert [[bool(v) for v in r] for r in url_settings(at)["my_mask"]] == mask
        assert (_grid(at).key, _grid(at).proto.id) == (key, element_id)  # edits kept
    # The browser drops the edits the table it was sent holds, and sends what is left.
    send_edits(at, {"edited_rows": {}}, key=key)
    assert _sent_ticks(at) == mask
    assert [[bool(v) for v in r] for r in url_settings(at)["my_mask"]] == mask
