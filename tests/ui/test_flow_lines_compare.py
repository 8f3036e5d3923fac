"""Flow, Lines and Compare: the spec builders on their own, and the pages through AppTest.

Every number a picture prints is checked against the core's trace (run here on the same
settings), never against a copy of the UI's own arithmetic.
"""

from __future__ import annotations

import dataclasses
from itertools import combinations
from pathlib import Path

import pytest
import torch
from streamlit.testing.v1 import AppTest

from attention_core import run_attention
from attention_core.compare import compare_weights, no_change_at, read_pin
from attention_core.embeddings import display_labels
from attention_core.flow import flow_numbers
from attention_core.formatting import format_number
from attention_core.knobs.links import read_params
from attention_core.knobs.settings import Settings
from tests.ui.apptest import as_read
from tests.ui.vega import chart_specs, records
from ui.blocks import compare, heatmaps, weights_view
from ui.specs import flow_picture, lines, sizing
from ui.specs.flow_layout import footprint

MAIN = weights_view.MAIN_WIDTH
ENTRY = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


def settings_of(**params: str) -> Settings:
    params.setdefault("query", "1")  # the trace does not depend on it; 1 exists for any size
    settings, notices = read_params({k: [v] for k, v in params.items()})
    assert notices == []
    return settings


def trace_of(settings: Settings):
    return run_attention(settings.embeddings(), settings.config())


# --- the Flow picture ---------------------------------------------------------------------


def picture_cells(spec: dict) -> dict[str, dict[tuple[int, int], str]]:
    """Each box's printed texts by (row, column), read from the picture's number layer."""
    for layer in spec["layer"]:
        values = layer["data"]["values"]
        if layer["mark"]["type"] == "text" and values and "box" in values[0] and "row" in values[0]:
            boxes: dict[str, dict[tuple[int, int], str]] = {}
            for cell in values:
                boxes.setdefault(cell["box"], {})[(cell["row"], cell["column"])] = cell["text"]
            return boxes
    raise AssertionError("no number layer")


def expected_value(trace, query: int, head: int, box: str, row: int, column: int, rows: int):
    """The trace's number that box ``box`` prints at (row, column); ``rows`` printed rows."""
    width = trace.head_dim
    columns = slice(head * width, (head + 1) * width)
    per_key = {
        "scores": trace.scores,
        "scaled": trace.scaled_scores,
        "masked": trace.masked_scores,
        "weights": trace.weights,
        "dropout": trace.weights_after_dropout,
    }
    if box in per_key:
        return float(per_key[box][head, query, row])
    if box.startswith("W_"):
        matrix = getattr(trace, box)
        bias = getattr(trace, "b_" + box[2:])
        if box != "W_out":
            matrix, bias = matrix[:, columns], None if bias is None else bias[columns]
        if bias is not None and row == rows - 1:
            return float(bias[column])
        return float(matrix[row, column])
    vectors = {
        "q": trace.queries[query, columns],
        "z": trace.head_context[head, query],
        "merged": trace.context[query],
        "output": trace.output[query],
    }
    if box in vectors:
        return float(vectors[box][column])
    matrices = {"X": trace.inputs, "K": trace.keys[:, columns], "V": trace.values[:, columns]}
    return float(matrices[box][row, column])


def check_every_number(trace, query: int, head: int, spec: dict, decimals: int = 4) -> int:
    checked = 0
    for box, texts in picture_cells(spec).items():
        rows = 1 + max(r for r, _ in texts)
        for (row, column), text in texts.items():
            if text in ("⋯", "⋮", ""):
                continue
            if box == "dropout" and text == "✕":
                assert not bool(trace.dropout_keep[head, query, row])
                continue
            value = expected_value(trace, query, head, box, row, column, rows)
            assert text == format_number(value, decimals), (box, row, column)
            checked += 1
    return checked


