"""knowledge_document_download: a link to the current active version's file, valid for 60 seconds.

On AWS the link is an S3 presigned GET of that version's object. The embedded default signs
its own link (``GET /internal/v1/knowledge/downloads/{versionId}?expires=&signature=``): an
HMAC of the version id and the expiry with the Gateway's URL-signing key, so the link names no
storage key, serves one version's bytes only, and is refused once expired or altered, or when its
expiry lies further ahead than a link this service issues (``link_lifetime``). Issuing
a link is never retried automatically (seed 003); each call signs a new one.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from ragspine.errors import ConflictError, ForbiddenError, NotFoundError
from ragspine.knowledge.documents import visible_document
from ragspine.knowledge.gateway import Gateway
from ragspine.knowledge.link_lifetime import beyond_issued_lifetime
from ragspine.knowledge.model import Action, DocumentStatus, Principal, VersionStatus
from ragspine.knowledge.operations import version_status

EXPIRES_IN_S = 60  # fixed by seed 003: the agent chooses neither the version nor the TTL
ROUTE = "/internal/v1/knowledge/downloads/"


@dataclass(frozen=True, slots=True)
class DownloadLink:
    """What knowledge_document_download answers."""

    document_id: str
    version_id: str
    file_name: str
    mime_type: str
    file_size: int
    url: str
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class LocalDownload:
    """A verified local link: the file to stream and how to name it."""

    path: Path
    file_name: str
    mime_type: str
    file_size: int


def sign(key: bytes, version_id: str, expires: int) -> str:
    """The signature of one version's download link (another purpose than an upload URL's)."""
    return hmac.new(key, f"download:{version_id}:{expires}".encode(), hashlib.sha256).hexdigest()


def create_download_link(gateway: Gateway, principal: Principal, document_id: str, *, base_url: str) -> DownloadLink:
    """A fresh link to the active version's file of a document the caller may download.

    Raises:
        HiddenResourceError: not viewable. ForbiddenError: viewable, DOCUMENT_DOWNLOAD not held.
        ConflictError: the document has no READY active version (yet), or is being deleted.
    """
    document = visible_document(gateway, principal, document_id, Action.DOCUMENT_DOWNLOAD)
    if document.status is DocumentStatus.DELETING:
        raise ConflictError("the document is being deleted")
    version = gateway.store.version(document.active_version_id) if document.active_version_id else None
    if version is None or version_status(gateway, version) is not VersionStatus.READY:
        raise ConflictError("the document has no active version yet: wait for its upload operation to succeed")
    resource = gateway.store.file(version.file_resource_id)
    if resource is None:
        raise ConflictError("the active version's file is gone: replace the document's file")
    expires = int(gateway.clock().timestamp()) + EXPIRES_IN_S
    suffix = PurePosixPath(resource.file_name).suffix.lower()
    url = gateway.files.download_url(resource.id, suffix, expires_s=EXPIRES_IN_S, file_name=version.file_name,
                                     mime_type=version.mime_type)
    if url is None:
        url = (f"{base_url.rstrip('/')}{ROUTE}{version.id}"
               f"?expires={expires}&signature={sign(gateway.config.signing_key, version.id, expires)}")
    return DownloadLink(document.id, version.id, version.file_name, version.mime_type, version.file_size, url,
                        datetime.fromtimestamp(expires, UTC))


def invalid_link() -> ForbiddenError:
    """The refusal of a download link that was not issued as it is (altered, forged, or signed with another key)."""
    return ForbiddenError("this download link is invalid: create a new one with knowledge_document_download")


def open_download(gateway: Gateway, version_id: str, *, expires: int, signature: str) -> LocalDownload:
    """The file a local download link names, once its signature and expiry are checked.

    Raises:
        ForbiddenError: the link was altered, expires later than any link issued now, or expired (create a new one).
        NotFoundError: the version or its file was deleted since the link was issued.
    """
    if beyond_issued_lifetime(expires, now=gateway.clock(), lifetime_s=EXPIRES_IN_S):
        raise ForbiddenError("this download link is invalid: it expires later than any link this service issues; "
                             "create a new one with knowledge_document_download")
    expected = sign(gateway.config.signing_key, version_id, expires).encode()
    # Bytes, not str: compare_digest refuses non-ASCII text, and a URL may carry any signature.
    if not hmac.compare_digest(expected, signature.encode("utf-8", "surrogatepass")):
        raise invalid_link()
    if expires < int(gateway.clock().timestamp()):
        raise ForbiddenError("this download link has expired (links last 60 seconds): create a new one")
    version = gateway.store.version(version_id)
    resource = gateway.store.file(version.file_resource_id) if version is not None else None
    gone = NotFoundError("the file of this link was deleted")
    if version is None or resource is None or version.status is VersionStatus.DELETED:
        raise gone
    path = Path(gateway.files.location(resource.id, PurePosixPath(resource.file_name).suffix.lower()))
    if not path.is_file():
        raise gone
    return LocalDownload(path, version.file_name, version.mime_type, version.file_size)
