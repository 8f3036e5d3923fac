"""The Compare page's blocks: pin the settings as A, then A and B side by side and B − A.

Every difference comes from ``attention_core.compare`` (nothing is subtracted here); labels and
link values go through ``ui.safe``.
"""

from __future__ import annotations

import streamlit as st

from attention_core import AttentionTrace, run_attention
from attention_core.compare import (
    WeightComparison,
    changed_settings,
    compare_weights,
    no_change_at,
    pin_text,
    read_pin,
)
from attention_core.embeddings import display_labels
from attention_core.formatting import counted
from attention_core.knobs.settings import Settings, preset_matrix
from attention_core.knobs.table import PARAMS
from translation import _, ngettext
from ui import safe
from ui.blocks import focus_panel, heatmaps
from ui.session import state
from ui.session.run_order import Page
from ui.specs import heatmap_chart

SHOWN_CHANGES = 5


def _pin() -> None:
    """Pin the current settings as A (a button callback)."""
    state.set_value("pin", pin_text(state.current_settings()))


def show_pin(page: Page) -> Settings | None:
    """The pin buttons; returns the pinned settings A, or None (a bad pin is dropped, saying
    why)."""
    text = page.settings["pin"]
    pinned = page.call(read_pin, text) if text else None
    if text and pinned is None:
        state.record("pin", None)
        st.caption(_("The pinned settings A are dropped from the link: pin again."))
    left, right = st.columns(2)
    with left:
        st.button(
            _("Pin these settings as A") if pinned is None else _("Pin the current settings as A"),
            key="pin_a",
            icon=":material/push_pin:",
            on_click=_pin,
            type="primary",
            width="stretch",
        )
    with right:
        if pinned is not None:
            st.button(
                _("Unpin A"),
                key="unpin_a",
                icon=":material/close:",
                on_click=state.record,
                args=("pin", None),
                width="stretch",
            )
    return pinned


SHOWN_RENAMES = 3


def _change_text(name: str, first: str, second: str, edited: bool) -> str:
    """One change from A to B in words; ``edited``: B's numbers are not its example's own
    (typed in the grid, or real words' vectors)."""
    if name == "x":
        return (
            _("the embedding matrix (edited or replaced)") if edited else _("the embedding matrix")
        )
    if name == "tokens":
        return _tokens_text(first.split(","), second.split(","))
    param = PARAMS[name]  # a choice in the sidebar's words ("÷ √d_k", not "sqrt_d")
    return _("{setting}: {before} → {after}").format(
        setting=_(param.label),
        before=safe.md(param.choice_label(first), 80),
        after=safe.md(param.choice_label(second), 80),
    )


def _tokens_text(first: list[str], second: list[str]) -> str:
    """The tokens that differ, each whole and by position (labels never hold a comma)."""
    if len(first) != len(second):
        return _("the number of tokens: {before} → {after}").format(
            before=len(first), after=len(second)
        )
    renamed = [(n, a, b) for n, (a, b) in enumerate(zip(first, second, strict=True), 1) if a != b]
    words = [
        _("token {number}: {before} → {after}").format(
            number=n, before=safe.md(a), after=safe.md(b)
        )
        for n, a, b in renamed[:SHOWN_RENAMES]
    ]
    if len(renamed) > SHOWN_RENAMES:
        more = len(renamed) - SHOWN_RENAMES
        words.append(
            ngettext("{more} more token renamed", "{more} more tokens renamed", more).format(
                more=more
            )
        )
    return "; ".join(words)


def change_words(pinned: Settings, settings: Settings) -> list[str]:
    """What B changed from A, one phrase per change (safe Markdown)."""
    changes = changed_settings(pinned, settings)
    names = {name for name, _first, _second in changes}
    counted = "num_tokens" in names  # "number of tokens: 6 → 8" says it already
    edited = settings.rows != preset_matrix(settings.values)[1]  # a rename is not an edit
    return [
        _change_text(name, first, second, edited)
        for name, first, second in changes
        if not (name == "tokens" and counted and first.count(",") != second.count(","))
    ]


def show_changes(pinned: Settings, page: Page) -> None:
    """What B changed from A, in words."""
    changes = change_words(pinned, page.settings)
    if not changes:
        st.info(
            _(
                "B is the same as A. Change anything (a setting in the sidebar, or the matrix "
                "below) and the difference appears here."
            ),
            icon=":material/info:",
        )
        return
    with st.container(key="compare_from_a_to_b"):
        st.markdown(_("**From A to B:** {changes}.").format(changes="; ".join(changes)))


