"""Charts as data (no app run): heatmap geometry from printed text, legends, descriptions,
numbers at the decimals asked for, masked and dropped cells, token order."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core.formatting import MINUS
from attention_core.knobs.table import DEFAULTS
from attention_core.knobs.text import parse_number
from tests.ui import vega
from ui.specs import bars_and_curves, colors, heatmap_chart, sizing

# The sans-serif font Debian's Chromium falls back on: a check of the estimate with real glyphs.
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
LABEL = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")),
    min_size=1,
    max_size=20,
)
VALUE = st.one_of(
    st.floats(-1e3, 1e3, allow_nan=False),
    st.sampled_from([0.0, -0.0, 1e-9, 0.99999, math.nan, math.inf, -math.inf]),
)

LOOKS = (sizing.LAPTOP, sizing.PROJECTOR, sizing.PHONE)  # a laptop's, projected, a phone's


@st.composite
def heatmaps(draw: st.DrawFn) -> heatmap_chart.Heatmap:
    count = draw(st.integers(1, 12))
    width = draw(st.integers(1, 12))
    kind = draw(st.sampled_from(("weights", "scores", "values", "difference")))

    def grid(cells: st.SearchStrategy) -> st.SearchStrategy[list[list]]:
        row = st.lists(cells, min_size=width, max_size=width)
        return st.lists(row, min_size=count, max_size=count)

    values = draw(grid(VALUE))
    masked = draw(st.none() | grid(st.booleans()))
    dropped = draw(st.none() | grid(st.booleans()))
    return heatmap_chart.Heatmap(
        values,
        draw(st.lists(LABEL, min_size=count, max_size=count)),
        draw(st.lists(LABEL, min_size=width, max_size=width)),
        kind=kind,
        title=draw(LABEL),
        description=draw(LABEL),
        masked=masked,
        dropped=dropped,
        scale=draw(st.sampled_from(("fitted", "fixed"))),
    )


def layers(spec: dict) -> list[dict]:
    """The layers always drawn (not the number a tap prints on a colour-only cell)."""
    return [layer for layer in spec["layer"] if not layer.get("name", "").startswith("tapped")]


def tap_layers(spec: dict) -> list[dict]:
    return [layer for layer in spec["layer"] if layer.get("name", "").startswith("tapped")]


def records(spec: dict) -> list[dict]:
    return vega.records(spec)


@settings(max_examples=150, deadline=None)
@given(
    heatmap=heatmaps(),
    decimals=st.integers(1, 6),
    look=st.sampled_from(LOOKS),
    max_width=st.integers(120, 1400),
)
def test_heatmap_cells_hold_their_text_and_the_chart_fits_when_it_can(
    heatmap, decimals, look, max_width
):
    spec = heatmap_chart.make_heatmap(heatmap, decimals=decimals, look=look, max_width=max_width)
    font = spec["usermeta"]["cellFont"]  # the cells' font the chart chose
    assert spec["title"]["fontSize"] == look.font + 3  # the title keeps the look's size
    assert look.number_floor <= font <= look.font
    # the axes never under 12 px, 14 on a phone, 16 projected (issues 52, 53)
    axis = spec["config"]["axis"]["labelFontSize"]
    assert axis == max(font, look.least) == spec["config"]["axis"]["titleFontSize"]
    columns = len(heatmap.columns)
    cell = spec["width"] / columns
    rows = len(heatmap.rows)
    assert (
        cell == int(cell)
        and spec["height"] == sizing.row_height(font, title_place(spec), look) * rows
    )
    texts = [r["text"] for r in records(spec)]
    if printed(spec):
        assert all(cell >= sizing.text_width(text, font) for text in texts)
    elif max(len(heatmap.rows), columns) <= sizing.TEXT_LIMIT:  # colour only: no room
        assert _width_at(look.number_floor, heatmap, texts, look) > max_width
    label_width = spec["encoding"]["y"]["axis"]["labelLimit"]
    place = title_place(spec)
    titles = sizing.axis_title_room(
        heatmap_chart.axis_titles(heatmap), label_width, axis, place, spec["width"]
    )
    total = spec["width"] + label_width + 12 + titles
    smallest = _width_at(look.number_floor, heatmap, texts if printed(spec) else [""], look)
    if smallest <= max_width:
        assert total <= max_width
    if font > look.number_floor:
        assert total <= max_width  # the font only shrinks while the chart does not fit


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 3), st.sampled_from(LOOKS))
def test_a_colour_only_heatmap_prints_a_tapped_cells_number_and_a_printed_one_does_not(
    decimals, look
):
    """Colour only (17 tokens): a click or tap selects one cell (by row and column, never
    cleared by a second quick tap), and two text layers show only that cell's number: a
    white halo, then the ink, at least at the normal font size. A chart that prints its
    numbers has no selection and no such layers."""
    labels = [f"t{i}" for i in range(17)]
    values = [[(i * j % 7) / 7 for j in range(17)] for i in range(17)]
    wide = heatmap_chart.Heatmap(values, labels, labels, "weights", "w", "w")
    spec = heatmap_chart.make_heatmap(wide, decimals=decimals, look=look, max_width=800)
    assert not printed(spec)
    (selection,) = spec["layer"][0]["params"]
    assert selection["select"] == {
        "type": "point", "on": "click", "clear": False, "fields": ["row", "column"]
    }  # fmt: skip
    halo, ink = tap_layers(spec)
    for layer in (halo, ink):
        assert layer["transform"] == [{"filter": {"param": "tapped", "empty": False}}]
        assert layer["encoding"]["text"]["field"] == "text"
        assert layer["mark"]["fontSize"] > max(sizing.LAPTOP.font, look.least)
    assert (halo["mark"]["strokeWidth"], ink["mark"]["color"]) == (4, colors.BLACK)
    small = [row[:6] for row in values[:6]]
    six = heatmap_chart.Heatmap(small, labels[:6], labels[:6], "weights", "w", "w")
    spec = heatmap_chart.make_heatmap(six, decimals=decimals, look=look, max_width=800)
    assert printed(spec) and tap_layers(spec) == [] and "params" not in spec["layer"][0]


def printed(spec: dict) -> bool:
    """Whether the chart's cells print their numbers (a text layer)."""
    return any(layer["mark"]["type"] == "text" for layer in layers(spec))


