"""Page 13's first two sections: latent attention's cache beside MHA's and GQA's, and gated
attention's and gated DeltaNet's gates, with the state that does not grow."""

from __future__ import annotations

import streamlit as st

from attention_core.embeddings import display_labels
from attention_core.formatting import counted
from attention_core.gated_deltanet import gated_attention, gated_deltanet
from attention_core.latent_attention import LatentAttention, latent_attention
from attention_core.reference import MATCH_TOLERANCE
from translation import _
from ui import safe
from ui.blocks import heatmaps, page_frame, stepper
from ui.session import controls
from ui.session.run_order import Page
from ui.specs import tables
from ui.specs.memory_chart import make_memory_chart

BYTES_PER_NUMBER = 4  # float32, as every tensor of the core


def check(difference: float, bound: float = MATCH_TOLERANCE) -> str:
    """A largest difference and whether it is within float precision (``bound``: the
    tolerance for numbers of this size)."""
    mark = "✓" if difference <= bound else "✗"
    return f"{heatmaps.difference(difference)} {mark}"


def show_latent(page: Page) -> None:
    """The latent width knob, the cache per token of MHA, GQA and MLA, and the latents."""
    st.header(_("Multi-head latent attention (MLA)"))
    knob, _room = st.columns(2)
    with knob:
        latent_width = controls.widget("latent_width", page.settings)
    result = page.call(latent_attention, page.embeddings, page.trace, int(latent_width))
    if result is None:
        return
    if not page.present:
        st.markdown(
            _(
                "DeepSeek V2 and V3 cache neither keys nor values. Each token is squeezed into "
                "one short latent, `latent = x W_DKV`, and only the latent is cached; keys and "
                "values are rebuilt from it, `keys = latent W_UK` and `values = latent W_UV`, "
                "when a query needs them. This is the book's MultiHeadLatentAttention (chapter 4's "
                "bonus material) on your matrix, with the sidebar's width and heads, causal, and "
                "its own weights drawn from the seed."
            )
        )
    _show_cache_sizes(page, result)
    latents = result.latents
    heatmaps.show_heatmap(
        page,
        heatmaps.vectors_heatmap(
            page,
            latents,
            "c",
            _("the latent cache (one row per token)"),
            _("The cached latents: {tokens} × {width} numbers.").format(
                tokens=counted(int(latents.shape[0]), "token"), width=result.latent_dim
            ),
        ),
        "mla_latents",
    )
    st.markdown(
        _(
            "Generated one token at a time from the latent cache = computed from every token at "
            "once: largest difference {check}"
        ).format(check=check(result.max_difference))
    )


def _show_cache_sizes(page: Page, result: LatentAttention) -> None:
    heads = result.num_heads
    tokens = page.trace.num_tokens
    groups = page.config.kv_groups
    kinds = [(_("multi-head: a key and a value per head"), heads)]
    if groups and groups not in (1, heads):
        kinds.append((_("grouped-query: {kv_heads} K/V heads").format(kv_heads=groups), groups))
    if heads > 1:
        kinds.append((_("multi-query: one K/V head"), 1))
    rows = []
    for name, kv_heads in kinds:
        numbers = result.numbers_per_token(kv_heads)
        formula = f"2 × {kv_heads} × {result.head_dim} = {numbers}"
        rows.append(_size_row(name, formula, numbers, tokens))
    latent = result.numbers_per_token()
    rows.append(_size_row(_("latent (MLA)"), str(latent), latent, tokens))
    st.markdown(
        _("**The cache per layer**, float32 ({bytes} bytes a number), for your {tokens}:").format(
            bytes=BYTES_PER_NUMBER, tokens=counted(tokens, "token")
        )
    )
    st.markdown(
        tables.markdown_table(
            [
                _("cached per token"),
                _("numbers per token"),
                _("bytes per token"),
                _("bytes for every token"),
            ],
            rows,
            labelled_rows=False,
        )
    )
    if heads == 1:
        st.caption(
            _(
                "With one head there is nothing to share: choose 2 or more heads in the sidebar "
                "to see the caches of grouped-query and multi-query attention beside these."
            )
        )


def _size_row(name: str, formula: str, numbers: int, tokens: int) -> list[str]:
    per_token = numbers * BYTES_PER_NUMBER
    return [name, formula, f"{per_token} B", f"{per_token * tokens} B"]