def _weights(
    trace: AttentionTrace, head: int | None, name: str, averaged: bool
) -> heatmap_chart.Heatmap:
    labels = display_labels(trace.tokens)
    matrix = trace.mean_weights if averaged else trace.weights_after_dropout[head or 0]
    heads = counted(trace.num_heads, "head")
    if averaged:
        title = _("{name}: weights, averaged over its {heads}").format(name=name, heads=heads)
    elif trace.num_heads > 1:
        title = _("{name}: weights, head {number}").format(name=name, number=(head or 0) + 1)
    else:
        title = _("{name}: weights").format(name=name)
    return heatmap_chart.Heatmap(
        heatmaps.matrix_values(matrix),
        labels,
        labels,
        kind="weights",
        title=title,
        description=_("Attention weights of {name}, {count} queries × {count} keys.").format(
            name=name, count=len(labels)
        ),
        masked=heatmaps.hidden_weights(trace),
        scale="fitted",  # fitted to A and B together: one colour, one weight in both
    )


def change_sentences(page: Page, comparison: WeightComparison, labels: list[str]) -> list[str]:
    """The largest changes in words: "`step` now attends 0.2100 more to `journey`"."""
    sentences = []
    for change in comparison.largest[:SHOWN_CHANGES]:
        sentence = (
            _("{query} now attends {change} more to {key} ({before} → {after})")
            if change.change > 0
            else _("{query} now attends {change} less to {key} ({before} → {after})")
        )
        sentences.append(
            sentence.format(
                query=safe.md(labels[change.query], 24),
                change=page.number(abs(change.change)),
                key=safe.md(labels[change.key], 24),
                before=page.number(change.before),
                after=page.number(change.after),
            )
        )
    return sentences


def show_compare(page: Page, pinned: Settings) -> None:
    """A and B side by side, B − A, and the largest changes in words."""
    first = page.call(run_attention, pinned.embeddings(), pinned.config())
    if first is None:
        return
    second = page.trace
    show_changes(pinned, page)
    averaged = first.num_heads != second.num_heads
    head = 0 if averaged else focus_panel.head_choice(page)
    heatmaps.show_side_by_side(
        page,
        [
            (_weights(first, head, "A", averaged), "hm_a"),
            (_weights(second, head, "B", averaged), "hm_b"),
        ],
    )
    if first.num_tokens != second.num_tokens:  # nothing to subtract: say so, not an error
        st.info(
            _(
                "A has {tokens_a} tokens and B has {tokens_b}: weights can only be "
                "subtracted for the same number of tokens. Pin again to compare from here."
            ).format(tokens_a=first.num_tokens, tokens_b=second.num_tokens),
            icon=":material/info:",
        )
        return
    # A change that rounds to 0 at the decimals shown is no change.
    unseen = no_change_at(int(page.settings["decimals"]))
    comparison = page.call(
        compare_weights, first, second, head=head, count=SHOWN_CHANGES, no_change=unseen
    )
    if comparison is None:
        return
    labels = page.labels
    st.header("B − A")
    if averaged:
        st.caption(
            _(
                "A has {heads_a} head(s) and B has {heads_b}: the weights averaged over the "
                "heads are compared."
            ).format(heads_a=first.num_heads, heads_b=second.num_heads)
        )
    delta = heatmap_chart.Heatmap(
        heatmaps.matrix_values(comparison.difference[0 if averaged else head]),
        labels,
        labels,
        kind="difference",
        title=_("B − A: change of each weight"),
        description=_("Each weight of B minus the same weight of A (blue: less, orange: more)."),
    )
    difference, words, half = heatmaps.halves(page, delta)
    with difference:
        heatmaps.show_heatmap(page, delta, "hm_difference", max_width=half)

    with words, st.container(key="compare_changes"):
        sentences = change_sentences(page, comparison, labels)
        if sentences:
            st.markdown(
                _("**The largest changes**") + "\n\n" + "\n".join(f"- {s}" for s in sentences)
            )
        else:
            st.markdown(
                _("**No weight changed** at the {decimals} decimals shown.").format(
                    decimals=int(page.settings["decimals"])
                )
            )
        show_context(page, first, second)


def show_context(page: Page, first: AttentionTrace, second: AttentionTrace) -> None:
    """The focused token's output in A and in B."""
    query = page.query
    if query >= first.num_tokens:
        return
    before = page.vector(first.output[query].tolist())
    after = page.vector(second.output[query].tolist())
    st.markdown(
        _("**Context vector of {token}:** A {before} → B {after}").format(
            token=safe.md(page.labels[query], 24), before=before, after=after
        )
    )