def _width_at(
    font: int, heatmap: heatmap_chart.Heatmap, texts: list[str], look: sizing.Look
) -> int:
    """The narrowest the chart can be at ``font``: tilted headers, cells as wide as numbers,
    and (projected or on a phone) axis titles on the line above the column labels."""
    axis = max(font, look.least)
    labels = [heatmap_chart.safe.plain(r, sizing.LABEL_CHARS) for r in heatmap.rows]
    numbers = max(sizing.text_width(t, font) for t in texts) + 0.7 * font
    cell = max(math.ceil(numbers), math.ceil(2.2 * font))
    label = math.ceil(max(sizing.text_width(r, axis) for r in labels) + 8)
    plot = cell * len(heatmap.columns)
    columns = [heatmap_chart.safe.plain(c, sizing.LABEL_CHARS) for c in heatmap.columns]
    places = [sizing.title_place(columns, axis, tilt=True)] + (
        ["above"] if look.least_numbers else []
    )
    titles = min(
        sizing.axis_title_room(heatmap_chart.axis_titles(heatmap), label, axis, place, plot)
        for place in places
    )
    return label + plot + 12 + titles


def title_place(spec: dict) -> str:
    """Where the chart put its axis titles (``sizing.PLACES``): the rows' title from the row
    labels' left edge on the line above the labels, or ending by the plot with the columns'
    title in the corner (right-aligned there too) or right of the plot."""
    if spec["encoding"]["y"]["axis"].get("titleAlign") == "left":
        return "above"
    return "corner" if spec["encoding"]["x"]["axis"].get("titleAlign") == "right" else "side"


