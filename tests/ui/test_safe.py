"""The escaping module at the string level (issue 12, item 1), and what uses it: colours and
Markdown tables. CommonMark rendering is checked with markdown-it-py (Streamlit's own Markdown
runs in the browser: tests/e2e checks it there)."""

from __future__ import annotations

import html
import re
import string

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from tests.ui.apptest import STREAMLIT_REWRITES
from ui import safe
from ui.specs import colors, tables

MARKDOWN = MarkdownIt("commonmark").enable("table")
SPECIALS = "`*_[]()!<>#|\\$~{}^%&:/@=+-\n\t "
TEXT = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from([*SPECIALS, "a", "1", ":material", "http://", "é", "😀"])).map(
        "".join
    ),
)
LIMIT = st.integers(1, 200)
TEX_SPECIALS = set("\\{}$&#^_%~")


def spans(markdown: str) -> list[tuple[str, str]]:
    """Read safe.md's output as code spans joined by &#47;: (fence, content) pairs."""
    found, position = [], 0
    while position < len(markdown):
        fence = re.match(r"`+", markdown[position:])
        assert fence, markdown[position:]
        ticks = fence.group(0)
        close = re.compile(rf"(?<!`){ticks}(?!`)")
        end = close.search(markdown, position + len(ticks))
        assert end, markdown
        content = markdown[position + len(ticks) : end.start()]
        if content.startswith(" ") and content.endswith(" ") and content.strip(" "):
            content = content[1:-1]  # CommonMark drops one padding space on each side
        found.append((ticks, content))
        position = end.end()
        if position < len(markdown):
            assert markdown.startswith("&#47;", position), markdown[position:]
            position += len("&#47;")
            if position == len(markdown):
                found.append(("", ""))  # the text ended with the slash
    return found


@settings(max_examples=400)
@given(text=TEXT, limit=LIMIT)
@example(text="`", limit=10)
@example(text="a :material/home: b", limit=120)
@example(text=":material/", limit=120)
@example(text="``x`` ```", limit=120)
@example(text="\x00", limit=1)
def test_md_is_code_spans_holding_exactly_the_shortened_text(text, limit):
    markdown = safe.md(text, limit)
    shortened = safe.shorten(text, limit)
    assert len(shortened) <= limit and "\n" not in shortened
    assert ":material/" not in markdown
    found = spans(markdown)
    assert "/".join(content for _, content in found) == shortened
    for fence, content in found:
        if not content:
            continue
        runs = re.findall("`+", content)
        assert len(fence) > max((len(r) for r in runs), default=0)
    rendered = MARKDOWN.renderInline(markdown)
    assert set(re.findall(r"</?([a-z]+)", rendered)) <= {"code"}
    # CommonMark (and a browser) shows U+0000 as U+FFFD; labels refuse it long before.
    expected = shortened.replace("\x00", "\ufffd")
    assert html.unescape(re.sub(r"<[^>]+>", "", rendered)) == expected


PROSE_TEXT = st.one_of(
    TEXT,
    st.lists(
        st.sampled_from(
            ["a", "-", "->", "<=", "--", ":", "smile", "material_home", "www.", "http://x",
             "@", "b.c", "$", "\\", "`", "*", "[", "]", "(", ")", " ", ":red[x]", "&amp;"]
        )
    ).map("".join),
)  # fmt: skip


@settings(max_examples=400)
@given(text=PROSE_TEXT, limit=LIMIT)
@example(text="seed must be a whole number written with the digits 0-9, not 'abc'", limit=200)
@example(text="x -> y <= z -- w :smile: :material/home: www.x.zz a@b.zz http://x.zz", limit=120)
@example(text="$x^2$ \\frac{a}{b} **b** _i_ <b>x</b> [a](http://x.zz) # h", limit=120)
@example(text=":material/", limit=10)  # the word's last part is empty: the slash ends it
@example(text="a:material//b :material/x", limit=120)
def test_prose_renders_as_exactly_the_shortened_text_and_only_rewritable_words_as_code(text, limit):
    """Issue 39, item 19: a message in the page's own type, every character as typed."""
    markdown = safe.prose(text, limit)
    shortened = safe.shorten(text, limit)
    assert ":material/" not in markdown  # Streamlit rewrites that in the source itself
    rendered = MARKDOWN.renderInline(markdown)
    assert set(re.findall(r"</?([a-z]+)", rendered)) <= {"code"}
    expected = shortened.replace("\x00", "\ufffd")
    assert html.unescape(re.sub(r"<[^>]+>", "", rendered)) == expected
    outside = re.split(r"<code>.*?</code>", rendered)
    for piece in map(html.unescape, outside):
        assert not [p.pattern for p in STREAMLIT_REWRITES if p.search(piece)], piece
    # Outside code every ASCII punctuation mark is escaped: none starts any construct (math,
    # Streamlit's directives and everything CommonMark reads).
    assert unescaped_punctuation(markdown) == [], markdown
    # Code only for a word Streamlit could rewrite: a colon with more after it, "@", "www.",
    # an arrow; a message without one is all in the page's type.
    rewritable = [w for w in shortened.split(" ") if rewritable_word(w)]
    # safe.md writes a word's slash after ":material" between its code spans, or after the
    # last one when the word ends there; read each such run back as one word.
    words = re.sub(r"</code>/(<code>)?", lambda m: "/" if m.group(1) else "/</code>", rendered)
    code = [html.unescape(c) for c in re.findall(r"<code>(.*?)</code>", words)]
    assert code == [w.replace("\x00", "\ufffd") for w in rewritable]


