"""The one place that turns untrusted text into safe display text.

Token labels, sentences, words, link values and every message that repeats them are untrusted:
a class shares links that anyone can write. Streamlit renders Markdown (with its own extras:
``:color[...]``, ``:material/icon:``, emoji shortcodes and ``$math$``) in ``st.markdown``,
``st.caption``, ``st.error`` and widget labels, and KaTeX in ``st.latex``. Nothing else in the
project builds Markdown or LaTeX from such text.
"""

from __future__ import annotations

import html
import re
import string

MARKDOWN_LIMIT = 120  # characters of untrusted text shown in prose
ELLIPSIS = "…"
_MATERIAL = re.compile(r"(?<=:material)/")
# Plain text that Streamlit's Markdown still rewrites once backslash escapes are read: an arrow
# between spaces ("->" becomes "→"); and, from a colon with more after it, an "@" or "www.",
# emoji and icon shortcodes (":smile:", ":material_home:", ":streamlit:") and autolinks
# ("http://x", "www.x", "a@b.c").
_ARROWS = frozenset({"<->", "->", "<-", "--", ">=", "<=", "~="})
_PUNCTUATION = frozenset(string.punctuation)  # ASCII: CommonMark lets a backslash escape each


def shorten(text: object, limit: int = MARKDOWN_LIMIT) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + ELLIPSIS


def md(text: object, limit: int = MARKDOWN_LIMIT) -> str:
    """Markdown that renders as exactly ``text`` (one line, at most ``limit`` characters).

    The text becomes an inline code span, which Markdown shows literally: no emphasis, link,
    image, heading, HTML or math, and none of Streamlit's extensions (``:red[...]``,
    ``:smile:``) or GitHub's autolinks (``http://…``, ``a@b.c``), which act on plain text only.
    Streamlit rewrites ``:material/…`` even inside code, so the text is cut after each
    ``:material`` and the slash is written between two spans as a character reference.
    """
    parts = _MATERIAL.split(shorten(text, limit))
    return "&#47;".join(_code_span(part) for part in parts)


def _code_span(text: str) -> str:
    if not text:
        return ""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text[:1] == "`" or text[-1:] == "`" else ""  # a padded span loses one space
    return f"{fence}{pad}{text}{pad}{fence}"


def prose(text: object, limit: int = MARKDOWN_LIMIT) -> str:
    """Markdown that renders as exactly ``text`` (one line, at most ``limit`` characters) in
    the page's own type: a message that may repeat what a person typed, read as a sentence.

    Every ASCII punctuation mark is escaped with a backslash, so nothing is emphasis, a link,
    an image, a heading, HTML, math, a table or a Streamlit directive (``:red[...]``). What
    Streamlit rewrites in plain text even so (see ``_ARROWS``) cannot be escaped: a word that
    could be rewritten is a code span (:func:`md`) instead. Set the result apart from the
    text around it by a space or a punctuation mark other than a colon; in an alert, give the
    icon (without one, Streamlit takes a leading emoji for the alert's icon).
    """
    words = shorten(text, limit).split(" ")
    return " ".join(md(word, len(word)) if _rewritten(word) else _escaped(word) for word in words)


def _rewritten(word: str) -> bool:
    colon = word.find(":")
    return 0 <= colon < len(word) - 1 or "@" in word or "www." in word.lower() or word in _ARROWS


def _escaped(word: str) -> str:
    return "".join("\\" + ch if ch in _PUNCTUATION else ch for ch in word)


def sentence(markdown: str) -> str:
    """``markdown`` ended with one full stop: none is added after a code span whose text
    already ends a sentence ("`u.s.a.`" stays so, never "`u.s.a.`."; "…" also ends one)."""
    body = markdown.rstrip("`")
    if body != markdown and body.endswith(" ") and body[:-1].endswith("`"):
        body = body[:-1]  # a padded span (:func:`_code_span`): its text ends with a backtick
    return markdown if body.endswith((".", "…", "!", "?")) else markdown + "."


def tex(text: object, limit: int = 40) -> str:
    r"""LaTeX that typesets ``text`` literally, inside ``\text{...}``.

    Letters, digits and spaces stand as they are; every other character is written as
    ``{\char"hex}``, so nothing is a command, a group, a ligature (``--``) or, in KaTeX's
    text mode, a refused math symbol (∑). KaTeX draws the ASCII quotes ' and ` as ’ and ‘.
    """
    body = "".join(
        ch if ch.isascii() and (ch.isalnum() or ch == " ") else f'{{\\char"{ord(ch):X}}}'
        for ch in shorten(text, limit)
    )
    return r"\text{" + body + "}"


def plain(text: object, limit: int = MARKDOWN_LIMIT) -> str:
    """Text for places that never interpret markup (chart titles, table cells): one line, cut."""
    return shorten(text, limit)


def html_text(text: object, limit: int = 300) -> str:
    """Text as the content of an HTML element: ``&``, ``<`` and ``>`` become entities.

    Only for the live region that announces results (``ui.blocks.sentences.announce``);
    nothing else in the app builds HTML around user text.
    """
    return html.escape(shorten(text, limit), quote=True)


def plotly(text: object, limit: int = 40) -> str:
    """Text for Plotly, whose labels understand a few HTML tags: tags become plain text."""
    return html.escape(shorten(text, limit), quote=False)
