"""A corpus of hostile text (issue 12), and a recorder of every request a page makes.

Outside addresses use the reserved-looking host ``x.zz`` (no such top-level domain): a
request to it would be a tracking pixel in a class link. Every request off the app's own
host is recorded and aborted, so nothing leaves the machine while the suite runs.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from attention_core.knobs.text import LABEL_MAX_CHARS, echo

# Labels the app accepts (printable, at most 20 characters, no ',' or ';'): each must be
# shown literally, never as markup.
LABELS = [
    "![i](http://x.zz/p)",  # a Markdown image: a request to x.zz if rendered
    "[a](http://x.zz)",  # a Markdown link
    "<img src=//x.zz/p>",  # raw HTML image
    "<script>x</script>",  # raw HTML script
    "<h1>H1!</h1> ## H2!",  # headings, HTML and Markdown
    "**B!** _I!_ ~~s~~",  # emphasis and strike-through
    "$x^2$ \\frac{a}{b}",  # LaTeX specials and Streamlit's $math$
    ":red[x] :smile:",  # Streamlit's colour directive and an emoji shortcode
    ":material/home:",  # Streamlit's icon directive
    "http://x.zz",  # a GitHub autolink
    "a@b.zz",  # an e-mail autolink
    "%&{}^_~\\ `q` '",  # the rest of LaTeX's specials, a backtick, a quote
]
assert all(len(label) <= LABEL_MAX_CHARS for label in LABELS)

# Labels the app refuses, each with the words its message must contain.
REFUSED_LABELS = {
    "a\u202eb": "U+202E",  # right-to-left override
    "a\u200bb": "U+200B",  # zero-width space
    "a\x07b": "U+0007",  # a control character (the terminal bell)
    "L" * 1000: "1000 characters",  # far past the length limit
}

ONERROR = "<img src=x onerror=window.__pwned=1>"
LONG = "<b>x</b>[a](http://x.zz)" * 42  # a 1008-character link value
# Bad values of other settings: each is refused and echoed (shortened) in a notice.
BAD_VALUES = {
    "init": "[click](http://x.zz)",
    "mask": "![i](http://x.zz/p)",
    "scaling": ONERROR,
    "norm": ":red[x] :material/home:",
    "seed": "$x^2$ \\frac{a}{b}",
    "decimals": "<h1>H1!</h1>",
    "d_out": "a@b.zz http://x.zz",
    "dropout": LONG,
    "weight_scale": "a\u202eb\u200b",
}
UNKNOWN_NAME = "<script>x</script>"  # a parameter name that is not a setting
SENTENCE = f"the ship {ONERROR} ![i](http://x.zz/p) [a](http://x.zz) <h1>H1!</h1> :red[x]"
# Text that would only be in the page if user text became markup.
NEEDLES = ["x.zz", "onerror", "__pwned", "H1!", "H2!"]


def echoed(value: str) -> str:
    """How a notice repeats a refused value (see attention_core.knobs.text.echo)."""
    return echo(value.strip())


class Requests:
    """Every request of a page: those to another host are recorded and aborted."""

    def __init__(self, page, server: str) -> None:
        self.host = urlsplit(server).netloc
        self.seen: list[str] = []
        self.outside: list[str] = []
        page.route("**/*", self._route)
        page.on("request", lambda request: self.seen.append(request.url))

    def _route(self, route) -> None:
        url = route.request.url
        if urlsplit(url).netloc != self.host:
            self.outside.append(url)
            route.abort()
        else:
            route.continue_()

    def off_host(self) -> list[str]:
        """Every request (routed or not) to a host other than the app's."""
        others = [
            url
            for url in self.seen
            if urlsplit(url).scheme in ("http", "https", "ws", "wss")
            and urlsplit(url).netloc != self.host
        ]
        return sorted(set(others + self.outside))