def flow_spec(trace, query: int, head: int = 0, **options) -> dict:
    options = {"stage": 9, "decimals": 4, "max_width": MAIN, **options}
    numbers = flow_numbers(trace, query, head)
    return flow_picture.make_flow(numbers, display_labels(trace.tokens), trace.config, **options)


@pytest.mark.parametrize(
    ("params", "query", "head"),
    [
        ({}, 1, 0),
        (
            {
                "d_out": "4",
                "heads": "2",
                "mask": "causal",
                "dropout": "0.4",
                "qkv_bias": "true",
                "out_proj": "linear",
                "dropout_seed": "5",
            },
            4,
            1,
        ),
        (
            {
                "preset": "random",
                "num_tokens": "12",
                "d_in": "16",
                "d_out": "8",
                "heads": "8",
                "heads_layout": "wrapper",
                "out_proj": "linear",
                "qkv_bias": "true",
            },
            11,
            7,
        ),
        ({"preset": "random", "num_tokens": "1", "d_in": "1", "init": "identity"}, 0, 0),
        ({"scoring": "cosine", "scaling": "d", "norm": "sum", "mask": "padding"}, 5, 0),
    ],
)
def test_every_box_prints_the_traces_numbers(params, query, head):
    trace = trace_of(settings_of(**params))
    spec = flow_spec(trace, query, head)
    checked = check_every_number(trace, query, head, spec)
    assert checked >= 5 * trace.num_tokens  # the five per-key columns at least
    masked = picture_cells(spec)["masked"]
    for j, allowed in enumerate(trace.allowed[query].tolist()):
        if params.get("mask") == "padding" and not allowed:
            assert masked[(j, 0)] == "−∞"


def test_the_picture_reveals_one_stage_at_a_time():
    trace = trace_of(settings_of(mask="causal"))
    for stage in (1, 4, 9):
        spec = flow_spec(trace, 2, stage=stage)
        texts = picture_cells(spec)
        fitted = flow_picture.fit(
            flow_numbers(trace, 2),
            display_labels(trace.tokens),
            trace.config,
            decimals=4,
            max_width=MAIN,
        )
        for key, box in fitted.boxes.items():
            shown = any(t for t in texts[key].values())
            assert shown == (box.stage <= stage), (stage, key)
        header = spec["layer"][-1]["data"]["values"][0]["text"]
        assert header.startswith(f"Stage {stage} of 9 · ")
        assert f"Stage {stage} of 9" in spec["description"]


def _rectangle(box, size) -> tuple[float, float, float, float]:
    lines_of_title = len(box.title.split("\n"))
    left = box.x - (size.label_width if box.row_labels else 0)
    top = box.y - lines_of_title * size.title_height
    return left, top, box.x + footprint(box, size), box.y + box.rows * size.cell_height


@pytest.mark.parametrize("look", [sizing.LAPTOP, sizing.PROJECTOR, sizing.PHONE])
@pytest.mark.parametrize("tokens", [1, 2, 6, 12])
@pytest.mark.parametrize(
    ("heads", "layout", "d_in"),
    [(1, "split", 3), (2, "split", 16), (4, "wrapper", 1), (8, "split", 5), (8, "wrapper", 16)],
)
def test_the_picture_fits_the_column_and_nothing_overlaps(look, tokens, heads, layout, d_in):
    settings = settings_of(
        preset="random",
        num_tokens=str(tokens),
        d_in=str(d_in),
        d_out="8",
        heads=str(heads),
        heads_layout=layout,
        out_proj="linear" if heads > 2 else "none",
        mask="causal",
    )
    trace = trace_of(settings)
    numbers = flow_numbers(trace, tokens - 1, heads - 1)
    labels = display_labels(trace.tokens)
    fitted = flow_picture.fit(numbers, labels, trace.config, decimals=4, look=look, max_width=MAIN)
    assert fitted.width <= MAIN
    assert fitted.size.font >= flow_picture.MIN_FONT
    rectangles = {key: _rectangle(box, fitted.size) for key, box in fitted.boxes.items()}
    for (a, ra), (b, rb) in combinations(rectangles.items(), 2):
        apart = ra[2] <= rb[0] + 1 or rb[2] <= ra[0] + 1 or ra[3] <= rb[1] + 1 or rb[3] <= ra[1] + 1
        assert apart, (a, b, ra, rb)
    assert all(r[0] >= 0 and r[1] >= 0 for r in rectangles.values())


