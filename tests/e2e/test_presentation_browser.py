"""Real Chromium: in presentation mode every heatmap prints its numbers at the projector's
size, also the ones a page sets under another instead of beside it.

Found in Chromium by a review at 1280×720: with ``present=1``, the charts that sit in half a
column in normal mode (page 5's padding mask and your mask, page 6's average of samples,
Compare's B − A) are stacked, but were still sized for half the width: 11-12 px numbers under
17 px ones, unreadable from the back row.
"""

from __future__ import annotations

import pytest

from tests.e2e import screen
from ui.sizing import FONT

pytestmark = pytest.mark.e2e

# Each chart's title and the on-screen size (px) of its smallest printed cell number.
CELL_SIZES_JS = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg')]
  .map(svg => {
    const scale = svg.getBoundingClientRect().width / (svg.width.baseVal.value || 1);
    const sizes = [...svg.querySelectorAll('.mark-text text')]
      .map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
    const title = [...svg.querySelectorAll('.role-title-text text')].map(t => t.textContent);
    return [title.join(' '), sizes.length ? Math.min(...sizes) : null];
  })"""

PAGES = {
    "Causal_mask": ("padding mask", "your mask"),
    "Dropout": ("average of 200 samples",),
    "Compare": ("B − A",),
}
LINKS = {"Compare": "&pin=seed%3D7%26mask%3Dcausal"}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_stacked_heatmaps_print_their_numbers_at_presentation_size(server, page, name):
    screen.open_page(page, f"{server}/{name}?present=1{LINKS.get(name, '')}")
    screen.wait_idle(page)
    sizes = {label: size for label, size in page.evaluate(CELL_SIZES_JS) if size is not None}
    for wanted in PAGES[name]:
        found = [size for label, size in sizes.items() if wanted in label]
        assert found, (wanted, sorted(sizes))
        assert min(found) >= FONT[True] - 1, (wanted, sizes)  # 16 px or more
