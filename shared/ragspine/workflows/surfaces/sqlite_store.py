"""``SqliteWorkflowStore``: stored workflows and hashed API keys in one SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ragspine.sqlite_local import ThreadLocalSqlite
from ragspine.workflows.surfaces.errors import WorkflowConflictError, WorkflowNotFoundError
from ragspine.workflows.surfaces.records import ApiKeyRecord, StoredWorkflow, WorkflowPage

# The record column holds the whole workflow as JSON; the other columns exist to be queried.
# ``active_path`` is set only while a workflow is active, so the webhook lookup is one index probe.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS workflow (
    id TEXT PRIMARY KEY,
    version_id TEXT NOT NULL,
    active_path TEXT,
    record TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS workflow_by_active_path ON workflow (active_path) WHERE active_path IS NOT NULL;
CREATE TABLE IF NOT EXISTS api_key (
    key_id TEXT PRIMARY KEY,
    record TEXT NOT NULL
) STRICT;
"""


class SqliteWorkflowStore:
    """Workflows and API keys in a SQLite file; one connection per thread, WAL for concurrent readers."""

    def __init__(self, path: Path | str) -> None:
        self._db = ThreadLocalSqlite(path, label="workflow database")
        self._conn = self._db.connection
        self.path = self._db.path  # the run store shares the file (SqliteRunStore)
        with self._conn() as conn:
            conn.executescript(_SCHEMA)

    def close(self) -> None:
        """Close every thread's connection."""
        self._db.close()

    def create(self, workflow: StoredWorkflow) -> None:
        """Insert a new workflow; an existing id is a conflict."""
        try:
            with self._conn() as conn:
                conn.execute("INSERT INTO workflow (id, version_id, active_path, record) VALUES (?, ?, ?, ?)",
                             (workflow.id, workflow.version_id, workflow.active_path, workflow.dumps()))
        except sqlite3.IntegrityError as exc:
            raise WorkflowConflictError(f"a workflow with id {workflow.id} exists") from exc

    def replace(self, workflow: StoredWorkflow, *, expected_version: str) -> None:
        """Overwrite the workflow if its stored version is still ``expected_version``."""
        with self._conn() as conn:
            done = conn.execute("UPDATE workflow SET version_id = ?, active_path = ?, record = ? "
                                "WHERE id = ? AND version_id = ?",
                                (workflow.version_id, workflow.active_path, workflow.dumps(), workflow.id,
                                 expected_version))
        if done.rowcount == 0:
            if self.get(workflow.id) is None:
                raise WorkflowNotFoundError(f"no workflow has the id {workflow.id}")
            raise WorkflowConflictError(f"workflow {workflow.id} changed since version {expected_version}")

    def get(self, workflow_id: str) -> StoredWorkflow | None:
        """The workflow with this id, or None."""
        row = self._conn().execute("SELECT record FROM workflow WHERE id = ?", (workflow_id,)).fetchone()
        return StoredWorkflow.loads(row[0]) if row else None

    def delete(self, workflow_id: str) -> StoredWorkflow | None:
        """Remove a workflow; return it, or None when it did not exist."""
        with self._conn() as conn:
            row = conn.execute("DELETE FROM workflow WHERE id = ? RETURNING record", (workflow_id,)).fetchone()
        return StoredWorkflow.loads(row[0]) if row else None

    def page(self, *, limit: int, after: str | None = None) -> WorkflowPage:
        """Up to ``limit`` workflows by id after ``after``; ``after`` of the result is set when more follow."""
        rows = self._conn().execute("SELECT id, record FROM workflow WHERE id > ? ORDER BY id LIMIT ?",
                                    (after or "", limit + 1)).fetchall()
        items = tuple(StoredWorkflow.loads(record) for _, record in rows[:limit])
        return WorkflowPage(items=items, after=items[-1].id if len(rows) > limit and items else None)

    def find_active(self, path: str) -> StoredWorkflow | None:
        """The active workflow listening on ``path`` (the first by id if several claim it)."""
        row = self._conn().execute("SELECT record FROM workflow WHERE active_path = ? ORDER BY id LIMIT 1",
                                   (path,)).fetchone()
        return StoredWorkflow.loads(row[0]) if row else None

    def put_key(self, record: ApiKeyRecord) -> None:
        """Store a key record (insert or replace)."""
        with self._conn() as conn:
            conn.execute("INSERT OR REPLACE INTO api_key (key_id, record) VALUES (?, ?)",
                         (record.key_id, record.dumps()))

    def get_key(self, key_id: str) -> ApiKeyRecord | None:
        """The key record with this id, or None."""
        row = self._conn().execute("SELECT record FROM api_key WHERE key_id = ?", (key_id,)).fetchone()
        return ApiKeyRecord.loads(row[0]) if row else None
