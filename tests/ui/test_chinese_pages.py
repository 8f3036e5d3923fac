"""Chinese on the pages (issue 53): titles that break between words, the grid's header."""

from __future__ import annotations

import json
import re
from pathlib import Path

from babel.messages.pofile import read_po

from tests.ui.apptest import open_page
from ui.session.run_order import BASE_CSS

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "translation" / "locales" / "zh_CN" / "LC_MESSAGES" / "messages.po"
TITLE_CALL = re.compile(r"show_(?:header|title)\(\s*page,\s*_\(\s*\"([^\"]+)\"", re.S)
# Chinese characters a title may not run on for without a place to break (a word is 1-5)
LONG_RUN = re.compile(r"[\u4e00-\u9fff]{6,}")


def page_titles() -> list[str]:
    sources = [ROOT / "streamlit_app.py", *sorted((ROOT / "pages").glob("*.py"))]
    return [t for path in sources for t in TITLE_CALL.findall(path.read_text(encoding="utf-8"))]


def test_chinese_titles_break_only_between_words():
    """Chromium broke "…全过 / 程" and "…注意 / 力": a title's words are now marked with
    zero-width spaces in the catalog, and titles in Chinese break only there."""
    titles = page_titles()
    assert len(titles) >= 14, titles
    catalog = read_po(CATALOG.open("rb"))
    for title in titles:
        chinese = catalog.get(title).string
        runs = LONG_RUN.findall(chinese.replace("\u200b", " "))
        assert not runs, f"mark the word ends in {chinese!r} with U+200B (zero-width space)"
        assert chinese.replace("\u200b", "") != chinese or len(chinese) <= 8, chinese
    assert ":lang(zh) .stApp h1 { word-break: keep-all; }" in BASE_CSS


def test_the_grids_token_header_is_translated():
    at = open_page(params={"lang": "zh_CN"})
    columns = json.loads(at.data_editor[0].proto.columns)
    assert columns["token"]["label"] == "词元"


def test_hovering_any_cell_shows_its_query_key_and_value_in_the_learners_language():
    """Hovering a printed number showed Vega's own list of the record's fields ("column Your,
    row Your, text 0.1551, desc …"), in both languages: every layer now names its tooltip."""
    import translation
    from ui.specs import heatmap_chart, sizing

    values = [[0.25, 0.75], [0.5, 0.5]]
    for count, printed in ((2, True), (20, False)):  # numbers printed, and colour only
        rows = [f"t{i}" for i in range(count)]
        grid = [[values[i % 2][j % 2] for j in range(count)] for i in range(count)]
        heatmap = heatmap_chart.Heatmap(grid, rows, rows, "weights", "w", "d")
        with translation.speaking("zh_CN"):
            spec = heatmap_chart.make_heatmap(heatmap, decimals=4, max_width=600)
        assert (
            heatmap_chart.prints_numbers(heatmap, decimals=4, look=sizing.LAPTOP, max_width=600)
            is printed
        )
        for layer in spec["layer"]:
            titles = [field["title"] for field in layer["encoding"]["tooltip"]]
            assert titles == ["查询", "键", "值"], layer
