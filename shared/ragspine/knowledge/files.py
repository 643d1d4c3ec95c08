"""File resources: a declared upload (name, type, size) and a signed, expiring PUT URL for its bytes.

The embedded default serves the URL itself (``PUT .../file-resources/{id}/content?expires=&signature=``):
the signature is an HMAC of the id and expiry with a key kept in the data folder, so the URL
names no storage key and cannot be reused for another resource or after it expires. An expiry further
ahead than the configured upload URL lifetime (plus clock skew) is refused like a bad signature.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import replace
from datetime import timedelta
from pathlib import Path, PurePosixPath
from typing import Any

from ragspine.errors import ConflictError, FieldError, InvalidInputError, NotFoundError, PayloadTooLargeError
from ragspine.knowledge.gateway import Gateway, new_id
from ragspine.knowledge.identity import secret_file
from ragspine.knowledge.link_lifetime import beyond_issued_lifetime
from ragspine.knowledge.model import Action, FileResource, Principal, SpaceStatus

_ALREADY_UPLOADED = "the file resource already has its bytes: create a new file resource for another file"
_INVALID_UPLOAD_URL = "this upload URL is invalid or has expired: create a new file resource"


def signing_key(data_dir: Path) -> bytes:
    """The local URL-signing key, created (mode 0600) on first use."""
    return secret_file(data_dir / "knowledge-url-signing.key")


def sign(key: bytes, resource_id: str, expires: int) -> str:
    """The signature of one resource's upload URL."""
    return hmac.new(key, f"upload:{resource_id}:{expires}".encode(), hashlib.sha256).hexdigest()


def create_file_resource(gateway: Gateway, principal: Principal, space_id: str, body: dict[str, Any], *,
                         base_url: str) -> tuple[FileResource, str]:
    """Reserve a file resource in a space the caller may upload to; return it and its upload URL.

    ``base_url`` is where callers reach this service (configured, or the request's own base URL).

    Raises:
        NotFoundError, ForbiddenError, ConflictError (space not ACTIVE), InvalidInputError (size or type).
    """
    space = gateway.visible_space(principal, space_id, Action.DOCUMENT_UPLOAD)
    if space.status is not SpaceStatus.ACTIVE:
        raise ConflictError(f"the space is {space.status.value}: files can be uploaded to an ACTIVE space only")
    limit = gateway.config.upload_max_bytes
    if body["fileSize"] > limit:
        raise InvalidInputError(f"the file has {body['fileSize']} bytes; the limit is {limit}",
                                field_errors=(FieldError("fileSize", f"at most {limit} bytes"),))
    suffix = PurePosixPath(body["fileName"]).suffix.lower()
    if suffix not in gateway.config.allowed_suffixes:
        allowed = ", ".join(gateway.config.allowed_suffixes)
        raise InvalidInputError(f"files of type {suffix or '(none)'!r} cannot be ingested: use {allowed}",
                                field_errors=(FieldError("fileName", f"extension one of {allowed}"),))
    expires_at = gateway.clock() + timedelta(seconds=gateway.config.upload_url_ttl_s)
    resource = FileResource(id=new_id("fr"), space_id=space_id, file_name=body["fileName"],
                            mime_type=body["mimeType"], file_size=body["fileSize"], uploaded=False,
                            created_by=principal.user_id, expires_at=expires_at)
    gateway.store.put_file(resource)
    presigned = gateway.files.upload_url(resource.id, suffix, expires_s=gateway.config.upload_url_ttl_s,
                                         mime_type=resource.mime_type)
    if presigned is not None:
        return resource, presigned
    expires = int(expires_at.timestamp())
    url = (f"{base_url.rstrip('/')}/internal/v1/knowledge/file-resources/{resource.id}/content"
           f"?expires={expires}&signature={sign(gateway.config.signing_key, resource.id, expires)}")
    return resource, url


def confirm_upload(gateway: Gateway, resource: FileResource) -> FileResource:
    """A resource whose bytes went straight to storage (S3 presigned PUT): uploaded once ``fileSize`` bytes are
    there, sealed (a later PUT to the link changes nothing) and recorded with their hash."""
    if resource.uploaded:
        return resource
    digest = gateway.files.seal(resource.id, PurePosixPath(resource.file_name).suffix.lower(),
                                size=resource.file_size)
    if digest is None:
        return resource
    stored = replace(resource, uploaded=True, sha256=digest)
    gateway.store.put_file(stored)
    return stored


def invalid_upload_url() -> NotFoundError:
    """The refusal of an upload URL that was not issued as it is (altered, forged, expired or used)."""
    return NotFoundError(_INVALID_UPLOAD_URL)


