"""Page 11's last three sections: the sliding window, generation with a KV cache, and RoPE."""

from __future__ import annotations

import math

import streamlit as st

from attention_core import AttentionTrace, rope
from attention_core.embeddings import display_labels
from attention_core.formatting import counted
from attention_core.knobs.table import PARAMS
from attention_core.kv_cache import CacheStep, generate
from attention_core.reference import MATCH_TOLERANCE
from attention_core.todays_attention import REACH_LAYERS, rope_shifts, sliding_window
from translation import _
from ui import safe
from ui.blocks import heatmaps, page_frame, sentences, stepper
from ui.session import controls
from ui.session.run_order import Page
from ui.specs import tables


def _check(page: Page, difference: float) -> str:
    mark = "✓" if difference < MATCH_TOLERANCE else "✗"
    return f"{heatmaps.difference(difference)} {mark}"


def show_window(page: Page) -> None:
    """The window knob, the band mask with its weights, and how far information travels."""
    st.header(_("Sliding-window attention"))
    controls.widget("window", page.settings)
    result = page.call(sliding_window, page.embeddings, page.config)
    if result is None:
        return
    trace = result.trace
    window = trace.config.window
    if not page.present:
        st.markdown(
            _(
                "Gemma and Mistral let a query see only the last few tokens, itself included: "
                "the causal mask cut to a band. The cache then keeps only the window's keys and "
                "values. A window looks back only, so it is causal on every page; this section "
                "uses the causal mask instead of the sidebar's {mask}."
            ).format(mask=sentences.mask_name(page.config.mask))
            if page.config.mask not in ("none", "causal")
            else _(
                "Gemma and Mistral let a query see only the last few tokens, itself included: "
                "the causal mask cut to a band. The cache then keeps only the window's keys and "
                "values. A window looks back only, so it is causal on every page."
            )
        )
    title = _("causal, window {window}").format(window=window) if window else _("causal, no window")
    if trace.num_heads > 1:
        title = _("{title} (head 1)").format(title=title)
    heatmaps.show_heatmap(page, heatmaps.weights_heatmap(page, trace, 0, title=title), "swa")
    last = trace.num_tokens
    labels = display_labels(trace.tokens)
    rows = []
    for layer, farthest in enumerate(result.farthest, start=1):
        first = last - 1 - min(farthest, last - 1)
        rows.append(
            [
                str(layer),
                _("{tokens} back").format(tokens=counted(farthest, "token")),
                f"{safe.md(labels[first], 24)} … {safe.md(labels[-1], 24)}",
            ]
        )
    st.markdown(
        _(
            "**Through stacked layers** ({REACH_LAYERS} shown): a token mixes what the "
            "tokens it sees had mixed, so information travels further with every layer."
        ).format(REACH_LAYERS=REACH_LAYERS)
    )
    st.markdown(
        tables.markdown_table(
            [
                _("layers"),
                _("information travels"),
                _("the last token ({last}) hears").format(last=last),
            ],
            rows,
            labelled_rows=False,
            words=(1, 2),
        )
    )
    verdict = "✓" if result.full_window_is_causal else "✗"
    st.markdown(
        _(
            "{verdict} A window of all {tokens} gives exactly the causal mask's weights and "
            "outputs (compared number by number)."
        ).format(verdict=verdict, tokens=counted(last, "token"))
    )


def show_kv_cache(page: Page) -> None:
    """Generation one token at a time: the cache's rows, its size, and cached = uncached."""
    st.header(_("KV cache: generation step by step"))
    if not page.present:
        st.markdown(
            _(
                "A model generates one token at a time. Without a cache, every step computes the "
                "keys and values of every earlier token again; with one, each step computes only "
                "the new token's and reads the rest back. Generation is causal and runs without "
                "dropout; the window and the K/V groups above apply."
            )
        )
    steps = page.call(generate, page.embeddings, page.config)
    if steps is None:
        return
    step = stepper.show_stepper(page, "kv_step", "kv", len(steps))
    current = steps[min(step, len(steps)) - 1]
    labels = display_labels(page.trace.tokens)
    _show_cache_rows(page, current, labels)
    weights = ", ".join(
        f"{safe.md(labels[row], 24)} {page.number(w)}"
        for row, w in zip(current.cached_rows, current.weights[0].tolist(), strict=True)
    )
    st.markdown(
        _("Head 1's weights of the new query over the cache: {weights}.").format(weights=weights)
    )
    st.markdown(
        _(
            "Cached output = output computed again from every token: largest difference {check}"
        ).format(check=_check(page, current.max_difference))
    )
    st.markdown(
        tables.markdown_table(
            [_("step"), _("cache rows"), _("cache size (K and V)"), _("cached vs. uncached")],
            [
                [
                    f"{s.step} · {safe.md(labels[s.step - 1], 24)}",
                    str(len(s.cached_rows)),
                    f"{s.cache_bytes} B",
                    _check(page, s.max_difference),
                ]
                for s in steps
            ],
            labelled_rows=False,
        )
    )


