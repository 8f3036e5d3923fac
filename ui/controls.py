"""Widgets: draw the shared controls and record their values in ui.state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from attention_core.config import SEED_MAX
from attention_core.embeddings import PRESETS, display_labels
from ui import state

PRESET_LABELS = {
    "journey": "Your journey starts with one step (6 × 3)",
    "nugues": "Seed 001 test matrix (3 × 4)",
    "montreal": "I live in Montreal (4 × 8, random)",
    "random": "Random (choose size)",
}
SCALING_LABELS = {"none": "none", "d": "÷ d_k", "sqrt_d": "÷ √d_k"}
INIT_LABELS = {
    "book": "torch.rand (book)",
    "linear": "nn.Linear default",
    "identity": "none: Q = K = V = X",
}
MASK_LABELS = {"none": "none", "causal": "causal (no peeking)", "padding": "padding"}
NORM_LABELS = {
    "softmax": "softmax (stable)",
    "naive_softmax": "naive softmax",
    "sum": "divide by row sum",
    "none": "none (raw scores)",
}
STRATEGY_LABELS = {
    "neg_inf": "−∞ before softmax",
    "zero_renorm": "zero after, renormalise",
    "zero_scores": "multiply scores by mask (pitfall)",
    "zero_no_renorm": "zero after, no renormalise (pitfall)",
}


def _widget(name: str, factory: Callable[..., Any], label: str, **kwargs: Any) -> Any:
    options = kwargs.get("options")
    value = factory(label, key=state.keyed(name, list(options) if options else None), **kwargs)
    state.commit(name, value)
    return value


def _labelled(labels: dict[str, str]) -> Callable[[str], str]:
    return lambda key: labels.get(key, key)


def sidebar_controls() -> None:
    """Draw every shared control in the sidebar."""
    with st.sidebar:
        st.toggle("Presentation mode", key=state.present_key(), help="Larger type, less prose.")
        _input_controls()
        _weight_controls()
        _score_controls()
        _dropout_controls()
        with st.expander("More settings"):
            _advanced_controls()


def _input_controls() -> None:
    st.subheader("Input")
    preset = _widget(
        "preset", st.selectbox, "Preset", options=PRESETS, format_func=_labelled(PRESET_LABELS)
    )
    if preset == "random":
        left, right = st.columns(2)
        with left:
            _widget("num_tokens", st.number_input, "tokens", min_value=1, max_value=12, step=1)
        with right:
            _widget("d_in", st.number_input, "dims", min_value=1, max_value=16, step=1)
    tokens, _ = state.matrix()
    labels = display_labels(tokens)
    _widget(
        "query",
        st.selectbox,
        "Focus on query",
        options=list(range(1, len(tokens) + 1)),
        format_func=lambda i: f"x({i}) {labels[i - 1]}",
        help="The token whose numbers are explained step by step.",
    )


def _weight_controls() -> None:
    st.subheader("Weights")
    _widget("d_out", st.slider, "d_out (width of q, k, v)", min_value=1, max_value=8)
    _widget(
        "init",
        st.selectbox,
        "W_query, W_key, W_value",
        options=list(INIT_LABELS),
        format_func=_labelled(INIT_LABELS),
    )
    _widget("seed", st.number_input, "seed", min_value=0, max_value=SEED_MAX, step=1)
    _widget(
        "heads",
        st.selectbox,
        "heads",
        options=list(range(1, 9)),
        help="d_out must be divisible by the number of heads.",
    )


def _score_controls() -> None:
    st.subheader("Scores")
    _widget(
        "scaling",
        st.radio,
        "scale scores",
        options=list(SCALING_LABELS),
        horizontal=True,
        format_func=_labelled(SCALING_LABELS),
    )
    mask = _widget(
        "mask", st.selectbox, "mask", options=list(MASK_LABELS), format_func=_labelled(MASK_LABELS)
    )
    if mask == "padding":
        tokens, _ = state.matrix()
        _widget(
            "padding", st.slider, "padding tokens at the end", min_value=0, max_value=len(tokens)
        )


def _dropout_controls() -> None:
    st.subheader("Dropout")
    _widget("dropout", st.slider, "dropout rate p", min_value=0.0, max_value=0.9, step=0.05)
    left, right = st.columns(2)
    with left:
        _widget("train", st.toggle, "training")
    with right:
        _widget(
            "dropout_seed", st.number_input, "dropout seed", min_value=0, max_value=SEED_MAX, step=1
        )


def _advanced_controls() -> None:
    _widget("scoring", st.radio, "scores", options=["dot", "cosine"], horizontal=True)
    _widget(
        "norm",
        st.selectbox,
        "normalise",
        options=list(NORM_LABELS),
        format_func=_labelled(NORM_LABELS),
    )
    _widget(
        "mask_strategy",
        st.selectbox,
        "masking",
        options=list(STRATEGY_LABELS),
        format_func=_labelled(STRATEGY_LABELS),
    )
    _widget("heads_layout", st.radio, "heads layout", options=["split", "wrapper"], horizontal=True)