@pytest.mark.parametrize(("look", "font"), [(sizing.LAPTOP, 13), (sizing.PROJECTOR, 14)])
def test_the_books_example_is_drawn_at_full_size(look, font):
    trace = trace_of(settings_of())
    fitted = flow_picture.fit(
        flow_numbers(trace, 1),
        display_labels(trace.tokens),
        trace.config,
        decimals=4,
        look=look,
        max_width=MAIN,
    )
    assert fitted.size.font >= font
    assert all("⋯" not in row for box in fitted.boxes.values() for row in box.texts)


@pytest.mark.parametrize(
    ("d_out", "decimals", "printed", "more"),
    [
        ("8", 6, 2, {}),
        # All 6 at 12 px once: the arrows' labels took the room of one (5) while "·" in the
        # boxes' titles was reckoned 3 times its width (ui.specs.sizing, issue 39 item 9)
        ("2", 6, 3, {}),
        ("8", 4, 2, {}),
        ("8", 6, 2, {"qkv_bias": "true"}),  # printed 3 decimals at 13 px: now one column, ⋯
        ("8", 6, 2, {"out_proj": "linear"}),
    ],
)
def test_projected_the_picture_rounds_rather_than_shrink_its_type(d_out, decimals, printed, more):
    """Issue 52: with the sidebar folded the picture has the main column of a 1024 px
    projector, and every text in it is 16 px: fewer decimals first, then a wide matrix's
    first column alone (d_out 4 or more printed 12 to 14 px numbers)."""
    trace = trace_of(settings_of(d_out=d_out, **more))
    numbers, labels = flow_numbers(trace, 1), display_labels(trace.tokens)
    on_screen = flow_picture.fit(numbers, labels, trace.config, decimals=decimals, max_width=MAIN)
    assert on_screen.decimals == decimals  # a screen up close keeps every digit
    width = heatmaps.PRESENT_WIDTH
    fitted = flow_picture.fit(
        numbers, labels, trace.config, decimals=decimals, look=sizing.PROJECTOR, max_width=width
    )
    assert fitted.decimals == printed and fitted.width <= width
    assert fitted.size.font == 16  # the least, not the look's 17: the picture is shorter
    spec = flow_picture.picture(fitted, numbers, labels, 9)
    assert check_every_number(trace, 1, 0, spec, decimals=printed) > 20
    # The arrows' labels too ("× W_query", "softmax"): they were 2 px smaller, 10 px.
    sizes = {m["mark"].get("fontSize") for m in spec["layer"] if m["mark"]["type"] == "text"}
    assert min(sizes) >= 16, sizes
    assert fitted.size.arrow_font >= 16
    smaller = max(on_screen.size.font - 2, flow_picture.MIN_ARROW_FONT)  # on a screen: 2 px smaller
    assert on_screen.size.arrow_font == smaller


def test_where_even_one_column_is_too_wide_the_type_shrinks_no_further_than_it_must():
    """The last resort (the biases on and d_out 8, in 820 px): one column at 2 decimals is
    still too wide at 16 px, so the type goes under 16, to the largest that fits, and never
    under ``PRESENT_LEAST_FONT`` (it once chose four columns at 13 px over two at 14)."""
    trace = trace_of(settings_of(d_out="8", qkv_bias="true"))
    numbers, labels = flow_numbers(trace, 1), display_labels(trace.tokens)
    fitted = flow_picture.fit(
        numbers, labels, trace.config, decimals=6, look=sizing.PROJECTOR, max_width=MAIN
    )
    assert flow_picture.PRESENT_LEAST_FONT <= fitted.size.font < 16 and fitted.width <= MAIN
    bigger = flow_picture._place(
        numbers, labels, trace.config, sizing.PROJECTOR, 2, 2, fitted.size.font + 1, 12
    )
    assert bigger.width > MAIN  # one pixel more type would not fit, at the fewest decimals
    assert (fitted.size.font, fitted.decimals) == (14, 2)


