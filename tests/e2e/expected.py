"""What the screen must show, computed by ``attention_core`` from the same settings.

The settings come from a link exactly as the app reads one (``read_params``), so a test
never hard-codes a number it cannot justify: it opens a link, reads the screen and compares
with the core run on that link.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from urllib.parse import parse_qs, urlencode, urlsplit

import torch

import translation
from attention_core import AttentionTrace, run_attention
from attention_core.embeddings import display_labels
from attention_core.formatting import format_number
from attention_core.knobs.links import read_params
from attention_core.knobs.settings import Settings
from attention_core.knobs.table import PARAMS
from attention_core.knobs.text import format_matrix
from tests.ui import oracle


def settings_of(url_or_query: str | Mapping[str, str]) -> Settings:
    """The settings a link (a URL, or its parameters) gives, read as the app reads them."""
    if isinstance(url_or_query, Mapping):
        raw = {key: [value] for key, value in url_or_query.items()}
    else:
        query = urlsplit(url_or_query).query if "://" in url_or_query else url_or_query
        raw = parse_qs(query, keep_blank_values=True)
    settings, _ = read_params(raw)
    return settings


def link(base: str, path: str = "", **params: str) -> str:
    """``base/path?params`` with every value percent-encoded."""
    query = urlencode(params)
    return f"{base}/{path}" + (f"?{query}" if query else "")


def matrix_params(tokens: Sequence[str], rows: Sequence[Sequence[float]]) -> dict[str, str]:
    """The link parameters of a matrix and its labels."""
    return {"x": format_matrix(tuple(tuple(r) for r in rows)), "tokens": ",".join(tokens)}


def trace_of(settings: Settings, **changes: object) -> AttentionTrace:
    """The core run on these settings, with some config values changed as a page does."""
    return run_attention(settings.embeddings(), settings.config().replace(**changes))


def summary(settings: Settings, trace: AttentionTrace | None = None, head: int = 0) -> str:
    """The Playground's sentence about the focused query, from the core's numbers, as the
    browser shows it (labels plain)."""
    trace = trace or trace_of(settings)
    return oracle.summary(trace, settings.query_index, head, int(settings["decimals"]), str)


def cells(
    matrix: torch.Tensor,
    rows: Sequence[str],
    columns: Sequence[str],
    decimals: int,
    dropped: torch.Tensor | None = None,
) -> dict[str, str]:
    """A heatmap's printed cells, ``"row, column" -> text``, as ``screen.heatmap`` reads them."""
    shown = {}
    for i, row in enumerate(rows):
        for j, column in enumerate(columns):
            if dropped is not None and bool(dropped[i, j]):
                shown[f"{row}, {column}"] = "✕"
            elif math.isnan(float(matrix[i, j])):  # 0/0 or ∞/∞: the chart says so briefly
                shown[f"{row}, {column}"] = "undef."
            else:
                shown[f"{row}, {column}"] = format_number(float(matrix[i, j]), decimals)
    return shown


def weight_cells(
    settings: Settings, trace: AttentionTrace, head: int = 0, decimals: int | None = None
) -> dict[str, str]:
    """The printed cells of a weights heatmap (after dropout; ✕ where a weight was dropped,
    unless the mask had already hidden it: that cell reads as masked), with the settings'
    decimals or ``decimals`` (a chart that rounds to keep its type large)."""
    labels = display_labels(trace.tokens)
    dropped = trace.dropped[head] & ~trace.hidden_by_mask if trace.config.dropout_active else None
    return cells(
        trace.weights_after_dropout[head],
        labels,
        labels,
        int(settings["decimals"]) if decimals is None else decimals,
        dropped,
    )


def control_text(name: str, settings: Settings) -> str:
    """What the control of setting ``name`` shows for ``settings``, in their language: a
    choice's label as the app words it (``ui.session.controls``)."""
    from ui.session import controls

    value = settings[name]
    if name == "lang":
        return translation.LANGUAGES[value]
    with translation.speaking(settings["lang"]):
        _options, label = controls._options(PARAMS[name], settings)
        return label(value)


def control_disagreements(shown: Mapping[str, Mapping], url: str) -> dict[str, tuple[str, str]]:
    """The controls in ``shown`` (``screen.controls``) whose value is not the link's: name ->
    (shown, the link's)."""
    settings = settings_of(url)
    found = {}
    for name, control in shown.items():
        kind, text, value = control["kind"], control["value"], settings[name]
        if kind in ("slider", "number"):
            good = text not in (None, "") and float(text) == float(value)
        elif kind == "toggle":
            good = text == str(bool(value)).lower()
        elif kind == "text":
            good = text == str(value)
        else:  # a number chosen by its label: "x(3) starts", a page's "Layer 2", "every token"
            good = text == control_text(name, settings) or _labels_number(name, text, value)
        if not good:
            found[name] = (text, str(value))
    return found


def _labels_number(name: str, text: str | None, value: object) -> bool:
    """True when a whole-number choice's label names ``value``: its first number, or none
    for a choice that starts at 0 ("every token")."""
    if PARAMS[name].kind != "int" or text is None:
        return False
    found = re.search(r"\d+", text)
    return int(found.group()) == value if found else value == PARAMS[name].low == 0


def link_setting(page, name: str, want: object, timeout: float = 20.0) -> object:
    """Setting ``name`` of the tab's link once it is ``want`` (or the last read, when the
    time is up): the link follows a run's last message, a moment after the screen's text
    (r39 read it before, under load)."""
    from tests.e2e import screen

    return screen.wait_for(page, lambda p: settings_of(p.url)[name], want.__eq__, timeout)
