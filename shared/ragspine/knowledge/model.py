"""Gateway domain types: spaces, documents, versions, operations, file resources, grants and audit entries.

The states are exactly seed 003's. Records are frozen; services change them with
``dataclasses.replace`` and the store writes them under an optimistic lock.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime

PROFILE_CODE = "enterprise-long-document"
MAX_MANUAL_RETRIES = 3
MAX_AUTOMATIC_RETRIES = 5


class SpaceStatus(enum.StrEnum):
    """Seed 003's space lifecycle."""

    CREATING = "CREATING"
    ACTIVE = "ACTIVE"
    CREATE_FAILED = "CREATE_FAILED"
    DISABLED = "DISABLED"
    DELETING = "DELETING"
    DELETED = "DELETED"
    DELETE_FAILED = "DELETE_FAILED"


class DocumentStatus(enum.StrEnum):
    """Seed 003's document lifecycle."""

    CREATING = "CREATING"
    ACTIVE = "ACTIVE"
    CREATE_FAILED = "CREATE_FAILED"
    DISABLED = "DISABLED"
    DELETING = "DELETING"
    DELETED = "DELETED"


class VersionStatus(enum.StrEnum):
    """Seed 003's version lifecycle."""

    CREATED = "CREATED"
    UPLOADING = "UPLOADING"
    UPLOADED = "UPLOADED"
    INGESTING = "INGESTING"
    READY = "READY"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"
    RETIRED = "RETIRED"
    DELETED = "DELETED"


class ChangeType(enum.StrEnum):
    """Why a version exists; also the type of the operation that builds it."""

    UPLOAD = "UPLOAD"
    REPLACE = "REPLACE"
    REINDEX = "REINDEX"


class Action(enum.StrEnum):
    """Seed 003's Gateway actions, granted per space."""

    SPACE_VIEW = "SPACE_VIEW"
    DOCUMENT_VIEW = "DOCUMENT_VIEW"
    KNOWLEDGE_SEARCH = "KNOWLEDGE_SEARCH"
    DOCUMENT_DOWNLOAD = "DOCUMENT_DOWNLOAD"
    DOCUMENT_UPLOAD = "DOCUMENT_UPLOAD"
    DOCUMENT_UPDATE = "DOCUMENT_UPDATE"
    DOCUMENT_REINDEX = "DOCUMENT_REINDEX"
    DOCUMENT_DELETE = "DOCUMENT_DELETE"
    SPACE_CREATE = "SPACE_CREATE"
    SPACE_UPDATE = "SPACE_UPDATE"
    SPACE_DELETE = "SPACE_DELETE"
    OPERATION_RETRY = "OPERATION_RETRY"


class PrincipalType(enum.StrEnum):
    """Who a grant names: one user, everyone holding a role, or everyone in a department."""

    USER = "USER"
    ROLE = "ROLE"
    DEPARTMENT = "DEPARTMENT"


ALL_SPACES = "*"


@dataclass(frozen=True, slots=True)
class Principal:
    """The caller as the verified assertion names it (nothing is cached across requests)."""

    user_id: str
    roles: frozenset[str] = frozenset()
    departments: frozenset[str] = frozenset()
    security_domains: frozenset[str] = frozenset()
    token_name: str = ""


@dataclass(frozen=True, slots=True)
class Metadata:
    """The four allowed business metadata fields, already normalised."""

    category: str | None = None
    tags: tuple[str, ...] = ()
    version_label: str | None = None
    product_code: str | None = None


@dataclass(frozen=True, slots=True)
class Space:
    """A knowledge space; ``version`` starts at 1 and counts its mutations."""

    id: str
    code: str
    name: str
    description: str | None
    security_domain: str
    status: SpaceStatus
    version: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class Version:
    """One file of a document and its processing."""

    id: str
    document_id: str
    number: int
    change_type: ChangeType
    status: VersionStatus
    file_resource_id: str
    file_name: str
    mime_type: str
    file_size: int
    operation_id: str | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class Document:
    """A document with its two version slots and its optimistic lock counter."""

    id: str
    space_id: str
    name: str
    status: DocumentStatus
    lock_version: int
    security_domain: str
    metadata: Metadata
    active_version_id: str | None
    candidate_version_id: str | None
    created_at: datetime
    updated_at: datetime
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class GatewayOperation:
    """The Gateway's half of one operation; the other half is ``ingestion.operations.Operation``.

    Both records carry the same id, one run of a document version through ingestion. The
    ingestion ``Operation`` holds the run (status, step, retry count, error, counts) and is what
    the runner and the state machine's worker move; this record holds what only the Gateway
    needs (what the operation acts on, its change type, its parent for a manual retry, its root)
    and is read beside it (``knowledge/operations.py``) when the API shows an operation.
    """

    id: str
    type: ChangeType
    space_id: str
    document_id: str
    version_id: str
    parent_id: str | None
    root_id: str
    reason: str | None
    created_at: datetime
    retry_no: int = 0  # 0 for a root operation, n for its n-th manual retry
    finalized: bool = False


@dataclass(frozen=True, slots=True)
class FileResource:
    """An upload slot: declared name, type and size, then the bytes put to its signed URL."""

    id: str
    space_id: str
    file_name: str
    mime_type: str
    file_size: int
    uploaded: bool
    created_by: str
    expires_at: datetime
    sha256: str | None = None


@dataclass(frozen=True, slots=True)
class Grant:
    """Actions granted in one space (or every space, ``*``) to one principal."""

    space_id: str
    principal_type: PrincipalType
    principal: str
    actions: frozenset[Action] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One audited request: never document text nor assertion contents."""

    at: datetime
    user_id: str
    action: str
    resource: str
    request_id: str
    tool_call_id: str
    session_id: str
    result: str  # ALLOWED / DENIED / FAILED
    error_code: str | None = None
