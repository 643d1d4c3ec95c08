"""Find the stored version a citation names and decide whether its region may be shown.

A citation names a document and, where known, the version it cited (``sha256:<hex>`` of the
file). The version is found among the document's ingestion operations; its bytes are read from
where that operation read them and checked against the hash, so the region shown is the one
cited, or the reader is told the version is gone. The same sensitivity rule as the answer
applies: RESTRICTED, or above the service's ceiling, is withheld and no byte of it is read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ragspine.errors import NotFoundError
from ragspine.ingestion.errors import SourceNotFoundError
from ragspine.ingestion.operations import Operation, OperationStatus, OperationStore, StagingArea
from ragspine.ingestion.sources import SourceReader, read_uri, scheme_of
from ragspine.sensitivity import Sensitivity

MAX_EVIDENCE_BYTES = 50 * 1024 * 1024


class VersionGoneError(NotFoundError):
    """The cited version of the document is no longer stored (replaced and its file removed)."""

    http_status = 410


@dataclass(frozen=True, slots=True)
class StoredVersion:
    """One document version the evidence view may render."""

    doc_id: str
    version: str  # the file's hash
    version_id: str
    sensitivity: Sensitivity
    active: bool
    operation: Operation

    @property
    def suffix(self) -> str:
        """The file type, from the document id or the source name."""
        suffix = PurePosixPath(self.doc_id).suffix.lower()
        return suffix or PurePosixPath(self.operation.source).suffix.lower()


class EvidenceLibrary:
    """Versions of documents, read through the ingestion operations that stored them."""

    def __init__(self, operations: OperationStore, staging: StagingArea, *, max_sensitivity: Sensitivity,
                 gateway_status: Callable[[str], str | None] | None = None,
                 sources: Mapping[str, SourceReader] | None = None) -> None:
        """``gateway_status`` gives a Knowledge Gateway document's status (None: no such document);
        ``sources`` reads the versions stored under a scheme (``s3://``), by scheme."""
        self._operations = operations
        self._staging = staging
        self._max = max_sensitivity
        self._gateway_status = gateway_status
        self._sources: Mapping[str, SourceReader] = sources or {}

    def shows(self, sensitivity: Sensitivity) -> bool:
        """Whether an answer may show text or figures of this level (never RESTRICTED, never above the ceiling)."""
        return sensitivity < Sensitivity.RESTRICTED and sensitivity <= self._max

    def withheld(self, version: StoredVersion) -> bool:
        """True when the answer path would never show this document's text (RESTRICTED, or disabled in its space)."""
        if not self.shows(version.sensitivity):
            return True
        return version.operation.space is not None and self._status(version) != "ACTIVE"

    def _status(self, version: StoredVersion) -> str | None:
        return self._gateway_status(version.doc_id) if self._gateway_status is not None else None

    def find(self, doc_id: str, version: str | None = None) -> StoredVersion:
        """The version ``version`` of ``doc_id`` (default: the active one).

        Raises:
            NotFoundError: no such document, or no such version of it.
        """
        active = self._staging.active(doc_id)
        active_id = active[0].version_id if active else None
        done = [op for op in self._operations.list_operations(doc_id=doc_id) if op.status is OperationStatus.SUCCEEDED]
        if not done:
            raise NotFoundError(f"no stored document {doc_id!r}; cite a document the service has ingested")
        if version:
            chosen = next((op for op in reversed(done) if op.file_hash == version), None)
            if chosen is None:
                raise VersionGoneError(f"version {version} of {doc_id} is not stored; "
                                       "ask again to cite the current one")
        else:
            chosen = next((op for op in reversed(done) if op.version_id == active_id), done[-1])
        found = StoredVersion(doc_id=doc_id, version=chosen.file_hash, version_id=chosen.version_id,
                              sensitivity=chosen.sensitivity, active=chosen.version_id == active_id, operation=chosen)
        if chosen.space is not None and self._status(found) in (None, "DELETING", "DELETED"):
            raise NotFoundError(f"document {doc_id!r} was deleted from its knowledge space")
        return found

    def corpus(self) -> list[StoredVersion]:
        """The active version of every document of the service's own corpus the page may show, by id.

        A knowledge space's documents belong to the Knowledge Gateway (its callers, its ACL) and a
        RESTRICTED or above-ceiling document is never named, as no answer would name it.
        """
        found = []
        for active in self._staging.active():
            operation = self._operations.get(active.operation_id)
            if operation is None or operation.space is not None or not self.shows(operation.sensitivity):
                continue
            found.append(StoredVersion(doc_id=active.doc_id, version=operation.file_hash,
                                       version_id=operation.version_id, sensitivity=operation.sensitivity,
                                       active=True, operation=operation))
        return found

    def versions(self, doc_id: str) -> list[Operation]:
        """The stored (succeeded) versions of ``doc_id``, oldest first."""
        return [op for op in self._operations.list_operations(doc_id=doc_id) if op.status is OperationStatus.SUCCEEDED]

    def active_versions(self, doc_ids: set[str]) -> dict[str, str]:
        """The file hash of each document's active version (for pinning passage citations)."""
        pinned: dict[str, str] = {}
        for doc_id in doc_ids:
            try:
                pinned[doc_id] = self.find(doc_id).version
            except NotFoundError:
                continue
        return pinned

    def read(self, version: StoredVersion) -> bytes:
        """The bytes of ``version``, checked against its hash.

        Raises:
            VersionGoneError: the file was removed or now holds other content.
        """
        source = version.operation.source
        if scheme_of(source) is not None:
            try:
                data, _ = read_uri(source, self._sources, max_bytes=MAX_EVIDENCE_BYTES)
            except SourceNotFoundError as exc:
                raise VersionGoneError(f"the file of {version.doc_id} ({version.version_id}) is no longer "
                                       "stored; ask again to cite the current version") from exc
        else:
            try:
                data = Path(source).read_bytes()
            except OSError as exc:
                raise VersionGoneError(f"the file of {version.doc_id} ({version.version_id}) is no longer "
                                       "stored; ask again to cite the current version") from exc
        if version.version and "sha256:" + hashlib.sha256(data).hexdigest() != version.version:
            raise VersionGoneError(f"{version.doc_id} changed since version {version.version_id} was cited; "
                                   "ask again to cite the current version")
        return data
