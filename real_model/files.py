"""Installed data packages: find their folders and verify their files by SHA-256."""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Mapping
from pathlib import Path

from translation import ENGLISH, N_, _, speaking


class Message:
    """An error's words, put into the reader's language each time they are read (``str``).

    A failure to load the model is remembered for every session of the server
    (``real_model.shared``), so its message keeps its English text (marked with ``N_``) and its
    values, not the words of whichever session met it first. A value may be a ``Message`` too.
    """

    __slots__ = ("text", "values")

    def __init__(self, text: str, **values: object) -> None:
        self.text = text
        self.values = values

    def __str__(self) -> str:
        return _(self.text).format(**self.values)

    def __repr__(self) -> str:
        return repr(str(self))

    def english(self) -> str:
        """The words in English, whatever the reader's language (a record kept for all)."""
        with speaking(ENGLISH):
            return str(self)


class DataFileError(RuntimeError):
    """A data file is missing or differs from the one recorded; the message (a ``Message``)
    names the file."""


def package_folder(module: str, pip_name: str, subfolder: str) -> Path:
    """The folder ``subfolder`` inside an installed package, found without importing it.

    Raises:
        DataFileError: when the package is not installed.
    """
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise DataFileError(
            Message(
                N_(
                    "the package {pip_name} is not installed: run python -m pip install -r "
                    "requirements.txt"
                ),
                pip_name=pip_name,
            )
        )
    return Path(next(iter(spec.submodule_search_locations))) / subfolder


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file's bytes, as 64 hex digits (read in blocks, not held in memory)."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def verify_files(folder: Path, expected: Mapping[str, str], what: str) -> None:
    """Check that every file named in ``expected`` is in ``folder`` with the recorded SHA-256.

    Args:
        folder: where the files are.
        expected: file name (relative to ``folder``) -> SHA-256 in hex.
        what: the data set's name, used in the message.

    Raises:
        DataFileError: naming the first missing or different file.
    """
    for name, digest in expected.items():
        path = folder / name
        if not path.is_file():
            raise DataFileError(
                Message(
                    N_("{what}: the file {path} is missing; reinstall the package"),
                    what=what,
                    path=path,
                )
            )
        actual = sha256_of(path)
        if actual != digest:
            raise DataFileError(
                Message(
                    N_(
                        "{what}: the file {path} has SHA-256 {actual}…, not the recorded "
                        "{digest}…; it was changed or corrupted, reinstall the package "
                        "(python -m pip install --force-reinstall -r requirements.txt)"
                    ),
                    what=what,
                    path=path,
                    actual=actual[:12],
                    digest=digest[:12],
                )
            )
