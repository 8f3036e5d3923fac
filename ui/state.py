"""The only module that reads and writes st.session_state and st.query_params.

One vocabulary: a widget's key is its URL parameter and its command-line flag
(see ``attention_core.params``). Canonical values live under ``_canon`` so they survive page
switches; before a widget is drawn its key is filled from there, and afterwards copied back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from attention_core import AttentionConfig, AttentionInputError, Embeddings, make_embeddings
from attention_core.embeddings import preset_embeddings
from attention_core.params import CONFIG_PARAMS, Settings, build_embeddings, parse_params
from attention_core.parsing import format_matrix, parse_bool

DEFAULTS: dict[str, Any] = {
    "preset": "journey",
    "num_tokens": 6,
    "d_in": 3,
    "d_out": 2,
    "init": "book",
    "seed": 123,
    "scoring": "dot",
    "scaling": "sqrt_d",
    "norm": "softmax",
    "mask": "none",
    "mask_strategy": "neg_inf",
    "padding": 1,
    "dropout": 0.0,
    "dropout_seed": 0,
    "train": True,
    "heads": 1,
    "heads_layout": "split",
    "query": 2,
}
UI_CONFIG_PARAMS = tuple(p for p in CONFIG_PARAMS if p in DEFAULTS)
# The dashboard offers a subset of what the core accepts (the core's own limits are wider).
UI_RANGES = {"d_out": (1, 8), "num_tokens": (1, 12), "dropout": (0.0, 0.9)}
UI_CHOICES = {"init": ("book", "linear", "identity"), "mask": ("none", "causal", "padding")}
MAX_TOKENS = 12


@dataclass(frozen=True)
class View:
    """What every page shows: the inputs, the config, the focused query (0-based), the mode."""

    embeddings: Embeddings
    config: AttentionConfig
    query: int
    present: bool
    config_error: str | None


def init() -> None:
    """Prepare shared state for this session; read the link's parameters on its first run."""
    session = st.session_state
    if "_canon" in session:
        return
    session["_canon"] = dict(DEFAULTS)
    session["_present"] = False
    session["_messages"] = []
    session["_last_config"] = AttentionConfig()
    session["_editor_version"] = 0
    _set_matrix_from_preset()
    _load_url()


def _load_url() -> None:
    session = st.session_state
    params = {key: st.query_params.get_all(key) for key in st.query_params}
    messages = [
        f"Link parameter '{key[:30]}' is given {len(values)} times; the last one is used."
        for key, values in params.items()
        if len(values) > 1
    ]
    values = {key: vals[-1] for key, vals in params.items() if vals}
    if "present" in values:
        try:
            session["_present"] = parse_bool(values.pop("present"), "present")
        except AttentionInputError as error:
            messages.append(f"Link parameter {error}")
    settings, errors = parse_params(values, _base_settings())
    messages += [f"Link parameter {error}" for error in errors]
    canon = session["_canon"]
    for name in UI_CONFIG_PARAMS:
        if name != "padding" or "padding" in values:
            canon[name] = getattr(settings.config, name)
    canon.update(preset=settings.preset, query=settings.query)
    canon.update(num_tokens=settings.num_tokens, d_in=settings.d_in)
    messages += _enforce_ui_limits(canon)
    try:
        base = _base_settings()
        embeddings = build_embeddings(replace(base, tokens=settings.tokens, x=settings.x))
        if embeddings.num_tokens > MAX_TOKENS:
            raise AttentionInputError(f"the dashboard shows at most {MAX_TOKENS} tokens")
        _store_matrix(embeddings.tokens, embeddings.as_rows())
    except AttentionInputError as error:
        messages.append(f"Link matrix: {error}; showing the {canon['preset']} preset instead.")
        _set_matrix_from_preset()
    if not 1 <= canon["query"] <= len(session["_tokens"]):
        fallback = DEFAULTS["query"] if DEFAULTS["query"] <= len(session["_tokens"]) else 1
        messages.append(f"Link parameter query: {canon['query']} is not a token; using {fallback}.")
        canon["query"] = fallback
    session["_messages"] = messages


