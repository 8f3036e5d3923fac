"""Colour scales shared by the charts and the text drawn on them.

Vega-Lite draws each cell with a piecewise-linear RGB scale through the stops below, and the
same interpolation here picks black or white text for that cell, whichever contrasts more.
Either one reaches at least 4.58 : 1 against any colour, above WCAG AA's 4.5 : 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

# Perceptually ordered, colour-blind-safe stops (viridis at 0, ¼, ½, ¾, 1).
SEQUENTIAL = ("#440154", "#3b528b", "#21918c", "#5ec962", "#fde725")
# Blue below zero, white at zero, orange above: safe for red-green colour blindness.
DIVERGING = ("#1d5a9b", "#8eb8dc", "#f7f7f7", "#f1b26a", "#a9510b")
BLACK, WHITE = "#000000", "#ffffff"
# What a mask hides and what dropout drops, the same in the heatmaps and in the Flow picture.
MASKED = "#d9d9d9"  # a hidden cell: grey, labelled −∞ (scores) or drawn empty (weights)
DROPPED = "#c0392b"  # a dropped weight's outline
DROPPED_FILL = "#f8d7d3"  # a dropped weight in Flow: light red with a red outline, read as ✕


def _rgb(color: str) -> tuple[float, float, float]:
    return tuple(int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def _hex(rgb: Sequence[float]) -> str:
    return "#" + "".join(f"{round(channel * 255):02x}" for channel in rgb)


def interpolate(stops: Sequence[str], domain: Sequence[float], value: float) -> str:
    """The colour Vega-Lite draws for ``value`` (linear scale, ``interpolate: rgb``, clamped)."""
    if value <= domain[0]:
        return stops[0]
    if value >= domain[-1]:
        return stops[-1]
    for (low, high), (left, right) in zip(pairwise(domain), pairwise(stops), strict=True):
        if low <= value <= high:
            t = 0.0 if high == low else (value - low) / (high - low)
            a, b = _rgb(left), _rgb(right)
            return _hex([x + (y - x) * t for x, y in zip(a, b, strict=True)])
    return stops[-1]


def luminance(color: str) -> float:
    """Relative luminance (WCAG 2)."""

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in _rgb(color))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ink(background: str) -> str:
    """Black or white, whichever reads better on ``background``."""
    return BLACK if contrast(background, BLACK) >= contrast(background, WHITE) else WHITE


def spread(low: float, high: float, count: int) -> list[float]:
    """``count`` evenly spaced values from ``low`` to ``high`` (a scale's domain)."""
    if count == 1:
        return [low]
    return [low + (high - low) * i / (count - 1) for i in range(count)]


def nice_step(span: float) -> float:
    """The smallest of 1, 2, 5 × 10ᵏ that is at least ``span`` / 5."""
    target = max(span, 1e-12) / 5
    power = 10 ** math.floor(math.log10(target))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= target - 1e-15)


def nice_range(low: float, high: float) -> tuple[float, float]:
    """``[low, high]`` widened to multiples of a 1-2-5 step.

    A colour scale over a nice range stays the same while the numbers move a little, so the
    chart's spec does not change and the browser only swaps its data (much faster).
    """
    if high - low < 1e-9:
        low, high = low - 0.5, high + 0.5
    step = nice_step(high - low)
    return math.floor(low / step + 1e-9) * step, math.ceil(high / step - 1e-9) * step


def nice_bound(extent: float) -> float:
    """The smallest of 1, 2, 5 × 10ᵏ that is at least ``extent`` (a symmetric scale's end)."""
    power = 10 ** math.floor(math.log10(max(extent, 1e-12)))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= extent - 1e-12)
