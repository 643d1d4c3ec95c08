"""``Gateway``: the ports and policy every Gateway service uses, and the access checks they share."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from ragspine.errors import FieldError, ForbiddenError
from ragspine.ingestion.operations import OperationStore, StagingArea
from ragspine.knowledge.acl import Access, access, not_found, require
from ragspine.knowledge.model import Action, Metadata, Principal, Space, SpaceStatus
from ragspine.knowledge.ports import KnowledgeStore
from ragspine.retrieval.model import ScoredChunk, SearchFilters
from ragspine.retrieval.version_text import VersionTextStore
from ragspine.sensitivity import Sensitivity


class FileStorage(Protocol):
    """Where uploaded files live (the data folder locally, S3 on AWS)."""

    def put(self, resource_id: str, suffix: str, data: bytes) -> str:
        """Store the bytes of a file resource; return the location ingestion reads (a path or s3:// URI)."""
        ...

    def put_once(self, resource_id: str, suffix: str, data: bytes) -> bool:
        """Store the bytes unless the resource already has some; whether this call stored them (atomic)."""
        ...

    def location(self, resource_id: str, suffix: str) -> str:
        """The location ``put`` wrote for this resource."""
        ...

    def upload_url(self, resource_id: str, suffix: str, *, expires_s: int, mime_type: str) -> str | None:
        """A presigned URL the caller PUTs to (S3), or None when this service receives the bytes itself."""
        ...

    def size(self, resource_id: str, suffix: str) -> int | None:
        """How many bytes were uploaded for the resource, or None while nothing was."""
        ...

    def seal(self, resource_id: str, suffix: str, *, size: int) -> str | None:
        """Fix the uploaded bytes for good and return their ``sha256:<hex>``; None until ``size`` bytes are there."""
        ...

    def download_url(self, resource_id: str, suffix: str, *, expires_s: int, file_name: str,
                     mime_type: str) -> str | None:
        """A presigned GET of the file (S3), or None when this service serves the bytes itself."""
        ...


class OperationLauncher(Protocol):
    """Starts the ingestion run of an operation (in-process thread locally, Step Functions on AWS)."""

    def start(self, operation_id: str) -> None:
        """Run the operation's ingestion in the background."""
        ...


class SpaceProvisioner(Protocol):
    """Prepares and releases what a space needs at the retrieval provider."""

    def prepare(self, space: Space) -> None:
        """Make the provider ready for the space (raises ProviderUnavailableError when it cannot)."""
        ...

    def release(self, space: Space) -> None:
        """Release the space's provider resources (raises ProviderUnavailableError when it cannot)."""
        ...


class DocumentPurger(Protocol):
    """Removes a deleted document's chunks and facts from the engine."""

    def purge(self, document_id: str) -> None:
        """Remove everything the document contributed (idempotent)."""
        ...


class EvidenceIndex(Protocol):
    """The engine's chunk index as the Gateway searches it (our HybridRetriever over the same index)."""

    def search(self, query: str, *, filters: SearchFilters, limit: int) -> list[ScoredChunk]:
        """Child passages best first: hybrid legs, RRF across ``filters.libraries``, deduped, capped per document.

        Raises:
            ProviderUnavailableError: the index cannot be read or reached.
        """
        ...

    def relabel(self, document_id: str, metadata: Metadata) -> None:
        """Stamp the document's current metadata on all its chunks (raises ProviderUnavailableError)."""
        ...

    def dense_pending(self, version_id: str) -> int | None:
        """Passages of a version still without a dense vector (0: the dense leg is complete); None without one."""
        ...


@dataclass(frozen=True, slots=True)
class GatewayConfig:
    """Policy settings of the Gateway."""

    admin_roles: frozenset[str]
    domains: Mapping[str, Sensitivity]
    upload_max_bytes: int
    upload_url_ttl_s: int
    public_url: str  # empty: each request's own base URL
    signing_key: bytes
    allowed_suffixes: tuple[str, ...]
    lease_s: float = 900.0  # a RUNNING run silent for longer is failed as retryable


def parse_domains(text: str) -> dict[str, Sensitivity]:
    """``public,internal`` or ``open=PUBLIC,secret=RESTRICTED``: each security domain code and its ceiling."""
    domains: dict[str, Sensitivity] = {}
    for item in (part.strip() for part in text.split(",")):
        if item:
            code, _, level = item.partition("=")
            domains[code.strip()] = Sensitivity.parse(level or code)
    return domains


def utcnow() -> datetime:
    """Now, in UTC, to the millisecond (what responses show)."""
    now = datetime.now(UTC)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def new_id(prefix: str) -> str:
    """An opaque business id such as ``doc-3f9c…`` (no colon: ids sit before ``:verb`` in paths)."""
    return f"{prefix}-{uuid.uuid4().hex[:20]}"


@dataclass
class Gateway:
    """The Gateway's ports and policy."""

    store: KnowledgeStore
    ingestion: OperationStore
    staging: StagingArea
    files: FileStorage
    launcher: OperationLauncher
    config: GatewayConfig
    provisioner: SpaceProvisioner
    purger: DocumentPurger
    texts: VersionTextStore  # each version's normalised text (citation reads)
    clock: Callable[[], datetime] = field(default=utcnow)
    evidence: EvidenceIndex | None = None  # None: no chunk index configured, search is unavailable

    def close(self) -> None:
        """Stop the background runs and close the stores' connections (the ports that hold any)."""
        for port in (self.launcher, self.store, self.ingestion, self.staging, self.texts):
            close = getattr(port, "close", None)
            if callable(close):
                close()

    def access(self, principal: Principal, space_id: str) -> Access:
        """What ``principal`` may do in a space (grants read now: nothing is cached)."""
        return access(principal, self.store.grants(space_id), admin_roles=self.config.admin_roles)

    def visible_space(self, principal: Principal, space_id: str, action: Action = Action.SPACE_VIEW) -> Space:
        """A space the caller may view and act on.

        Raises:
            HiddenResourceError: no such space, deleted, or the caller may not view it.
            ForbiddenError: the caller may view it but not perform ``action``.
        """
        space = self.store.space(space_id)
        if space is None or space.status is SpaceStatus.DELETED:
            raise not_found("knowledge space", space_id)
        require(self.access(principal, space_id), action, view=Action.SPACE_VIEW, domain=space.security_domain,
                kind="knowledge space", resource_id=space_id)
        return space

    def check_domain(self, code: str) -> None:
        """Refuse a security domain code that is not configured.

        Raises:
            ForbiddenError: not a configured code (no one holds a domain that does not exist).
        """
        if code not in self.config.domains:
            known = ", ".join(self.config.domains)
            raise ForbiddenError(f"security domain {code!r} is not configured here: use one of {known}",
                                 field_errors=(FieldError("defaultSecurityDomainCode", f"one of {known}"),))