@pytest.mark.skipif(not DEJAVU.exists(), reason="DejaVu Sans is not installed")
@pytest.mark.parametrize("look", LOOKS, ids=("laptop", "projector", "phone"))
@pytest.mark.parametrize("count", [1, 6, 12])
def test_cells_are_wider_than_their_numbers_in_a_real_font(count, look):
    from PIL import ImageFont

    values = [[(-1) ** (i + j) * 1234.56789 / (i + 1) for j in range(count)] for i in range(count)]
    labels = [f"t{i}" for i in range(count)]
    for decimals in range(1, 7):
        heatmap = heatmap_chart.Heatmap(values, labels, labels, "scores", "s", "d")
        spec = heatmap_chart.make_heatmap(heatmap, decimals=decimals, look=look, max_width=880)
        font = spec["usermeta"]["cellFont"]
        glyphs = ImageFont.truetype(str(DEJAVU), font)
        widest = max(glyphs.getlength(r["text"]) for r in records(spec))
        assert not printed(spec) or spec["width"] / count >= widest


def cell_font(spec: dict) -> int | None:
    fonts = [layer["mark"]["fontSize"] for layer in layers(spec) if layer["mark"]["type"] == "text"]
    return fonts[0] if fonts else None


def test_a_projected_sentence_of_13_tokens_prints_fewer_decimals_at_the_projectors_size():
    """Found projected on page 10 (13 MiniLM tokens across 800 px): 4 decimals took 12-13 px
    cells, unreadable from the back row; 3 decimals fit at 15 px."""
    labels = ["[CLS]", "i", "must", "go", "back", "to·6", "my·7", "ship", "and", "to·10"]
    labels += ["my·11", "crew", "[SEP]"]
    values = [[0.0761 + 0.0003 * ((i * j) % 5) for j in range(13)] for i in range(13)]
    heatmap = heatmap_chart.Heatmap(values, labels, labels, "weights", "softmax", "d")
    four = heatmap_chart.make_heatmap(heatmap, decimals=4, look=sizing.PROJECTOR, max_width=800)
    assert cell_font(four) is not None and cell_font(four) < sizing.PRESENT_CELL_FONT
    assert heatmap_chart.shown_decimals(heatmap, decimals=4, look=sizing.LAPTOP, max_width=800) == 4
    # Fewer decimals, as many as fit at the projector's size (with the axes' "query ↓" and
    # "key →" beside the cells, 2 here), never under 2.
    shown = heatmap_chart.shown_decimals(heatmap, decimals=4, look=sizing.PROJECTOR, max_width=800)
    assert 2 <= shown < 4
    fewer = heatmap_chart.make_heatmap(
        heatmap, decimals=shown, look=sizing.PROJECTOR, max_width=800
    )
    assert cell_font(fewer) >= sizing.PRESENT_CELL_FONT
    assert records(fewer)[0]["text"] == f"{0.0761:.{shown}f}"
    if shown < 3:  # one decimal more would not have fitted
        more = heatmap_chart.make_heatmap(
            heatmap, decimals=shown + 1, look=sizing.PROJECTOR, max_width=800
        )
        assert cell_font(more) is not None and cell_font(more) < sizing.PRESENT_CELL_FONT
    # Six tokens fit at full size: the page's decimals, whatever they are.
    small = heatmap_chart.Heatmap(
        [row[:6] for row in values[:6]], labels[:6], labels[:6], "weights", "s", "d"
    )
    for decimals in range(1, 7):
        assert heatmap_chart.shown_decimals(
            small, decimals=decimals, look=sizing.PROJECTOR, max_width=800
        ) == (decimals)


@given(heatmaps(), st.integers(1, 6), st.integers(120, 900))
@settings(max_examples=60, deadline=None)
def test_projected_charts_round_only_to_reach_the_projected_size_and_never_below_2(
    heatmap, decimals, width
):
    shown = heatmap_chart.shown_decimals(
        heatmap, decimals=decimals, look=sizing.PROJECTOR, max_width=width
    )
    assert shown <= decimals
    if shown < decimals:
        assert shown >= sizing.PRESENT_MIN_DECIMALS
        shrink = sizing.PROJECTOR.font - sizing.PRESENT_CELL_FONT
        assert not heatmap_chart.fits(
            heatmap, decimals=decimals, look=sizing.PROJECTOR, max_width=width, shrink=shrink
        )
        spec = heatmap_chart.make_heatmap(
            heatmap, decimals=shown, look=sizing.PROJECTOR, max_width=width
        )
        assert printed(spec) and cell_font(spec) >= sizing.PRESENT_CELL_FONT
    assert heatmap_chart.shown_decimals(
        heatmap, decimals=decimals, look=sizing.LAPTOP, max_width=width
    ) == (decimals)


