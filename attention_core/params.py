"""One vocabulary for every setting: the same names are command-line flags and URL parameters."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from attention_core.config import (
    D_OUT_RANGE,
    HEADS_RANGE,
    MAX_DIMS,
    MAX_TOKENS,
    SEED_MAX,
    AttentionConfig,
    Matrix,
)
from attention_core.embeddings import PRESETS, Embeddings, make_embeddings, preset_embeddings
from attention_core.errors import AttentionInputError
from attention_core.parsing import parse_bool, parse_int, parse_matrix, parse_number, parse_tokens

CHOICE_PARAMS = (
    "init",
    "scoring",
    "scaling",
    "norm",
    "mask",
    "mask_strategy",
    "heads_layout",
    "out_proj",
)
INT_PARAMS = {
    "d_out": D_OUT_RANGE,
    "seed": (0, SEED_MAX),
    "padding": (0, MAX_TOKENS),
    "dropout_seed": (0, SEED_MAX),
    "heads": HEADS_RANGE,
}
CONFIG_PARAMS = (
    "d_out",
    "init",
    "seed",
    "scoring",
    "scaling",
    "norm",
    "mask",
    "mask_strategy",
    "padding",
    "dropout",
    "dropout_seed",
    "train",
    "heads",
    "heads_layout",
    "out_proj",
)
INPUT_PARAMS = ("preset", "tokens", "x", "num_tokens", "d_in")
VIEW_PARAMS = ("query",)
ALL_PARAMS = INPUT_PARAMS + CONFIG_PARAMS + VIEW_PARAMS


@dataclass(frozen=True)
class Settings:
    """Everything a command line or a URL can set: the inputs, the config and the focused query.

    ``query`` is 1-based, as in the notation x^(2) for the second token.
    """

    preset: str = "journey"
    tokens: tuple[str, ...] | None = None
    x: Matrix | None = None
    num_tokens: int = 6
    d_in: int = 3
    query: int = 2
    config: AttentionConfig = field(default_factory=AttentionConfig)


def parse_params(
    params: Mapping[str, str], base: Settings | None = None
) -> tuple[Settings, list[str]]:
    """Parse string parameters over ``base``; an invalid one is reported and keeps base's value.

    Returns:
        The settings and a list of messages, one per problem, each naming its parameter.
    """
    base = base or Settings()
    errors: list[str] = []
    values: dict[str, Any] = {}
    for name, text in params.items():
        if name not in ALL_PARAMS:
            errors.append(f"unknown parameter '{name[:30]}'")
            continue
        try:
            values[name] = _parse_one(name, str(text))
        except AttentionInputError as error:
            errors.append(f"{name}: {error}")
    config_values = {k: v for k, v in values.items() if k in CONFIG_PARAMS}
    config = base.config
    if config_values:
        try:
            config = base.config.replace(**config_values)
        except AttentionInputError as error:
            errors.append(str(error))
    other = {k: v for k, v in values.items() if k not in CONFIG_PARAMS}
    current = {f.name: getattr(base, f.name) for f in fields(base)}
    current.update(other, config=config)
    return Settings(**current), errors


def _parse_one(name: str, text: str) -> Any:
    if name in INT_PARAMS:
        return parse_int(text, name, *INT_PARAMS[name])
    if name in ("num_tokens", "query"):
        return parse_int(text, name, 1, MAX_TOKENS)
    if name == "d_in":
        return parse_int(text, name, 1, MAX_DIMS)
    if name == "dropout":
        value = parse_number(text, name, limit=1.0)
        if not 0.0 <= value < 1.0:
            raise AttentionInputError(f"must satisfy 0 <= p < 1, not {text.strip()}")
        return value
    if name == "train":
        return parse_bool(text, name)
    if name == "tokens":
        return parse_tokens(text)
    if name == "x":
        return parse_matrix(text)
    if name == "preset":
        if text not in PRESETS:
            raise AttentionInputError(f"must be one of {', '.join(PRESETS)}; got {text[:20]!r}")
        return text
    return text  # a choice: the config validates it and names the allowed values


def build_embeddings(settings: Settings) -> Embeddings:
    """The embeddings the settings describe: an explicit ``x`` wins over the preset's matrix."""
    if settings.x is None:
        embeddings = preset_embeddings(
            settings.preset, settings.config.seed, settings.num_tokens, settings.d_in
        )
        if settings.tokens is None:
            return embeddings
        rows = embeddings.as_rows()
    else:
        rows = settings.x
    tokens = settings.tokens
    if tokens is None:
        preset_tokens = preset_embeddings(settings.preset, settings.config.seed).tokens
        same = settings.preset != "random" and len(preset_tokens) == len(rows)
        tokens = preset_tokens if same else tuple(f"t{i + 1}" for i in range(len(rows)))
    if len(tokens) != len(rows):
        raise AttentionInputError(
            f"tokens: {len(tokens)} labels for {len(rows)} rows of the matrix; give one per row"
        )
    return make_embeddings(tokens, rows)


def check_query(settings: Settings, num_tokens: int) -> int:
    """The focused query as a 0-based index, checked against the number of tokens."""
    if not 1 <= settings.query <= num_tokens:
        raise AttentionInputError(
            f"query must be between 1 and {num_tokens} (one of the tokens), not {settings.query}"
        )
    return settings.query - 1
