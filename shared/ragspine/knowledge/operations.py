"""Gateway operations: the ingestion run of one version, its projection, cancel, manual retry, finalisation.

A Gateway operation shares its id with an ingestion operation (``ingestion.operations``), which
holds the status, automatic retries and error. When a run ends, ``finalize`` applies it to the
document in one transaction: a success makes the candidate the active version (the old one is
RETIRED, the candidate slot empties); a failure or cancellation leaves the candidate visible.
Reads finalise lazily too, so a run that ended in another process is applied on the next read.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from ragspine.errors import ConflictError, ProviderUnavailableError
from ragspine.ingestion.operations import DenseProgress, FactRead, Operation, OperationKey, OperationStatus, SpaceStamp
from ragspine.ingestion.retry import RetryPolicy
from ragspine.ingestion.submission import cancel as cancel_ingestion
from ragspine.ingestion.submission import reap_if_stale
from ragspine.knowledge.acl import not_found, require
from ragspine.knowledge.gateway import Gateway, new_id
from ragspine.knowledge.model import (
    MAX_MANUAL_RETRIES,
    Action,
    ChangeType,
    Document,
    DocumentStatus,
    GatewayOperation,
    Principal,
    Version,
    VersionStatus,
)
from ragspine.knowledge.ports import Change

logger = logging.getLogger(__name__)

NOT_RETRYABLE = "the operation cannot be retried: only a FAILED operation whose error is retryable can"
RETRY_LIMIT = f"the manual retry limit ({MAX_MANUAL_RETRIES} per operation) is reached: upload the file again"
ALREADY_FINISHED = "the operation has already finished and cannot be cancelled"
MAX_WARNINGS = 100  # shown per run; a filing with hundreds of skipped tables keeps its first ones
STAGED_STEPS = ("source", "document", "extraction", "chunks", "index_ready")
ACTION_OF = {ChangeType.UPLOAD: Action.DOCUMENT_UPLOAD, ChangeType.REPLACE: Action.DOCUMENT_UPDATE,
             ChangeType.REINDEX: Action.DOCUMENT_REINDEX}
# A version before its run ends: CREATED while its operation waits for a runner, UPLOADING while ``fetch`` brings
# the file's bytes into the pipeline, UPLOADED once they are staged ("source") and INGESTING from the parsed
# document on (parse, facts, chunks, index, activation).
_VERSION_OF = {OperationStatus.PENDING: VersionStatus.CREATED, OperationStatus.RUNNING: VersionStatus.INGESTING,
               OperationStatus.SUCCEEDED: VersionStatus.READY, OperationStatus.FAILED: VersionStatus.FAILED,
               OperationStatus.CANCELLED: VersionStatus.CANCELLED}
_RETRY_POLICY = RetryPolicy()  # the runner's and the state machine's (a unit test checks the ASL against it)


@dataclass(frozen=True, slots=True)
class RunState:
    """What the ingestion operation says about a run, as the Gateway shows it."""

    status: OperationStatus
    retryable: bool
    retry_count: int
    error_code: str | None
    error_message: str | None
    percent: int | None  # None: no reliable percentage
    progress_source: str
    updated_at: datetime | None
    staged: tuple[str, ...] = ()  # the step outputs a RUNNING run has staged so far
    next_retry_at: datetime | None = None  # when a step waiting for an automatic retry runs again
    warnings: tuple[str, ...] = ()  # what the run could not read (a table with no facts and why, ...)
    pages: int | None = None  # counted by ``parse``; None before it ran or for a format without pages
    pages_per_second: float | None = None  # pages over the run's time so far (or its whole time once finished)
    facts_read: int | None = None  # facts the table reading found (never published for a Gateway document)
    facts_sample: tuple[FactRead, ...] = ()
    dense: DenseProgress | None = None  # the background embedder's progress with the version's passages


def run_state(gateway: Gateway, operation_id: str) -> RunState:
    """The run's state; a missing ingestion record (a crash before it was written) reads as a retryable failure."""
    run = gateway.ingestion.get(operation_id)
    if run is not None:
        run = reap_if_stale(run, operations=gateway.ingestion, lease_s=gateway.config.lease_s, now=gateway.clock())
    if run is None:
        return RunState(OperationStatus.FAILED, True, 0, "KNOWLEDGE_PROVIDER_UNAVAILABLE",
                        "the run was never started: retry the operation", None, "UNAVAILABLE", None)
    staged = _staged(gateway, run)
    percent, source = _progress(run, staged)
    error = run.error
    return RunState(run.status, bool(error and error.retryable and run.status is OperationStatus.FAILED),
                    run.retry_count, error.code if error else None, _safe(error.message) if error else None,
                    percent, source, run.updated_at, staged, _next_retry_at(run),
                    tuple(_safe(w) for w in run.warnings[:MAX_WARNINGS]), run.pages_count or None,
                    _pages_per_second(run, gateway.clock()), run.facts_read, run.facts_sample, run.dense)


