"""Page 13's memory calculator: a model's size typed in, the bytes each kind of attention
keeps, and the book's scripts' commands that give the same numbers."""

from __future__ import annotations

import streamlit as st

from attention_core.memory_estimates import book_commands, estimate, gigabytes, model_size
from attention_core.memory_report import MEMORY_FLAGS, memory_rows
from translation import _
from ui.session import controls
from ui.session.run_order import Page
from ui.specs import tables

COLUMNS = 5  # knobs per row on a wide screen


def show_calculator(page: Page) -> None:
    """The calculator's knobs, its table and the scripts' commands."""
    st.header(_("Memory calculator: a real model's size"))
    if not page.present:
        st.markdown(
            _(
                "Type a model's size: the table gives the bytes its attention keeps while it "
                "generates, for the whole model (every layer, every text of the batch), with "
                "the formulas of the memory estimators in the book's chapter 4 bonus material. "
                "The defaults are the latent-attention example of that material."
            )
        )
    for start in range(0, len(MEMORY_FLAGS), COLUMNS):
        for column, name in zip(
            st.columns(COLUMNS), MEMORY_FLAGS[start : start + COLUMNS], strict=True
        ):
            with column:
                controls.widget(name, page.settings)
    result = page.call(lambda: estimate(model_size(page.settings.values)))
    if result is None:
        return
    rows = []
    for name, count, share in memory_rows(result):
        rows.append([name, f"{count:,.0f} B", gigabytes(count), f"{share:.1%}"])
    st.markdown(
        tables.markdown_table(
            [_("attention"), _("bytes kept"), _("gigabytes"), _("of MHA's")],
            rows,
            labelled_rows=False,
        )
    )
    size = result.size
    st.markdown(
        _(
            "The same numbers with the book's scripts (the last one draws DeltaNet's lines "
            "against the context length). Their `--n_kv_groups` counts the query heads that "
            "share one K/V head: {heads} heads ÷ {kv_heads} K/V heads = {group}."
        ).format(heads=size.n_heads, kv_heads=size.kv_heads, group=size.group_size)
    )
    st.code("\n".join(book_commands(size).values()), language="bash", wrap_lines=True)
