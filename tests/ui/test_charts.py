"""Chart builders: plain data in, a spec out; checked without Streamlit."""

import math

from ui import charts

LABELS = ["a", "b", "c"]


def layer_marks(spec: dict) -> list[str]:
    return [layer["mark"]["type"] for layer in spec["layer"]]


def test_masked_cells_are_grey_and_read_minus_infinity():
    scores = [[1.0, -math.inf, -math.inf], [0.5, 2.0, -math.inf], [0.1, 0.2, 0.3]]
    masked = [[False, True, True], [False, False, True], [False, False, False]]
    spec = charts.make_heatmap(scores, LABELS, LABELS, kind="scores", title="s", masked=masked)
    cells = {(c["row"], c["column"]): c for c in spec["data"]["values"]}
    assert cells[("a", "b")]["text"] == "−∞" and cells[("a", "b")]["state"] == "masked"
    assert cells[("a", "b")]["value"] is None
    assert spec["layer"][1]["mark"]["color"] == charts.MASKED_GREY
    scale = spec["layer"][0]["encoding"]["color"]["scale"]
    assert scale["domainMid"] == 0 and scale["domain"] == [-2.0, 2.0]


def test_weights_use_a_fixed_colour_blind_safe_scale_and_mark_dropped_cells():
    weights = [[0.5, 0.5, 0.0], [0.2, 0.3, 0.5], [1.0, 0.0, 0.0]]
    dropped = [[False, True, False], [False, False, False], [False, False, False]]
    spec = charts.make_heatmap(weights, LABELS, LABELS, kind="weights", title="w", dropped=dropped)
    scale = spec["layer"][0]["encoding"]["color"]["scale"]
    assert scale["scheme"] == "viridis" and scale["domain"] == [0, 1]
    assert layer_marks(spec) == ["rect", "rect", "rect", "text"]
    texts = [c["text"] for c in spec["data"]["values"]]
    assert "0.50 ✕" in texts


def test_axes_keep_token_order_and_the_chart_fits_its_column():
    labels = ["zeta", "alpha", "mid"]
    spec = charts.make_heatmap(
        [[0.1] * 3] * 3, labels, labels, kind="weights", title="w", max_width=200
    )
    assert spec["encoding"]["x"]["sort"] == labels and spec["encoding"]["y"]["sort"] == labels
    assert spec["autosize"]["type"] == "pad"
    assert spec["width"] + charts._label_width(labels, 12) <= 200


def test_no_numbers_printed_past_16_tokens():
    labels = [f"t{i}" for i in range(20)]
    spec = charts.make_heatmap([[0.05] * 20] * 20, labels, labels, kind="weights", title="w")
    assert "text" not in layer_marks(spec)


def test_weight_bars_print_four_decimals():
    spec = charts.make_weight_bars([0.15, 0.85], ["x", "y"], title="t")
    assert spec["layer"][1]["encoding"]["text"]["format"] == ".4f"
    assert [v["weight"] for v in spec["data"]["values"]] == [0.15, 0.85]


def test_embedding_3d_draws_one_arrow_and_head_per_token_and_the_context():
    figure = charts.make_embedding_3d(
        [[0.1, 0.2, 0.3], [0.3, 0.1]], ["a", "b"], context=[0.2, 0.2, 0.2], context_label="z"
    )
    assert len(figure.data) == 6  # a line and a cone for each of the three arrows
    assert figure.data[2].x[1] == 0.3 and figure.data[2].z[1] == 0.0  # missing dims are 0