def _pages_per_second(run: Operation, now: datetime) -> float | None:
    """Pages parsed per second of the run (to its end once finished); None before ``parse`` counted pages."""
    if not run.pages_count or run.started_at is None:
        return None
    end = run.finished_at if run.status.finished and run.finished_at else now
    seconds = (end - run.started_at).total_seconds()
    return round(run.pages_count / seconds, 2) if seconds > 0 else None


def _next_retry_at(run: Operation) -> datetime | None:
    """When the waiting step's next attempt is due: its last failure plus the policy's backoff for that retry."""
    waiting = run.status is OperationStatus.RUNNING and run.step_failures > 0 and run.failed_at is not None
    if not waiting or run.step_failures >= _RETRY_POLICY.max_attempts or run.failed_at is None:
        return None
    return run.failed_at + timedelta(seconds=_RETRY_POLICY.delay(run.step_failures))


def _safe(message: str) -> str:
    """An operation error message for callers: our own text, bounded (never a provider's raw response)."""
    return message[:500]


def _staged(gateway: Gateway, run: Operation) -> tuple[str, ...]:
    if run.status is not OperationStatus.RUNNING:
        return ()
    return tuple(name for name in STAGED_STEPS if gateway.staging.get(run.id, name) is not None)


def _progress(run: Operation, staged: tuple[str, ...]) -> tuple[int | None, str]:
    if run.status is OperationStatus.SUCCEEDED:
        return 100, "LIFECYCLE"
    if run.status is not OperationStatus.RUNNING or not staged:
        return None, "UNAVAILABLE"
    return round(100 * len(staged) / (len(STAGED_STEPS) + 1)), "PIPELINE_STEPS"


def unfinished(gateway: Gateway, operation: GatewayOperation) -> bool:
    """Whether the operation is PENDING or RUNNING."""
    return not run_state(gateway, operation.id).status.finished


def version_status(gateway: Gateway, version: Version) -> VersionStatus:
    """A version's status: its stored end state, else what its run says."""
    ended = (VersionStatus.READY, VersionStatus.RETIRED, VersionStatus.DELETED)
    if version.status in ended or not version.operation_id:
        return version.status
    state = run_state(gateway, version.operation_id)
    if state.status is OperationStatus.RUNNING and "document" not in state.staged:
        return VersionStatus.UPLOADED if "source" in state.staged else VersionStatus.UPLOADING
    return _VERSION_OF[state.status]


def space_stamp(space_id: str, document: Document) -> SpaceStamp:
    """What every chunk of the document's runs carries: space, document and its metadata now."""
    metadata = document.metadata
    return SpaceStamp(space_id=space_id, document_id=document.id, category=metadata.category, tags=metadata.tags,
                      version_label=metadata.version_label, product_code=metadata.product_code)


def start_run(gateway: Gateway, operation: GatewayOperation, version: Version, *, location: str, file_hash: str,
              sensitivity_code: str, document: Document) -> None:
    """Record the ingestion operation of a Gateway operation (same id); ``launch`` starts it after the commit."""
    run = Operation(id=operation.id, doc_id=operation.document_id, version_id=version.id, file_hash=file_hash,
                    source=location, sensitivity=gateway.config.domains[sensitivity_code],
                    library=operation.space_id, space=space_stamp(operation.space_id, document),
                    file_name=version.file_name)
    gateway.ingestion.create_or_get(OperationKey(operation.document_id, operation.id), run)


def relabel(gateway: Gateway, document: Document) -> None:
    """Stamp the document's current metadata on its chunks, so a metadata filter never uses stale values.

    A failure is logged, not raised: the change is committed, and search re-checks every hit
    against the stored metadata, so stale chunk labels can only hide a hit, never show a wrong one.
    """
    if gateway.evidence is None:
        return
    try:
        gateway.evidence.relabel(document.id, document.metadata)
    except ProviderUnavailableError as exc:
        logger.warning("could not stamp new metadata on the document's chunks",
                       extra={"document_id": document.id, "error_code": exc.code})


def new_operation(gateway: Gateway, kind: ChangeType, document: Document, version_id: str, *,
                  parent: GatewayOperation | None = None, reason: str | None = None) -> GatewayOperation:
    """A Gateway operation record (a root, or a manual retry of ``parent``)."""
    root_id = parent.root_id if parent else None
    operation_id = new_id("op")
    retry_no = len(gateway.store.operations(root_id=root_id)) if root_id else 0
    return GatewayOperation(id=operation_id, type=kind, space_id=document.space_id, document_id=document.id,
                            version_id=version_id, parent_id=parent.id if parent else None,
                            root_id=root_id or operation_id, reason=reason, created_at=gateway.clock(),
                            retry_no=retry_no)


