"""Submitting files for ingestion: which files, their metadata, and one idempotent operation each."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine.errors import ConflictError, InvalidInputError, NotFoundError
from ragspine.ingestion.operations import (
    Operation,
    OperationCancelledError,
    OperationError,
    OperationKey,
    OperationStatus,
    OperationStore,
    utcnow,
)
from ragspine.lazy import LazyModule
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from datetime import datetime

    from ragspine.ingestion import document_context, lifecycle
    from ragspine.ingestion import errors as ingestion_errors
else:
    # Loaded on first use, not at import: a Lambda importing this module does not pay for them at cold start.
    document_context = LazyModule("ragspine.ingestion.document_context")
    ingestion_errors = LazyModule("ragspine.ingestion.errors")
    lifecycle = LazyModule("ragspine.ingestion.lifecycle")

MANIFEST = "manifest.yaml"
SIDECAR_SUFFIX = ".meta.json"
_UNREADABLE = "unreadable"


@dataclass(frozen=True, slots=True)
class DocumentMeta:
    """What the uploader says about a document; copied onto its chunks and facts.

    ``context`` holds the stated ``company``, ``period``, ``doc_type`` and ``title`` (see
    ``ingestion.document_context``), as sorted pairs.
    """

    sensitivity: Sensitivity = Sensitivity.INTERNAL
    library: str = "default"
    context: tuple[tuple[str, str], ...] = ()


def stated_context(values: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The document-context keys of a manifest entry, sidecar or object metadata (``doc-type`` = ``doc_type``)."""
    found = {str(k).lower().replace("-", "_"): str(v).strip() for k, v in values.items() if v is not None}
    return tuple(sorted((key, found[key]) for key in document_context.CONTEXT_KEYS if found.get(key)))


def collect_files(paths: Iterable[Path], *, recursive: bool = False) -> list[Path]:
    """The files to ingest: each file given, plus the files of each folder (sorted).

    Hidden files, ``manifest.yaml`` and ``*.meta.json`` sidecars are metadata, not documents.
    A path that does not exist is kept, so it ends as a FAILED operation the user sees.
    """
    found: list[Path] = []
    for path in paths:
        if not path.is_dir():
            found.append(path)
            continue
        members = path.rglob("*") if recursive else path.iterdir()
        found += sorted(p for p in members if p.is_file() and not _is_metadata(p))
    return found


def _is_metadata(path: Path) -> bool:
    return path.name.startswith(".") or path.name == MANIFEST or path.name.endswith(SIDECAR_SUFFIX)


def document_meta(path: Path, *, sensitivity: Sensitivity | None = None, library: str | None = None) -> DocumentMeta:
    """A file's metadata: explicit options, else its ``<file>.meta.json``, else its folder's manifest.

    Raises:
        InvalidInputError: a sidecar or manifest names an unknown sensitivity.
    """
    found = _manifest_entry(path)
    sidecar = path.with_name(path.name + SIDECAR_SUFFIX)
    if sidecar.is_file():
        found.update(json.loads(sidecar.read_text(encoding="utf-8")))
    try:
        level = sensitivity or (Sensitivity.parse(str(found["sensitivity"])) if "sensitivity" in found
                                else Sensitivity.INTERNAL)
    except ValueError as exc:
        raise InvalidInputError(f"{path.name}: {exc}") from exc
    return DocumentMeta(sensitivity=level, library=library or str(found.get("library", "default")),
                        context=stated_context(found))


def _manifest_entry(path: Path) -> dict[str, Any]:
    manifest = path.parent / MANIFEST
    try:
        changed = manifest.stat().st_mtime_ns
    except OSError:
        return {}
    return dict(_manifest_entries(manifest, changed).get(path.name, {}))


@lru_cache(maxsize=32)
def _manifest_entries(manifest: Path, changed: int) -> dict[str, dict[str, Any]]:
    """A folder's manifest by file name, read once per version of the file (``changed``: its mtime)."""
    import yaml

    body = yaml.safe_load(manifest.read_text(encoding="utf-8")) or {}
    entries = body.get("documents", []) if isinstance(body, dict) else []
    return {str(e["file"]): dict(e) for e in entries if isinstance(e, dict) and "file" in e}


