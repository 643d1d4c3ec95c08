"""Who is calling: the service token (``Authorization: Bearer``) and the user assertion (``X-User-Assertion``).

Service tokens are random, shown once, stored as a salted SHA-256 and compared in constant
time. The assertion is a JWT verified with PyJWT on every request: signature (HS256 with the
local development key outside production; ES256/RS256 with a configured public key set),
issuer, audience, ``exp`` at most 10 minutes after ``iat``, a small clock skew. Nothing is cached.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt
from jwt.utils import base64url_decode

from ragspine.errors import UnauthenticatedError
from ragspine.json_input import MalformedJsonError
from ragspine.json_input import loads as strict_loads
from ragspine.knowledge.model import Principal
from ragspine.names import name_problem

TOKEN_PREFIX = "kgt"
MAX_ASSERTION_LIFETIME_S = 600
MAX_SUBJECT = 256  # code points of ``sub`` and of each role, department and domain (they reach the audit log)
LATEST_DATE = 253_402_300_799  # 9999-12-31T23:59:59Z: no iat, exp or nbf lies beyond it
MAX_CLAIM_NAMES = 200  # roles, departments or domains one assertion may list
ASYMMETRIC = ("ES256", "ES384", "RS256", "RS384", "RS512", "PS256", "EdDSA")
_DENIED = "the service token or the user assertion is missing or invalid: send a valid token and a fresh assertion"


@dataclass(frozen=True, slots=True)
class StoredToken:
    """What is kept of a service token: never the secret itself."""

    token_id: str
    name: str
    salt: str
    digest: str


def new_token(name: str) -> tuple[str, StoredToken]:
    """A fresh token (to print once) and the record to store."""
    token_id, secret = secrets.token_hex(6), secrets.token_urlsafe(32)
    salt = secrets.token_hex(16)
    return f"{TOKEN_PREFIX}_{token_id}_{secret}", StoredToken(token_id, name, salt, _digest(salt, secret))


def _digest(salt: str, secret: str) -> str:
    return hashlib.sha256(f"{salt}:{secret}".encode()).hexdigest()


def split_token(token: str) -> tuple[str, str] | None:
    """(token id, secret) of a well-formed token, else None."""
    parts = token.split("_", 2)
    if len(parts) != 3 or parts[0] != TOKEN_PREFIX or not parts[1] or not parts[2]:
        return None
    return parts[1], parts[2]


def token_matches(stored: StoredToken | None, secret: str) -> bool:
    """Whether ``secret`` is the stored token's, in constant time (a missing token still hashes)."""
    if stored is None:
        hmac.compare_digest(_digest("0" * 32, secret), "0" * 64)
        return False
    return hmac.compare_digest(_digest(stored.salt, secret), stored.digest)


def bearer(header: str | None) -> str:
    """The token of an ``Authorization: Bearer`` header.

    Raises:
        UnauthenticatedError: no bearer token.
    """
    scheme, _, value = (header or "").partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise UnauthenticatedError(_DENIED)
    return value.strip()


@dataclass(frozen=True, slots=True)
class AssertionPolicy:
    """How assertions are checked: trusted keys, issuer, audience and clock skew."""

    issuer: str
    audience: str
    leeway_s: int
    hs256_key: bytes | None = None
    jwks: dict[str, Any] | None = None


def dev_key_path(data_dir: Path) -> Path:
    """Where the local HS256 development key lives."""
    return data_dir / "knowledge-assertion-hs256.key"


def dev_key(data_dir: Path) -> bytes:
    """The local development key, created (mode 0600) on first use."""
    return secret_file(dev_key_path(data_dir))


