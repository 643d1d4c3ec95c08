"""``CachedEmbedder``: every passage vector kept on disk, keyed by the model and the text's hash.

Embedding is nearly all of an ingestion's time on a CPU. A re-ingest of the same files, a new
version whose pages are mostly unchanged, or a rebuilt index embeds the same passages again;
with the cache those cost a SQLite read. The key is the SHA-256 of the text under a label naming
the model, its prefix, its dimension and what runs it (an e5 kernel and, for the int8 graph, its
form: their vectors differ slightly), so a changed passage, another model or a data folder switched
to another kernel never gets a stale vector. Vectors are stored as float32 (what the index keeps).
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ragspine.errors import ProviderUnavailableError
from ragspine.llm.ports import Embedder
from ragspine.sqlite_local import ThreadLocalSqlite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    model TEXT NOT NULL,
    text_sha256 BLOB NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, text_sha256)
) WITHOUT ROWID
"""
_LOOKUP_BATCH = 500  # keys per SELECT (below SQLite's bound-parameter limit)


def model_label(embedder: Embedder) -> str:
    """What makes two vectors of one text interchangeable: model name, prefix (e5), dimension and kernel."""
    prefix = getattr(embedder, "prefix", None)
    kernel = getattr(embedder, "kernel_label", None)  # e5: engine, blas or the int8 graph's form
    label = f"{embedder.name}|{prefix if prefix is not None else '-'}|{embedder.dimension}"
    return f"{label}|{kernel}" if kernel is not None else label


class CachedEmbedder:
    """An ``Embedder`` serving known texts from a SQLite file and embedding (then storing) the rest.

    Attributes:
        hits: texts served from the file since creation.
        misses: texts the inner embedder computed since creation.
    """

    def __init__(self, inner: Embedder, path: Path | str) -> None:
        self.inner = inner
        self.name = inner.name
        self.dimension = inner.dimension
        self.label = model_label(inner)
        self._db = ThreadLocalSqlite(path, label="vector cache")
        self._schema_lock = threading.Lock()
        self._ready = False
        self.hits = 0
        self.misses = 0

    def close(self) -> None:
        """Close every thread's connection."""
        self._db.close()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order; only texts never embedded by this model reach it.

        Raises:
            ProviderUnavailableError: the inner embedder failed, or the cache file cannot be used.
        """
        keys = [hashlib.sha256(text.encode("utf-8")).digest() for text in texts]
        known = self._lookup(set(keys))
        missing = list(dict.fromkeys(k for k in keys if k not in known))
        if missing:
            by_key = dict(zip(keys, texts, strict=True))
            fresh = self.inner.embed([by_key[k] for k in missing])
            stored = {k: np.asarray(v, dtype=np.float32) for k, v in zip(missing, fresh, strict=True)}
            self._store(stored)
            known.update(stored)
        self.misses += len(missing)
        self.hits += len(texts) - len(missing)
        return [known[k].tolist() for k in keys]

    def _conn(self) -> sqlite3.Connection:
        conn = self._db.connection()
        if not self._ready:
            with self._schema_lock:
                try:
                    conn.execute(_SCHEMA)
                    conn.commit()
                except sqlite3.Error as exc:
                    raise ProviderUnavailableError(f"the vector cache cannot be created ({exc})") from exc
                self._ready = True
        return conn

    def _lookup(self, keys: set[bytes]) -> dict[bytes, np.ndarray]:
        conn = self._conn()
        found: dict[bytes, np.ndarray] = {}
        ordered = list(keys)
        try:
            for start in range(0, len(ordered), _LOOKUP_BATCH):
                block = ordered[start:start + _LOOKUP_BATCH]
                marks = ",".join("?" * len(block))
                sql = f"SELECT text_sha256, vector FROM vectors WHERE model=? AND text_sha256 IN ({marks})"
                rows = conn.execute(sql, (self.label, *block)).fetchall()
                for key, blob in rows:
                    vector = np.frombuffer(blob, dtype=np.float32)
                    if vector.shape == (self.dimension,):  # a truncated row is embedded again, not served
                        found[bytes(key)] = vector
        except sqlite3.Error as exc:
            raise ProviderUnavailableError(f"the vector cache cannot be read ({exc})") from exc
        return found

    def _store(self, vectors: dict[bytes, np.ndarray]) -> None:
        conn = self._conn()
        try:
            with conn:
                conn.executemany("INSERT OR REPLACE INTO vectors (model, text_sha256, vector) VALUES (?, ?, ?)",
                                 [(self.label, key, vector.tobytes()) for key, vector in vectors.items()])
        except sqlite3.Error as exc:
            raise ProviderUnavailableError(f"the vector cache cannot be written ({exc})") from exc
