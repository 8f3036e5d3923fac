"""Settings: every knob's value with the token labels and the matrix they apply to, and the
book's defaults. Reading them from a link is ``links``; bringing them into range, ``settle``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from attention_core.config import AttentionConfig, Matrix
from attention_core.embeddings import Embeddings, make_embeddings, preset_embeddings
from attention_core.errors import AttentionInputError
from attention_core.knobs.table import CONFIG_PARAMS, DEFAULTS, PARAMS
from translation import _

MATRIX_PARAMS = ("tokens", "x")  # the embedding matrix and its labels: Settings.tokens/rows


SCALARS = tuple(name for name in PARAMS if name not in MATRIX_PARAMS)


@dataclass(frozen=True)
class Notice:
    """One problem with a value (``problem``) and the value used instead (``used``, if any).

    ``param`` names the knob. Both texts may repeat what a person typed: show them as text.
    """

    param: str
    problem: str
    used: str = ""

    @property
    def message(self) -> str:
        """The problem and, when there is one, the value used instead."""
        if not self.used:
            return self.problem
        return _("{problem}; using {used}").format(problem=self.problem, used=self.used)


def frozen_values(values: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only copy of ``values`` (a Settings holds nothing that can change)."""
    return MappingProxyType(dict(values))


@dataclass(frozen=True)
class Settings:
    """Every knob's value, and the token labels and embedding matrix they apply to."""

    values: Mapping[str, Any] = field(default_factory=lambda: frozen_values(_scalar_defaults()))
    tokens: tuple[str, ...] = ()
    rows: Matrix = ()

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def replace(self, **changes: Any) -> Settings:
        """A copy with some values (or ``tokens``/``rows``) changed; not validated here."""
        tokens = changes.pop("tokens", self.tokens)
        rows = changes.pop("rows", self.rows)
        unknown = set(changes) - set(SCALARS)
        if unknown:
            raise AttentionInputError(_("unknown setting: {name}").format(name=sorted(unknown)[0]))
        return Settings(frozen_values({**self.values, **changes}), tuple(tokens), tuple(rows))

    @property
    def num_tokens(self) -> int:
        """Number of tokens (rows of the matrix)."""
        return len(self.rows)

    @property
    def d_in(self) -> int:
        """Numbers per token (columns of the matrix)."""
        return len(self.rows[0]) if self.rows else 0

    @property
    def query_index(self) -> int:
        """The focused token, 0-based."""
        return int(self.values["query"]) - 1

    def config(self) -> AttentionConfig:
        """The attention config these settings describe (validated)."""
        return AttentionConfig(**{name: self.values[name] for name in CONFIG_PARAMS})

    def embeddings(self) -> Embeddings:
        """The token labels and matrix as validated embeddings."""
        return make_embeddings(self.tokens, self.rows)


def _scalar_defaults() -> dict[str, Any]:
    return {name: DEFAULTS[name] for name in SCALARS}


def preset_matrix(values: Mapping[str, Any]) -> tuple[tuple[str, ...], Matrix]:
    """The labels and rows of the preset the values name (seeded presets use ``seed``)."""
    return _preset_matrix(values["preset"], values["seed"], values["num_tokens"], values["d_in"])


@functools.lru_cache(maxsize=256)
def _preset_matrix(
    preset: str, seed: int, num_tokens: int, d_in: int
) -> tuple[tuple[str, ...], Matrix]:
    """Computed once per preset: every link written and every page run asks for it (tuples,
    so the cached value cannot be changed by a caller)."""
    embeddings = preset_embeddings(preset, seed, num_tokens, d_in)
    return embeddings.tokens, embeddings.as_rows()


def default_settings() -> Settings:
    """The book's defaults: "Your journey starts with one step"."""
    values = _scalar_defaults()
    tokens, rows = preset_matrix(values)
    return Settings(frozen_values(values), tokens, rows)
