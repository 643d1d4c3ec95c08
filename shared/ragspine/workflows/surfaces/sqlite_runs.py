"""``SqliteRunStore``: recorded workflow runs in SQLite (by default the same ``workflows.db``), with retention."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from ragspine.sqlite_local import ThreadLocalSqlite
from ragspine.workflows.surfaces.records import iso_utc
from ragspine.workflows.surfaces.run_records import RecordedStatus, RunPage, RunRecord, RunRetention

# ``seq`` numbers runs in start order (n8n's numeric execution id); AUTOINCREMENT never reuses a
# pruned number, so an old id cannot come back naming another run. ``owner`` leads both indexes:
# every read is scoped to one owner. The age index keeps each start's pruning an index probe.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS workflow_run (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL,
    workflow_id TEXT NOT NULL,
    status TEXT NOT NULL,
    task_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    record TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS workflow_run_by_owner ON workflow_run (owner, seq);
CREATE INDEX IF NOT EXISTS workflow_run_by_task ON workflow_run (task_id) WHERE task_id != '';
CREATE INDEX IF NOT EXISTS workflow_run_by_age ON workflow_run (created_at);
"""
_COLUMNS = "seq, record"


class SqliteRunStore:
    """Runs in a SQLite file; each new run prunes beyond ``retention`` (count, then age)."""

    def __init__(self, path: Path | str, *, retention: RunRetention | None = None) -> None:
        self._db = ThreadLocalSqlite(path, label="workflow run database")
        self._conn = self._db.connection
        self.retention = retention or RunRetention()
        with self._conn() as conn:
            conn.executescript(_SCHEMA)

    def close(self) -> None:
        """Close every thread's connection."""
        self._db.close()

    def start(self, run: RunRecord) -> RunRecord:
        """Insert a starting run, prune, and return it with its number."""
        cutoff = iso_utc(run.created_at - timedelta(days=self.retention.max_age_days))
        with self._conn() as conn:
            row = conn.execute("INSERT INTO workflow_run (id, owner, workflow_id, status, task_id, created_at, record)"
                               " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING seq",
                               (run.id, run.owner, run.workflow_id, run.status.value, run.task_id,
                                iso_utc(run.created_at), run.dumps())).fetchone()
            seq = int(row[0])
            conn.execute("DELETE FROM workflow_run WHERE seq <= ? OR created_at < ?",
                         (seq - self.retention.max_runs, cutoff))
        return RunRecord.loads(run.dumps(), seq=seq)

    def finish(self, run: RunRecord) -> bool:
        """Write the final state unless the stored run already left ``running``."""
        with self._conn() as conn:
            done = conn.execute("UPDATE workflow_run SET status = ?, record = ? WHERE id = ? AND status = ?",
                                (run.status.value, run.dumps(), run.id, RecordedStatus.RUNNING.value))
        return done.rowcount > 0

    def _one(self, where: str, *args: object) -> RunRecord | None:
        row = self._conn().execute(f"SELECT {_COLUMNS} FROM workflow_run WHERE {where}", args).fetchone()
        return RunRecord.loads(row[1], seq=int(row[0])) if row else None

    def get(self, run_id: str, *, owner: str) -> RunRecord | None:
        """The run with this id recorded for ``owner``."""
        return self._one("id = ? AND owner = ?", run_id, owner)

    def get_seq(self, seq: int, *, owner: str) -> RunRecord | None:
        """The run with this number recorded for ``owner``."""
        return self._one("seq = ? AND owner = ?", seq, owner)

    def find_task(self, task_id: str, *, owner: str) -> RunRecord | None:
        """The run of a Dify task id."""
        return self._one("task_id = ? AND owner = ?", task_id, owner) if task_id else None

    def page(self, *, owner: str, limit: int, before: int | None = None, workflow_id: str | None = None,
             statuses: tuple[RecordedStatus, ...] = ()) -> RunPage:
        """Newest first below ``before``; one extra row tells whether another page follows."""
        where, args = ["owner = ?"], list[object]([owner])
        if before is not None:
            where.append("seq < ?")
            args.append(before)
        if workflow_id is not None:
            where.append("workflow_id = ?")
            args.append(workflow_id)
        if statuses:
            where.append(f"status IN ({', '.join('?' for _ in statuses)})")
            args.extend(s.value for s in statuses)
        rows = self._conn().execute(f"SELECT {_COLUMNS} FROM workflow_run WHERE {' AND '.join(where)} "
                                    "ORDER BY seq DESC LIMIT ?", (*args, limit + 1)).fetchall()
        items = tuple(RunRecord.loads(record, seq=int(seq)) for seq, record in rows[:limit])
        return RunPage(items=items, before=items[-1].seq if len(rows) > limit and items else None)

    def delete(self, seq: int, *, owner: str) -> RunRecord | None:
        """Remove a run of ``owner`` and return it."""
        with self._conn() as conn:
            row = conn.execute(f"DELETE FROM workflow_run WHERE seq = ? AND owner = ? RETURNING {_COLUMNS}",
                               (seq, owner)).fetchone()
        return RunRecord.loads(row[1], seq=int(row[0])) if row else None
