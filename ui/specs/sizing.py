"""How much room a chart's text takes: fonts, the width of printed text, and the cell and
label sizes of a heatmap, whose font shrinks until it fits the width it is given.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from ui import safe

MIN_FONT = 9
LEGEND_FONT = 12  # the least a legend or an axis is on a laptop, however small the cells get
# Projected or on a phone, a chart prints fewer decimals, down to PRESENT_MIN_DECIMALS (a
# learner may still choose 1 herself), before its numbers get smaller than its look allows.
PRESENT_MIN_DECIMALS = 2


@dataclass(frozen=True)
class Look:
    """How a chart's text is sized for one kind of screen.

    ``font``: the type at full size; ``least``: the least a legend, an axis or a title is;
    ``least_numbers``: where printed numbers must stay readable (a projector's back row, a
    phone held in a hand), the least they are before the chart prints fewer decimals (None:
    they shrink to ``number_floor`` first); ``number_floor``: below it a chart's cells are
    colour only (a tap prints a number).
    """

    font: int
    least: int
    least_numbers: int | None = None
    number_floor: int = MIN_FONT
    projected: bool = False
    rows: float | None = None  # a heatmap row's height in fonts (None: ``row_height``'s rule)
    column: int = 800  # the main column charts are drawn for (pixels), unless measured narrower


# A laptop's column: the main column at 1280 × 720 with the sidebar open.
LAPTOP = Look(font=13, least=LEGEND_FONT, column=800)
# Projected, rows are as tight as a table's lines: twelve tokens' heatmap, its title, labels
# and legend, stays within what a 720 px screen leaves under a page's title.
# Projected the sidebar is folded: the main column at the narrowest projector, 1024 × 768
# (1120 px at 1280 × 720, 1760 at 1920 × 1080).
PROJECTOR = Look(font=17, least=16, least_numbers=16, projected=True, rows=1.5, column=864)
# A phone draws charts at their own size (no scaling down to the column): 14 px is the least
# type on a phone anywhere in the app (the page's CSS), charts included.
# Its column: the narrowest common phone, 360 px wide, less the page's margins (1 rem each side).
PHONE = Look(font=14, least=14, least_numbers=14, number_floor=14, column=328)
PRESENT_CELL_FONT = PROJECTOR.least_numbers  # the least a projected heatmap's numbers are


def look_of(present: bool, phone: bool = False) -> Look:
    """The look of a page: projected (presentation mode wins on any screen), a phone's, or a
    laptop's."""
    return PROJECTOR if present else PHONE if phone else LAPTOP


def smaller(font: int, less: int, look: Look) -> int:
    """``less`` pixels under ``font`` (a legend, a chart's secondary numbers), never under
    the look's least (``LEGEND_FONT`` on a laptop; projected ``PRESENT_CELL_FONT``, the least
    the back row of a lecture hall reads; 14 px on a phone)."""
    return max(font - less, look.least)


# Room around the plot: Vega places text by its font metrics, and a glyph can reach a few
# pixels past them (a title's accents above, a label's descenders below).
PADDING = {"top": 8, "left": 6, "right": 6, "bottom": 6}
LABEL_CHARS = 20  # the longest label a chart prints in full
TEXT_LIMIT = 16  # past this many rows or columns, cells carry no printed numbers
# Width of a character in units of the font size (a sans-serif font, rounded up).
_WIDTHS = {".": 0.3, ",": 0.3, "-": 0.4, " ": 0.3, "−": 0.62, "∞": 0.8, "✕": 0.85, "·": 0.35}
# A Chinese character or full-width punctuation mark is one em (its font's square), about twice
# a Latin letter; with the estimate's margin, as the other wide symbols.
WIDE = 1.05
# Full-width punctuation that may not start a line (it stays with the character before it) and
# that may not end one (it stays with the character after it).
_CLOSING = frozenset("，。、：；？！）」』》〉】〕”’…")
_OPENING = frozenset("（「『《〈【〔“‘")


def is_wide(ch: str) -> bool:
    """True for a character a font draws one em wide: Chinese (and other East Asian) characters
    and full-width punctuation."""
    return unicodedata.east_asian_width(ch) in ("W", "F")


def text_width(text: str, font: float) -> float:
    """A generous estimate of ``text``'s width in pixels at ``font`` pixels."""
    units = 0.0
    for ch in text:
        if ch in _WIDTHS:
            units += _WIDTHS[ch]
        elif ch.isascii():
            units += 0.62
        elif is_wide(ch):
            units += WIDE  # Chinese characters and full-width punctuation: one em
        else:
            units += 1.05  # other scripts and symbols
    return units * font


