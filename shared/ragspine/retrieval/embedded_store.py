"""The SQLite file behind ``EmbeddedChunkIndex``: schema, writes, and the rows readers load.

Layout (one file, WAL): ``chunks`` holds each chunk's filter columns, its BM25 term counts
(a blob of little-endian uint32 ``(term id, count)`` pairs), its unit float32 vector and the
whole chunk as JSON; ``vocab`` maps tokens to stable term ids (append-only, so an id never
changes meaning); ``index_meta`` holds the schema tag, the vector dimension and two write
counters, which is how readers notice new data: ``generation`` (rows added, deleted or
relabelled: a reader reloads everything) and ``vectors`` (vectors given to stored rows: each
such row records the counter's value in ``vector_seq``, so a reader loads only those rows).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from ragspine.retrieval.errors import IndexCorruptError, IndexUnavailableError
from ragspine.retrieval.model import Chunk, ChunkLabels
from ragspine.sensitivity import Sensitivity
from ragspine.sqlite_local import ThreadLocalSqlite

SCHEMA_TAG = "ragspine-chunks/1"
TAG_SEPARATOR = "\x1f"  # unit separator: cannot occur in a tag typed by a person
# Prefix of a document-field term in ``vocab`` (record separator: no tokenizer emits it), so a
# word of the title or context has an id apart from the same word in a passage.
DOCUMENT_FIELD_MARK = "\x1e"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS vocab (id INTEGER PRIMARY KEY, token TEXT NOT NULL UNIQUE) STRICT;
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY,
    chunk_id TEXT NOT NULL UNIQUE CHECK (length(chunk_id) > 0),
    doc_id TEXT NOT NULL CHECK (length(trim(doc_id)) > 0),
    version_id TEXT,
    source_locator TEXT NOT NULL CHECK (length(trim(source_locator)) > 0),
    searchable INTEGER NOT NULL,
    sensitivity INTEGER NOT NULL,
    library TEXT NOT NULL,
    entity TEXT, period TEXT, space_id TEXT, document_id TEXT, category TEXT,
    tags TEXT NOT NULL,
    n_tokens INTEGER NOT NULL,
    terms BLOB NOT NULL,
    vector BLOB,
    payload TEXT NOT NULL,
    version_label TEXT, product_code TEXT,
    vector_seq INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS chunks_by_doc ON chunks (doc_id, version_id);
CREATE INDEX IF NOT EXISTS chunks_by_document ON chunks (document_id);
CREATE INDEX IF NOT EXISTS chunks_by_vector_seq ON chunks (vector_seq);
"""
# Columns added after schema 1 shipped: an older file gets them on open (ALTER TABLE ADD COLUMN).
_ADDED_COLUMNS = {"version_label": "TEXT", "product_code": "TEXT", "vector_seq": "INTEGER"}

# Columns a snapshot loads, in this order (see EmbeddedSnapshot.build).
SNAPSHOT_COLUMNS = ("id", "sensitivity", "n_tokens", "library", "doc_id", "version_id", "entity", "period",
                    "space_id", "document_id", "category", "tags", "terms", "vector", "version_label", "product_code")
_INSERT = (
    "INSERT OR REPLACE INTO chunks (chunk_id, doc_id, version_id, source_locator, searchable, sensitivity, "
    "library, entity, period, space_id, document_id, category, tags, n_tokens, terms, vector, payload, "
    f"version_label, product_code) VALUES ({', '.join('?' * 19)})"
)
_CHUNK_FIELDS = tuple(f.name for f in fields(Chunk))
_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26  # primary result codes: the file itself is bad


