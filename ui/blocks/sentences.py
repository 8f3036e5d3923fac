"""The focused token's result in words: whom it attends to most, with that weight and its
context vector, for the page (Markdown-safe) and for screen readers (a live region).

Ties are decided on the printed numbers, and a row of weights that is not a number (0/0, or
∞/∞ after an overflow) is said to be undefined rather than "attended to".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import streamlit as st

from attention_core import AttentionTrace
from attention_core.knobs.table import PARAMS, SENTENCE_TOKENS
from translation import N_, _
from ui import safe
from ui.session.run_order import Page


def strongest(page: Page, values: Sequence[float]) -> list[int]:
    """Every position whose printed value is the largest printed value.

    Values that print alike are a tie on screen, so they are named together: picking one by
    the last bit of a float would name a different token on another machine (identical rows
    give weights that differ in their last bit, depending on the number of threads).
    """
    top = page.number(max(values))
    return [j for j, v in enumerate(values) if page.number(v) == top]


# A mask by name in a sentence ("the causal mask"); another mask keeps its own name.
MASK_NAMES = {
    "none": N_("none"),
    "causal": N_("causal"),
    "padding": N_("padding"),
    "custom": N_("custom"),
}


def mask_name(mask: str) -> str:
    """The mask's name in the learner's words, as in "the causal mask"."""
    return _(MASK_NAMES[mask]) if mask in MASK_NAMES else mask


def each(weight: str, positions: Sequence[int]) -> str:
    """A printed weight, with "each" when several keys share it (a tie)."""
    return _("{weight} each").format(weight=weight) if len(positions) > 1 else weight


def listing(names: Sequence[str], most: int = 3) -> str:
    """Names in words: ``a``, ``a and b``, ``a, b and c``, ``a, b and 4 more``."""
    if len(names) > most:
        return _("{names} and {count} more").format(
            names=", ".join(names[: most - 1]), count=len(names) - most + 1
        )
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def undefined_why() -> str:
    """Why a weight is undefined, naming the setting that can cause it."""
    return _("0/0, or ∞/∞ after an overflow: see “{label}” under More settings").format(
        label=_(PARAMS["norm"].label)
    )


def no_key_attended(
    weights: Sequence[float], allowed: Sequence[bool], dropout_active: bool
) -> str | None:
    """Why a row of weights names no key "attended to most", or None when it names one.

    A NaN makes the row undefined (0/0, or ∞/∞ after an overflow), whatever the other entries
    print; a row of zeros has nothing to attend to (every key masked) or lost every weight to
    dropout. Naming the largest of those would name keys at random.
    """
    if any(math.isnan(w) for w in weights):
        return _("undefined weights ({why})").format(why=undefined_why())
    if any(w != 0 for w in weights):
        return None
    if not any(allowed):
        return _("nothing to attend to (the mask hides every key), so every weight is 0")
    return _("every weight dropped by dropout") if dropout_active else _("every weight 0")


def output_name(trace: AttentionTrace) -> str:
    """What the trace's output row is: the context vector, or what an output projection made
    of it (the book's MultiHeadAttention mixes the heads with a Linear layer)."""
    return (
        _("context vector")
        if trace.config.out_proj == "none"
        else _("output after the output projection")
    )


def result_sentence(
    page: Page, trace: AttentionTrace, head: int, name: Callable[[str], str] = str
) -> str:
    """The focused query's result in words: the keys it attends to most (ties named
    together) and that weight (``… each`` for a tie), or why no key is named; then its
    context vector (or the output projection's result). With several heads, the weights are
    the shown head's, and the sentence says so. ``name`` writes a token label
    (escaped for Markdown by :func:`summary`)."""
    query = page.query
    weights = trace.weights_after_dropout[head, query].tolist()
    vector = ", ".join(page.number(v) for v in trace.output[query].tolist())
    who = name(page.labels[query])
    what = output_name(trace)
    if trace.num_heads > 1:  # the weights are one head's; the vector joins every head's
        who = _("In head {head} of {num_heads}, {who}").format(
            head=head + 1, num_heads=trace.num_heads, who=who
        )
        if trace.config.out_proj == "none":
            what = _("{what} (the outputs of the {num_heads} heads joined)").format(
                what=what, num_heads=trace.num_heads
            )
    why = no_key_attended(weights, trace.allowed[query].tolist(), trace.config.dropout_active)
    if why is not None:
        return _("{who} has {why}; {what} {vector}.").format(
            who=who, why=why, what=what, vector=vector
        )
    best = strongest(page, weights)
    weight = each(page.number(weights[best[0]]), best)
    if trace.config.dropout_active:  # the weight named is the one dropout left (scaled)
        weight = _("{weight} after dropout").format(weight=weight)
    keys = listing([name(page.labels[j]) for j in best])
    return _("{who} attends most to {keys} ({weight}); {what} {vector}.").format(
        who=who, keys=keys, weight=weight, what=what, vector=vector
    )


def summary(page: Page, trace: AttentionTrace, head: int = 0) -> str:
    """The focused query's result in words (Markdown-safe)."""
    return result_sentence(page, trace, head, lambda label: safe.md(label, 24))


def announce(page: Page, trace: AttentionTrace, head: int = 0) -> None:
    """A polite live region, visually hidden, that states the focused query's result in words
    after every change (what a screen reader user hears instead of seeing the heatmap)."""
    text = result_sentence(page, trace, head)
    st.html(
        '<div class="sr-only" role="status" aria-live="polite" aria-atomic="true">'
        f"{safe.html_text(text)}</div>"
    )


def show_cut(count: int, unit: str) -> None:
    """Say that a real sentence of ``count`` ``unit`` (what its heatmaps' rows are) is cut to
    the parameter table's limit: one rule, in the same words on pages 9 and 10."""
    if count > SENTENCE_TOKENS:
        st.info(
            _(
                "This sentence has {count} {unit}: the first {SENTENCE_TOKENS} are used, so that "
                "every heatmap stays readable."
            ).format(count=count, unit=unit, SENTENCE_TOKENS=SENTENCE_TOKENS),
            icon=":material/info:",
        )