def show_gates(page: Page) -> None:
    """Gated attention's output gate, then gated DeltaNet stepped token by token."""
    st.header(_("Gated attention and gated DeltaNet"))
    gated = page.call(gated_attention, page.embeddings, page.config)
    if gated is None:
        return
    if not page.present:
        st.markdown(
            _(
                "Qwen3-Next multiplies attention's output by a gate, `sigmoid(x W_gate)`, a "
                "number between 0 and 1 for each output number, before the output projection: the "
                "book's GatedMultiHeadAttention. Here it runs on your settings, made causal and "
                "without dropout, as the book's class is."
            )
        )
    heatmaps.show_side_by_side(
        page,
        [
            (
                heatmaps.vectors_heatmap(
                    page,
                    gated.gate,
                    "g",
                    _("the gate sigmoid(x W_gate)"),
                    _("The output gate: one number in 0..1 per token and output number."),
                ),
                "gate",
            ),
            (
                heatmaps.vectors_heatmap(
                    page,
                    gated.gated,
                    "z",
                    _("context × gate"),
                    _("The context after the gate, before the output projection."),
                ),
                "gated_context",
            ),
        ],
    )
    _show_deltanet(page)


def _show_deltanet(page: Page) -> None:
    result = page.call(gated_deltanet, page.trace)
    if result is None:
        return
    st.subheader(_("Gated DeltaNet: a state instead of a cache"))
    if not page.present:
        st.markdown(
            _(
                "Gated DeltaNet (Qwen3-Next, Kimi Linear) keeps no keys and no values. Each head "
                "keeps one square state S, head_dim × head_dim. For each new token it decays the "
                "state by α (0..1), asks the state what it holds for the new key, `kᵀS`, moves "
                "it towards the new value by β, `S + k ⊗ (v − kᵀS) β`, and reads the output with "
                "the query, `qᵀS`. This is the book's GatedDeltaNet, without its convolution."
            )
        )
    step = stepper.show_stepper(page, "delta_step", "delta", len(result.steps))
    current = result.steps[min(step, len(result.steps)) - 1]
    labels = display_labels(page.trace.tokens)
    st.markdown(
        _("Token {step} ({label}): decay α = {alpha}, update β = {beta} (head 1).").format(
            step=current.step,
            label=safe.md(labels[current.step - 1], 24),
            alpha=heatmaps.nonzero(page, float(current.alpha[0])),
            beta=page.vector(current.beta[0].tolist()),
        )
    )
    head_dim = int(current.state_after.shape[-1])
    columns = [f"v{c + 1}" for c in range(head_dim)]
    rows = [f"k{r + 1}" for r in range(head_dim)]
    before, after = st.columns(2)
    for column, title, state in (
        (before, _("state before (head 1)"), current.state_before[0]),
        (after, _("state after (head 1)"), current.state_after[0]),
    ):
        with column:
            st.markdown(f"**{title}**")
            values = [[page.number(v) for v in row] for row in state.tolist()]
            st.markdown(tables.matrix_table(values, rows, columns, "S", labelled_columns=False))
    st.markdown(
        _(
            "Recalled kᵀS: {recalled}; correction (v − kᵀS) β: {delta}; read-out qᵀS: {read}."
        ).format(
            recalled=page.vector(current.recalled[0].tolist()),
            delta=page.vector(current.delta[0].tolist()),
            read=page.vector(current.read_out[0].tolist()),
        )
    )
    if page_frame.giveaway(page, "deltanet_state", _("The memory chart")):
        _show_memory_chart(page, result.steps)


def _show_memory_chart(page: Page, steps) -> None:
    """Bytes kept after each token: the KV cache grows, the state does not."""
    cache, state = _("KV cache (multi-head)"), _("gated DeltaNet's state")
    rows = []
    for step in steps:
        rows.append({"tokens": step.step, "bytes": step.kv_cache_bytes(), "label": cache})
        rows.append({"tokens": step.step, "bytes": step.state_bytes, "label": state})
    title = _("memory per layer after each token")
    spec = make_memory_chart(
        rows,
        x_title=_("tokens so far"),
        y_title=_("bytes"),
        legend_title=_("kept"),
        title=title,
        description=_(
            "The KV cache grows by a key and a value per token; the state stays {size} B."
        ).format(size=steps[-1].state_bytes),
        look=page.look,
    )
    st.vega_lite_chart(spec=heatmaps.vega_spec(spec), key="delta_memory", width="stretch")
    with st.expander(_("Show as table")):
        st.markdown(
            tables.markdown_table(
                [_("tokens so far"), cache, state],
                [[str(s.step), f"{s.kv_cache_bytes()} B", f"{s.state_bytes} B"] for s in steps],
                labelled_rows=False,
            )
        )