def check_upload_link(gateway: Gateway, resource_id: str, *, expires: int, signature: str) -> FileResource:
    """The file resource a signed upload URL names, checked before any byte of the body is read.

    Raises:
        NotFoundError: a bad or expired signature, an expiry beyond the URL lifetime this service issues,
            or no such resource (one answer: nothing to probe).
        ConflictError: the resource already has its bytes.
    """
    now = gateway.clock()
    if beyond_issued_lifetime(expires, now=now, lifetime_s=gateway.config.upload_url_ttl_s):
        raise NotFoundError(_INVALID_UPLOAD_URL)
    expected = sign(gateway.config.signing_key, resource_id, expires)
    resource = gateway.store.file(resource_id)
    # Bytes, not str: compare_digest refuses non-ASCII text, and a URL may carry any signature.
    given = signature.encode("utf-8", "surrogatepass")
    valid = hmac.compare_digest(expected.encode(), given) and expires >= int(now.timestamp())
    if not valid or resource is None:
        raise NotFoundError(_INVALID_UPLOAD_URL)
    if resource.uploaded:
        raise ConflictError(_ALREADY_UPLOADED)
    return resource


def receive_upload(gateway: Gateway, resource_id: str, *, expires: int, signature: str, data: bytes) -> FileResource:
    """Store the bytes PUT to a signed URL.

    Raises:
        NotFoundError: a bad or expired signature, an expiry beyond the URL lifetime this service issues,
            or no such resource (one answer: nothing to probe).
        ConflictError: the resource already has its bytes.
        PayloadTooLargeError / InvalidInputError: more / other bytes than declared.
    """
    resource = check_upload_link(gateway, resource_id, expires=expires, signature=signature)
    if len(data) > resource.file_size:
        raise PayloadTooLargeError(f"the body has more bytes than the declared fileSize ({resource.file_size})")
    if len(data) != resource.file_size:
        raise InvalidInputError(f"the body has {len(data)} bytes; the file resource declared {resource.file_size}",
                                field_errors=(FieldError("body", "size differs from fileSize"),))
    suffix = PurePosixPath(resource.file_name).suffix.lower()
    # The link is single-use: of concurrent PUTs exactly one creates the file (an exclusive create,
    # not an overwrite), and the hash recorded is that of the bytes it stored.
    if not gateway.files.put_once(resource.id, suffix, data):
        raise ConflictError(_ALREADY_UPLOADED)
    stored = replace(resource, uploaded=True, sha256="sha256:" + hashlib.sha256(data).hexdigest())
    gateway.store.put_file(stored)
    return stored


class LocalFileStorage:
    """Uploaded files under ``<data>/knowledge-files`` (ingestion reads them from there)."""

    def __init__(self, root: Path) -> None:
        self._root = root

    def upload_url(self, resource_id: str, suffix: str, *, expires_s: int, mime_type: str) -> str | None:
        """None: this service receives the bytes at its own signed URL."""
        return None

    def size(self, resource_id: str, suffix: str) -> int | None:
        """The stored file's size, or None."""
        path = Path(self.location(resource_id, suffix))
        return path.stat().st_size if path.is_file() else None

    def seal(self, resource_id: str, suffix: str, *, size: int) -> str | None:
        """The ``sha256:<hex>`` of the stored file when it has ``size`` bytes (it never changes once put), else None."""
        path = Path(self.location(resource_id, suffix))
        if not path.is_file():
            return None
        data = path.read_bytes()
        return "sha256:" + hashlib.sha256(data).hexdigest() if len(data) == size else None

    def download_url(self, resource_id: str, suffix: str, *, expires_s: int, file_name: str,
                     mime_type: str) -> str | None:
        """None: this service serves the bytes at its own signed download URL."""
        return None

    def location(self, resource_id: str, suffix: str) -> str:
        """The file's path: the resource id plus the original extension (the parser picks by it)."""
        return str(self._root / f"{resource_id}{suffix}")

    def put(self, resource_id: str, suffix: str, data: bytes) -> str:
        """Write the bytes atomically (a temporary file renamed into place)."""
        target, partial = self._partial(resource_id, suffix, data)
        partial.replace(target)
        return str(target)

    def put_once(self, resource_id: str, suffix: str, data: bytes) -> bool:
        """Write the bytes unless the file exists; whether this call wrote them.

        The bytes go to a temporary file first, then are hard-linked into place: a link never
        replaces an existing file, so of concurrent writers exactly one succeeds, and a reader
        never sees a partial file.
        """
        target, partial = self._partial(resource_id, suffix, data)
        try:
            os.link(partial, target)
        except FileExistsError:
            return False
        finally:
            partial.unlink()
        return True

    def _partial(self, resource_id: str, suffix: str, data: bytes) -> tuple[Path, Path]:
        self._root.mkdir(parents=True, exist_ok=True)
        target = Path(self.location(resource_id, suffix))
        partial = target.with_name(f".{target.name}.{secrets.token_hex(8)}")
        try:
            partial.write_bytes(data)
        except BaseException:
            partial.unlink(missing_ok=True)  # a full disk leaves no half-written file behind
            raise
        return target, partial
