"""An ``Operation`` as JSON text, the same in operations.db and in the DynamoDB ingest table."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from typing import Any

from ragspine.ingestion.operations import (
    DenseProgress,
    FactRead,
    Operation,
    OperationError,
    OperationStatus,
    SpaceStamp,
)
from ragspine.sensitivity import Sensitivity

_TIMES = ("created_at", "updated_at", "started_at", "finished_at", "heartbeat_at", "failed_at")


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def with_times(operation: Operation, *, created: datetime, updated: datetime) -> Operation:
    """The operation with its creation and last-update times set."""
    return replace(operation, created_at=created, updated_at=updated)


def dump_operation(operation: Operation) -> str:
    """The operation as JSON text (times in ISO 8601, sensitivity by name)."""
    body: dict[str, Any] = {
        "id": operation.id, "doc_id": operation.doc_id, "version_id": operation.version_id,
        "file_hash": operation.file_hash, "source": operation.source, "status": operation.status.value,
        "sensitivity": operation.sensitivity.name, "library": operation.library,
        "retry_count": operation.retry_count, "warnings": list(operation.warnings),
        "facts_count": operation.facts_count, "chunks_count": operation.chunks_count,
        "pages_count": operation.pages_count, "context": dict(operation.context), "step": operation.step,
        "file_name": operation.file_name,
        "step_failures": operation.step_failures, "facts_read": operation.facts_read,
        "facts_sample": [{"metric": f.metric, "entity": f.entity, "period": f.period, "value": f.value,
                          "unit": f.unit, "locator": f.locator} for f in operation.facts_sample],
        "error": None if operation.error is None else {
            "code": operation.error.code, "message": operation.error.message, "retryable": operation.error.retryable},
    }
    body.update({name: _iso(getattr(operation, name)) for name in _TIMES})
    dense = operation.dense
    body["dense"] = None if dense is None else {
        "done": dense.done, "total": dense.total, "per_second": dense.per_second,
        "seconds_left": dense.seconds_left, "updated_at": dense.updated_at.isoformat()}
    space = operation.space
    if space is not None:
        body["space"] = {"space_id": space.space_id, "document_id": space.document_id, "category": space.category,
                         "tags": list(space.tags), "version_label": space.version_label,
                         "product_code": space.product_code}
    return json.dumps(body, ensure_ascii=False)


def load_operation(text: str) -> Operation:
    """The operation ``dump_operation`` wrote."""
    body = json.loads(text)
    error = body["error"]
    times = {name: datetime.fromisoformat(body[name]) if body.get(name) else None for name in _TIMES}
    return Operation(
        id=body["id"], doc_id=body["doc_id"], version_id=body["version_id"], file_hash=body["file_hash"],
        source=body["source"], status=OperationStatus(body["status"]), sensitivity=Sensitivity[body["sensitivity"]],
        library=body["library"], retry_count=body["retry_count"], warnings=tuple(body["warnings"]),
        facts_count=body["facts_count"], chunks_count=body["chunks_count"],
        pages_count=body.get("pages_count", 0),  # absent in operations written before it existed
        context=tuple(sorted((str(k), str(v)) for k, v in (body.get("context") or {}).items())),
        error=OperationError(**error) if error else None, step=body.get("step"),
        created_at=times["created_at"], updated_at=times["updated_at"],
        started_at=times["started_at"], finished_at=times["finished_at"], heartbeat_at=times["heartbeat_at"],
        space=_space(body.get("space")),  # absent in ordinary operations and those written before it existed
        step_failures=body.get("step_failures", 0), failed_at=times["failed_at"],  # absent in older records
        facts_read=body.get("facts_read"), facts_sample=tuple(FactRead(**f) for f in body.get("facts_sample") or ()),
        dense=_dense(body.get("dense")),  # absent in records written before it existed
        file_name=body.get("file_name"),
    )


def _dense(body: dict[str, Any] | None) -> DenseProgress | None:
    if body is None:
        return None
    return DenseProgress(done=body["done"], total=body["total"], per_second=body["per_second"],
                         seconds_left=body["seconds_left"], updated_at=datetime.fromisoformat(body["updated_at"]))


def _space(body: dict[str, Any] | None) -> SpaceStamp | None:
    if body is None:
        return None
    return SpaceStamp(space_id=body["space_id"], document_id=body["document_id"], category=body.get("category"),
                      tags=tuple(body.get("tags") or ()), version_label=body.get("version_label"),
                      product_code=body.get("product_code"))