def secret_file(path: Path) -> bytes:
    """A random 256-bit key kept in ``path``, created (mode 0600) on first use; concurrent creators agree."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_hex(32))
        try:
            os.link(partial, path)  # fails if another process created it first: keep theirs
        except FileExistsError:
            pass
        finally:
            partial.unlink()
    return path.read_text(encoding="ascii").strip().encode("ascii")


def load_jwks(path: Path) -> dict[str, Any]:
    """A JSON Web Key Set from a file (read on each request, so a rotated set applies at once)."""
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _key_for(token: str, policy: AssertionPolicy) -> tuple[Any, str]:
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError as exc:
        raise UnauthenticatedError(_DENIED) from exc
    algorithm = str(header.get("alg", ""))
    if algorithm == "HS256" and policy.hs256_key is not None:
        return policy.hs256_key, algorithm
    if algorithm in ASYMMETRIC and policy.jwks is not None:
        try:
            keys = jwt.PyJWKSet.from_dict(policy.jwks)
        except jwt.PyJWTError as exc:
            raise UnauthenticatedError(_DENIED) from exc
        kid = header.get("kid")
        for key in keys.keys:
            if kid is None or key.key_id == kid:
                return key.key, algorithm
    raise UnauthenticatedError(_DENIED)


def _is_name(value: Any, limit: int) -> bool:
    """A user id, role, department or domain the audit log and grants can hold: bounded visible text."""
    return isinstance(value, str) and 0 < len(value) <= limit and name_problem(value) is None


def _names(claims: dict[str, Any], name: str) -> frozenset[str]:
    value = claims.get(name, [])
    if not isinstance(value, list) or len(value) > MAX_CLAIM_NAMES or not all(_is_name(v, MAX_SUBJECT)
                                                                             for v in value):
        raise UnauthenticatedError(_DENIED)
    return frozenset(value)


def _is_time(value: Any) -> bool:
    """A JWT NumericDate: a JSON number within the years a date can have (a bool or a numeric string is not one).

    The bound is checked before any arithmetic: an int beyond a float's range (``10**400``) would overflow
    when subtracted from a float ``iat``; NaN fails both comparisons, infinities the bound.
    """
    return isinstance(value, int | float) and not isinstance(value, bool) and -LATEST_DATE <= value <= LATEST_DATE


def verify_assertion(token: str, *, policy: AssertionPolicy, token_name: str = "") -> Principal:
    """The principal a signed, fresh assertion names.

    Raises:
        UnauthenticatedError: bad signature, issuer, audience, expired, too long-lived, or malformed claims.
    """
    key, algorithm = _key_for(token, policy)
    try:
        claims = jwt.decode(token, key, algorithms=[algorithm], audience=policy.audience, issuer=policy.issuer,
                            leeway=policy.leeway_s, options={"require": ["exp", "iat", "sub", "iss", "aud"]})
    except (jwt.PyJWTError, ValueError, TypeError, OverflowError) as exc:
        # PyJWT converts some claims with int() and lets the odd one through as another exception
        # (``"exp": Infinity`` overflows); a malformed assertion is refused like a forged one.
        raise UnauthenticatedError(_DENIED) from exc
    _check_strict_json(token)
    if not all(_is_time(claims.get(name)) for name in ("exp", "iat", "nbf") if name in claims):
        raise UnauthenticatedError(_DENIED)  # PyJWT accepts "iat": "1700000000"; the claims are NumericDate
    lifetime = claims["exp"] - claims["iat"]
    if lifetime > MAX_ASSERTION_LIFETIME_S or lifetime <= 0:
        raise UnauthenticatedError(_DENIED)
    subject = claims["sub"]
    if not _is_name(subject, MAX_SUBJECT):
        raise UnauthenticatedError(_DENIED)
    return Principal(user_id=subject, roles=_names(claims, "roles"), departments=_names(claims, "departments"),
                     security_domains=_names(claims, "securityDomains"), token_name=token_name)


def _check_strict_json(token: str) -> None:
    """Refuse an assertion whose header or claims are not strict JSON, as request bodies are (PyJWT reads UTF-16
    and UTF-32 too, guessing the encoding, and nesting without bound)."""
    try:
        for segment in token.split(".")[:2]:
            strict_loads(base64url_decode(segment))
    except (MalformedJsonError, ValueError) as exc:  # ValueError: not base64url (binascii.Error)
        raise UnauthenticatedError(_DENIED) from exc


def sign_dev_assertion(key: bytes, *, user: str, roles: list[str], departments: list[str], domains: list[str],
                       issuer: str, audience: str, lifetime_s: int = MAX_ASSERTION_LIFETIME_S) -> str:
    """A development assertion signed with the local HS256 key (for ``ragspine knowledge assertion``)."""
    now = int(time.time())
    claims = {"sub": user, "roles": roles, "departments": departments, "securityDomains": domains, "iss": issuer,
              "aud": audience, "iat": now, "exp": now + min(lifetime_s, MAX_ASSERTION_LIFETIME_S)}
    return jwt.encode(claims, key, algorithm="HS256")