def _enforce_ui_limits(canon: dict[str, Any]) -> list[str]:
    messages = []
    for name, (low, high) in UI_RANGES.items():
        if not low <= canon[name] <= high:
            messages.append(
                f"Link parameter {name}: the dashboard allows {low} to {high}, not "
                f"{canon[name]}; using {DEFAULTS[name]}."
            )
            canon[name] = DEFAULTS[name]
    for name, choices in UI_CHOICES.items():
        if canon[name] not in choices:
            messages.append(
                f"Link parameter {name}: the dashboard offers {', '.join(choices)}, not "
                f"{canon[name]}; using {DEFAULTS[name]}."
            )
            canon[name] = DEFAULTS[name]
    try:
        AttentionConfig().replace(**_config_values(canon))
    except AttentionInputError as error:
        messages.append(f"Link parameters: {error}; using 1 head.")
        canon["heads"] = 1
    return messages


def _base_settings() -> Settings:
    """The canonical values as core settings (the link's parameters are parsed over these)."""
    canon = st.session_state["_canon"]
    return Settings(
        preset=canon["preset"],
        num_tokens=canon["num_tokens"],
        d_in=canon["d_in"],
        query=canon["query"],
        config=AttentionConfig().replace(**_config_values(canon)),
    )


def _config_values(canon: dict[str, Any]) -> dict[str, Any]:
    values = {name: canon[name] for name in UI_CONFIG_PARAMS}
    values["padding"] = values["padding"] if canon["mask"] == "padding" else 0
    return values


def take_messages() -> list[str]:
    """Messages about the link that opened this session (shown once)."""
    messages = st.session_state.get("_messages", [])
    st.session_state["_messages"] = []
    return messages


# --- widgets ------------------------------------------------------------------------------


def keyed(name: str, options: list[Any] | None = None) -> str:
    """Fill widget ``name`` from the canonical value before drawing it; returns the key."""
    session = st.session_state
    canon = session["_canon"]
    if name in session:
        canon[name] = session[name]
    if options is not None and canon[name] not in options:
        canon[name] = options[0]
    session[name] = canon[name]
    return name


def commit(name: str, value: Any) -> None:
    """Record a widget's value as the canonical one."""
    st.session_state["_canon"][name] = value


def value(name: str) -> Any:
    """The canonical value of one setting."""
    return st.session_state["_canon"][name]


def is_present() -> bool:
    """True in presentation mode."""
    return bool(st.session_state["_present"])


def present_key() -> str:
    """Key of the presentation-mode toggle, filled from the canonical value."""
    session = st.session_state
    if "present" in session:
        session["_present"] = session["present"]
    session["present"] = session["_present"]
    return "present"


# --- the embedding matrix -----------------------------------------------------------------


def _preset_signature(canon: dict[str, Any]) -> tuple[Any, ...]:
    preset = canon["preset"]
    if preset == "random":
        return (preset, canon["seed"], canon["num_tokens"], canon["d_in"])
    if preset == "montreal":
        return (preset, canon["seed"])
    return (preset,)


def _preset_matrix() -> Embeddings:
    canon = st.session_state["_canon"]
    return preset_embeddings(canon["preset"], canon["seed"], canon["num_tokens"], canon["d_in"])


def _set_matrix_from_preset() -> None:
    embeddings = _preset_matrix()
    _store_matrix(embeddings.tokens, embeddings.as_rows())


def _store_matrix(tokens: tuple[str, ...], rows: tuple[tuple[float, ...], ...]) -> None:
    session = st.session_state
    session["_tokens"], session["_rows"] = tuple(tokens), tuple(rows)
    session["_signature"] = _preset_signature(session["_canon"])
    session["_editor_version"] = session.get("_editor_version", 0) + 1