def test_projected_the_picture_never_prints_more_decimals_than_the_page():
    """A page at 1 decimal, projected, whose picture is too wide at 16 px: the picture fell
    back to its fewest, 2, and printed 0.30 where the page printed 0.3 (found by the settings
    sweep: Flow, one token, d_in 1, d_out 5, 1 decimal)."""
    settings = settings_of(preset="random", num_tokens="1", d_in="1", d_out="5", decimals="1")
    trace = trace_of(settings)
    numbers, labels = flow_numbers(trace, 0), display_labels(trace.tokens)
    for width in (heatmaps.PRESENT_WIDTH, MAIN, 600, 400):
        fitted = flow_picture.fit(
            numbers, labels, trace.config, decimals=1, look=sizing.PROJECTOR, max_width=width
        )
        assert fitted.decimals == 1, width
        spec = flow_picture.picture(fitted, numbers, labels, 9)
        assert check_every_number(trace, 0, 0, spec, decimals=1) > 5


def _texts(spec: dict) -> list[str]:
    return [v["text"] for m in spec["layer"] for v in m["data"]["values"] if "text" in v]


def test_projected_the_picture_is_tight_enough_for_a_720_px_first_screen():
    """Projected, the stage control above the picture names the stage: no header in the
    picture, rows a table's 1.5 lines, band 1 closer to q. The book's example is then 470 px
    tall at 16 px, 75 px less than the laptop's layout at the same type."""
    trace = trace_of(settings_of())
    numbers, labels = flow_numbers(trace, 1), display_labels(trace.tokens)
    fitted = flow_picture.fit(
        numbers,
        labels,
        trace.config,
        decimals=4,
        look=sizing.PROJECTOR,
        max_width=heatmaps.PRESENT_WIDTH,
    )
    at_16 = dataclasses.replace(sizing.LAPTOP, font=16)
    loose = flow_picture.fit(numbers, labels, trace.config, decimals=3, look=at_16, max_width=2000)
    assert fitted.size.font == loose.size.font == 16
    assert fitted.height <= loose.height - 70, (fitted.height, loose.height)
    projected = flow_picture.picture(fitted, numbers, labels, 1)
    laptop = flow_picture.picture(loose, numbers, labels, 1)
    assert any(t.startswith("Stage 1 of 9") for t in _texts(laptop))
    assert not any(t.startswith("Stage 1 of 9") for t in _texts(projected))
    assert "Stage 1 of 9" in projected["description"]  # a screen reader still hears it


# --- the lines ------------------------------------------------------------------------------


def test_line_width_and_opacity_grow_with_the_weight():
    weights = [0.0, 0.01, 0.1, 0.2264, 0.5, 0.99, 1.0]
    widths = [lines.line_width(w) for w in weights]
    opacities = [lines.line_opacity(w) for w in weights]
    assert widths == sorted(widths) and len(set(widths)) == len(widths)
    assert opacities == sorted(opacities) and len(set(opacities)) == len(opacities)
    assert lines.line_width(0.0) > 0 and lines.line_opacity(0.0) > 0  # still visible


def line_records(spec: dict) -> tuple[list[dict], list[dict]]:
    rules = [layer for layer in spec["layer"] if layer["mark"]["type"] == "rule"]
    solid = [layer for layer in rules if "strokeDash" not in layer["mark"]]
    dashed = [layer for layer in rules if "strokeDash" in layer["mark"]]
    return solid[0]["data"]["values"], dashed[0]["data"]["values"]


