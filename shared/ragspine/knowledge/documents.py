"""Document services: list, get, upload, update, replace, reindex, enable, disable, delete.

Every mutation takes ``expectedVersion`` equal to the last read ``lockVersion`` and commits
conditionally on it (the store's transaction), then raises the lock by one. One candidate
version at a time: a change that needs a new candidate while one is running is
KNOWLEDGE_OPERATION_PENDING.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import PurePosixPath
from typing import Any

from ragspine.errors import ConflictError, FieldError, NotFoundError, OperationPendingError
from ragspine.knowledge.acl import not_found, require
from ragspine.knowledge.files import confirm_upload
from ragspine.knowledge.gateway import Gateway, new_id
from ragspine.knowledge.metadata import apply_patch, parse_upload
from ragspine.knowledge.model import (
    Action,
    ChangeType,
    Document,
    DocumentStatus,
    FileResource,
    Metadata,
    Principal,
    SpaceStatus,
    Version,
    VersionStatus,
)
from ragspine.knowledge.operations import finalize, new_operation, relabel, start_run, unfinished, version_status
from ragspine.knowledge.ports import Change

LOCK_MISMATCH = ("expectedVersion does not match the document's lockVersion: read the document again and retry "
                 "with its lockVersion")
PENDING = "the document has an unfinished operation: wait for it (or cancel it), then try again"


def visible_document(gateway: Gateway, principal: Principal, document_id: str,
                     action: Action = Action.DOCUMENT_VIEW) -> Document:
    """A document the caller may view and act on, with any finished run applied.

    Raises:
        HiddenResourceError: missing, deleted, or not viewable. ForbiddenError: viewable, action not held.
    """
    document = gateway.store.document(document_id)
    if document is None or document.status is DocumentStatus.DELETED:
        raise not_found("document", document_id)
    require(gateway.access(principal, document.space_id), action, view=Action.DOCUMENT_VIEW,
            domain=document.security_domain, kind="document", resource_id=document_id)
    return finalize(gateway, document)


def list_documents(gateway: Gateway, principal: Principal, space_id: str) -> list[Document]:
    """The space's documents the caller may view, oldest first."""
    gateway.visible_space(principal, space_id, Action.DOCUMENT_VIEW)
    granted = gateway.access(principal, space_id)
    return [finalize(gateway, d) for d in gateway.store.documents(space_id) if d.status is not DocumentStatus.DELETED
            and granted.holds(Action.DOCUMENT_VIEW, domain=d.security_domain)]


def searchable(gateway: Gateway, document: Document) -> bool:
    """Seed 003: only an ACTIVE document whose active version is READY is searchable."""
    if document.status is not DocumentStatus.ACTIVE or not document.active_version_id:
        return False
    version = gateway.store.version(document.active_version_id)
    return version is not None and version_status(gateway, version) is VersionStatus.READY


def _expect(document: Document, expected: int) -> None:
    if document.lock_version != expected:
        raise ConflictError(LOCK_MISMATCH, field_errors=(FieldError("expectedVersion", "does not match lockVersion"),))
    if document.status is DocumentStatus.DELETING:
        raise ConflictError("the document is being deleted")


def _no_running_candidate(gateway: Gateway, document: Document) -> None:
    if document.candidate_version_id is None:
        return
    candidate = gateway.store.version(document.candidate_version_id)
    operation = gateway.store.operation(candidate.operation_id) if candidate and candidate.operation_id else None
    if operation is not None and unfinished(gateway, operation):
        raise OperationPendingError(PENDING)


def _uploaded_file(gateway: Gateway, space_id: str, resource_id: str) -> FileResource:
    resource = gateway.store.file(resource_id)
    if resource is not None:
        resource = confirm_upload(gateway, resource)
    if resource is None or resource.space_id != space_id:
        raise NotFoundError(f"no file resource {resource_id} in this space: create one and upload the file first",
                            field_errors=(FieldError("fileResourceId", "unknown file resource"),))
    if not resource.uploaded:
        raise ConflictError("the file resource has no bytes yet: PUT the file to its uploadUrl first",
                            field_errors=(FieldError("fileResourceId", "not uploaded"),))
    return resource


def _version(gateway: Gateway, document: Document, number: int, kind: ChangeType, resource: FileResource,
             operation_id: str) -> Version:
    now = gateway.clock()
    return Version(id=new_id("ver"), document_id=document.id, number=number, change_type=kind,
                   status=VersionStatus.CREATED, file_resource_id=resource.id, file_name=resource.file_name,
                   mime_type=resource.mime_type, file_size=resource.file_size, operation_id=operation_id,
                   created_at=now, updated_at=now)


def _launch(gateway: Gateway, document: Document, kind: ChangeType, resource: FileResource, *,
            expected: int | None) -> tuple[Document, Version, str]:
    """Write a new candidate version and its operation with the document, then start the run."""
    number = len(gateway.store.versions(document.id)) + 1 if expected is not None else 1
    operation = new_operation(gateway, kind, document, "")
    version = _version(gateway, document, number, kind, resource, operation.id)
    operation = replace(operation, version_id=version.id)
    suffix = PurePosixPath(resource.file_name).suffix.lower()
    start_run(gateway, operation, version, location=gateway.files.location(resource.id, suffix),
              file_hash=resource.sha256 or "", sensitivity_code=document.security_domain, document=document)
    status = document.status
    if document.active_version_id is None and status is DocumentStatus.CREATE_FAILED:
        status = DocumentStatus.CREATING
    updated = replace(document, candidate_version_id=version.id, status=status,
                      lock_version=document.lock_version + (0 if expected is None else 1), updated_at=gateway.clock())
    gateway.store.commit(Change(document=updated, document_expected=expected, versions=[version],
                                operations=[operation]))
    gateway.launcher.start(operation.id)
    return updated, version, operation.id


