"""Ingestion operations: one per (document, version), with status, retries, error and counts.

An operation is the user-visible record of one upload going through the pipeline. Its
status moves PENDING → RUNNING → SUCCEEDED / FAILED / CANCELLED. The ``OperationStore``
port persists operations; ``StagingArea`` holds what each step produced for an operation
(so a step can be re-run, or run in another process, from its name and the operation id)
and which version of each document is active.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from ragspine.errors import ConflictError
from ragspine.sensitivity import Sensitivity


class OperationStatus(enum.StrEnum):
    """Where an operation is in its life."""

    PENDING = "PENDING"
    RUNNING = "RUNNING"
    SUCCEEDED = "SUCCEEDED"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"

    @property
    def finished(self) -> bool:
        """Whether the operation has reached an end state."""
        return self in (OperationStatus.SUCCEEDED, OperationStatus.FAILED, OperationStatus.CANCELLED)


@dataclass(frozen=True, slots=True)
class OperationKey:
    """What makes two submissions the same operation: the document and its version.

    ``version`` is the caller's version id, or the file's hash when it gives none, so
    replaying the same upload finds the same operation.
    """

    doc_id: str
    version: str

    def text(self) -> str:
        """The key as one string, for a UNIQUE column."""
        return f"{self.doc_id}\x1f{self.version}"


@dataclass(frozen=True, slots=True)
class OperationError:
    """Why an operation failed: a stable code, a message for people, and whether a retry may help."""

    code: str
    message: str
    retryable: bool


@dataclass(frozen=True, slots=True)
class SpaceStamp:
    """What a Knowledge Gateway run stamps on every chunk: its space and document, the document's metadata.

    A run with a stamp publishes no facts: the shared fact table has no Gateway ACL, so a
    Gateway document's tables stay searchable passages instead.
    """

    space_id: str
    document_id: str
    category: str | None = None
    tags: tuple[str, ...] = ()
    version_label: str | None = None
    product_code: str | None = None


@dataclass(frozen=True, slots=True)
class FactRead:
    """One figure the run's table reading found, as an operation shows it (codes, value and cell)."""

    metric: str
    entity: str
    period: str
    value: float
    unit: str
    locator: str


FACTS_SHOWN = 20  # facts an operation keeps as its sample of what the table reading found


@dataclass(frozen=True, slots=True)
class DenseProgress:
    """How far the background embedder is with a SUCCEEDED operation's passages (the dense leg).

    ``per_second`` is measured over the embedder's recent batches of this version and
    ``seconds_left`` is the passages left at that rate; both are None once every passage has its
    vector. ``updated_at`` is when it was saved (a version waiting behind others keeps its last figures).
    """

    done: int
    total: int
    per_second: float | None
    seconds_left: float | None
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class Operation:
    """One document version going through the ingestion pipeline: the run and its status.

    A Gateway upload, replace or retry also keeps a ``knowledge.model.GatewayOperation`` under
    the same id (the space, document, change type and retry chain); this record never
    depends on it, and ingestion runs without the Gateway (CLI, S3 trigger) have none.
    """

    id: str
    doc_id: str
    version_id: str
    file_hash: str
    source: str  # where ``fetch`` reads the bytes (a local path embedded, an S3 URI on AWS)
    status: OperationStatus = OperationStatus.PENDING
    sensitivity: Sensitivity = Sensitivity.INTERNAL
    library: str = "default"
    retry_count: int = 0
    error: OperationError | None = None
    warnings: tuple[str, ...] = ()
    facts_count: int = 0
    chunks_count: int = 0
    pages_count: int = 0  # recorded by ``parse`` (see ``ParsedDocument.pages``)
    # What the uploader stated about the document (company, period, doc_type, title), as pairs.
    context: tuple[tuple[str, str], ...] = ()
    created_at: datetime | None = None
    updated_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    heartbeat_at: datetime | None = None  # the runner's lease: renewed before every step
    step: str | None = None  # the step running now (or last run): ``activate`` cannot be cancelled
    space: SpaceStamp | None = None  # set by the Knowledge Gateway (None: an ordinary ingestion)
    # While a step waits for an automatic retry: how many of its attempts failed, and when the last one did
    # (so a reader computes when the next attempt is due from the retry policy); 0 / None otherwise.
    step_failures: int = 0
    failed_at: datetime | None = None
    # What the table reading found (``extract_facts``): how many facts, and a sample of them; None before it ran.
    # A Gateway run reads its tables too, though it publishes none of these facts.
    facts_read: int | None = None
    facts_sample: tuple[FactRead, ...] = ()
    # The dense leg's progress, saved by the background embedder (None: it has not embedded any of these passages).
    dense: DenseProgress | None = None
    # The name the caller gave the file (a Gateway upload's); None: the source's own name. Messages say it.
    file_name: str | None = None

    @property
    def display_name(self) -> str:
        """The file's name as its owner knows it, for messages."""
        return self.file_name or self.source.rsplit("/", 1)[-1]