@pytest.mark.parametrize("blank", ["", " ", "\u3000\u2003"])
def test_a_blank_description_becomes_the_charts_shape(blank):
    heatmap = heatmap_chart.Heatmap([[0.5, 0.5]], ["a"], ["a", "b"], "weights", "Weights", blank)
    assert (
        heatmap_chart.make_heatmap(heatmap, decimals=2)["description"]
        == "A 1 by 2 heatmap of weights: Weights"
    )


@settings(max_examples=60, deadline=None)
@given(heatmap=heatmaps(), decimals=st.integers(1, 6))
def test_every_heatmap_has_a_legend_a_description_and_its_numbers_at_the_decimals(
    heatmap, decimals
):
    spec = heatmap_chart.make_heatmap(heatmap, decimals=decimals)
    given = heatmap_chart.safe.plain(heatmap.description, 300)
    assert spec["description"] == (given if given.strip() else spec["description"])
    assert spec["description"].strip()  # never blank, even when the caller's is
    title = spec["title"]  # broken into lines that fit, every word kept
    lines = title["text"] if isinstance(title["text"], list) else [title["text"]]
    assert " ".join(lines) == heatmap_chart.safe.plain(heatmap.title, 80)
    for line in lines:
        assert " " not in line or sizing.text_width(line, title["fontSize"]) <= title["limit"]
    colour = layers(spec)[0]["encoding"]["color"]
    assert colour["legend"]["title"] and colour["scale"]["range"]
    title_font = spec["config"]["legend"]["titleFontSize"]  # the title is printed in full,
    legend = colour["legend"]["title"]  # on lines where one would not fit
    for line in [legend] if isinstance(legend, str) else legend:
        assert " " not in line or colour["legend"]["titleLimit"] >= sizing.text_width(
            line, title_font
        )
    for layer in layers(spec):  # rectangles repeat what the texts say
        assert layer["mark"]["aria"] is (layer["mark"]["type"] == "text")
    number = re.compile(rf"{MINUS}?[0-9]+\.[0-9]{{{decimals}}}")  # the minus sign, no hyphen
    table = heatmap_chart.cell_texts(
        heatmap, decimals
    )  # "Show as table" prints what the chart does
    for record, (i, j) in zip(records(spec), _cells(heatmap), strict=True):
        assert record["text"] == table[i][j]
        value = heatmap.values[i][j]
        masked = heatmap.masked is not None and heatmap.masked[i][j]
        dropped = heatmap.dropped is not None and heatmap.dropped[i][j]
        if masked:
            assert record["state"] == "masked"
        if masked and heatmap.kind == "scores":
            assert record["text"] == "−∞"
        elif dropped and not masked:
            assert record["text"] == "✕"
        elif not math.isfinite(value):  # a masked weight too: its row was 0 / 0
            assert record["text"] == "undef."
            assert record["state"] == ("masked" if masked else "undefined")
        else:  # a masked weight prints the core's number (0 whenever the row is defined)
            assert number.fullmatch(record["text"])
            assert parse_number(record["text"], "a cell", math.inf) == pytest.approx(
                value, abs=10**-decimals
            )
    axes = spec["encoding"]
    assert axes["y"]["sort"] == [heatmap_chart.safe.plain(r, 20) for r in heatmap.rows]
    assert axes["x"]["sort"] == [heatmap_chart.safe.plain(c, 20) for c in heatmap.columns]


def test_a_negative_cell_prints_the_minus_sign_its_legend_and_the_text_print():
    """Issue 39, item 7: cells printed a hyphen ("-0.2104") where the legend (Vega's format)
    and the page's text print the minus sign, "−" (U+2212)."""
    heatmap = heatmap_chart.Heatmap(
        [[-0.2104, 0.5], [-1e-9, -3.0]], ["a", "b"], ["a", "b"], "scores", "s", "d"
    )
    spec = heatmap_chart.make_heatmap(heatmap, decimals=4)
    texts = [record["text"] for record in records(spec)]
    assert texts == ["−0.2104", "0.5000", "0.0000", "−3.0000"]  # a rounded −0 is 0
    assert records(spec)[0]["desc"] == "a, a: −0.2104"
    assert heatmap_chart.cell_texts(heatmap, 4) == [["−0.2104", "0.5000"], ["0.0000", "−3.0000"]]
    legend = layers(spec)[0]["encoding"]["color"]["legend"]["labelExpr"]
    assert "format(" in legend  # d3-format, whose minus is U+2212: the cells now match it


