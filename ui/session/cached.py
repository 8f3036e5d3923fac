"""Core computations that depend on nothing a learner types, cached once per server process."""

from __future__ import annotations

import streamlit as st

from attention_core.embeddings import Embeddings
from attention_core.errors import AttentionInputError
from attention_core.experiments import scaling_experiment
from attention_core.knobs.text import check_label
from real_model import (
    GloveAttention,
    HeadReproduction,
    LoadedModel,
    PlaygroundWords,
    SeedCheck,
    WordComparison,
    compare_word,
    forget_model,
    glove_attention,
    noncontextual_embeddings,
    reproduce_head,
    seed001_checks,
    shared_model,
    split_words,
    token_count,
)
from real_model import (
    playground_words as projected_words,
)
from translation import N_, _

# A cache decorator's spinner text is fixed at import, in no learner's language: the page that
# calls the function shows these with st.spinner(_(...)) itself.
GLOVE_SENTENCE_SPINNER = N_("Reading the GloVe vectors (first visit only)…")
SEED001_SPINNER = N_("Recomputing the numbers of Nugues' chapter 15…")


@st.cache_data(max_entries=64, show_spinner=False)
def scaling_rows(seed: int) -> list[dict[str, float | int | str]]:
    """The core's scaling experiment for one seed (plain values in and out)."""
    return scaling_experiment(seed=seed)


@st.cache_resource(max_entries=128, show_spinner=False)
def glove_sentence(sentence: str) -> GloveAttention:
    """Seed 001's two attentions on one sentence's GloVe vectors; shared, never mutated."""
    return glove_attention(sentence)


@st.cache_resource(max_entries=1, show_spinner=False)
def seed001() -> list[SeedCheck]:
    """Every tensor seed 001 prints, beside ours (computed once per server process)."""
    return seed001_checks()


def encoder() -> LoadedModel:
    """The pretrained encoder, loaded once per process; a failure is remembered (Retry)."""
    with st.spinner(_("Loading the encoder from its installed package (first visit only)…")):
        return shared_model()


def retry_encoder() -> None:
    """Forget a remembered failure so that the next visit tries again (a button callback)."""
    forget_model()


def playground_words(text: str, width: int) -> tuple[PlaygroundWords, tuple[tuple[str, str], ...]]:
    """Real words' GloVe vectors projected to ``width`` numbers (the PCA is fitted once), and
    why each word that cannot be a token label was left out (``parsing.check_label``: a ','
    or ';' separates tokens in links).

    The text is split as page 9 splits its sentence (punctuation is a word of its own), so a
    word followed by a comma is found on both pages.
    """
    with st.spinner(_("Reading the GloVe vectors (first use only)…")):
        labels, refused = [], {}
        for word in split_words(text):
            try:
                labels.append(check_label(word, _("a label")))
            except AttentionInputError as error:
                refused.setdefault(word, str(error))
        return projected_words(labels, width), tuple(refused.items())


# The encoder's results for a sentence: one forward pass each, shared by every session that
# asks for the same sentence, layer and head (pages only read them). A failure is not cached.
@st.cache_resource(max_entries=64, show_spinner=False)
def sentence_embeddings(sentence: str) -> Embeddings:
    """The encoder's input embeddings of the sentence's tokens."""
    return noncontextual_embeddings(shared_model(), sentence)


@st.cache_resource(max_entries=64, show_spinner=False)
def sentence_length(sentence: str) -> int:
    """How many tokens the encoder splits the sentence into, before it is cut."""
    return token_count(shared_model(), sentence)


@st.cache_resource(max_entries=256, show_spinner=False)
def head(sentence: str, layer: int, head: int) -> HeadReproduction:
    """One head of the encoder (0-based layer and head) recomputed by the core."""
    return reproduce_head(shared_model(), sentence, layer, head)


@st.cache_resource(max_entries=64, show_spinner=False)
def word_in_two_sentences(first: str, second: str, word: str) -> WordComparison:
    """A word's contextual vectors in two sentences, compared."""
    return compare_word(shared_model(), first, second, word)