def test_lines_draw_kept_weights_by_width_leave_out_masked_and_dash_dropped():
    trace = trace_of(settings_of(d_out="4", heads="2", mask="causal", dropout="0.5"))
    labels = display_labels(trace.tokens)
    spec = lines.make_lines(weights_view.lines_of(trace, labels, "t"), decimals=4)
    kept, dropped = line_records(spec)
    pairs = {(r["head"], r["query"], r["key"]) for r in kept + dropped}
    blocked = trace.blocked
    for h in range(2):
        for i in range(6):
            for j in range(6):
                present = (f"head {h + 1}", i, j) in pairs
                assert present == (not bool(blocked[i, j]))  # masked pairs have no line
    dropped_pairs = {(r["head"], r["query"], r["key"]) for r in dropped}
    expected = {
        (f"head {h + 1}", i, j)
        for h, i, j in trace.dropped.nonzero().tolist()
        if not bool(blocked[i, j])
    }
    assert dropped_pairs == expected and expected
    by_weight = sorted(
        kept,
        key=lambda r: float(
            trace.weights_after_dropout[int(r["head"][5:]) - 1, r["query"], r["key"]]
        ),
    )
    widths = [r["width"] for r in by_weight]
    assert widths == sorted(widths)  # wider for a larger weight
    for r in kept:
        weight = float(trace.weights_after_dropout[int(r["head"][5:]) - 1, r["query"], r["key"]])
        assert r["weight"] == format_number(weight, 4)
        assert r["width"] == pytest.approx(lines.line_width(weight))
    colour = spec["layer"][0]["encoding"]["color"]
    assert colour["scale"]["domain"] == ["head 1", "head 2"] and colour["legend"] is not None


def test_one_head_has_one_colour_and_no_legend_and_hover_is_bound_to_the_tokens():
    trace = trace_of(settings_of())
    spec = lines.make_lines(
        weights_view.lines_of(trace, display_labels(trace.tokens), "t"), decimals=4, isolate=2
    )
    assert spec["layer"][0]["encoding"]["color"] == {"value": lines.ONE_HEAD}
    params = {p["name"]: p for layer in spec["layer"] for p in layer.get("params", [])}
    assert set(params) == {"pick_query", "pick_key"}
    assert params["pick_query"]["select"]["on"] == "@query_targets_marks:pointerover"
    assert params["pick_query"]["value"] == [{"query": 1}]  # the widget's token, 0-based
    assert "value" not in params["pick_key"]
    assert spec["usermeta"]["embedOptions"]["renderer"] == "svg"


# --- the pages ------------------------------------------------------------------------------


def open_page(page: str, **params: str) -> AppTest:
    app = AppTest.from_file(ENTRY, default_timeout=60)
    for key, value in params.items():
        app.query_params[key] = value
    app.switch_page(page)
    return app.run()


def specs(app: AppTest) -> list[dict]:
    return chart_specs(app)


def the_spec(app: AppTest, starts: str) -> dict:
    found = [
        s
        for s in specs(app)
        if s["description"].startswith(starts)
        or str(s.get("title", {}).get("text", "")).startswith(starts)
    ]
    assert len(found) == 1, [s["description"][:40] for s in specs(app)]
    return found[0]


FLOW = "pages/0_Flow.py"
COMPARE = "pages/0_Compare.py"


def test_stage_4_of_the_causal_example_opens_from_a_link_with_the_cores_numbers():
    app = open_page(FLOW, mask="causal", stage="4", query="3")
    assert not app.exception and app.selectbox(key="stage").value == 4
    trace = trace_of(settings_of(mask="causal"))
    spec = the_spec(app, "How token 3")
    assert "Stage 4 of 9 · scaling" in spec["description"]
    cells = picture_cells(spec)
    for j in range(6):
        assert cells["scaled"][(j, 0)] == format_number(float(trace.scaled_scores[0, 2, j]), 4)
        assert cells["weights"][(j, 0)] == ""  # stage 6: not revealed yet
    sentence = app.get("markdown")
    text = " ".join(m.value for m in sentence)
    top = int(trace.scaled_scores[0, 2].argmax())
    assert f"{format_number(float(trace.scores[0, 2, top]), 4)} becomes " in text
    assert app.query_params["stage"] == "4"