def show_rope(page: Page, question: str = "") -> None:
    """The RoPE knobs, the angles per position and pair, and scores that ignore a shift
    (hidden while the class answers ``question``, whose answer they give away)."""
    st.header(_("RoPE: rotary position embeddings"))
    on_column, base_column = st.columns(2)
    with on_column:
        controls.widget("rope", page.settings)
    with base_column:
        if page.settings["rope"]:
            controls.widget("rope_base", page.settings)
    if not page.present and page_frame.giveaway(page, question, _("What RoPE's turns keep")):
        st.markdown(
            _(
                "Chapter 3's attention has no idea of order: shuffle the tokens and every token "
                "gets the same context vector as before. Llama and most of today's models turn "
                "each query and key by angles that grow with the token's position, before the "
                "scores. Two turned vectors' dot product then depends only on how far apart the "
                "tokens are."
            )
        )
    if page.trace.head_dim % 2:
        st.info(
            _(
                "RoPE turns pairs of numbers, so a head's width must be even: here each head has "
                "{head_dim}. Choose an even d_out (divided by heads) to see it."
            ).format(head_dim=page.trace.head_dim),
            icon=":material/info:",
        )
        return
    # Switched off, RoPE is shown with the default base: the base box is hidden and not linked.
    default_base = PARAMS["rope_base"].default
    trace = page.trace if page.config.rope else page.run(rope=True, rope_base=default_base)
    if trace.rope_angles is None:
        return
    _show_angles(page, trace)
    shifts = page.call(rope_shifts, page.embeddings, trace.config)
    if shifts and page_frame.giveaway(page, question, _("The table of moved positions")):
        st.markdown(
            tables.markdown_table(
                [
                    _("every position moved by"),
                    _("turned queries change by"),
                    _("scores change by"),
                ],
                [
                    [str(s.shift), page.number(s.query_change), _check(page, s.score_change)]
                    for s in shifts
                ],
                labelled_rows=False,
            )
        )
    if not page.config.rope:
        st.caption(_("RoPE is off for the other sections and pages: switch it on to use it."))


def _show_angles(page: Page, trace: AttentionTrace) -> None:
    """The angle of every position and pair, and how fast each pair turns."""
    if trace.rope_angles is None:
        return
    angles = trace.rope_angles.tolist()  # (num_tokens, head_dim // 2)
    half = trace.head_dim // 2
    labels = display_labels(trace.tokens)
    st.markdown(
        tables.markdown_table(
            [
                _("token"),
                _("position"),
                *(
                    _("pair {number}: q{first}, q{second}").format(
                        number=i + 1, first=i + 1, second=i + half + 1
                    )
                    for i in range(half)
                ),
            ],
            [
                [
                    labels[p],
                    str(p),
                    *(
                        _("{angle} rad ({degrees}°)").format(
                            angle=page.number(a), degrees=round(math.degrees(a))
                        )
                        for a in row
                    ),
                ]
                for p, row in enumerate(angles)
            ],
        )
    )
    base, width = trace.config.rope_base, trace.head_dim
    slowest = float(rope.frequencies(width, base)[-1])
    if half > 1:
        caption = _(
            "Pair i of a head of width {width} turns by position × {base}^(−2(i−1)/{width}) "
            "radians: pair 1 by 1 radian per position, pair {pair} by {slowest}."
        ).format(width=width, base=base, pair=half, slowest=page.number(slowest))
    else:
        caption = _(
            "Pair i of a head of width {width} turns by position × {base}^(−2(i−1)/{width}) "
            "radians: pair 1 by 1 radian per position. A head of width 2 has one pair, which "
            "turns by 1 radian per position whatever the base: make each head 4 or more numbers "
            "wide (d_out ÷ heads) to see the base at work."
        ).format(width=width, base=base)
    st.caption(caption)


def _show_cache_rows(page: Page, current: CacheStep, labels: list[str]) -> None:
    """Every token so far, oldest first: its cached key and value, or why it has none."""
    keys = current.cached_keys[0].tolist()  # K/V head 1: (cache_length, head_dim)
    values = current.cached_values[0].tolist()
    rows = []
    for row in range(current.step):  # every token so far, oldest first
        if row not in current.cached_rows:
            rows.append([labels[row], "—", "—", _("dropped: outside the window")])
            continue
        position = current.cached_rows.index(row)
        status = _("new: computed now") if row == current.step - 1 else _("reused from the cache")
        rows.append(
            [labels[row], page.vector(keys[position]), page.vector(values[position]), status]
        )
    st.markdown(
        tables.markdown_table(
            [
                _("token"),
                _("key (K/V head 1, turned by RoPE)")
                if page.config.rope
                else _("key (K/V head 1)"),
                _("value (K/V head 1)"),
                _("row"),
            ],
            rows,
            words=(3,),
        )
    )
