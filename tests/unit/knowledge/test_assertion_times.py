"""A signed assertion whose iat, exp or nbf is not a usable date is refused as unauthenticated, never a fault."""

from __future__ import annotations

import time
from typing import Any

import jwt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.errors import UnauthenticatedError
from ragspine.knowledge.identity import AssertionPolicy, verify_assertion

KEY = b"k" * 32
POLICY = AssertionPolicy(issuer="ragspine-test", audience="ragspine-knowledge-gateway", leeway_s=30, hs256_key=KEY)


def _signed(**claims: Any) -> str:
    now = int(time.time())
    payload = {"sub": "alice", "roles": ["knowledge-admin"], "iss": POLICY.issuer, "aud": POLICY.audience,
               "iat": now, "exp": now + 300, **claims}
    return jwt.encode(payload, KEY, algorithm="HS256")


def test_a_fresh_assertion_is_accepted() -> None:
    assert verify_assertion(_signed(), policy=POLICY).user_id == "alice"


@pytest.mark.parametrize("claims", [
    {"exp": 10 ** 400}, {"iat": 10 ** 400}, {"nbf": 10 ** 400}, {"nbf": -(10 ** 400)}, {"iat": -(10 ** 400)},
    {"exp": 10 ** 400, "iat": float(int(time.time()))}, {"exp": 1e308}, {"iat": 2 ** 63},
], ids=["exp-huge", "iat-huge", "nbf-huge", "nbf-huge-negative", "iat-huge-negative", "exp-huge-iat-float",
        "exp-float-max", "iat-2**63"])
def test_a_date_claim_beyond_any_date_is_refused(claims: dict[str, Any]) -> None:
    with pytest.raises(UnauthenticatedError):
        verify_assertion(_signed(**claims), policy=POLICY)


_CLAIM_VALUES = st.one_of(
    st.integers(), st.integers(min_value=10 ** 300, max_value=10 ** 500), st.integers(max_value=-(10 ** 300)),
    st.floats(), st.sampled_from([float("inf"), float("-inf"), float("nan")]), st.text(max_size=12),
    st.booleans(), st.none(), st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers()),
)


@settings(max_examples=300, deadline=None)
@given(claim=st.sampled_from(["iat", "exp", "nbf"]), value=_CLAIM_VALUES)
def test_any_value_of_a_date_claim_is_accepted_or_unauthenticated(claim: str, value: Any) -> None:
    # json.dumps writes NaN and Infinity, which PyJWT reads back: the forms an attacker can sign.
    token = _signed(**{claim: value})
    try:
        principal = verify_assertion(token, policy=POLICY)
    except UnauthenticatedError as refused:
        assert refused.http_status == 401 and not refused.retryable
    else:
        assert principal.user_id == "alice"
