"""Gateway records as the contract's DTOs (``KnowledgeSpace``, ``KnowledgeDocumentDetail``, ``Operation``, ...)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from ragspine.knowledge.documents import searchable
from ragspine.knowledge.gateway import Gateway
from ragspine.knowledge.metadata import metadata_json
from ragspine.knowledge.model import PROFILE_CODE, Document, GatewayOperation, Space, Version, VersionStatus
from ragspine.knowledge.operations import RunState, run_state, version_status
from ragspine.knowledge.spaces import document_count
from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    from ragspine.knowledge import downloads
    from ragspine.knowledge.citations import CitationRead
    from ragspine.knowledge.downloads import DownloadLink
else:
    # Loaded on first use, not at import: a Lambda importing this module does not pay for them at cold start.
    downloads = LazyModule("ragspine.knowledge.downloads")

NO_RELIABLE_PERCENT = "the provider gave no reliable percentage"


def iso(value: datetime) -> str:
    """UTC, milliseconds, ``Z``."""
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def space_view(gateway: Gateway, space: Space) -> dict[str, Any]:
    """``KnowledgeSpace``."""
    return {"knowledgeSpaceId": space.id, "code": space.code, "name": space.name, "description": space.description,
            "profileCode": PROFILE_CODE, "defaultSecurityDomainCode": space.security_domain,
            "status": space.status.value, "version": space.version,
            "documentCount": document_count(gateway, space.id), "createdAt": iso(space.created_at),
            "updatedAt": iso(space.updated_at)}


def progress(percent: int | None, source: str, at: datetime) -> dict[str, Any]:
    """``Progress``: a null percent says the provider gave no reliable one (never 0)."""
    return {"percent": percent, "source": source, "note": None if percent is not None else NO_RELIABLE_PERCENT,
            "updatedAt": iso(at)}


def version_view(gateway: Gateway, version: Version) -> dict[str, Any]:
    """``DocumentVersion`` with its operation's live state."""
    status = version_status(gateway, version)
    state = run_state(gateway, version.operation_id) if version.operation_id else None
    if status in (VersionStatus.READY, VersionStatus.RETIRED):
        shown = progress(100, "LIFECYCLE", version.updated_at)
    elif state is not None:
        shown = progress(state.percent, state.progress_source, state.updated_at or version.updated_at)
    else:
        shown = progress(None, "UNAVAILABLE", version.updated_at)
    failed = state is not None and status in (VersionStatus.FAILED, VersionStatus.CANCELLED) and state.error_code
    return {"versionId": version.id, "versionNo": version.number, "changeType": version.change_type.value,
            "status": status.value, "fileName": version.file_name, "mimeType": version.mime_type,
            "fileSize": version.file_size, "operationId": version.operation_id,
            "operationStatus": state.status.value if state else None, "progress": shown,
            "error": {"code": state.error_code, "message": state.error_message or ""} if failed and state else None,
            "retryable": bool(state and state.retryable), **run_report(state),
            **dense_state(gateway, version, status), "createdAt": iso(version.created_at),
            "updatedAt": iso(version.updated_at)}


def dense_state(gateway: Gateway, version: Version, status: VersionStatus) -> dict[str, Any]:
    """Whether a READY version's passages all have their dense vectors (null before READY or without a dense leg).

    BM25 finds a version as soon as it is READY; on the embedded index its dense vectors follow
    in the background, and until then hybrid search ranks its passages by BM25 alone.
    """
    pending = None
    if status is VersionStatus.READY and gateway.evidence is not None:
        pending = gateway.evidence.dense_pending(version.id)
    return {"densePending": pending, "denseComplete": None if pending is None else pending == 0}


def run_report(state: RunState | None) -> dict[str, Any]:
    """What the run read: its warnings, its page count and pages per second (null when not known)."""
    if state is None:
        return {"warnings": [], "pages": None, "pagesPerSecond": None}
    return {"warnings": list(state.warnings), "pages": state.pages, "pagesPerSecond": state.pages_per_second}


def _slot(gateway: Gateway, version_id: str | None) -> Version | None:
    return gateway.store.version(version_id) if version_id else None


def detail_view(gateway: Gateway, document: Document) -> dict[str, Any]:
    """``KnowledgeDocumentDetail``: both version slots, the lock and searchability."""
    active, candidate = _slot(gateway, document.active_version_id), _slot(gateway, document.candidate_version_id)
    return {"documentId": document.id, "spaceId": document.space_id, "documentName": document.name,
            "status": document.status.value, "lockVersion": document.lock_version,
            "searchable": searchable(gateway, document), "securityDomainCode": document.security_domain,
            "metadata": metadata_json(document.metadata),
            "activeVersion": version_view(gateway, active) if active else None,
            "candidateVersion": version_view(gateway, candidate) if candidate else None,
            "createdAt": iso(document.created_at), "updatedAt": iso(document.updated_at)}


