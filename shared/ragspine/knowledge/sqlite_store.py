"""``SqliteKnowledgeStore``: the embedded Gateway store in ``knowledge.db`` (one connection per thread).

A ``Change`` is one ``BEGIN IMMEDIATE`` transaction: the conditional updates
(``WHERE version = ?``) and inserts commit together or not at all, so of two concurrent
mutations with the same expected version exactly one wins.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ragspine.errors import ConflictError
from ragspine.knowledge.codec import dump, load
from ragspine.knowledge.identity import StoredToken
from ragspine.knowledge.model import AuditEntry, Document, FileResource, GatewayOperation, Grant, Space, Version
from ragspine.knowledge.ports import Change
from ragspine.sqlite_local import ThreadLocalSqlite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS space (id TEXT PRIMARY KEY, code TEXT NOT NULL UNIQUE, version INTEGER NOT NULL,
                                  body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS document (id TEXT PRIMARY KEY, space_id TEXT NOT NULL, lock_version INTEGER NOT NULL,
                                     created_at TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS document_by_space ON document (space_id, created_at);
CREATE TABLE IF NOT EXISTS version (id TEXT PRIMARY KEY, document_id TEXT NOT NULL, number INTEGER NOT NULL,
                                    body TEXT NOT NULL, UNIQUE (document_id, number));
CREATE TABLE IF NOT EXISTS gw_operation (id TEXT PRIMARY KEY, space_id TEXT NOT NULL, root_id TEXT NOT NULL,
                                         retry_no INTEGER NOT NULL, created_at TEXT NOT NULL, body TEXT NOT NULL,
                                         UNIQUE (root_id, retry_no));
CREATE INDEX IF NOT EXISTS gw_operation_by_root ON gw_operation (root_id, created_at);
CREATE INDEX IF NOT EXISTS gw_operation_by_space ON gw_operation (space_id, created_at);
CREATE TABLE IF NOT EXISTS file_resource (id TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS access_grant (space_id TEXT NOT NULL, principal_type TEXT NOT NULL,
                                         principal TEXT NOT NULL, body TEXT NOT NULL,
                                         PRIMARY KEY (space_id, principal_type, principal));
CREATE TABLE IF NOT EXISTS service_token (token_id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, salt TEXT NOT NULL,
                                          digest TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL);
"""
_STALE = "the resource changed since it was read: read it again and retry with its current version"


