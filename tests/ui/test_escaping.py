"""No user text becomes markup (issue 12, item 1): every page, hostile labels in a link and in
the grid, hostile words and sentences, unknown keys and bad values that notices echo.

User text may reach Markdown (markdown, captions, alerts, titles, expander and widget labels,
metrics) only inside code spans, or backslash-escaped in a notice's sentence (``safe.prose``:
a notice is inert Markdown, its only markup the setting's name in bold and code spans), LaTeX
only as ``\\char`` codes (formulas quote tokens by position, so never), a chart only as a
plain title or label cut by ``safe.plain``, and Plotly only HTML-escaped. AppTest shows what
each element receives, not how a browser renders it.
"""

from __future__ import annotations

import json

import pytest

from tests.ui.apptest import (
    ALERT_KINDS,
    HOME,
    PAGES,
    WIDGET_KINDS,
    assert_clean,
    go_to,
    grid_key,
    markup_problems,
    notices,
    open_page,
    records,
    send_edits,
    title_of,
    url_settings,
    vega_specs,
    without_code,
)

# Accepted labels (1 to 20 printable characters, no ',' or ';') that are markup elsewhere.
LABELS_A = ("**b**", "[l](http://e.x)", "![i](http://e.x/p)", "<b>x</b>", "# h", "$x^2$")
LABELS_B = (":material/home:", ":red[x]", "`t` \\", "|p| _i_", "{}^_%~&#", "&lt a@b.co")
TEXTS = {
    "sentence": "[click](http://evil.example) **ship** <img src=x> $y$",
    "word": "**ship**",
    "text": "own",
    "own": "![p](http://e.x/p.png) :material/home: crew",
    "compare": "<b>ship</b>",
}
UNKNOWN = "[k](http://evil.example)"
BAD_VALUE = "![x](http://e.x/q)"
# Pieces of markup none of the app's own texts contain.
FRAGMENTS = ("](http", "<b>", "<img", ":material/home", ":red[", "$x^2", "$y$", "**b**", "**ship**")
MARKUP_KINDS = ("title", "header", "subheader", "markdown", "caption", *ALERT_KINDS)


def six_rows(count: int) -> str:
    return ";".join(",".join(str((i + j) % 5 / 4) for j in range(3)) for i in range(count))


def assert_user_text_escaped(at, hostile: tuple[str, ...]) -> None:
    """Every element that interprets markup holds the hostile text only where it is inert."""
    pieces = {*hostile, *FRAGMENTS}
    markup = [e.value for kind in MARKUP_KINDS for e in at.get(kind)]
    markup += [e.label for e in at.expander]
    markup += [w.label for kind in WIDGET_KINDS for w in at.get(kind)]
    markup += [text for m in at.metric for text in (m.label, str(m.value))]
    for text in markup:
        outside = without_code(text)
        assert not [p for p in pieces if p in outside], text
        assert ":material/" not in text.replace(":material/info:", "").replace(
            ":material/warning:", ""
        )
    for notice in notices(at):
        assert markup_problems(notice, frozenset({"strong", "code"})) == [], notice
    for formula in at.latex:
        assert not [p for p in pieces if p in formula.value], formula.value
    for spec in vega_specs(at):
        title = title_of(spec)
        assert len(title) <= 80 and "\n" not in title
        for record in records(spec):
            for field in ("row", "column", "key"):
                assert len(str(record.get(field, ""))) <= 20
    for figure in at.get("plotly_chart"):
        strings = json.dumps(json.loads(figure.proto.spec), ensure_ascii=False)
        assert "<b>x</b>" not in strings and "<img" not in strings


@pytest.mark.parametrize("labels", [LABELS_A, LABELS_B])
@pytest.mark.parametrize("page", PAGES)
def test_hostile_link_values_stay_text_on_every_page(page, labels):
    link = {
        "x": six_rows(6),
        "tokens": ",".join(labels),
        **TEXTS,
        UNKNOWN: "1",
        "d_out": BAD_VALUE,
        "query": "4",
    }
    at = open_page(page, link)
    assert_clean(at, allow_guarded=page == "10_Real_sentences")  # <b>ship</b> is no token
    assert url_settings(at).tokens == labels  # accepted as they are, shown as text
    assert len(notices(at)) == 2  # the unknown key and the bad d_out, echoed as text
    typed = [v for k, v in TEXTS.items() if k != "text"]
    assert_user_text_escaped(at, (*labels, *typed, UNKNOWN, BAD_VALUE))


def test_hostile_labels_typed_in_the_grid_stay_text_on_every_page():
    at = open_page(HOME)
    zeros = {"d1": 0.5, "d2": -0.5, "d3": 0.25}
    send_edits(
        at,
        {
            "edited_rows": {i: {"token": label} for i, label in enumerate(LABELS_A)},
            "added_rows": [{"token": label, **zeros} for label in LABELS_B],
        },
    )
    assert url_settings(at).tokens == (*LABELS_A, *LABELS_B)
    for page in [*PAGES, HOME]:
        go_to(at, page)
        assert_clean(at)
        assert_user_text_escaped(at, (*LABELS_A, *LABELS_B))
    assert grid_key(at) is not None


@pytest.mark.parametrize(
    "label",
    ["x" * 21, "a,b", "tab\there", "zero\u200bwidth", "\u202eevil", "![p](http://e.x/p.png)"],
)
def test_a_refused_label_is_named_by_row_and_echoed_as_text(label):
    at = open_page(HOME)
    send_edits(at, {"edited_rows": {2: {"token": label}}})
    assert_clean(at)
    refused = [n for n in notices(at) if n.startswith("Matrix: ")]
    assert len(refused) == 1 and "row 3" in refused[0]
    assert url_settings(at).tokens[2] == "starts"  # the last valid label stays
    assert_user_text_escaped(at, (label,))