def unescaped_punctuation(markdown: str) -> list[str]:
    """ASCII punctuation outside code spans and backslash escapes, read left to right as
    CommonMark reads them (an escaped backtick opens no code span); "&#47;" is safe.md's."""
    found, position = [], 0
    while position < len(markdown):
        ch = markdown[position]
        if ch == "\\" and position + 1 < len(markdown):
            position += 2
        elif ch == "`":
            fence = re.match(r"`+", markdown[position:]).group(0)
            close = re.compile(rf"(?<!`){fence}(?!`)").search(markdown, position + len(fence))
            assert close, markdown[position:]
            position = close.end()
        elif markdown.startswith("&#47;", position):
            position += len("&#47;")
        else:
            found += [ch] if ch in string.punctuation else []
            position += 1
    return found


def rewritable_word(word: str) -> bool:
    return (
        ":" in word[:-1] or "@" in word or "www." in word.lower()
        or word in ("<->", "->", "<-", "--", ">=", "<=", "~=")
    )  # fmt: skip


@settings(max_examples=300)
@given(text=TEXT, limit=st.integers(1, 80))
@example(text="\\frac{a}{b} $x^2_i$ 50% ~ & #", limit=80)
def test_tex_leaves_no_special_outside_its_char_groups(text, limit):
    latex = safe.tex(text, limit)
    assert latex.startswith(r"\text{") and latex.endswith("}")
    body = latex[len(r"\text{") : -1]
    char = re.compile(r'\{\\char"([0-9A-F]+)\}')
    assert not set(char.sub("", body)) & TEX_SPECIALS
    assert re.fullmatch(r"[A-Za-z0-9 ]*", char.sub("", body))
    assert char.sub(lambda m: chr(int(m.group(1), 16)), body) == safe.shorten(text, limit)


@given(text=TEXT, limit=LIMIT)
def test_plain_and_plotly_text_is_one_short_line(text, limit):
    for shown in (safe.plain(text, limit), html.unescape(safe.plotly(text, limit))):
        assert shown == safe.shorten(text, limit) and "\n" not in shown
    assert "<" not in safe.plotly(text, limit)


LABELS = st.text(
    st.characters(exclude_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")), max_size=30
)


@settings(max_examples=200)
@given(labels=st.lists(LABELS, min_size=1, max_size=6), columns=st.booleans())
@example(labels=["a|b", "| x |", "`|`", "\\|"], columns=True)
def test_markdown_tables_keep_every_label_in_its_own_cell_as_text(labels, columns):
    header = ["token", *(labels if columns else [f"c{j}" for j in range(len(labels))])]
    rows = [[label, *("0.1234" for _ in labels)] for label in labels]
    table = tables.markdown_table(header, rows, labelled_columns=columns)
    rendered = MARKDOWN.render(table)
    assert set(re.findall(r"</?([a-z]+)", rendered)) <= {
        "table", "thead", "tbody", "tr", "th", "td", "code",
    }  # fmt: skip
    cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", rendered, re.DOTALL)
    width = len(header)
    assert len(cells) == width * (len(rows) + 1)
    text = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in cells]
    assert [text[(i + 1) * width] for i in range(len(rows))] == [
        safe.shorten(label, 40) for label in labels
    ]
    if columns:
        assert text[1:width] == [safe.shorten(label, 40) for label in labels]


def test_a_table_aligns_its_words_left_and_its_numbers_right():
    # A review: page 4's "effect" column of sentences was right-aligned like the numbers.
    table = tables.markdown_table(
        ["scale", "variance", "effect"], [["none", "0.5", "too large"]], words=[2]
    )
    rendered = MARKDOWN.render(table)
    aligns = re.findall(r'<th style="text-align:(\w+)"', rendered)
    assert aligns == ["left", "right", "left"], rendered


@pytest.mark.parametrize(
    ("stops", "domain"),
    [
        (colors.SEQUENTIAL, colors.spread(0.0, 1.0, 5)),
        (colors.SEQUENTIAL, colors.spread(0.1385, 0.2379, 5)),
        (colors.DIVERGING, colors.spread(-1.0, 1.0, 5)),
        (colors.DIVERGING, colors.spread(-1600.0, 1600.0, 5)),
    ],
)
def test_the_chosen_text_colour_reads_on_every_colour_of_every_scale(stops, domain):
    low, high = domain[0], domain[-1]
    for k in range(-100, 2101):  # the whole domain, and past both ends (the scale clamps)
        background = colors.interpolate(stops, domain, low + (high - low) * k / 2000)
        assert colors.contrast(colors.ink(background), background) >= 4.5, background
    assert colors.interpolate(stops, domain, low) == stops[0]
    assert colors.interpolate(stops, domain, high) == stops[-1]


@pytest.mark.parametrize(
    ("markdown", "ended"),
    [
        ("focusing on `u.s.a.`", "focusing on `u.s.a.`"),
        ("focusing on `ship`", "focusing on `ship`."),
        ("Using `I must go back…`", "Using `I must go back…`"),
        ("Using `` `a.` ``", "Using `` `a.` ``."),  # its text ends with a backtick
        ("Row sums: 0.5, 1.2", "Row sums: 0.5, 1.2."),
        ("Done.", "Done."),
    ],
)
def test_a_sentence_ends_with_one_full_stop_even_after_a_code_span(markdown, ended):
    """Issue 39, item 20: page 9 wrote "`u.s.a.`." (read as "u.s.a.."), the code span's own
    full stop and the sentence's."""
    assert safe.sentence(markdown) == ended