def summary_view(gateway: Gateway, document: Document) -> dict[str, Any]:
    """``DocumentSummary`` (lists and synchronous mutations)."""
    active, candidate = _slot(gateway, document.active_version_id), _slot(gateway, document.candidate_version_id)
    return {"documentId": document.id, "knowledgeSpaceId": document.space_id, "documentName": document.name,
            "status": document.status.value, "lockVersion": document.lock_version,
            "searchable": searchable(gateway, document), "metadata": metadata_json(document.metadata),
            "activeVersionNo": active.number if active else None,
            "candidateVersionNo": candidate.number if candidate else None,
            "createdAt": iso(document.created_at), "updatedAt": iso(document.updated_at)}


def change_view(gateway: Gateway, document: Document, version: Version, operation_id: str) -> dict[str, Any]:
    """``DocumentChangeResult`` of upload, replace and reindex."""
    return {"documentId": document.id, "knowledgeSpaceId": document.space_id, "lockVersion": document.lock_version,
            "status": document.status.value, "versionId": version.id, "versionNo": version.number,
            "operationId": operation_id, "operationStatus": run_state(gateway, operation_id).status.value}


def operation_view(gateway: Gateway, operation: GatewayOperation) -> dict[str, Any]:
    """``Operation``: status, retries (automatic and manual), progress and error."""
    state = run_state(gateway, operation.id)
    chain = gateway.store.operations(root_id=operation.root_id)
    retries = [op for op in chain if op.retry_no > 0]
    at = state.updated_at or operation.created_at
    return {"operationId": operation.id, "operationType": operation.type.value, "status": state.status.value,
            "knowledgeSpaceId": operation.space_id, "documentId": operation.document_id,
            "versionId": operation.version_id, "parentOperationId": operation.parent_id,
            "rootOperationId": operation.root_id, "retryable": state.retryable, "retryCount": state.retry_count,
            "manualRetryCount": len(retries), "lastRetryAt": iso(retries[-1].created_at) if retries else None,
            "nextRetryAt": iso(state.next_retry_at) if state.next_retry_at else None,
            "progress": progress(state.percent, state.progress_source, at), **run_report(state),
            "tableFacts": table_facts(state), "denseProgress": dense_progress(state),
            "error": {"code": state.error_code, "message": state.error_message or ""} if state.error_code else None,
            "createdAt": iso(operation.created_at), "updatedAt": iso(at)}


def dense_progress(state: RunState) -> dict[str, Any] | None:
    """``DenseProgress``: the version's passages with a dense vector, the rate and time left; null before any."""
    dense = state.dense
    if dense is None:
        return None
    return {"done": dense.done, "total": dense.total, "passagesPerSecond": dense.per_second,
            "secondsLeft": dense.seconds_left, "updatedAt": iso(dense.updated_at)}


def table_facts(state: RunState) -> dict[str, Any] | None:
    """``TableFacts``: how many facts the run's table reading found and a sample of them; null before it read."""
    if state.facts_read is None:
        return None
    return {"count": state.facts_read, "published": False,
            "sample": [{"metric": f.metric[:300], "entity": f.entity[:300], "period": f.period[:64], "value": f.value,
                        "unit": f.unit[:32], "locator": f.locator[:1000]} for f in state.facts_sample]}


def citation_view(read: CitationRead) -> dict[str, Any]:
    """A ``KnowledgeSourceRead``: the three parts, the requested and actual counts, the locator."""
    view: dict[str, Any] = {
        "knowledgeSpaceId": read.space_id, "documentId": read.document_id, "versionId": read.version_id,
        "citationId": read.citation_id, "beforeContent": read.before, "matchedContent": read.matched,
        "afterContent": read.after, "contextBeforeRequested": read.before_requested,
        "contextAfterRequested": read.after_requested, "contextBeforeActual": len(read.before),
        "contextAfterActual": len(read.after), "matchedContentLength": len(read.matched),
        "totalLength": len(read.before) + len(read.matched) + len(read.after),
        "beforeTruncated": read.before_truncated, "matchedTruncated": read.matched_truncated,
        "afterTruncated": read.after_truncated, "pageStart": read.page_start, "pageEnd": read.page_end,
        "locatorPrecision": "EXACT_OFFSET" if read.exact else "CHUNK_APPROXIMATE",
        "startOffset": read.start, "endOffset": read.end}
    if read.chapter_path:
        view["chapterPath"] = list(read.chapter_path)
    return view


def download_view(link: DownloadLink) -> dict[str, Any]:
    """A ``DownloadLink`` (``expiresInSeconds`` is always 60)."""
    return {"documentId": link.document_id, "versionId": link.version_id, "fileName": link.file_name,
            "mimeType": link.mime_type, "fileSize": link.file_size, "downloadUrl": link.url,
            "expiresAt": iso(link.expires_at), "expiresInSeconds": downloads.EXPIRES_IN_S}
