"""A signed assertion's header and claims are read as strict JSON, as request bodies are: UTF-8 only, bounded nesting."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time

import pytest

from ragspine.errors import UnauthenticatedError
from ragspine.knowledge.identity import AssertionPolicy, verify_assertion

KEY = b"k" * 32
POLICY = AssertionPolicy(issuer="ragspine-test", audience="ragspine-knowledge-gateway", leeway_s=30, hs256_key=KEY)
HEADER = json.dumps({"alg": "HS256", "typ": "JWT"})


def _b64(data: bytes) -> bytes:
    return base64.urlsafe_b64encode(data).rstrip(b"=")


def _signed(header: bytes, claims: bytes) -> str:
    """An HS256 token over exactly these header and claims bytes (a signer may send any bytes)."""
    signed = _b64(header) + b"." + _b64(claims)
    return (signed + b"." + _b64(hmac.new(KEY, signed, hashlib.sha256).digest())).decode()


def _claims(**extra: object) -> str:
    now = int(time.time())
    return json.dumps({"sub": "alice", "roles": ["knowledge-admin"], "iss": POLICY.issuer, "aud": POLICY.audience,
                       "iat": now, "exp": now + 300, **extra})


def test_utf8_claims_are_accepted_with_or_without_a_byte_order_mark() -> None:
    assert verify_assertion(_signed(HEADER.encode(), _claims().encode()), policy=POLICY).user_id == "alice"
    assert verify_assertion(_signed(HEADER.encode(), _claims().encode("utf-8-sig")), policy=POLICY).user_id == "alice"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_claims_that_are_not_utf8_are_refused(encoding: str) -> None:
    with pytest.raises(UnauthenticatedError):
        verify_assertion(_signed(HEADER.encode(), _claims().encode(encoding)), policy=POLICY)


def test_a_header_that_is_not_utf8_is_refused() -> None:
    with pytest.raises(UnauthenticatedError):
        verify_assertion(_signed(HEADER.encode("utf-16"), _claims().encode()), policy=POLICY)


@pytest.mark.parametrize("extra", [{"deep": json.loads("[" * 40 + "]" * 40)}, {"note": "\udfff"}],
                         ids=["nested-40", "lone-surrogate"])
def test_claims_the_strict_reader_refuses_are_refused(extra: dict[str, object]) -> None:
    with pytest.raises(UnauthenticatedError):
        verify_assertion(_signed(HEADER.encode(), _claims(**extra).encode()), policy=POLICY)
