"""Every number printed on a heatmap cell reads at WCAG AA contrast (4.5 : 1) on that cell.

The default view of every page is run; each chart's cells are recoloured from the spec's
own scale (the colour Vega-Lite draws) and checked against the text colour the chart uses.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.ui.page_files import PAGE_FILES, ROOT
from tests.ui.vega import chart_specs, records
from ui.specs import colors

MODES = (
    {},
    {"present": "1", "weight_scale": "fixed"},
    {"preset": "montreal", "heads": "2", "d_out": "4", "mask": "causal"},
)


def _charts(app: AppTest) -> list[tuple[dict, list[dict]]]:
    return [(spec, records(spec)) for spec in chart_specs(app)]


def _cells(spec: dict, records: list[dict]) -> list[tuple[str, str, str]]:
    """(text, background, ink) of every printed cell of a heatmap spec."""
    if not records or "ink" not in records[0]:
        return []
    scale = spec["layer"][0]["encoding"]["color"]["scale"]
    result = []
    for record in records:
        if record["value"] is None or record["value"] != record["value"]:  # None or NaN
            background = colors.MASKED
        else:
            background = colors.interpolate(scale["range"], scale["domain"], record["shade"])
        result.append((record["text"], background, record["ink"]))
    return result


@pytest.mark.parametrize("page", PAGE_FILES)
@pytest.mark.parametrize("params", MODES, ids=["default", "presentation-fixed", "heads-causal"])
def test_every_cell_number_meets_wcag_aa(page, params):
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60)
    for key, value in params.items():
        app.query_params[key] = value
    if page != "streamlit_app.py":
        app.switch_page(page)
    app.run()
    assert not app.exception
    checked = 0
    for spec, cells in _charts(app):
        for text, background, ink in _cells(spec, cells):
            assert colors.contrast(background, ink) >= 4.5, (text, background, ink)
            checked += 1
    # Flow draws numbers on white boxes, Compare needs a pinned A: no heatmap by default.
    if page not in ("pages/10_Real_sentences.py", "pages/0_Flow.py", "pages/0_Compare.py"):
        assert checked > 0
