"""The editable embedding matrix of the Playground."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from attention_core.knobs.param import MAX_TOKENS
from attention_core.knobs.text import LABEL_MAX_CHARS, VALUE_LIMIT
from translation import N_, _
from ui import safe
from ui.session import cached, controls, kept_widgets, matrix_edits, state
from ui.session.run_order import Page

WORDS_MAX_CHARS = 300  # the GloVe import's text: room for its words, spaces and punctuation
REFUSED_SHOWN = 5  # words left out that are named one by one


def show_matrix_editor(page: Page) -> None:
    """The grid: edit a number, rename a token, add or delete a token; Reset goes back.

    The grid is drawn from the matrix it started from, under a key that changes only when the
    matrix is replaced (Reset, another example, another page): every edit in the browser is
    kept, and the edits are applied on the server before anything is computed.
    """
    tokens, rows = state.editor_base()
    frame = matrix_edits.to_frame(tokens, rows)
    # No max_chars and numbers as text: the browser would cut a long label to 20 characters,
    # clamp 1e9 to 10, and its number cells drop an exponent's "e" or a decimal comma
    # (1e-3 became -13) without a word. The server reads what was typed and refuses a bad
    # value with a message naming the cell (ui.session.matrix_edits); the last valid matrix stays.
    st.data_editor(
        frame,
        key=state.editor_key(),
        on_change=controls.after_change,
        args=("x",),  # an edit reruns only the views when it changes nothing else
        num_rows="dynamic",
        hide_index=True,
        column_config=kept_widgets.grid_columns(frame),
        width="content",
    )
    st.button(
        _("Reset"),
        help=_("Back to the chosen example's matrix."),
        key="reset_matrix",
        on_click=state.reset_matrix,
    )
    st.caption(
        _(
            "Up to {MAX_TOKENS} tokens, labels of up to {LABEL_MAX_CHARS} characters; "
            "numbers between −{VALUE_LIMIT:g} and {VALUE_LIMIT:g}."
        ).format(MAX_TOKENS=MAX_TOKENS, LABEL_MAX_CHARS=LABEL_MAX_CHARS, VALUE_LIMIT=VALUE_LIMIT)
        + " "
        + _(TOUCH_HINT)
    )


# The grid selects a cell on the first tap and opens it on the second (a double click).
TOUCH_HINT = N_("On a touch screen, tap a cell, then tap it again to type in it.")


def show_glove_import(page: Page) -> None:
    """Bring real words into the Playground: their GloVe vectors, projected to d_in numbers."""
    width = page.embeddings.d_in
    with st.expander(
        _("Use real words (GloVe vectors)"), key="glove_import_open", on_change="rerun"
    ) as section:
        if not section.open:
            return
        st.markdown(
            _(
                "Type up to {MAX_TOKENS} words. Each word's 50 GloVe numbers are projected onto "
                "the first {width} principal axes of the 10 000 most frequent GloVe words (a "
                "projection fitted once on those words, never on yours), rounded to 2 decimals, "
                "and become the matrix with the words as labels."
            ).format(MAX_TOKENS=MAX_TOKENS, width=width)
        )
        # No max_chars: the browser would drop a longer paste without a word, and the button
        # would use the words from before; the length is checked here, on the server.
        words = st.text_input(
            _("Words"),
            "king queen man woman apple orange",
            key="glove_words",
            help=_("At most {MAX_TOKENS} words in {WORDS_MAX_CHARS} characters.").format(
                MAX_TOKENS=MAX_TOKENS, WORDS_MAX_CHARS=WORDS_MAX_CHARS
            ),
        )
        if st.button(_("Use these words"), key="glove_use"):
            if len(words) > WORDS_MAX_CHARS:
                st.warning(
                    _(
                        "Words: {count} characters; at most {limit}. The matrix is unchanged."
                    ).format(count=len(words), limit=WORDS_MAX_CHARS),
                    icon=":material/warning:",
                )
                return
            result = page.call(cached.playground_words, words, width)
            if result is not None:
                found, refused = result
                state.replace_matrix(found.embeddings.tokens, found.embeddings.as_rows())
                notes = []
                if found.unknown:
                    notes.append(
                        safe.sentence(
                            _("Not in GloVe, left out: {listed}").format(
                                listed=_listed(found.unknown)
                            )
                        )
                    )
                notes += [
                    safe.sentence(
                        _("Left out {word}: {why}").format(
                            word=safe.md(word, 30), why=safe.prose(why, 120)
                        )
                    )
                    for word, why in refused[:REFUSED_SHOWN]
                ]
                if len(refused) > REFUSED_SHOWN:
                    notes.append(
                        _("{count} more words were left out.").format(
                            count=len(refused) - REFUSED_SHOWN
                        )
                    )
                state.remember("_glove_notes", notes)
                st.rerun()
        for note in state.recall("_glove_notes") or []:
            st.info(note, icon=":material/info:")
        state.remember("_glove_notes", None)


def _listed(words: Sequence[str]) -> str:
    return ", ".join(safe.md(w, 30) for w in words)
