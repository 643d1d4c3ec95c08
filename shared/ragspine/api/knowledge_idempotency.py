"""Idempotency-Key for Gateway mutations, through Powertools Idempotency.

On AWS the Powertools DynamoDB persistence layer keeps the records; the embedded default uses
``SqlitePersistenceLayer`` (below) behind the same interface, in ``knowledge.db``. The key
hashes (caller, tool, Idempotency-Key); the payload hash covers the path and body, so the same
key with another body is refused, and a replay returns the first response.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aws_lambda_powertools.utilities.idempotency import BasePersistenceLayer, IdempotencyConfig, idempotent_function
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyItemAlreadyExistsError,
    IdempotencyItemNotFoundError,
    IdempotencyValidationError,
)
from aws_lambda_powertools.utilities.idempotency.persistence.datarecord import DataRecord

from ragspine.errors import ConflictError, OperationPendingError
from ragspine.sqlite_local import ThreadLocalSqlite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS idempotency (
    id TEXT PRIMARY KEY, status TEXT NOT NULL, expiration INTEGER, in_progress_expiration INTEGER,
    data TEXT NOT NULL DEFAULT '', validation TEXT NOT NULL DEFAULT ''
);
"""
_COLUMNS = "id, status, expiration, in_progress_expiration, data, validation"


class SqlitePersistenceLayer(BasePersistenceLayer):
    """Powertools idempotency records in a SQLite table (the embedded default)."""

    def __init__(self, path: Path | str) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self._db = ThreadLocalSqlite(path, label="knowledge database")
        with self._db.connection() as conn:
            conn.executescript(_SCHEMA)

    def close(self) -> None:
        """Close every thread's connection."""
        self._db.close()

    @staticmethod
    def _record(row: tuple[Any, ...]) -> DataRecord:
        return DataRecord(idempotency_key=row[0], status=row[1], expiry_timestamp=row[2],
                          in_progress_expiry_timestamp=row[3], response_data=row[4], payload_hash=row[5])

    def _get_record(self, idempotency_key: str) -> DataRecord:
        row = self._db.connection().execute(f"SELECT {_COLUMNS} FROM idempotency WHERE id = ?",
                                            (idempotency_key,)).fetchone()
        if row is None:
            raise IdempotencyItemNotFoundError
        return self._record(row)

    def _put_record(self, data_record: DataRecord) -> None:
        """Insert unless a live record exists (as the DynamoDB layer's condition expression does)."""
        conn: sqlite3.Connection = self._db.connection()
        now = int(time.time())
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = conn.execute(f"SELECT {_COLUMNS} FROM idempotency WHERE id = ?",
                               (data_record.idempotency_key,)).fetchone()
            if row is not None:
                old = self._record(row)
                live = not (old.expiry_timestamp is not None and old.expiry_timestamp < now)
                stuck = (old.status == "INPROGRESS" and old.in_progress_expiry_timestamp is not None
                         and old.in_progress_expiry_timestamp < now * 1000)
                if live and not stuck:
                    raise IdempotencyItemAlreadyExistsError
            conn.execute(f"INSERT OR REPLACE INTO idempotency ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                         (data_record.idempotency_key, data_record.status, data_record.expiry_timestamp,
                          data_record.in_progress_expiry_timestamp, data_record.response_data or "",
                          data_record.payload_hash or ""))
        except BaseException:
            conn.rollback()
            raise
        conn.commit()

    def _update_record(self, data_record: DataRecord) -> None:
        with self._db.connection() as conn:
            conn.execute("UPDATE idempotency SET status = ?, expiration = ?, data = ?, validation = ? WHERE id = ?",
                         (data_record.status, data_record.expiry_timestamp, data_record.response_data or "",
                          data_record.payload_hash or "", data_record.idempotency_key))

    def _delete_record(self, data_record: DataRecord) -> None:
        with self._db.connection() as conn:
            conn.execute("DELETE FROM idempotency WHERE id = ?", (data_record.idempotency_key,))


IN_PROGRESS_S = 120


class _RequestBudget:
    """Stands in for the Lambda context: a request's key stays in progress at most this long after a crash."""

    def get_remaining_time_in_millis(self) -> int:
        return IN_PROGRESS_S * 1000


def idempotent_call(store: BasePersistenceLayer, *, ttl_s: int, request: dict[str, Any],
                    run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run ``run`` once per (caller, tool, key); a replay with the same request returns the first result.

    Args:
        store: The Powertools persistence layer.
        ttl_s: How long a key replays.
        request: ``{"caller", "tool", "key", "request"}``; ``request`` is what must match on replay.
        run: The mutation, returning a JSON-serialisable result.

    Raises:
        ConflictError: the key was used with another request.
        OperationPendingError: the first request with this key is still running.
    """
    config = IdempotencyConfig(event_key_jmespath="[caller, tool, key]", payload_validation_jmespath="request",
                               expires_after_seconds=ttl_s, hash_function="sha256")
    config.register_lambda_context(_RequestBudget())  # type: ignore[arg-type]

    @idempotent_function(data_keyword_argument="request", persistence_store=store, config=config,  # type: ignore[untyped-decorator]
                         key_prefix="knowledge-gateway")
    def once(request: dict[str, Any]) -> dict[str, Any]:
        return run()

    try:
        return once(request=request)  # type: ignore[no-any-return]
    except IdempotencyValidationError as exc:
        raise ConflictError("this Idempotency-Key was already used for a different request: use a new key for a new "
                            "request") from exc
    except IdempotencyAlreadyInProgressError as exc:
        raise OperationPendingError("the first request with this Idempotency-Key is still running: retry shortly"
                                    ) from exc
