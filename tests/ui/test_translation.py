"""The app in the learner's language: every page in Chinese, the same numbers, the choice in
the link, and a bad choice named. (AppTest; the browser's language and two learners on one
server are tested in Chromium: tests/e2e/test_language_browser.py.)
"""

from __future__ import annotations

import re

import pytest

from tests.ui.apptest import (
    PAGES,
    assert_clean,
    markdown_tables,
    notices,
    open_page,
    records,
    reopen_from_link,
    url_params,
    vega_specs,
)
from tests.ui.untranslated import CJK, leftovers

ZH = {"lang": "zh_CN"}
NUMBER = re.compile(r"[−-]?\d+\.\d+")
# A drawing's layout (Flow's boxes, the lines' ends) follows the width of its words.
GEOMETRY = {"x", "y", "x2", "y2", "width", "height", "alpha", "size", "dx", "dy", "font", "limit"}


def numbers(at) -> list[float]:
    """Every decimal number the page's charts and tables hold, sorted."""
    found = []
    for spec in vega_specs(at):
        for record in records(spec):
            found += [
                round(v, 6)
                for k, v in record.items()
                if isinstance(v, float) and v == v and k not in GEOMETRY
            ]
    for table in markdown_tables(at):
        for row in table:
            for cell in row:
                found += [float(n.replace("−", "-")) for n in NUMBER.findall(cell)]
    return sorted(found)


@pytest.mark.parametrize("page", PAGES)
def test_each_page_in_chinese_leaves_no_english_prose_and_shows_the_same_numbers(page):
    chinese = open_page(page, ZH)
    assert_clean(chinese)
    assert notices(chinese) == []
    assert CJK.search(chinese.title[0].value), chinese.title[0].value
    assert leftovers(chinese) == {}
    assert numbers(chinese) == numbers(open_page(page))


# Pages in states that show more of their words: the Playground's other panels and lines,
# several heads, dropout, a mask, an output projection, today's variants, a pinned A.
BUSY = {
    "streamlit_app": "panel=scores&heads=2&d_out=4&dropout=0.3&mask=causal&out_proj=linear",
    "streamlit_app ": "panel=qkv&weights_view=lines&heads=2&d_out=4",
    "streamlit_app  ": "panel=checks&mask=padding&padding=2&norm=naive_softmax",
    "streamlit_app   ": "panel=code&scoring=cosine",
    "0_Flow": "stage=9&heads=2&d_out=4&out_proj=linear&dropout=0.3&mask=causal",
    "0_Compare": "pin=seed%3D7%26mask%3Dcausal",
    "3_Trainable_weights": "init=linear&qkv_bias=true&heads=2&d_out=4",
    "6_Dropout": "dropout=0.3",
    "7_Multi-head_attention": "heads=2&d_out=4&out_proj=linear",
    "11_Todays_attention": "heads=2&d_out=4&kv_groups=1&window=3&rope=true&kv_step=4",
    "12_Cross_attention": "mask=causal&heads=2&d_out=4&dropout=0.3&target=1,2;3,4",
    "13_Saving_memory": "heads=2&d_out=4&kv_groups=1&mask=causal&tile_step=3",
}


@pytest.mark.parametrize("case", BUSY)
def test_busier_pages_in_chinese_leave_no_english_prose(case):
    params = dict(pair.split("=", 1) for pair in BUSY[case].split("&"))
    params = {k: v.replace("%3D", "=").replace("%26", "&") for k, v in params.items()}
    chinese = open_page(case.strip(), {**params, **ZH})
    assert_clean(chinese)
    assert notices(chinese) == []
    assert leftovers(chinese) == {}


def test_the_link_carries_the_language_and_opens_in_it_elsewhere():
    at = open_page("4_Scaling", ZH)
    assert url_params(at) == {"lang": ["zh_CN"]}
    again = reopen_from_link(at)
    assert CJK.search(again.title[0].value)


def test_choosing_a_language_translates_the_page_and_keeps_every_setting():
    at = open_page("streamlit_app", {"d_out": "3", "scaling": "d"})
    english = numbers(at)
    at.radio(key="lang").set_value("zh_CN").run()
    assert_clean(at)
    assert CJK.search(at.title[0].value)
    assert url_params(at) == {"d_out": ["3"], "scaling": ["d"], "lang": ["zh_CN"]}
    assert numbers(at) == english
    # Back to English: in Chromium (tests/e2e/test_language_browser.py). AppTest cannot: it
    # reads a select box's value through the labels of its last run, which are Chinese.


@pytest.mark.parametrize("given", ["xx", "../zh", "<b>fr</b>"])
def test_an_unknown_language_falls_back_to_english_with_the_setting_named(given):
    at = open_page("streamlit_app", {"lang": given})
    assert_clean(at)
    assert at.title[0].value == "Self-attention playground"
    (notice,) = notices(at)
    assert notice.startswith("**Language**: ") and notice.endswith("Using English.")
    assert "<b>" not in notice


def test_what_a_page_ignores_takes_one_colon_in_chinese():
    """ "Ignores {ignores}." put a colon before a value that brings its own: "不使用：dropout：…"
    (page 13). Each page's line, as the page frame writes it, has one colon at most."""
    import translation
    from ui.session import nav

    lines = []
    with translation.speaking("zh_CN"):
        for page in nav.PAGES:
            if page.ignores:
                lines.append(
                    translation._("Ignores {ignores}.").format(ignores=translation._(page.ignores))
                )
    assert lines and all(CJK.search(line) for line in lines), lines
    assert [line for line in lines if line.count("：") > 1] == []