def _cells(heatmap: heatmap_chart.Heatmap) -> list[tuple[int, int]]:
    return [(i, j) for i in range(len(heatmap.rows)) for j in range(len(heatmap.columns))]


def test_the_default_decimals_are_the_books_four():
    assert DEFAULTS["decimals"] == 4
    heatmap = heatmap_chart.Heatmap([[0.15, 0.2264]], ["a"], ["a", "b"], "weights", "w", "d")
    spec = heatmap_chart.make_heatmap(heatmap, decimals=DEFAULTS["decimals"])
    assert [r["text"] for r in records(spec)] == ["0.1500", "0.2264"]


@pytest.mark.parametrize("decimals", [1, 4, 6])
def test_weight_bars_and_line_charts_describe_themselves(decimals):
    bars = bars_and_curves.make_weight_bars(
        [0.15, 0.85], ["x", "y"], title="t", description="bars", decimals=decimals
    )
    assert bars["description"] == "bars"
    assert [r["text"] for r in records(bars)] == [f"{0.15:.{decimals}f}", f"{0.85:.{decimals}f}"]
    rows = [{"d": 1, "label": "none", "variance": 1.0}, {"d": 2, "label": "÷ d", "variance": 0.5}]
    lines = bars_and_curves.make_line_chart(
        rows, y="variance", y_title="v", title="t", description="l"
    )
    assert lines["description"] == "l"
    assert lines["layer"][0]["encoding"]["color"]["legend"]["title"] == "scores"


def test_masked_cells_are_grey_and_their_text_contrasts():
    heatmap = heatmap_chart.Heatmap(
        [[1.0, -math.inf]], ["a"], ["a", "b"], "scores", "s", "d", masked=[[False, True]]
    )
    spec = heatmap_chart.make_heatmap(heatmap, decimals=4)
    colour = layers(spec)[0]["encoding"]["color"]  # cells not shown as numbers are drawn grey
    assert colour["condition"] == {
        "test": "datum.state != 'shown'",
        "value": colors.MASKED,
    }
    masked = records(spec)[1]
    assert masked["text"] == "−∞" and masked["value"] is None
    assert colors.contrast(masked["ink"], colors.MASKED) >= 4.5


def test_a_masked_weight_prints_the_cores_number_and_undef_when_its_row_is_zero_over_zero():
    # norm "sum" on all-zero scores divides 0 by 0: the core's whole row, masked keys too,
    # is nan; the chart used to print the masked cells as 0 (found by test_settings_sweep)
    heatmap = heatmap_chart.Heatmap(
        [[0.0, math.nan], [math.nan, math.nan]],
        ["a", "b"],
        ["a", "b"],
        "weights",
        "w",
        "d",
        masked=[[False, True], [False, False]],
    )
    cells = [
        (r["text"], r["state"]) for r in records(heatmap_chart.make_heatmap(heatmap, decimals=4))
    ]
    assert cells == [
        ("0.0000", "shown"),
        ("undef.", "masked"),
        ("undef.", "undefined"),
        ("undef.", "undefined"),
    ]


@settings(max_examples=40, deadline=None)
@given(heatmap=heatmaps())
def test_each_cells_text_colour_contrasts_with_the_colour_drawn_under_it(heatmap):
    spec = heatmap_chart.make_heatmap(heatmap, decimals=4)
    scale = layers(spec)[0]["encoding"]["color"]["scale"]
    for record in records(spec):
        shown = record["state"] == "shown"
        under = (
            colors.interpolate(scale["range"], scale["domain"], record["shade"])
            if shown
            else colors.MASKED
        )
        assert colors.contrast(record["ink"], under) >= 4.5