def title(text: str, font: int, chart_width: int, max_width: int) -> dict:
    """A chart's Vega title: on one line while the column has room for it (at least as wide
    as the chart, or 160 px), else broken into lines that fit rather than cut.

    Charts side by side then have titles of one height, and their plots start level: page
    3's "queries = X · W_query" took two lines over a chart narrower than it, "keys = X ·
    W_key" one (issue 39, item 9)."""
    limit = max(chart_width, 160, min(math.ceil(text_width(text, font)), max_width - 24))
    return {
        "text": title_lines(text, font, limit),
        "fontSize": font,
        "anchor": "start",
        "limit": limit,
    }


def label_limit(labels: Sequence[str], font: int) -> int:
    """An axis's label limit: as wide as its longest label (labels are already cut to
    ``LABEL_CHARS``)."""
    return math.ceil(max(text_width(label, font) for label in labels)) + 4


def title_lines(text: str, font: float, limit: float) -> str | list[str]:
    """``text`` broken at spaces into lines no wider than ``limit`` pixels at ``font`` (Vega
    draws a list as lines; a title wider than its limit is cut with "…"). One line stays a
    string; a word wider than the limit gets a line of its own.

    Chinese has no spaces: a line may also break between two Chinese characters (never before
    a closing mark such as "，" or "）", nor after an opening one such as "（")."""
    lines: list[str] = []
    for word in text.split(" "):
        for n, piece in enumerate(_pieces(word)):
            glue = " " if n == 0 else ""
            if lines and text_width(f"{lines[-1]}{glue}{piece}", font) <= limit:
                lines[-1] = f"{lines[-1]}{glue}{piece}"
            else:
                lines.append(piece)
    lines = _no_lone_character(lines)
    return lines[0] if len(lines) == 1 else lines


def _no_lone_character(lines: list[str]) -> list[str]:
    """Chinese never ends on one character alone on its line (it splits a word: "颜 / 色）"):
    the line before gives it its last character, and an opening mark right before that."""
    if len(lines) < 2:
        return lines
    last = lines[-1].rstrip("".join(_CLOSING))
    before = lines[-2]
    if len(last) != 1 or not is_wide(last) or len(before) < 2 or not is_wide(before[-1]):
        return lines
    cut = len(before) - 1
    if cut and before[cut - 1] in _OPENING:
        cut -= 1
    if not before[:cut].strip():
        return lines
    return [*lines[:-2], before[:cut], before[cut:] + lines[-1]]


def _pieces(word: str) -> list[str]:
    """``word`` cut where a line may break inside it: around each Chinese character (a word
    without one stays whole)."""
    if not any(is_wide(ch) for ch in word):
        return [word]
    pieces: list[str] = []
    joined = False  # the next character stays on the last piece (it follows an opening mark)
    for ch in word:
        if pieces and (joined or ch in _CLOSING or not (is_wide(ch) or is_wide(pieces[-1][-1]))):
            pieces[-1] += ch
        else:
            pieces.append(ch)
        joined = ch in _OPENING
    return pieces


@dataclass(frozen=True)
class Geometry:
    """The sizes a heatmap was given (pixels), and where its axis titles go (``PLACES``)."""

    font: int
    cell_width: int
    cell_height: int
    label_width: int
    total_width: int
    titles: str = "side"
    least: int = LEGEND_FONT  # the look's least type for axes and legends

    @property
    def axis_font(self) -> int:
        """The axes' labels and titles: the cells' font, never under the look's least."""
        return max(self.font, self.least)


def geometry(
    row_labels: Sequence[str],
    column_labels: Sequence[str],
    texts: Sequence[str],
    look: Look,
    max_width: int,
    titles: tuple[str, str] | None = None,
) -> tuple[Geometry, bool]:
    """Cell and label sizes from the printed text; the font shrinks until the chart fits.

    Columns are made wide enough for their labels when that fits; otherwise the labels are
    tilted. A chart with axis ``titles`` (rows, columns) keeps room for them beside the plot
    (``axis_title_room``), or, where that is too wide, on a line above the column labels:
    projected, a line of height rather than a smaller font (12 tokens' numbers stay at 16 px;
    in a page's normal mode the height is the first screen's). Returns the geometry and
    whether the column labels are tilted.
    """
    font = look.font
    rows = [safe.plain(label, LABEL_CHARS) for label in row_labels]
    columns = [safe.plain(label, LABEL_CHARS) for label in column_labels]
    while True:
        axis = max(font, look.least)  # the labels' and titles' font
        numbers = max(text_width(t, font) for t in texts) + 0.7 * font
        header = max(text_width(c, axis) for c in columns) + 0.6 * axis
        label_width = math.ceil(max(text_width(label, axis) for label in rows) + 8)
        for above in (False, True) if titles and look.least_numbers else (False,):
            for cell, tilt in ((max(numbers, header), False), (numbers, True)):
                cell_width = max(math.ceil(cell), math.ceil(2.2 * font))
                plot = cell_width * len(columns)
                place = "above" if above else title_place(columns, axis, tilt)
                total = label_width + plot + 12
                total += axis_title_room(titles, label_width, axis, place, plot)
                height = row_height(font, place, look)
                size = Geometry(font, cell_width, height, label_width, total, place, look.least)
                if total <= max_width:
                    return size, tilt
        if font <= look.number_floor:
            return size, tilt
        font -= 1