def upload_document(gateway: Gateway, principal: Principal, space_id: str,
                    body: dict[str, Any]) -> tuple[Document, Version, str]:
    """Create a document and its first candidate version from an uploaded file resource; start its ingestion.

    Raises:
        NotFoundError, ForbiddenError, ConflictError (space not ACTIVE, file not uploaded), metadata errors.
    """
    space = gateway.visible_space(principal, space_id, Action.DOCUMENT_UPLOAD)
    metadata = parse_upload(body.get("metadata"))
    if space.status is not SpaceStatus.ACTIVE:
        raise ConflictError(f"the space is {space.status.value}: documents can be uploaded to an ACTIVE space only")
    resource = _uploaded_file(gateway, space_id, body["fileResourceId"])
    now = gateway.clock()
    document = Document(id=new_id("doc"), space_id=space_id, name=body["documentName"], status=DocumentStatus.CREATING,
                        lock_version=0, security_domain=space.security_domain, metadata=metadata,
                        active_version_id=None, candidate_version_id=None, created_at=now, updated_at=now)
    return _launch(gateway, document, ChangeType.UPLOAD, resource, expected=None)


def update_document(gateway: Gateway, principal: Principal, document_id: str, body: dict[str, Any]) -> Document:
    """Rename a document or change its metadata (PATCH semantics)."""
    document = visible_document(gateway, principal, document_id, Action.DOCUMENT_UPDATE)
    metadata: Metadata = apply_patch(document.metadata, body["metadata"]) if "metadata" in body else document.metadata
    _expect(document, body["expectedVersion"])
    updated = replace(document, name=body.get("documentName", document.name), metadata=metadata,
                      lock_version=document.lock_version + 1, updated_at=gateway.clock())
    gateway.store.commit(Change(document=updated, document_expected=document.lock_version))
    if metadata != document.metadata:
        relabel(gateway, updated)
    return updated


def replace_document(gateway: Gateway, principal: Principal, document_id: str,
                     body: dict[str, Any]) -> tuple[Document, Version, str]:
    """A new file for the document: a REPLACE candidate version and its ingestion."""
    document = visible_document(gateway, principal, document_id, Action.DOCUMENT_UPDATE)
    _expect(document, body["expectedVersion"])
    _no_running_candidate(gateway, document)
    resource = _uploaded_file(gateway, document.space_id, body["fileResourceId"])
    return _launch(gateway, document, ChangeType.REPLACE, resource, expected=document.lock_version)


def reindex_document(gateway: Gateway, principal: Principal, document_id: str,
                     body: dict[str, Any]) -> tuple[Document, Version, str]:
    """Process the active version's file again: a REINDEX candidate version."""
    document = visible_document(gateway, principal, document_id, Action.DOCUMENT_REINDEX)
    _expect(document, body["expectedVersion"])
    _no_running_candidate(gateway, document)
    active = gateway.store.version(document.active_version_id) if document.active_version_id else None
    if active is None:
        raise ConflictError("the document has no active version to reindex: upload or replace its file")
    resource = gateway.store.file(active.file_resource_id)
    if resource is None:
        raise ConflictError("the active version's file is gone: replace the document's file")
    return _launch(gateway, document, ChangeType.REINDEX, resource, expected=document.lock_version)


def set_enabled(gateway: Gateway, principal: Principal, document_id: str, body: dict[str, Any], *,
                enabled: bool) -> Document:
    """Enable or disable a document (a disabled document is never searchable)."""
    document = visible_document(gateway, principal, document_id, Action.DOCUMENT_UPDATE)
    _expect(document, body["expectedVersion"])
    if document.enabled == enabled:
        raise ConflictError(f"the document is already {'enabled' if enabled else 'disabled'}")
    if enabled:
        status = DocumentStatus.ACTIVE if document.active_version_id else (
            DocumentStatus.CREATING if document.candidate_version_id else DocumentStatus.CREATE_FAILED)
    else:
        status = DocumentStatus.DISABLED
    updated = replace(document, enabled=enabled, status=status, lock_version=document.lock_version + 1,
                      updated_at=gateway.clock())
    gateway.store.commit(Change(document=updated, document_expected=document.lock_version))
    return updated


def delete_document(gateway: Gateway, principal: Principal, document_id: str, body: dict[str, Any]) -> Document:
    """Delete a document: DELETING, its chunks and facts removed, then DELETED with every version (and their texts)."""
    document = visible_document(gateway, principal, document_id, Action.DOCUMENT_DELETE)
    _expect(document, body["expectedVersion"])
    _no_running_candidate(gateway, document)
    deleting = replace(document, status=DocumentStatus.DELETING, lock_version=document.lock_version + 1,
                       updated_at=gateway.clock())
    gateway.store.commit(Change(document=deleting, document_expected=document.lock_version))
    gateway.purger.purge(document.id)
    now = gateway.clock()
    versions = [replace(v, status=VersionStatus.DELETED, updated_at=now) for v in gateway.store.versions(document.id)]
    deleted = replace(deleting, status=DocumentStatus.DELETED, active_version_id=None, candidate_version_id=None,
                      updated_at=now)
    gateway.store.commit(Change(document=deleted, document_expected=deleting.lock_version, versions=versions))
    for version in versions:  # citations of a deleted version no longer read
        gateway.texts.delete(version.id)
    return deleted