@settings(max_examples=80, deadline=None)
@given(heatmap=heatmaps(), decimals=st.integers(1, 6))
def test_a_cells_shade_places_its_value_between_the_low_and_high_the_legend_reads(
    heatmap, decimals
):
    spec = heatmap_chart.make_heatmap(heatmap, decimals=decimals)
    scale = layers(spec)[0]["encoding"]["color"]["scale"]
    assert scale["domain"] == list(heatmap_chart.SHADES) and scale["clamp"] is True
    for record in records(spec):
        low, high = record["low"], record["high"]
        assert low < high
        if record["state"] != "shown":
            assert record["shade"] is None
            continue
        assert math.isclose(low + record["shade"] * (high - low), record["value"], abs_tol=1e-9)
        if heatmap.kind != "weights" or heatmap.scale == "fitted":  # fixed 0–1 may clamp
            assert -1e-9 <= record["shade"] <= 1 + 1e-9
    shown = [r["value"] for r in records(spec) if r["state"] == "shown"]
    if heatmap.kind == "weights" and shown and min(shown) >= 0 and max(shown) <= 1:
        assert all(r["low"] >= 0 and r["high"] <= 1 for r in records(spec))  # probabilities


@pytest.mark.parametrize(
    ("values", "low", "high"),
    [
        ([[1.0]], 0.4, 1.0),
        ([[0.0, 0.0]], 0.0, 0.6),
        ([[0.2, 0.8]], 0.2, 0.8),
        ([[-0.3, 1.2]], -0.5, 1.5),
    ],
)
def test_fitted_weight_colours_span_no_value_a_probability_cannot_take(values, low, high):
    """One token's single weight of 1 used to give a legend from 0.40 to 1.60."""
    labels = [f"t{i}" for i in range(len(values[0]))]
    heatmap = heatmap_chart.Heatmap(
        values, labels[:1], labels, kind="weights", title="w", description="d"
    )
    first = records(heatmap_chart.make_heatmap(heatmap, decimals=4))[0]
    assert (first["low"], first["high"]) == pytest.approx((low, high))


@settings(max_examples=60, deadline=None)
@given(
    first=st.lists(st.floats(0.0, 0.99), min_size=36, max_size=36),
    second=st.lists(st.floats(0.0, 0.99), min_size=36, max_size=36),
    kind=st.sampled_from(("weights", "scores")),
)
def test_new_numbers_of_the_same_width_leave_the_spec_unchanged_but_its_data(first, second, kind):
    """The browser swaps the data of a chart whose spec is unchanged instead of rebuilding it:
    nothing that moves with the numbers (the colours' range) may be written into the spec."""
    labels = ["Your", "journey", "starts", "with", "one", "step"]

    def spec(values: list[float]) -> dict:
        grid = [values[i * 6 : i * 6 + 6] for i in range(6)]
        built = heatmap_chart.make_heatmap(
            heatmap_chart.Heatmap(grid, labels, labels, kind=kind, title="t", description="d"),
            decimals=4,
        )
        return {k: v for k, v in built.items() if k != "data"}

    assert spec(first) == spec(second)


def test_axis_and_legend_text_take_the_page_text_colour():
    # Streamlit's chart theme draws them in #808495 (3.7 : 1 on white, under WCAG AA).
    spec = {"mark": "rect", "config": {"axis": {"labelFontSize": 17, "labelColor": "#222222"}}}
    themed = heatmap_chart.with_text_color(spec, "#111111")
    assert themed["config"]["axis"] == {
        "labelFontSize": 17,
        "labelColor": "#222222",  # a chart's own choice stays
        "titleColor": "#111111",
    }
    assert themed["config"]["legend"] == {"labelColor": "#111111", "titleColor": "#111111"}
    assert spec["config"]["axis"] == {"labelFontSize": 17, "labelColor": "#222222"}  # a copy
    assert heatmap_chart.with_text_color(spec, None) is spec


