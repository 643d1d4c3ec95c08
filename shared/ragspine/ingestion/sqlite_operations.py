"""``SqliteOperationStore``: operations, staged step outputs and active versions in ``operations.db``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ragspine.errors import NotFoundError
from ragspine.ingestion.operation_codec import dump_operation, load_operation, with_times
from ragspine.ingestion.operations import ActiveVersion, Operation, OperationKey, check_transition, utcnow
from ragspine.sqlite_local import ThreadLocalSqlite

# A staged output is read in slices of this size (see ``get_staged``).
_READ_SLICE = 1 << 20
_SCHEMA = """
CREATE TABLE IF NOT EXISTS operation (
    id TEXT PRIMARY KEY,
    idem_key TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS operation_by_doc ON operation (doc, created_at);
CREATE TABLE IF NOT EXISTS staged (
    operation_id TEXT NOT NULL,
    name TEXT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (operation_id, name)
);
CREATE TABLE IF NOT EXISTS active_version (
    doc_id TEXT PRIMARY KEY,
    version_id TEXT NOT NULL,
    operation_id TEXT NOT NULL,
    extraction TEXT NOT NULL
);
"""


class SqliteOperationStore:
    """The embedded ``OperationStore`` and ``StagingArea``: one SQLite file, one connection per thread."""

    def __init__(self, path: Path | str) -> None:
        self._db = ThreadLocalSqlite(path, label="operations database")
        self._conn = self._db.connection
        with self._conn() as conn:
            conn.executescript(_SCHEMA)

    # --- OperationStore -------------------------------------------------------------------

    def create_or_get(self, key: OperationKey, draft: Operation) -> tuple[Operation, bool]:
        """Insert ``draft`` unless ``key`` exists (the UNIQUE key makes concurrent replays safe)."""
        now = utcnow()
        created = draft.created_at or now
        fresh = with_times(draft, created=created, updated=now)
        with self._conn() as conn:
            inserted = conn.execute(
                "INSERT OR IGNORE INTO operation (id, idem_key, doc, body, created_at) VALUES (?, ?, ?, ?, ?)",
                (fresh.id, key.text(), fresh.doc_id, dump_operation(fresh), created.isoformat()),
            ).rowcount
            row = conn.execute("SELECT body FROM operation WHERE idem_key = ?", (key.text(),)).fetchone()
        return load_operation(row[0]), bool(inserted)

    def get(self, operation_id: str) -> Operation | None:
        """The operation with this id, or None."""
        row = self._conn().execute("SELECT body FROM operation WHERE id = ?", (operation_id,)).fetchone()
        return load_operation(row[0]) if row else None

    def save(self, operation: Operation) -> Operation:
        """Replace the stored body, stamping ``updated_at``, if ``check_transition`` allows it.

        Raises:
            NotFoundError: no operation has this id (a save never creates one).
            OperationCancelledError, TooLateToCancelError: the transition is refused.
        """
        saved = with_times(operation, created=operation.created_at or utcnow(), updated=utcnow())
        with self._conn() as conn:
            conn.execute("BEGIN IMMEDIATE")  # the check and the write as one step, against a concurrent cancel
            row = conn.execute("SELECT body FROM operation WHERE id = ?", (saved.id,)).fetchone()
            if row is None:
                raise NotFoundError(f"no ingestion operation {operation.id}")
            check_transition(load_operation(row[0]), saved)
            conn.execute("UPDATE operation SET body = ? WHERE id = ?", (dump_operation(saved), saved.id))
        return saved

    def list_operations(self, *, doc_id: str | None = None) -> list[Operation]:
        """Operations oldest first, optionally of one document."""
        sql, args = "SELECT body FROM operation ORDER BY created_at, id", tuple[str, ...]()
        if doc_id is not None:
            sql, args = "SELECT body FROM operation WHERE doc = ? ORDER BY created_at, id", (doc_id,)
        return [load_operation(row[0]) for row in self._conn().execute(sql, args)]

    # --- StagingArea ----------------------------------------------------------------------

    def put(self, operation_id: str, name: str, data: bytes) -> None:
        """Store or replace one staged output."""
        with self._conn() as conn:
            conn.execute("INSERT OR REPLACE INTO staged (operation_id, name, data) VALUES (?, ?, ?)",
                         (operation_id, name, data))

    def get_staged(self, operation_id: str, name: str) -> bytes | None:
        """One staged output, or None.

        A large document's staged chunks are tens of megabytes. SQLite copies a column out when
        Python asks for it, with the interpreter lock held, so one read of the whole value kept the
        ask routes' threads waiting for all of it (hundreds of milliseconds); read in slices, the
        lock is free between them.
        """
        conn = self._conn()
        row = conn.execute("SELECT rowid, length(data) FROM staged WHERE operation_id = ? AND name = ?",
                           (operation_id, name)).fetchone()
        if row is None:
            return None
        rowid, size = row
        pieces: list[bytes] = []
        try:
            with conn.blobopen("staged", "data", rowid, readonly=True) as blob:
                for _ in range(0, size, _READ_SLICE):
                    pieces.append(blob.read(_READ_SLICE))
        except sqlite3.Error:  # replaced or removed while it was read: read what is there now, whole
            whole = conn.execute("SELECT data FROM staged WHERE operation_id = ? AND name = ?",
                                 (operation_id, name)).fetchone()
            return bytes(whole[0]) if whole else None
        return b"".join(pieces)

    def clear(self, operation_id: str) -> None:
        """Drop an operation's staged outputs."""
        with self._conn() as conn:
            conn.execute("DELETE FROM staged WHERE operation_id = ?", (operation_id,))

    def active(self, doc_id: str | None = None) -> list[ActiveVersion]:
        """Active versions of one document or of all, sorted by document id."""
        sql = "SELECT doc_id, version_id, operation_id, extraction FROM active_version"
        rows = (self._conn().execute(sql + " WHERE doc_id = ?", (doc_id,)) if doc_id is not None
                else self._conn().execute(sql + " ORDER BY doc_id"))
        return [ActiveVersion(*row) for row in rows]

    def activate(self, version: ActiveVersion) -> None:
        """Record ``version`` as its document's active version."""
        with self._conn() as conn:
            conn.execute("INSERT OR REPLACE INTO active_version (doc_id, version_id, operation_id, extraction) "
                         "VALUES (?, ?, ?, ?)",
                         (version.doc_id, version.version_id, version.operation_id, version.extraction))

    def close(self) -> None:
        """Close every thread's connection."""
        self._db.close()


class SqliteStagingArea:
    """The ``StagingArea`` view of a ``SqliteOperationStore`` (its ``get`` reads staged outputs)."""

    def __init__(self, store: SqliteOperationStore) -> None:
        self._store = store

    def put(self, operation_id: str, name: str, data: bytes) -> None:
        """Store or replace one staged output."""
        self._store.put(operation_id, name, data)

    def get(self, operation_id: str, name: str) -> bytes | None:
        """One staged output, or None."""
        return self._store.get_staged(operation_id, name)

    def clear(self, operation_id: str) -> None:
        """Drop an operation's staged outputs."""
        self._store.clear(operation_id)

    def active(self, doc_id: str | None = None) -> list[ActiveVersion]:
        """Active versions of one document or of all."""
        return self._store.active(doc_id)

    def activate(self, version: ActiveVersion) -> None:
        """Record ``version`` as its document's active version."""
        self._store.activate(version)
