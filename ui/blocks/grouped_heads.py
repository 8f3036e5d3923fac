"""Page 11's first two sections: query heads sharing keys and values, and the head split traced
shape by shape beside the wrong ``view``."""

from __future__ import annotations

import streamlit as st

from attention_core import AttentionInputError
from attention_core.embeddings import display_labels
from attention_core.formatting import counted
from attention_core.head_split import trace_head_split
from attention_core.reference import MATCH_TOLERANCE
from attention_core.todays_attention import Grouped, grouped
from translation import _
from ui import safe
from ui.blocks import heatmaps
from ui.session import controls, state
from ui.session.run_order import Page
from ui.specs import tables

EXAMPLE = {"d_out": 8, "heads": 4, "kv_groups": 2}  # d_out first: then 4 heads fit


def show_grouped_query(page: Page) -> None:
    """The heads and K/V groups knobs, which heads share, the cache's memory, the weights."""
    st.header(_("Grouped-query and multi-query attention"))
    heads_column, groups_column = st.columns(2)
    with heads_column:
        controls.widget("heads", page.settings)
    with groups_column:
        controls.widget("kv_groups", page.settings)
    # With one head there is nothing to share: the section shows the example on the
    # learner's matrix at once (it opened empty until a button was pressed), where its four
    # heads fit (typed or identity weights keep the matrix's width).
    example = _example(page)
    if page.trace.num_heads == 1 and example is None:
        _offer_the_example(shown=False)
        return
    result = example or page.call(grouped, page.embeddings, page.config)
    if result is None:
        return
    if example is not None:
        _offer_the_example(shown=True)
    if not page.present:
        st.markdown(
            _(
                "A KV cache keeps every token's keys and values for every head, and in long texts "
                "it outgrows the model. Grouped-query attention (Llama 2 70B, Llama 3, Mistral) "
                "lets several query heads read the same keys and values: the cache keeps one K/V "
                "head per group. One group is multi-query attention; one group per head is the "
                "standard multi-head attention of chapter 3. Here each group keeps the keys and "
                "values its first head has in standard attention, so the first head of each group "
                "is unchanged and you can see what sharing does to the others."
            )
        )
    _show_sharing(result)
    _show_memory(page, result)
    _show_head_weights(page, result)


def _example(page: Page) -> Grouped | None:
    """With one head, the example's 4 heads in 2 groups on the learner's matrix (None with
    more heads, or where they do not fit)."""
    if page.trace.num_heads != 1:
        return None
    try:
        return grouped(page.embeddings, page.config.replace(**EXAMPLE))
    except AttentionInputError:
        return None


def _offer_the_example(shown: bool) -> None:
    """With one head: say that the section shows the example (or that it could not), and
    offer its settings."""
    if shown:
        said = _(
            "With one head there is nothing to share, so this section shows your matrix with "
            "4 heads in 2 K/V groups (d_out 8). Choose your own heads and groups above, or use "
            "the example's settings on every page."
        )
    else:
        said = _(
            "With one head there is nothing to share: choose 2 or more heads, then fewer K/V "
            "groups than heads, or try the example."
        )
    st.info(said, icon=":material/info:")
    st.button(
        _("Use 4 heads in 2 groups (d_out 8)"),
        key="try_grouped_heads",
        on_click=_try_grouped_heads,
        help=_("Sets d_out to 8, heads to 4 and K/V groups to 2; every page then uses them."),
    )


def _show_sharing(result: Grouped) -> None:
    """Which query heads read each cached K/V head."""
    rows = []
    for kv_head in range(result.trace.kv_heads):
        readers = [h + 1 for h, g in enumerate(result.kv_head_of) if g == kv_head]
        rows.append(
            [
                _("K/V head {kv_head}").format(kv_head=kv_head + 1),
                ", ".join(str(h) for h in readers),
                _("head {head}'s own keys and values").format(head=readers[0]),
            ]
        )
    st.markdown(
        tables.markdown_table(
            [_("cached"), _("read by query heads"), _("what it holds")],
            rows,
            labelled_rows=False,
            words=(2,),
        )
    )


def _show_head_weights(page: Page, result: Grouped) -> None:
    """Each head's weights, named by the K/V head it reads, and how much sharing moved them."""
    trace = result.trace
    heatmaps.show_side_by_side(
        page,
        [
            (
                heatmaps.weights_heatmap(
                    page,
                    trace,
                    head,
                    title=_("head {number} · K/V {kv_head}").format(
                        number=head + 1, kv_head=result.kv_head_of[head] + 1
                    ),
                ),
                f"gqa_head_{head}",
            )
            for head in range(trace.num_heads)
        ],
        per_row=min(trace.num_heads, 4),
    )
    changes = [page.number(float(v)) for v in result.weight_change]
    st.caption(
        _(
            "Largest change of a weight from sharing, head by head (0 for a group's first "
            "head): {changes}."
        ).format(
            changes=", ".join(
                _("head {number}: {change}").format(number=h + 1, change=c)
                for h, c in enumerate(changes)
            )
        )
    )