def test_a_class_answers_chart_prints_counts_and_shares_and_says_them_in_its_description():
    from ui.specs.bars_and_curves import answer_shares, make_answer_bars

    assert answer_shares([0, 2, 0, 1]) == ["0 (0 %)", "2 (67 %)", "0 (0 %)", "1 (33 %)"]
    assert answer_shares([0, 0]) == ["0 (0 %)", "0 (0 %)"]  # nobody has answered yet
    spec = make_answer_bars([0, 2, 0, 1], ["w", "**2w**", "√2·w", "4w"], title="Answers")
    texts = [r["text"] for r in spec["data"]["values"]]
    assert texts == ["0 (0 %)", "2 (67 %)", "0 (0 %)", "1 (33 %)"]
    assert spec["encoding"]["y"]["sort"][1] == "B. **2w**"  # chart text is never Markdown
    assert "3 answers" in spec["description"] and "B. **2w**: 2 (67 %)" in spec["description"]
    assert spec["encoding"]["x"]["axis"]["tickMinStep"] == 1
    one = make_answer_bars([0, 1], ["w", "2w"], title="Answers", look=sizing.PROJECTOR, top=5)
    assert "1 answer." in one["description"] and "1 answers" not in one["description"]
    assert one["encoding"]["x"]["scale"]["domain"] == [0, 5]  # two votes share one axis
    assert one["encoding"]["x"]["axis"]["labelFontSize"] >= 16  # read on the projector


# A font with Chinese glyphs (Debian's fonts-noto-cjk): a check of the estimate with real ones.
NOTO_CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")


@pytest.mark.parametrize("font", [9, 13, 17])
def test_chinese_characters_and_full_width_punctuation_are_one_em_twice_a_latin_letter(font):
    for text in ("注意力权重", "，。：；？！（）「」", "热力图"):
        width = sizing.text_width(text, font)
        assert len(text) * font <= width <= len(text) * font * 1.1  # about one em each
    ratio = sizing.text_width("权", font) / sizing.text_width("a", font)
    assert 1.6 <= ratio <= 2.2  # about twice a Latin letter
    # A Chinese label is sized as wide as it prints: wider than as many Latin letters.
    assert sizing.label_limit(["注意力权重"], font) > sizing.label_limit(["abcde"], font)
    assert sizing.text_width("weight", font) == pytest.approx(6 * 0.62 * font)  # unchanged


@pytest.mark.skipif(not NOTO_CJK.exists(), reason="Noto Sans CJK is not installed")
def test_the_chinese_estimate_is_at_least_a_real_fonts_width():
    from PIL import ImageFont

    glyphs = ImageFont.truetype(str(NOTO_CJK), 17)
    for text in (
        "注意力权重",
        "颜色固定在 0 到 1 之间",
        "查询 \\ 键",
        "（第 2 个头，共 4 个头）。",
    ):
        assert sizing.text_width(text, 17) >= glyphs.getlength(text)


def test_a_chinese_title_breaks_between_characters_into_lines_that_fit():
    text = (
        "第 3 个词元（旅程）怎样穿过注意力：到这一阶段为止的方框都显示了数字，"
        "后面的方框只画出轮廓。"
    )
    lines = sizing.title_lines(text, 16, 160)
    assert isinstance(lines, list) and len(lines) > 1
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # every character, in order
    for line in lines:
        assert sizing.text_width(line, 16) <= 160
        assert line[0] not in "，。：）" and line[-1] != "（"  # no mark alone at a line's edge
    assert sizing.title_lines("注意力权重", 16, 160) == "注意力权重"  # one line stays a string
    # Never one character alone on the last line (a phone's legend split "颜色" as "颜 / 色）").
    legend = sizing.title_lines("权重（这几张图共用同一套颜色）", 14, 212)
    assert legend == ["权重（这几张图共用同一套", "颜色）"], legend
    # Latin titles still break at spaces only.
    assert sizing.title_lines("attention weights of the tokens", 16, 120) == [
        "attention",
        "weights of",
        "the tokens",
    ]
    heatmap = heatmap_chart.Heatmap([[0.5, 0.5]], ["a"], ["a", "b"], "weights", text, "d")
    title = heatmap_chart.make_heatmap(heatmap, decimals=2, max_width=300)["title"]
    assert isinstance(title["text"], list)  # not cut with "…" at the column's edge
    assert all(
        sizing.text_width(line, title["fontSize"]) <= title["limit"] for line in title["text"]
    )