def test_next_previous_and_the_clicker_buttons_step_the_stage_in_the_link():
    app = open_page(FLOW)
    assert app.button(key="stage_next").proto.shortcut == "right"
    assert app.button(key="stage_previous").proto.shortcut == "left"
    assert app.button(key="stage_page_down").proto.shortcut == "pagedown"
    assert app.button(key="stage_previous").proto.disabled  # nothing before stage 1
    app.button(key="stage_next").click().run()
    app.button(key="stage_page_down").click().run()
    assert app.query_params["stage"] == "3"
    assert "Stage 3 of 9" in the_spec(app, "How token 2")["description"]
    app.button(key="stage_previous").click().run()
    assert app.query_params["stage"] == "2" and app.selectbox(key="stage").value == 2
    app.selectbox(key="stage").select(9).run()
    assert app.button(key="stage_next").proto.disabled
    output = [float(v) for v in trace_of(settings_of()).output[1]]
    text = " ".join(m.value for m in app.get("markdown"))
    assert format_number(output[0], 4) in text and format_number(output[1], 4) in text


def test_a_bad_stage_in_the_link_is_named_and_the_first_stage_shown():
    app = open_page(FLOW, stage="12")
    assert any("Stage" in w.value and "12" in w.value for w in app.warning)
    assert app.selectbox(key="stage").value == 1


def test_the_flow_follows_the_chosen_head():
    app = open_page(FLOW, d_out="4", heads="2", stage="9")
    app.radio(key="head").set_value(2).run()
    trace = trace_of(settings_of(d_out="4", heads="2"))
    assert check_every_number(trace, 1, 1, the_spec(app, "How token 2")) > 20


def test_the_playground_shows_the_weights_as_lines_with_the_cores_numbers():
    app = AppTest.from_file(ENTRY, default_timeout=60)
    app.query_params["heads"] = "2"
    app.query_params["d_out"] = "4"
    app.run()
    app.radio(key="weights_view").set_value("lines").run()
    trace = trace_of(settings_of(heads="2", d_out="4"))
    spec = the_spec(app, "attention weights as lines")
    kept, dropped = line_records(spec)
    assert len(kept) == 2 * 36 and dropped == []
    for r in kept:
        weight = float(trace.weights_after_dropout[int(r["head"][5:]) - 1, r["query"], r["key"]])
        assert r["weight"] == format_number(weight, 4)
    app.selectbox(key="isolate").select(3).run()
    spec = the_spec(app, "attention weights as lines")
    params = {p["name"]: p for layer in spec["layer"] for p in layer.get("params", [])}
    assert params["pick_query"]["value"] == [{"query": 2}]
    assert app.query_params["weights_view"] == "lines"


def test_isolating_a_token_the_sentence_does_not_have_shows_every_token():
    app = AppTest.from_file(ENTRY, default_timeout=60)
    app.query_params["weights_view"] = "lines"
    app.query_params["isolate"] = "9"  # e.g. from page 10's longer sentence
    app.run()
    assert app.selectbox(key="isolate").value == 0
    spec = the_spec(app, "attention weights as lines")
    params = {p["name"]: p for layer in spec["layer"] for p in layer.get("params", [])}
    assert "value" not in params["pick_query"]


