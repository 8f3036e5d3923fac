"""Charts as AppTest sees them: each Vega-Lite spec with its data put back.

Streamlit sends a spec's top-level ``data.values`` separately, as an Arrow table; these helpers
return the spec as the app built it, so tests can read every record.
"""

from __future__ import annotations

import json

import pyarrow as pa
from streamlit.testing.v1 import AppTest


def chart_specs(app: AppTest) -> list[dict]:
    """Every Vega-Lite chart on the page, in page order, with ``data.values`` restored."""
    specs = []
    for chart in app.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        raw = chart.proto.data.data
        if raw:
            records = pa.ipc.open_stream(raw).read_pandas().to_dict("records")
            spec["data"] = {"values": [_plain(r) for r in records]}
        specs.append(spec)
    return specs


def records(spec: dict) -> list[dict]:
    """The records of a chart: top-level data, or the first layer's (charts that keep their
    data inside a layer)."""
    if "data" in spec:
        return spec["data"]["values"]
    for layer in spec.get("layer", []):
        if "data" in layer:
            return layer["data"]["values"]
    return []


def _plain(record: dict) -> dict:
    """NaN (Arrow's missing number) back to None, as the app wrote it."""
    return {k: (None if isinstance(v, float) and v != v else v) for k, v in record.items()}
