"""API keys: issued once, stored as a salted SHA-256 digest, checked in constant time.

A key reads ``<prefix><key id><secret>``: ``app-`` for a Dify app key (it opens one stored
workflow), ``n8n_api_`` for the n8n workflow API. The 12-character key id finds the record
without scanning; the 40-character secret is hashed with the record's own random salt, so a
leaked table reveals neither the keys nor which keys share a secret. With a pepper (a secret
kept outside the table: Secrets Manager on AWS) the digest is an HMAC keyed by it, so the table
alone does not even allow guessing keys offline.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime

from ragspine.workflows.surfaces.errors import WorkflowUnauthenticatedError
from ragspine.workflows.surfaces.ports import ApiKeyStore
from ragspine.workflows.surfaces.records import ApiKeyRecord, KeyKind

PREFIXES = {KeyKind.APP: "app-", KeyKind.N8N: "n8n_api_"}
KEY_ID_CHARS = 12
SECRET_CHARS = 40
_HEX = frozenset("0123456789abcdef")
# Compared against when the key id is unknown, so a miss costs the same work as a wrong secret.
_DUMMY = ApiKeyRecord(key_id="0" * KEY_ID_CHARS, kind=KeyKind.APP, salt="00" * 16,
                      digest="0" * 64, created_at=datetime(2000, 1, 1))


@dataclass(frozen=True, slots=True)
class IssuedKey:
    """A freshly issued key: the plaintext to show once, and the record to store."""

    plaintext: str
    record: ApiKeyRecord


def _digest(salt: str, secret: str, pepper: bytes = b"") -> str:
    message = bytes.fromhex(salt) + secret.encode("utf-8")
    if pepper:
        return hmac.new(pepper, message, hashlib.sha256).hexdigest()
    return hashlib.sha256(message).hexdigest()


def key_record(plaintext: str, kind: KeyKind, *, created_at: datetime, workflow_id: str | None = None,
               salt: str | None = None, pepper: bytes = b"") -> ApiKeyRecord:
    """The record that stores ``plaintext`` (a fresh random salt unless one is given; ``pepper`` keys the digest).

    Raises:
        WorkflowUnauthenticatedError: ``plaintext`` is not a well-formed key of ``kind``.
    """
    key_id, secret = split_key(plaintext, kind)
    salt = salt or secrets.token_hex(16)
    return ApiKeyRecord(key_id=key_id, kind=kind, salt=salt, digest=_digest(salt, secret, pepper),
                        created_at=created_at, workflow_id=workflow_id)


def issue_key(kind: KeyKind, *, created_at: datetime, workflow_id: str | None = None,
              pepper: bytes = b"") -> IssuedKey:
    """A new random key of ``kind`` and its record."""
    plaintext = PREFIXES[kind] + secrets.token_hex(KEY_ID_CHARS // 2) + secrets.token_hex(SECRET_CHARS // 2)
    return IssuedKey(plaintext, key_record(plaintext, kind, created_at=created_at, workflow_id=workflow_id,
                                             pepper=pepper))


def split_key(presented: str, kind: KeyKind) -> tuple[str, str]:
    """``(key id, secret)`` of a well-formed key of ``kind``.

    Raises:
        WorkflowUnauthenticatedError: wrong prefix, length or characters.
    """
    prefix = PREFIXES[kind]
    body = presented[len(prefix):] if presented.startswith(prefix) else ""
    if len(body) != KEY_ID_CHARS + SECRET_CHARS or not set(body) <= _HEX:
        raise WorkflowUnauthenticatedError("the API key is malformed")
    return body[:KEY_ID_CHARS], body[KEY_ID_CHARS:]


def verify_key(presented: str, kind: KeyKind, *, store: ApiKeyStore, pepper: bytes = b"") -> ApiKeyRecord:
    """The stored record for a presented key, after a constant-time digest comparison (with the issuing pepper).

    Raises:
        WorkflowUnauthenticatedError: malformed, unknown, of another kind, or a wrong secret.
        ProviderUnavailableError: the key store failed.
    """
    key_id, secret = split_key(presented, kind)
    found = store.get_key(key_id)
    record = found if found is not None and found.kind is kind else _DUMMY
    matches = hmac.compare_digest(_digest(record.salt, secret, pepper), record.digest)
    if record is _DUMMY or not matches:
        raise WorkflowUnauthenticatedError("the API key is not valid")
    return record