def layout(
    row_labels: Sequence[str],
    column_labels: Sequence[str],
    texts: Sequence[str],
    look: Look,
    max_width: int,
    titles: tuple[str, str] | None = None,
) -> tuple[Geometry, bool, bool]:
    """A heatmap's geometry, whether its column labels are tilted and whether its cells print
    their numbers (``texts``).

    Cells print their numbers when there are at most ``TEXT_LIMIT`` rows and columns and the
    numbers fit ``max_width`` at ``MIN_FONT`` or more. Otherwise the cells are colour only,
    sized to fit (a long sentence, many dimensions): their numbers are in the tooltips and
    the table.
    """
    if max(len(row_labels), len(column_labels)) <= TEXT_LIMIT:
        size, tilt = geometry(row_labels, column_labels, texts, look, max_width, titles)
        if size.total_width <= max_width:
            return size, tilt, True
    size, tilt = geometry(row_labels, column_labels, [""], look, max_width, titles)
    return size, tilt, False


AXIS_TITLE_GAP = 6  # between an axis's title and the plot (pixels)


def tall_band(column_labels: Sequence[str], font: int) -> bool:
    """True when tilted column labels take about the height of two lines of text: the
    columns' axis title then fits in the corner above the rows' title (a few pixels more
    height at most, where the chart's width has none to spare)."""
    longest = max(text_width(label, font) for label in column_labels)
    return longest * math.sqrt(0.5) >= 1.5 * font  # a line's room above the rows' title


# Where a heatmap's axis titles go: "side", the rows' title in the corner above the row labels
# and the columns' right of the plot; "corner", both in the corner, the columns' a line above
# (over tilted labels tall enough, ``tall_band``); "above", both on one line over the column
# labels, the rows' first (a line of height, and no width beyond the chart's own).
PLACES = ("side", "corner", "above")


def title_place(column_labels: Sequence[str], font: int, tilt: bool) -> str:
    """The titles' place that costs no height: "corner" over tall tilted labels, else
    "side"."""
    return "corner" if tilt and tall_band(column_labels, font) else "side"


def row_height(font: int, place: str, look: Look = LAPTOP) -> int:
    """A heatmap row's height (pixels): its number with room above and below; a little
    tighter under axis titles "above" the labels, which gives back the line they take; a
    look's own (projected: a table's line) where it has one."""
    if look.rows is not None:
        return math.ceil(look.rows * font)
    return math.ceil((1.8 if place == "above" else 1.95) * font)


LABEL_PADDING = 10  # between the column labels and the plot (pixels; Streamlit's theme's)


def label_band(column_labels: Sequence[str], font: int, tilt: bool) -> int:
    """The height of the column labels over the plot (pixels), their padding included: a
    line (a glyph's box is 1.3 times its font), or tilted by 45° the diagonal of the
    longest."""
    if not tilt:
        return LABEL_PADDING + math.ceil(1.3 * font)
    longest = max(text_width(label, font) for label in column_labels)
    return LABEL_PADDING + math.ceil((longest + font) * math.sqrt(0.5))


def axis_title_room(
    titles: tuple[str, str] | None, label_width: int, font: int, place: str, plot_width: int
) -> int:
    """The width axis titles add to a heatmap (pixels), at their ``place`` (``PLACES``)."""
    if titles is None:
        return 0
    rows, columns = (math.ceil(text_width(t, font)) + AXIS_TITLE_GAP for t in titles)
    if place == "above":
        return max(0, rows + columns - label_width - plot_width)
    if place == "corner":
        return max(0, max(rows, columns) - label_width)
    return max(0, rows - label_width) + columns