def test_real_sentences_show_the_reproduced_head_as_lines():
    from real_model import reproduce_head, shared_model
    from real_model.seed001 import ODYSSEY

    app = open_page("pages/10_Real_sentences.py")
    app.radio(key="weights_view").set_value("lines").run()
    assert not app.exception
    spec = the_spec(app, "layer 1, head 1")
    result = reproduce_head(shared_model(), ODYSSEY, 0, 0)
    kept, _ = line_records(spec)
    assert len(kept) == result.trace.num_tokens**2
    for r in kept:
        assert r["weight"] == format_number(float(result.trace.weights[0, r["query"], r["key"]]), 4)


def heatmap_values(spec: dict) -> dict[tuple[str, str], float]:
    return {(c["row"], c["column"]): c["value"] for c in records(spec)}


def test_compare_pins_a_then_shows_b_minus_a_from_the_core():
    app = open_page(COMPARE)
    app.button(key="pin_a").click().run()
    pin = app.query_params["pin"]
    assert read_pin(pin) == read_pin("preset=journey")
    app.sidebar.slider(key="d_out").set_value(3).run()
    assert app.query_params["d_out"] == "3" and app.query_params["pin"] == pin
    first, second = trace_of(settings_of()), trace_of(settings_of(d_out="3"))
    labels = display_labels(first.tokens)
    shown = heatmap_values(the_spec(app, "B − A"))
    expected = second.weights_after_dropout[0] - first.weights_after_dropout[0]
    for i, row in enumerate(labels):
        for j, column in enumerate(labels):
            assert shown[(row, column)] == pytest.approx(float(expected[i, j]), abs=1e-6)
    top = compare_weights(first, second, head=0).largest[0]
    words = app.get("markdown")
    text = " ".join(m.value for m in words)
    more = "more" if top.change > 0 else "less"
    assert (
        f"`{labels[top.query]}` now attends {format_number(abs(top.change), 4)} {more} to "
        f"`{labels[top.key]}`" in text
    )
    assert "d_out" in text and "`2` → `3`" in text


def test_what_b_changed_is_said_in_the_sidebars_words():
    # A review: "From A to B" printed the link's codes (sqrt_d, book) instead of the words
    # the learner chose in the sidebar.
    app = open_page(COMPARE)
    app.button(key="pin_a").click().run()
    app.sidebar.radio(key="scaling").set_value("d").run()
    text = " ".join(m.value for m in app.get("markdown"))
    assert "Scale the scores: `÷ √d_k` → `÷ d_k`" in text, text
    assert "sqrt_d" not in text


def test_a_change_too_small_to_print_is_no_change_at_the_decimals_shown():
    # B moves one number of the matrix by 0.005: at 4 decimals weights change, at 2 none does
    # (the page once listed changes that printed as 0.00, and said "by 0.00005" at any decimals).
    x = "0.43,0.15,0.89;0.55,0.87,0.66;0.57,0.85,0.64;0.22,0.58,0.33;0.77,0.25,0.1;0.05,0.8,0.555"
    first, second = trace_of(settings_of()), trace_of(settings_of(x=x))
    for decimals in ("2", "4"):
        app = open_page(COMPARE, pin="preset=journey", x=x, decimals=decimals)
        assert not app.exception
        text = app.container(key="compare_changes").markdown[0].value
        unseen = no_change_at(int(decimals))
        listed = compare_weights(first, second, head=0, count=5, no_change=unseen).largest
        if decimals == "2":
            assert listed == () and text == "**No weight changed** at the 2 decimals shown.", text
        else:
            assert text.startswith("**The largest changes**"), text
            assert text.count("now attends") == len(listed) == 5


def test_a_bad_pin_is_named_and_dropped_from_the_link():
    app = open_page(COMPARE, pin="d_out=99&seed=7")
    assert any("d_out must be between 1 and 8" in as_read(w.value) for w in app.warning)
    assert "pin" not in app.query_params
    assert not [s for s in specs(app) if s["description"].startswith("Each weight of B")]