def finalize(gateway: Gateway, document: Document) -> Document:
    """Apply the candidate's finished run to the document (idempotent; a concurrent change re-reads once)."""
    for _ in range(3):
        candidate = gateway.store.version(document.candidate_version_id) if document.candidate_version_id else None
        if candidate is None or not candidate.operation_id:
            return document
        operation = gateway.store.operation(candidate.operation_id)
        if operation is None or operation.finalized:
            return document
        state = run_state(gateway, operation.id)
        if not state.status.finished:
            return document
        change = _finish(gateway, document, candidate, state.status)
        try:
            gateway.store.commit(change)
        except ConflictError:
            document = gateway.store.document(document.id) or document
            continue
        gateway.store.save_operation(replace(operation, finalized=True))
        assert change.document is not None
        if state.status is OperationStatus.SUCCEEDED:
            relabel(gateway, change.document)  # a PATCH during the run stamped the old version's chunks only
        return change.document
    return document


def _finish(gateway: Gateway, document: Document, candidate: Version, status: OperationStatus) -> Change:
    now = gateway.clock()
    if status is OperationStatus.SUCCEEDED:
        versions = [replace(candidate, status=VersionStatus.READY, updated_at=now)]
        old = gateway.store.version(document.active_version_id) if document.active_version_id else None
        if old is not None and old.id != candidate.id:
            versions.append(replace(old, status=VersionStatus.RETIRED, updated_at=now))
        state = DocumentStatus.ACTIVE if document.enabled else DocumentStatus.DISABLED
        updated = replace(document, active_version_id=candidate.id, candidate_version_id=None, status=state,
                          updated_at=now)
    else:
        versions = [replace(candidate, status=_VERSION_OF[status], updated_at=now)]
        state = document.status
        if document.active_version_id is None and document.status is DocumentStatus.CREATING:
            state = DocumentStatus.CREATE_FAILED
        updated = replace(document, status=state, updated_at=now)
    return Change(document=updated, document_expected=document.lock_version, versions=versions)


def visible_operation(gateway: Gateway, principal: Principal, operation_id: str, *, mutate: bool = False,
                      extra: tuple[Action, ...] = ()) -> tuple[GatewayOperation, Document]:
    """An operation whose document the caller may view; ``mutate`` also needs the operation's own action.

    Raises:
        HiddenResourceError: no such operation, or its document is hidden from the caller.
        ForbiddenError: visible, but the caller lacks an action.
    """
    operation = gateway.store.operation(operation_id)
    document = gateway.store.document(operation.document_id) if operation else None
    if operation is None or document is None or document.status is DocumentStatus.DELETED:
        raise not_found("operation", operation_id)
    granted = gateway.access(principal, document.space_id)
    actions = (ACTION_OF[operation.type], *extra) if mutate else (Action.DOCUMENT_VIEW,)
    for action in actions:
        require(granted, action, view=Action.DOCUMENT_VIEW, domain=document.security_domain, kind="operation",
                resource_id=operation_id)
    return operation, finalize(gateway, document)


def cancel_operation(gateway: Gateway, principal: Principal, operation_id: str) -> GatewayOperation:
    """Cancel a PENDING or RUNNING operation; its run stops at the next step boundary, nothing activated.

    Raises:
        NotFoundError, ForbiddenError, ConflictError (already finished).
    """
    operation, document = visible_operation(gateway, principal, operation_id, mutate=True)
    if run_state(gateway, operation.id).status.finished:
        raise ConflictError(ALREADY_FINISHED)
    cancel_ingestion(operation.id, operations=gateway.ingestion)
    finalize(gateway, document)
    return operation


def retry_operation(gateway: Gateway, principal: Principal, operation_id: str, reason: str) -> GatewayOperation:
    """A manual retry: a child operation (``parentOperationId``) running the same version again, at most 3 per root.

    Raises:
        NotFoundError, ForbiddenError, ConflictError (not retryable, superseded, or the limit reached).
    """
    operation, document = visible_operation(gateway, principal, operation_id, mutate=True,
                                            extra=(Action.OPERATION_RETRY,))
    if not run_state(gateway, operation.id).retryable:
        raise ConflictError(NOT_RETRYABLE)
    version = gateway.store.version(operation.version_id)
    if version is None or version.operation_id != operation.id or document.candidate_version_id != version.id:
        raise ConflictError(NOT_RETRYABLE + " (a later operation superseded it)")
    if len(gateway.store.operations(root_id=operation.root_id)) > MAX_MANUAL_RETRIES:
        raise ConflictError(RETRY_LIMIT)
    child = new_operation(gateway, operation.type, document, version.id, parent=operation, reason=reason)
    previous = gateway.ingestion.get(operation.id)
    if previous is not None:
        start_run(gateway, child, version, location=previous.source, file_hash=previous.file_hash,
                  sensitivity_code=document.security_domain, document=document)
    status = DocumentStatus.CREATING if document.status is DocumentStatus.CREATE_FAILED else document.status
    change = Change(document=replace(document, status=status, updated_at=gateway.clock()),
                    document_expected=document.lock_version,
                    versions=[replace(version, operation_id=child.id, updated_at=gateway.clock())], operations=[child])
    try:
        gateway.store.commit(change)
    except ConflictError as exc:
        raise ConflictError("another change to this document won the race: read the operation again") from exc
    gateway.launcher.start(child.id)
    return child