def translate(exc: sqlite3.Error, path: str) -> IndexUnavailableError:
    """Map a sqlite3 error to ours by its result code (never by its message)."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB) or type(exc) is sqlite3.DatabaseError:
        return IndexCorruptError(f"the chunk index {path} is corrupt or not a chunk index; rebuild it")
    return IndexUnavailableError(f"the chunk index {path} cannot be read right now: {type(exc).__name__}")


def encode_chunk(chunk: Chunk) -> str:
    """The chunk as compact JSON (enums by name, tuples as lists)."""
    # Not dataclasses.asdict: its recursive deep copy was a fifth of the indexing time.
    data: dict[str, Any] = {name: getattr(chunk, name) for name in _CHUNK_FIELDS}
    data["sensitivity"] = chunk.sensitivity.name
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def decode_chunk(payload: str) -> Chunk:
    """The inverse of ``encode_chunk``."""
    data: dict[str, Any] = json.loads(payload)
    data["sensitivity"] = Sensitivity[data["sensitivity"]]
    data["heading_path"] = tuple(data["heading_path"])
    data["tags"] = tuple(data["tags"])
    return Chunk(**data)


class ChunkStore:
    """One SQLite file; a connection per thread, WAL so readers never wait for the writer."""

    def __init__(self, path: Path, *, timeout: float) -> None:
        self.path = str(path)
        self._timeout = timeout
        self._db = ThreadLocalSqlite(path, label="chunk index", timeout=timeout, isolation_level=None,
                                     owns_folder=False)
        self.write_lock = threading.Lock()  # one writer per process; SQLite serialises processes
        self._vocab: dict[str, int] = {}  # committed token ids only (ids are immutable)
        self.full_loads = 0  # how many times ``load`` read every row (vector-only writes should not need it)
        self.catalog_reads = 0  # how many times ``documents`` read every document's context
        with self.translated():
            self._open_schema()

    @contextmanager
    def translated(self) -> Iterator[None]:
        """Re-raise sqlite3 errors as typed index errors."""
        try:
            yield
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc

    def conn(self) -> sqlite3.Connection:
        """This thread's connection (autocommit: transactions are explicit)."""
        return self._db.connection()

    def _open_schema(self) -> None:
        conn = self.conn()
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and "index_meta" not in tables:
            raise IndexCorruptError(f"{self.path} is a SQLite file but not a chunk index")
        if "chunks" in tables:
            present = {row[1] for row in conn.execute("PRAGMA table_info(chunks)")}
            for column, kind in _ADDED_COLUMNS.items():
                if column not in present:
                    conn.execute(f"ALTER TABLE chunks ADD COLUMN {column} {kind}")
        conn.executescript(_SCHEMA)
        conn.execute("INSERT OR IGNORE INTO index_meta VALUES ('schema', ?), ('generation', '0'), "
                     "('vectors', '0')", (SCHEMA_TAG,))
        if self.meta("schema") != SCHEMA_TAG:
            raise IndexCorruptError(f"{self.path} has schema {self.meta('schema')!r}, expected {SCHEMA_TAG!r}")

    def meta(self, key: str) -> str | None:
        """One value of ``index_meta``."""
        row = self.conn().execute("SELECT value FROM index_meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    @contextmanager
    def write(self, *, counter: str = "generation") -> Iterator[sqlite3.Connection]:
        """A write transaction that bumps ``counter`` (``generation`` or ``vectors``); rolled back on any error."""
        with self.write_lock, self.translated():
            conn = self.conn()
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("UPDATE index_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = ?", (counter,))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def term_ids(self, conn: sqlite3.Connection, tokens: set[str]) -> tuple[dict[str, int], dict[str, int]]:
        """Ids for ``tokens`` inside the caller's write transaction: (all ids, newly assigned).

        New ids enter the shared cache only after commit (``remember``), so a rolled-back
        batch can never leave an id in the cache that the file does not have.
        """
        found = {token: self._vocab[token] for token in tokens if token in self._vocab}
        missing = [token for token in tokens if token not in found]
        for start in range(0, len(missing), 500):  # stays under SQLite's bound-parameter limit
            group = missing[start:start + 500]
            sql = f"SELECT token, id FROM vocab WHERE token IN ({', '.join('?' * len(group))})"
            found.update(conn.execute(sql, group).fetchall())
        fresh = [token for token in missing if token not in found]
        next_id = int(conn.execute("SELECT coalesce(max(id), 0) + 1 FROM vocab").fetchone()[0])
        new = {token: next_id + i for i, token in enumerate(fresh)}
        conn.executemany("INSERT INTO vocab (id, token) VALUES (?, ?)", ((i, t) for t, i in new.items()))
        found.update(new)
        return found, {t: found[t] for t in missing}

    def remember(self, ids: dict[str, int]) -> None:
        """Cache committed token ids for later writes."""
        self._vocab.update(ids)

    def insert(self, conn: sqlite3.Connection, rows: Sequence[tuple[object, ...]]) -> None:
        """Insert or replace chunk rows (tuples in ``_INSERT`` column order)."""
        conn.executemany(_INSERT, rows)

    def lookup_terms(self, tokens: Sequence[str]) -> list[int]:
        """Term ids of the query tokens the vocabulary knows (unknown tokens cannot match)."""
        found: list[int] = []
        with self.translated():
            for start in range(0, len(tokens), 500):  # under SQLite's bound-parameter limit (999 before 3.32)
                group = list(tokens[start:start + 500])
                sql = f"SELECT id FROM vocab WHERE token IN ({', '.join('?' * len(group))})"
                found.extend(int(row[0]) for row in self.conn().execute(sql, group))
        return found

    def fetch(self, row_ids: Sequence[int]) -> dict[int, Chunk]:
        """Chunks by row id (rows deleted since the snapshot are simply absent)."""
        if not row_ids:
            return {}
        sql = f"SELECT id, payload FROM chunks WHERE id IN ({', '.join('?' * len(row_ids))})"
        with self.translated():
            return {int(i): decode_chunk(p) for i, p in self.conn().execute(sql, list(row_ids))}

    def get(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """Chunks by chunk id, in the order asked; unknown ids are skipped."""
        if not chunk_ids:
            return []
        unique = list(dict.fromkeys(chunk_ids))
        sql = f"SELECT chunk_id, payload FROM chunks WHERE chunk_id IN ({', '.join('?' * len(unique))})"
        with self.translated():
            found = {str(c): p for c, p in self.conn().execute(sql, unique)}
        return [decode_chunk(found[c]) for c in chunk_ids if c in found]

    def documents(self) -> list[tuple[str, str | None, str | None]]:
        """``(doc_id, company, doc_period)`` of every document with a searchable chunk, each once."""
        # One row per document: the context is the same on all its chunks (set at indexing).
        self.catalog_reads += 1
        sql = ("SELECT doc_id, json_extract(payload, '$.company'), json_extract(payload, '$.doc_period') "
               "FROM chunks WHERE searchable = 1 GROUP BY doc_id ORDER BY doc_id")
        with self.translated():
            return [(str(d), c, p) for d, c, p in self.conn().execute(sql)]

    def generation(self) -> int:
        """The write counter; it changes whenever chunks are added or deleted."""
        with self.translated():
            return int(self.meta("generation") or 0)

    def counters(self) -> tuple[int, int]:
        """``(generation, vectors)``, read together: what a reader compares with its snapshot's."""
        with self.translated():
            found = dict(self.conn().execute(
                "SELECT key, CAST(value AS INTEGER) FROM index_meta WHERE key IN ('generation', 'vectors')"))
        return int(found.get("generation", 0)), int(found.get("vectors", 0))

    def load(self) -> tuple[tuple[int, int], list[tuple[Any, ...]], list[int]]:
        """The counters, every searchable row (``SNAPSHOT_COLUMNS``) and the document field's term ids.

        Read in one snapshot. The document field's terms are the vocabulary entries that start
        with ``DOCUMENT_FIELD_MARK`` (a range scan of the token index).
        """
        self.full_loads += 1
        sql = f"SELECT {', '.join(SNAPSHOT_COLUMNS)} FROM chunks WHERE searchable = 1 ORDER BY id"
        marked = (DOCUMENT_FIELD_MARK, chr(ord(DOCUMENT_FIELD_MARK) + 1))
        with self.translated():
            conn = self.conn()
            conn.execute("BEGIN")  # one read transaction: the counter, the rows and the terms agree
            try:
                counters = self.counters()
                rows = conn.execute(sql).fetchall()
                field_terms = [int(row[0]) for row in
                               conn.execute("SELECT id FROM vocab WHERE token >= ? AND token < ?", marked)]
            finally:
                conn.execute("COMMIT")
        return counters, rows, field_terms

    def vectors_since(self, seen: int) -> tuple[tuple[int, int], list[tuple[int, bytes]]]:
        """The counters and ``(row id, vector)`` of searchable rows given a vector after counter ``seen``."""
        # No ORDER BY: with it SQLite scans the whole table in id order instead of using the index.
        sql = "SELECT id, vector FROM chunks WHERE vector_seq > ? AND searchable = 1 AND vector IS NOT NULL"
        with self.translated():
            conn = self.conn()
            conn.execute("BEGIN")  # one read transaction: the counters and the rows agree
            try:
                counters = self.counters()
                rows = [(int(i), bytes(v)) for i, v in conn.execute(sql, (seen,))]
            finally:
                conn.execute("COMMIT")
        return counters, rows

    def delete(self, doc_id: str, version_id: str | None) -> int:
        """Remove a document's rows, or one version's; return how many."""
        with self.write() as conn:
            if version_id is None:
                return conn.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,)).rowcount
            return conn.execute("DELETE FROM chunks WHERE doc_id = ? AND version_id = ?",
                                (doc_id, version_id)).rowcount

    def relabel(self, document_id: str, labels: ChunkLabels) -> int:
        """Stamp ``labels`` on every row (children and parents) of a Gateway document, payload included."""
        with self.write() as conn:
            rows = conn.execute("SELECT id, payload FROM chunks WHERE document_id = ?", (document_id,)).fetchall()
            updates = []
            for row_id, payload in rows:
                chunk = replace(decode_chunk(payload), category=labels.category, tags=labels.tags,
                                version_label=labels.version_label, product_code=labels.product_code)
                updates.append((labels.category, TAG_SEPARATOR.join(labels.tags), labels.version_label,
                                labels.product_code, encode_chunk(chunk), row_id))
            conn.executemany("UPDATE chunks SET category = ?, tags = ?, version_label = ?, product_code = ?, "
                             "payload = ? WHERE id = ?", updates)
            return len(updates)

    def without_vectors(self, limit: int) -> list[Chunk]:
        """Up to ``limit`` searchable chunks that have no vector yet, oldest first."""
        sql = "SELECT payload FROM chunks WHERE searchable = 1 AND vector IS NULL ORDER BY id LIMIT ?"
        with self.translated():
            return [decode_chunk(p) for (p,) in self.conn().execute(sql, (limit,))]

    def count_without_vectors(self, doc_id: str | None, version_id: str | None) -> int:
        """Searchable chunks without a vector: all of them, a document's, or one version's."""
        sql, args = "SELECT count(*) FROM chunks WHERE searchable = 1 AND vector IS NULL", []
        if doc_id is not None:
            sql, args = sql + " AND doc_id = ?", [doc_id]
        if version_id is not None:
            sql, args = sql + " AND version_id = ?", [*args, version_id]
        with self.translated():
            return int(self.conn().execute(sql, args).fetchone()[0])

    def set_vectors(self, conn: sqlite3.Connection, pairs: Sequence[tuple[bytes, str]]) -> int:
        """Write ``(vector, chunk_id)`` pairs inside a ``write(counter="vectors")`` transaction.

        Each row records the ``vectors`` counter this transaction commits, so readers load
        only the rows written since their snapshot. Ids no longer stored are skipped.
        """
        seq = int(conn.execute("SELECT CAST(value AS INTEGER) + 1 FROM index_meta WHERE key = 'vectors'").fetchone()[0])
        return int(conn.executemany("UPDATE chunks SET vector = ?, vector_seq = ? WHERE chunk_id = ?",
                                    [(blob, seq, chunk_id) for blob, chunk_id in pairs]).rowcount)

    def count(self) -> int:
        """Number of stored rows (children and parents)."""
        with self.translated():
            return int(self.conn().execute("SELECT count(*) FROM chunks").fetchone()[0])

    def set_meta(self, conn: sqlite3.Connection, key: str, value: str) -> None:
        """Set one ``index_meta`` value inside the caller's write transaction."""
        conn.execute("INSERT OR REPLACE INTO index_meta VALUES (?, ?)", (key, value))

    def close(self) -> None:
        """Close every thread's connection."""
        self._db.close()