def hash_file(path: Path) -> str | None:
    """``sha256:<hex>`` of a file, read in blocks; None when it cannot be read."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return "sha256:" + digest.hexdigest()


def submit(path: Path, *, operations: OperationStore, meta: DocumentMeta, doc_id: str | None = None,
           version_id: str | None = None) -> tuple[Operation, bool]:
    """Record (or find) the operation for one file; replaying the same file returns the same one.

    Args:
        path: The file to ingest.
        operations: Where operations are recorded.
        meta: Sensitivity and library of the document.
        doc_id: The document id; default: the file name (facts cite it as ``source_doc_id``).
        version_id: The caller's version id; default: derived from the file's hash.

    Returns:
        The operation and whether it was created now.
    """
    digest = hash_file(path)
    document = doc_id or path.name
    version = version_id or (f"v-{digest.removeprefix('sha256:')[:16]}" if digest else _UNREADABLE)
    key = OperationKey(document, version_id or digest or f"{_UNREADABLE}:{path}")
    draft = Operation(id=f"op-{uuid.uuid4().hex}", doc_id=document, version_id=version, file_hash=digest or "",
                      source=str(path), sensitivity=meta.sensitivity, library=meta.library, context=meta.context)
    return operations.create_or_get(key, draft)


def reopen(operation_id: str, *, operations: OperationStore) -> Operation:
    """Put a FAILED operation whose error is retryable back to PENDING, for a manual retry.

    Its retry count and warnings stay; every step is idempotent, so the run starts from fetch.

    Raises:
        NotFoundError: no such operation.
        ConflictError: the operation did not fail, or failed in a way a retry cannot fix.
    """
    operation = operations.get(operation_id)
    if operation is None:
        raise NotFoundError(f"no ingestion operation {operation_id}")
    if operation.status is not OperationStatus.FAILED or operation.error is None or not operation.error.retryable:
        why = (f"it is {operation.status.value}" if operation.status is not OperationStatus.FAILED
               else "its error is not retryable: fix the file and upload it again")
        raise ConflictError(f"operation {operation_id} cannot be retried: {why}")
    return operations.save(replace(operation, status=OperationStatus.PENDING, error=None, finished_at=None))


def cancel(operation_id: str, *, operations: OperationStore) -> Operation | None:
    """Cancel an operation that has not finished; the runner stops before its next step.

    Raises:
        TooLateToCancelError: it finished meanwhile, or is activating its version (then the
            version goes live: cancelling it now would report a cancel that did not happen).
    """
    operation = operations.get(operation_id)
    if operation is None or operation.status.finished:
        return operation
    return operations.save(replace(operation, status=OperationStatus.CANCELLED, finished_at=utcnow()))


RUNNER_LOST = "INGEST_RUNNER_LOST"


def reap_if_stale(operation: Operation, *, operations: OperationStore, lease_s: float,
                  now: datetime | None = None) -> Operation:
    """A RUNNING operation whose runner renewed no lease for ``lease_s`` becomes FAILED, retryable.

    The runner heartbeats before every step, so a silence longer than the longest step means
    it died (process killed, Lambda timeout). Running it again is safe: every step is idempotent.
    """

    if operation.status is not OperationStatus.RUNNING:
        return operation
    moment = now or utcnow()
    beat = operation.heartbeat_at or operation.started_at or operation.updated_at
    if beat is None or moment - beat <= timedelta(seconds=lease_s):
        return operation
    error = OperationError(RUNNER_LOST, f"the runner stopped renewing its lease for over {lease_s:g} s (process "
                                        "killed or timed out); retry the operation", True)
    try:
        return lifecycle.fail(operations, operation, error, now=moment)
    except OperationCancelledError:  # cancelled meanwhile: that is its end state
        return operations.get(operation.id) or operation


def submit_object(bucket: str, key: str, *, version: str, operations: OperationStore) -> tuple[Operation, bool]:
    """Record (or find) the operation for one uploaded S3 object; replaying its event returns the same one.

    Args:
        bucket: The bucket.
        key: The object key, already URL-decoded.
        version: The object's version id, or its ETag when the bucket is not versioned.
        operations: Where operations are recorded.

    Returns:
        The operation (its source is ``s3://bucket/key``) and whether it was created now. Its
        sensitivity and library are read from the object's metadata at ``fetch``.
    """
    document = key.rsplit("/", 1)[-1]
    version = version.strip('"')
    draft = Operation(id=f"op-{uuid.uuid4().hex}", doc_id=document,
                      version_id=f"v-{hashlib.sha256(version.encode()).hexdigest()[:16]}", file_hash="",
                      source=f"s3://{bucket}/{key}")
    return operations.create_or_get(OperationKey(document, f"s3://{bucket}/{key}#{version}"), draft)


def object_meta(document: str, metadata: Mapping[str, str]) -> DocumentMeta:
    """Sensitivity and library from an upload's user metadata (``x-amz-meta-sensitivity``, ``-library``).

    Without them the document is INTERNAL in the default library, as on the embedded default.

    Raises:
        InvalidMetadataError: an unknown sensitivity (guessing a lower level could expose a
            RESTRICTED document, so the upload fails instead).
    """
    values = {name.lower(): value for name, value in metadata.items()}
    try:
        level = Sensitivity.parse(values["sensitivity"]) if "sensitivity" in values else Sensitivity.INTERNAL
    except ValueError as exc:
        raise ingestion_errors.InvalidMetadataError(f"{document}: x-amz-meta-sensitivity: {exc}; "
                                                    "upload it again with a valid level.") from exc
    return DocumentMeta(sensitivity=level, library=values.get("library") or "default", context=stated_context(values))
