"""The Gateway's storage port: one unit of work per mutation, conditional on the versions read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ragspine.knowledge.identity import StoredToken
from ragspine.knowledge.model import (
    AuditEntry,
    Document,
    FileResource,
    GatewayOperation,
    Grant,
    Space,
    Version,
)


@dataclass(frozen=True)
class Change:
    """What one mutation writes, all or nothing.

    ``space_expected`` / ``document_expected`` hold the version (space) or lockVersion (document)
    the stored record must still have; None writes a new record, which must not exist yet.
    """

    space: Space | None = None
    space_expected: int | None = None
    document: Document | None = None
    document_expected: int | None = None
    versions: Sequence[Version] = field(default_factory=tuple)
    operations: Sequence[GatewayOperation] = field(default_factory=tuple)


class KnowledgeStore(Protocol):
    """Persistence of spaces, documents, versions, operations, file resources, grants, tokens and audit."""

    def commit(self, change: Change) -> None:
        """Write ``change`` atomically.

        Raises:
            ConflictError: a record changed since it was read (its version differs), or a new
                record's id or space code already exists.
        """
        ...

    def space(self, space_id: str) -> Space | None:
        """The space with this id, or None."""
        ...

    def spaces(self) -> list[Space]:
        """Every space, oldest first."""
        ...

    def document(self, document_id: str) -> Document | None:
        """The document with this id, or None."""
        ...

    def documents(self, space_id: str) -> list[Document]:
        """The documents of a space, oldest first."""
        ...

    def version(self, version_id: str) -> Version | None:
        """The version with this id, or None."""
        ...

    def versions(self, document_id: str) -> list[Version]:
        """The versions of a document, by number."""
        ...

    def operation(self, operation_id: str) -> GatewayOperation | None:
        """The Gateway operation with this id, or None."""
        ...

    def operations(self, *, space_id: str | None = None, root_id: str | None = None) -> list[GatewayOperation]:
        """Operations of a space, or of one root operation (the root and its manual retries), oldest first."""
        ...

    def save_operation(self, operation: GatewayOperation) -> None:
        """Replace a Gateway operation (its ``finalized`` flag)."""
        ...

    def put_file(self, resource: FileResource) -> None:
        """Store or replace a file resource."""
        ...

    def file(self, resource_id: str) -> FileResource | None:
        """The file resource with this id, or None."""
        ...

    def put_grant(self, grant: Grant) -> None:
        """Store a grant, replacing the actions of the same (space, principal)."""
        ...

    def delete_grant(self, space_id: str, principal_type: str, principal: str) -> bool:
        """Remove a grant; whether it existed."""
        ...

    def grants(self, space_id: str | None = None) -> list[Grant]:
        """Grants of one space plus those of every space (``*``); all grants when None."""
        ...

    def put_token(self, token: StoredToken) -> None:
        """Store a service token record.

        Raises:
            ConflictError: a token with this name exists.
        """
        ...

    def token(self, token_id: str) -> StoredToken | None:
        """The token record with this id, or None."""
        ...

    def append_audit(self, entry: AuditEntry) -> None:
        """Record one audited request."""
        ...

    def audit(self, *, limit: int) -> list[AuditEntry]:
        """The latest ``limit`` audit entries, oldest first."""
        ...
