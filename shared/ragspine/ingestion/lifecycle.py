"""One ingestion operation's record as its steps run, the same for both drivers.

The in-process runner (``ingestion.runner``) and the state machine's worker
(``ingestion.step_worker``) differ in who retries (a loop here, the ASL's ``Retry`` there) but
move an operation through the same states, with these functions only:

PENDING → RUNNING when a step starts (``start_step``: the step recorded, the lease renewed) →
waiting for a retry after a transient error (``wait_for_retry``: ``step_failures`` and
``failed_at`` say when the next attempt is due; each retry adds one to ``retry_count``) →
FAILED (``fail``) or SUCCEEDED with the staging area cleared (``succeed``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from ragspine.errors import RagspineError
from ragspine.ingestion.operations import (
    Operation,
    OperationError,
    OperationStatus,
    OperationStore,
    StagingArea,
    utcnow,
)

logger = logging.getLogger(__name__)


def restart(operations: OperationStore, operation: Operation) -> Operation:
    """A new run from the first step: RUNNING, with no error, warnings or end time of an earlier run."""
    return operations.save(replace(operation, status=OperationStatus.RUNNING, error=None, warnings=(),
                                   started_at=operation.started_at or utcnow(), finished_at=None))


def start_step(operations: OperationStore, operation: Operation, step: str, *, retried: bool = False) -> Operation:
    """``step`` is about to run (``retried``: again, after a transient failure).

    The step is recorded first: once it is ``activate`` a cancel is refused, and a cancel that
    came first makes this write fail. The lease is renewed, so a reader that sees no heartbeat
    for longer than the lease knows the runner died; the operation no longer waits for a retry.
    """
    now = utcnow()
    return operations.save(replace(
        operation, status=OperationStatus.RUNNING if operation.status is OperationStatus.PENDING else operation.status,
        started_at=operation.started_at or now, step=step, heartbeat_at=now, step_failures=0, failed_at=None,
        retry_count=operation.retry_count + (1 if retried else 0)))


def wait_for_retry(operations: OperationStore, operation: Operation, *, failures: int,
                   error: OperationError | None = None, retried: bool = False) -> Operation:
    """The current step failed transiently for the ``failures``-th time and will be tried again.

    Recorded while it waits, so a reader can say when the next attempt is due. ``retried``
    counts the coming retry now (the runner knows it will retry; the worker counts it when the
    retried attempt starts, since only the state machine knows).
    """
    return operations.save(replace(operation, error=error or operation.error, step_failures=failures,
                                   failed_at=utcnow(), retry_count=operation.retry_count + (1 if retried else 0)))


def fail(operations: OperationStore, operation: Operation, error: OperationError, *,
         warnings: Sequence[str] | None = None, now: datetime | None = None) -> Operation:
    """FAILED with ``error`` (its ``retryable`` says whether running it again may help)."""
    return operations.save(replace(operation, status=OperationStatus.FAILED, error=error,
                                   warnings=operation.warnings if warnings is None else tuple(warnings),
                                   finished_at=now or utcnow(), step_failures=0, failed_at=None))


def succeed(operations: OperationStore, staging: StagingArea, operation: Operation, *, facts: int, chunks: int,
            warnings: Sequence[str]) -> Operation:
    """SUCCEEDED after ``activate``: what the steps staged is no longer needed and is cleared."""
    staging.clear(operation.id)
    return operations.save(replace(operation, status=OperationStatus.SUCCEEDED, error=None, warnings=tuple(warnings),
                                   facts_count=facts, chunks_count=chunks, finished_at=utcnow()))


def operation_error(step: str, exc: Exception, *, transient: bool) -> OperationError:
    """The operation's error: our code and message, or an opaque one for an unexpected exception."""
    if isinstance(exc, RagspineError):
        return OperationError(exc.code, exc.message, transient)
    if transient:
        return OperationError("INGEST_SOURCE_UNAVAILABLE", f"{step}: {type(exc).__name__}: {exc}", True)
    logger.exception("ingestion step failed unexpectedly", extra={"step": step})
    return OperationError("INGEST_INTERNAL_ERROR", f"{step} failed unexpectedly ({type(exc).__name__})", False)