class SqliteKnowledgeStore:
    """The embedded ``KnowledgeStore``."""

    def __init__(self, path: Path | str) -> None:
        self._db = ThreadLocalSqlite(path, label="knowledge database")
        with self._db.connection() as conn:
            conn.executescript(_SCHEMA)

    def _conn(self) -> sqlite3.Connection:
        return self._db.connection()

    def close(self) -> None:
        """Close every thread's connection."""
        self._db.close()

    # --- unit of work ---------------------------------------------------------------------

    def commit(self, change: Change) -> None:
        """Write ``change`` in one immediate transaction; a stale version or a duplicate rolls it all back."""
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            if change.space is not None:
                self._write_space(conn, change.space, change.space_expected)
            if change.document is not None:
                self._write_document(conn, change.document, change.document_expected)
            for version in change.versions:
                conn.execute("INSERT OR REPLACE INTO version (id, document_id, number, body) VALUES (?, ?, ?, ?)",
                             (version.id, version.document_id, version.number, dump(version)))
            for operation in change.operations:
                conn.execute("INSERT INTO gw_operation (id, space_id, root_id, retry_no, created_at, body) "
                             "VALUES (?, ?, ?, ?, ?, ?)", (operation.id, operation.space_id, operation.root_id,
                                                           operation.retry_no, operation.created_at.isoformat(),
                                                           dump(operation)))
        except sqlite3.IntegrityError as exc:
            conn.rollback()
            raise ConflictError("a resource with this id or code already exists: choose another code") from exc
        except BaseException:
            conn.rollback()
            raise
        conn.commit()

    @staticmethod
    def _write_space(conn: sqlite3.Connection, space: Space, expected: int | None) -> None:
        if expected is None:
            conn.execute("INSERT INTO space (id, code, version, body) VALUES (?, ?, ?, ?)",
                         (space.id, space.code, space.version, dump(space)))
            return
        updated = conn.execute("UPDATE space SET version = ?, body = ? WHERE id = ? AND version = ?",
                               (space.version, dump(space), space.id, expected))
        if not updated.rowcount:
            raise ConflictError(_STALE)

    @staticmethod
    def _write_document(conn: sqlite3.Connection, document: Document, expected: int | None) -> None:
        if expected is None:
            conn.execute("INSERT INTO document (id, space_id, lock_version, created_at, body) VALUES (?, ?, ?, ?, ?)",
                         (document.id, document.space_id, document.lock_version, document.created_at.isoformat(),
                          dump(document)))
            return
        updated = conn.execute("UPDATE document SET lock_version = ?, body = ? WHERE id = ? AND lock_version = ?",
                               (document.lock_version, dump(document), document.id, expected))
        if not updated.rowcount:
            raise ConflictError(_STALE)

    # --- reads ----------------------------------------------------------------------------

    def _one(self, sql: str, key: str) -> str | None:
        row = self._conn().execute(sql, (key,)).fetchone()
        return str(row[0]) if row else None

    def space(self, space_id: str) -> Space | None:
        """The space with this id, or None."""
        body = self._one("SELECT body FROM space WHERE id = ?", space_id)
        return load(Space, body) if body else None

    def spaces(self) -> list[Space]:
        """Every space, oldest first."""
        rows = self._conn().execute("SELECT body FROM space").fetchall()
        return sorted((load(Space, r[0]) for r in rows), key=lambda s: (s.created_at, s.id))

    def document(self, document_id: str) -> Document | None:
        """The document with this id, or None."""
        body = self._one("SELECT body FROM document WHERE id = ?", document_id)
        return load(Document, body) if body else None

    def documents(self, space_id: str) -> list[Document]:
        """The documents of a space, oldest first."""
        rows = self._conn().execute("SELECT body FROM document WHERE space_id = ? ORDER BY created_at, id",
                                    (space_id,)).fetchall()
        return [load(Document, r[0]) for r in rows]

    def version(self, version_id: str) -> Version | None:
        """The version with this id, or None."""
        body = self._one("SELECT body FROM version WHERE id = ?", version_id)
        return load(Version, body) if body else None

    def versions(self, document_id: str) -> list[Version]:
        """The versions of a document, by number."""
        rows = self._conn().execute("SELECT body FROM version WHERE document_id = ? ORDER BY number",
                                    (document_id,)).fetchall()
        return [load(Version, r[0]) for r in rows]

    def operation(self, operation_id: str) -> GatewayOperation | None:
        """The Gateway operation with this id, or None."""
        body = self._one("SELECT body FROM gw_operation WHERE id = ?", operation_id)
        return load(GatewayOperation, body) if body else None

    def operations(self, *, space_id: str | None = None, root_id: str | None = None) -> list[GatewayOperation]:
        """Operations of a space or of one root, oldest first."""
        column, key = ("root_id", root_id) if root_id is not None else ("space_id", space_id)
        rows = self._conn().execute(f"SELECT body FROM gw_operation WHERE {column} = ? ORDER BY created_at, id",
                                    (key,)).fetchall()
        return [load(GatewayOperation, r[0]) for r in rows]

    def save_operation(self, operation: GatewayOperation) -> None:
        """Replace a Gateway operation's body."""
        with self._conn() as conn:
            conn.execute("UPDATE gw_operation SET body = ? WHERE id = ?", (dump(operation), operation.id))

    # --- file resources, grants, tokens, audit --------------------------------------------

    def put_file(self, resource: FileResource) -> None:
        """Store or replace a file resource."""
        with self._conn() as conn:
            conn.execute("INSERT OR REPLACE INTO file_resource (id, body) VALUES (?, ?)", (resource.id, dump(resource)))

    def file(self, resource_id: str) -> FileResource | None:
        """The file resource with this id, or None."""
        body = self._one("SELECT body FROM file_resource WHERE id = ?", resource_id)
        return load(FileResource, body) if body else None

    def put_grant(self, grant: Grant) -> None:
        """Store a grant (replacing the same principal's actions in that space)."""
        with self._conn() as conn:
            conn.execute("INSERT OR REPLACE INTO access_grant (space_id, principal_type, principal, body) "
                         "VALUES (?, ?, ?, ?)", (grant.space_id, grant.principal_type.value, grant.principal,
                                                 dump(grant)))

    def delete_grant(self, space_id: str, principal_type: str, principal: str) -> bool:
        """Remove a grant; whether it existed."""
        with self._conn() as conn:
            return bool(conn.execute("DELETE FROM access_grant WHERE space_id = ? AND principal_type = ? AND "
                                     "principal = ?", (space_id, principal_type, principal)).rowcount)

    def grants(self, space_id: str | None = None) -> list[Grant]:
        """Grants of a space and of every space (``*``), or all."""
        if space_id is None:
            rows = self._conn().execute("SELECT body FROM access_grant ORDER BY space_id, principal").fetchall()
        else:
            rows = self._conn().execute("SELECT body FROM access_grant WHERE space_id IN (?, '*')",
                                        (space_id,)).fetchall()
        return [load(Grant, r[0]) for r in rows]

    def put_token(self, token: StoredToken) -> None:
        """Store a token record; a second token of the same name is a conflict."""
        try:
            with self._conn() as conn:
                conn.execute("INSERT INTO service_token (token_id, name, salt, digest) VALUES (?, ?, ?, ?)",
                             (token.token_id, token.name, token.salt, token.digest))
        except sqlite3.IntegrityError as exc:
            raise ConflictError(f"a service token named {token.name!r} exists: choose another name") from exc

    def token(self, token_id: str) -> StoredToken | None:
        """The token record with this id, or None."""
        row = self._conn().execute("SELECT token_id, name, salt, digest FROM service_token WHERE token_id = ?",
                                   (token_id,)).fetchone()
        return StoredToken(*row) if row else None

    def append_audit(self, entry: AuditEntry) -> None:
        """Record one audited request."""
        with self._conn() as conn:
            conn.execute("INSERT INTO audit (body) VALUES (?)", (dump(entry),))

    def audit(self, *, limit: int) -> list[AuditEntry]:
        """The latest entries, oldest first."""
        rows = self._conn().execute("SELECT body FROM audit ORDER BY seq DESC LIMIT ?", (limit,)).fetchall()
        return [load(AuditEntry, r[0]) for r in reversed(rows)]