def _try_grouped_heads() -> None:
    """The example's settings, d_out first so that 4 heads fit."""
    for name, value in EXAMPLE.items():
        state.set_value(name, value)


def _show_memory(page: Page, result: Grouped) -> None:
    """The cache's bytes per token and layer for one K/V head per head, this setting and one."""
    memory = result.memory
    window = page.config.window
    # The cache holds every token, or with a window only the window's last tokens.
    tokens = min(page.trace.num_tokens, window) if window else page.trace.num_tokens
    heads = memory.num_heads
    rows = []
    for kind, name, kv_heads in (
        ("multi-head", _("multi-head: one per head"), heads),
        (
            "this",
            _("this setting: {kv_heads} groups").format(kv_heads=memory.kv_heads),
            memory.kv_heads,
        ),
        ("multi-query", _("multi-query: one for all"), 1),
    ):
        if kind == "this" and memory.kv_heads in (1, heads):
            continue
        per_token = memory.bytes_per_token(kv_heads)
        rows.append(
            [
                name,
                str(kv_heads),
                f"2 × {kv_heads} × {memory.head_dim} = {memory.numbers_per_token(kv_heads)}",
                f"{per_token} B",
                f"{per_token * tokens} B",
                _("{factor}× less").format(factor=heads // kv_heads) if kv_heads < heads else "—",
            ]
        )
    st.markdown(
        _(
            "**The KV cache per layer**, float32 ({bytes_per_number} bytes a number), "
            "computed from the shapes:"
        ).format(bytes_per_number=memory.bytes_per_number)
    )
    st.markdown(
        tables.markdown_table(
            [
                _("K/V heads"),
                _("count"),
                _("numbers per token (K and V)"),
                _("bytes per token"),
                _("bytes for the {tokens} cached (window {window})").format(
                    tokens=counted(tokens, "token"), window=window
                )
                if window
                else _("bytes for the {tokens} cached").format(tokens=counted(tokens, "token")),
                _("vs multi-head"),
            ],
            rows,
            labelled_rows=False,
        )
    )


def show_head_split(page: Page) -> None:
    """Each tensor's shape from ``view`` to ``out_proj``, and the numbers the wrong view mixes."""
    st.header(_("The head split, shape by shape"))
    trace = page.trace
    example = _example(page)
    if example is not None:  # one head is not split: the example's four heads are
        st.caption(_("With one head nothing is split: the shapes of the example's 4 heads."))
        trace = example.trace
    split = page.call(trace_head_split, trace)
    if split is None:
        return
    heads, head_dim = trace.num_heads, trace.head_dim
    if not page.present:
        st.markdown(
            _(
                "The book's MultiHeadAttention works on a batch `b` of texts. It projects once, "
                "then cuts each token's {numbers} into {heads} of {head_dim}. These are the "
                "shapes with your numbers (b = 1):"
            ).format(
                numbers=counted(trace.queries.shape[1], "number"),
                heads=counted(heads, "head"),
                head_dim=head_dim,
            )
        )
    st.markdown(
        tables.markdown_table(
            [_("line"), _("shape")],
            [[f"`{s.code}`", "(" + ", ".join(str(n) for n in s.shape) + ")"] for s in split.steps],
            labelled_rows=False,
        )
    )
    st.markdown(_("**Pitfall: `view(b, num_heads, num_tokens, head_dim)`**"))
    if not page.present:
        st.markdown(
            _(
                "It gives the same shape without the transpose, so nothing fails. But `view` "
                "only re-reads the numbers in their order in memory, token after token: the "
                "wrong “head 1” holds every number of the first tokens, so each of its rows is a "
                "slice of some other token, and the other tokens are missing from it."
            )
        )
    labels = display_labels(trace.tokens)
    origin = split.wrong_origin[0].tolist()  # (num_tokens, head_dim, 2)
    rows = []
    for row in range(trace.num_tokens):
        right = page.vector(split.right_queries[0, row].tolist())
        wrong = page.vector(split.wrong_queries[0, row].tolist())
        taken = ", ".join(f"{safe.md(labels[t], 24)} q{c + 1}" for t, c in origin[row])
        rows.append([labels[row], right, wrong, taken])
    st.markdown(
        tables.markdown_table(
            [
                _("row"),
                _("head 1, right"),
                _("“head 1”, wrong view"),
                _("the wrong row's numbers are"),
            ],
            rows,
            words=(3,),
        )
    )
    difference = split.max_difference
    if heads == 1:
        verdict = _("With one head both views cut nothing, so they agree: choose 2 or more heads.")
    elif difference < MATCH_TOLERANCE:
        verdict = _("Here the scrambled numbers happen to give the same output.")
    else:
        verdict = _(
            "✗ The wrong view changes the output by up to {difference}, and no error is raised."
        ).format(difference=page.number(difference))
    st.markdown(verdict)