@dataclass(frozen=True, slots=True)
class ActiveVersion:
    """The searchable version of a document and the facts extraction it contributed (JSON)."""

    doc_id: str
    version_id: str
    operation_id: str
    extraction: str


class OperationCancelledError(ConflictError):
    """A write would take a CANCELLED operation out of CANCELLED: the run stops where it is."""


class TooLateToCancelError(ConflictError):
    """The operation has finished, or is activating its version: cancelling would be a lie."""


ACTIVATE_STEP = "activate"


def check_transition(stored: Operation, new: Operation) -> None:
    """The rule every store applies atomically to a save of ``new`` over ``stored``.

    CANCELLED is final, and a cancel lands only on an operation that has not finished and is not
    activating: otherwise a runner's later write would undo the cancel, or a cancel reported as
    done would leave the new version visible.

    Raises:
        OperationCancelledError: ``stored`` is CANCELLED and ``new`` is not.
        TooLateToCancelError: ``new`` cancels an operation that finished or is activating.
    """
    if stored.status is OperationStatus.CANCELLED:
        if new.status is not OperationStatus.CANCELLED:
            raise OperationCancelledError(f"operation {stored.id} was cancelled")
        return
    if new.status is OperationStatus.CANCELLED:
        if stored.status.finished:
            raise TooLateToCancelError(f"operation {stored.id} cannot be cancelled: it is {stored.status.value}")
        if stored.status is OperationStatus.RUNNING and stored.step == ACTIVATE_STEP:
            raise TooLateToCancelError(f"operation {stored.id} cannot be cancelled: it is activating its new "
                                       "version; replace or delete the document once it has finished")


def utcnow() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)


class OperationStore(Protocol):
    """Persistence of operations (SQLite embedded; DynamoDB on AWS)."""

    def create_or_get(self, key: OperationKey, draft: Operation) -> tuple[Operation, bool]:
        """Record ``draft`` under ``key`` unless an operation already has that key.

        Args:
            key: (document, version or file hash); the idempotency key.
            draft: the operation to record when the key is new (its id is used as given).

        Returns:
            The stored operation and whether it was created now.
        """
        ...

    def get(self, operation_id: str) -> Operation | None:
        """The operation with this id, or None."""
        ...

    def save(self, operation: Operation) -> Operation:
        """Replace the stored operation with ``operation``, stamping ``updated_at``; return it.

        Raises:
            NotFoundError: no operation has this id.
            OperationCancelledError, TooLateToCancelError: ``check_transition`` refuses the write
                (checked atomically with it).
        """
        ...

    def list_operations(self, *, doc_id: str | None = None) -> list[Operation]:
        """Operations, oldest first, optionally of one document."""
        ...


class StagingArea(Protocol):
    """Step outputs per operation, and the active version of each document."""

    def put(self, operation_id: str, name: str, data: bytes) -> None:
        """Store (or replace) one named output of an operation."""
        ...

    def get(self, operation_id: str, name: str) -> bytes | None:
        """One named output of an operation, or None when that step has not run."""
        ...

    def clear(self, operation_id: str) -> None:
        """Drop every staged output of an operation (after it is activated)."""
        ...

    def active(self, doc_id: str | None = None) -> Sequence[ActiveVersion]:
        """The active version of one document (zero or one), or of every document sorted by id."""
        ...

    def activate(self, version: ActiveVersion) -> None:
        """Make ``version`` the active version of its document."""
        ...