def editor_key() -> str:
    """The data editor's key; it changes whenever the matrix is replaced, resetting its edits."""
    return f"matrix_editor_{st.session_state['_editor_version']}"


def matrix() -> tuple[tuple[str, ...], tuple[tuple[float, ...], ...]]:
    """The last valid token labels and matrix rows."""
    return st.session_state["_tokens"], st.session_state["_rows"]


def accept_matrix(tokens: tuple[str, ...], rows: tuple[tuple[float, ...], ...]) -> None:
    """Make a validated edit the current matrix."""
    if (tuple(tokens), tuple(rows)) != matrix():
        _store_matrix(tokens, rows)


def reset_matrix() -> None:
    """Back to the preset's matrix."""
    _set_matrix_from_preset()


def matrix_is_edited() -> bool:
    """True when the matrix differs from its preset's."""
    preset = _preset_matrix()
    return (preset.tokens, preset.as_rows()) != matrix()


# --- the view every page reads ------------------------------------------------------------


def view() -> View:
    """The current inputs and config; an invalid combination keeps the last valid config."""
    session = st.session_state
    canon = session["_canon"]
    if _preset_signature(canon) != session["_signature"]:
        _set_matrix_from_preset()
    tokens, rows = matrix()
    error = None
    try:
        config = AttentionConfig().replace(**_config_values(canon))
        session["_last_config"] = config
    except AttentionInputError as exc:
        error, config = str(exc), session["_last_config"]
    query = min(max(canon["query"], 1), len(tokens)) - 1
    return View(make_embeddings(tokens, rows), config, query, session["_present"], error)


def is_revealed(question: str) -> bool:
    """True once the learner asked to see the answer of a predict-then-reveal question."""
    return question in st.session_state.setdefault("_revealed", set())


def reveal(question: str) -> None:
    """Show the answer of a predict-then-reveal question (a button callback)."""
    st.session_state.setdefault("_revealed", set()).add(question)


def bump_dropout_seed() -> None:
    """Draw a new dropout sample: the next dropout seed (a button callback)."""
    canon = st.session_state["_canon"]
    canon["dropout_seed"] = (canon["dropout_seed"] + 1) % 2**32
    st.session_state["dropout_seed"] = canon["dropout_seed"]


def custom_weights() -> tuple | None:
    """Hand-edited W_query, W_key, W_value for the trainable-weights lesson, if any."""
    return st.session_state.get("_custom_weights")


def set_custom_weights(weights: tuple | None) -> None:
    """Store (or clear) hand-edited W_query, W_key, W_value."""
    st.session_state["_custom_weights"] = weights


def remember_good_config(config: AttentionConfig) -> None:
    """Record a config that ran on the current inputs."""
    st.session_state["_good_config"] = config


def last_good_config() -> AttentionConfig:
    """The last config that ran, or the defaults."""
    return st.session_state.get("_good_config", AttentionConfig())


def url_params() -> dict[str, str]:
    """Every setting on screen as URL parameters (the matrix only when it was edited)."""
    canon = st.session_state["_canon"]
    params = {name: _text(canon[name]) for name in ("preset", *UI_CONFIG_PARAMS, "query")}
    if canon["preset"] == "random":
        params.update(num_tokens=str(canon["num_tokens"]), d_in=str(canon["d_in"]))
    if matrix_is_edited():
        tokens, rows = matrix()
        params.update(tokens=",".join(tokens), x=format_matrix(rows))
    if st.session_state["_present"]:
        params["present"] = "1"
    return params


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def sync_url() -> None:
    """Write the current view into the browser's URL."""
    st.query_params.from_dict(url_params())


def share_link() -> str:
    """A link that reproduces exactly this view on any machine."""
    base = st.context.url or "http://localhost:8501/"
    return f"{base}?{urlencode(url_params())}"