def test_a_and_b_with_different_tokens_are_shown_but_not_subtracted():
    app = open_page(COMPARE, pin="preset=nugues")
    assert not app.exception
    assert any("A has 3 tokens and B has 6" in i.value for i in app.info)
    assert not app.warning  # a comparison that cannot subtract is no error
    first = trace_of(read_pin("preset=nugues"))
    shown = heatmap_values(the_spec(app, "A: weights"))
    labels = display_labels(first.tokens)
    assert len(shown) == 9
    for i, row in enumerate(labels):
        for j, column in enumerate(labels):
            assert shown[(row, column)] == pytest.approx(float(first.weights[0, i, j]), abs=1e-6)
    assert not [s for s in specs(app) if s["description"].startswith("Each weight of B")]


# --- what B changed from A, in words ----------------------------------------------------------


def test_another_examples_matrix_is_not_called_edited_and_its_tokens_are_whole():
    # Found by a review: "the embedding matrix (edited)" after another example was chosen,
    # and "the tokens: `Your,journey,starts,with,one,st…`" cut mid-word.
    first, second = settings_of(), settings_of(preset="montreal")
    words = compare.change_words(first, second)
    assert "the embedding matrix" in words and not any("edited" in w for w in words)
    assert [w for w in words if w.startswith("the number of tokens")] == [
        "the number of tokens: 6 → 4"
    ]
    assert not any("…" in w for w in words), words


def test_an_edited_cell_and_a_renamed_token_are_named_as_such():
    first = settings_of()
    rows = (tuple(v + 0.1 for v in first.rows[0]), *first.rows[1:])
    words = compare.change_words(first, first.replace(rows=rows))
    assert words == ["the embedding matrix (edited or replaced)"]
    tokens = ("Your", "trip", *first.tokens[2:])
    assert compare.change_words(first, first.replace(tokens=tokens)) == [
        "token 2: `journey` → `trip`"
    ]
    renamed = first.replace(tokens=tuple(f"w{n}" for n in range(6)))
    assert compare.change_words(first, renamed) == [
        "token 1: `Your` → `w0`; token 2: `journey` → `w1`; token 3: `starts` → `w2`; "
        "3 more tokens renamed"
    ]


def test_a_new_number_of_tokens_is_said_once():
    first = settings_of(preset="random", num_tokens="5", d_in="3")
    second = settings_of(preset="random", num_tokens="7", d_in="3")
    words = compare.change_words(first, second)
    assert sum("tokens" in w for w in words) == 1, words


def test_a_later_stages_outlines_and_titles_stay_readable_on_a_projector():
    """Flow's boxes of later stages are dashed grey: a grey a projector keeps (issue 66: a
    light grey washed out), as dark as text must be on white (4.5 : 1), and unlike the
    black of the stages already passed."""
    from ui.specs import diagram
    from ui.specs.colors import WHITE, contrast

    assert contrast(diagram.FUTURE, WHITE) >= 4.5
    assert diagram.FUTURE not in (diagram.INK, diagram.CURRENT)


def test_a_and_b_share_one_colour_scale_fitted_to_their_weights():
    """Issue 65: a fixed 0 to 1 scale made A and B look alike (weights near 0.17 all one
    shade). A's and B's colours now span the range of both together, the same for both."""
    app = open_page(COMPARE, pin="preset=journey", d_out="3")
    specs = [the_spec(app, "A: weights"), the_spec(app, "B: weights")]
    assert len(specs) == 2
    ranges = {(r["low"], r["high"]) for s in specs for r in records(s)}
    assert len(ranges) == 1, ranges  # one scale for A and B
    ((low, high),) = ranges
    first, second = trace_of(settings_of()), trace_of(settings_of(d_out="3"))
    weights = torch.cat([first.weights_after_dropout[0], second.weights_after_dropout[0]])
    assert (low, high) != (0.0, 1.0)
    assert low <= float(weights.min()) and float(weights.max()) <= high
    assert high - low < 0.5  # fitted: the journey's weights span well under half of 0 to 1
