"""Authenticating one Gateway request: the service token, then the user assertion, both on every call."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragspine.errors import UnauthenticatedError
from ragspine.knowledge.identity import (
    AssertionPolicy,
    bearer,
    dev_key,
    load_jwks,
    split_token,
    token_matches,
    verify_assertion,
)

if TYPE_CHECKING:
    from ragspine.knowledge.model import Principal
    from ragspine.knowledge.ports import KnowledgeStore
    from ragspine.settings import Settings

_DENIED = "the service token or the user assertion is missing or invalid: send a valid token and a fresh assertion"


def assertion_policy(settings: Settings) -> AssertionPolicy:
    """Trusted keys now: the local HS256 key outside production, the configured key set when there is one.

    Read on each request, so a new key set (or the first dev key) applies without a restart.
    """
    from ragspine.settings import Environment

    development = settings.env is not Environment.PRODUCTION
    return AssertionPolicy(issuer=settings.knowledge_assertion_issuer, audience=settings.knowledge_assertion_audience,
                           leeway_s=settings.knowledge_assertion_leeway_s,
                           hs256_key=dev_key(settings.data_dir) if development else None,
                           jwks=load_jwks(settings.knowledge_assertion_jwks) if settings.knowledge_assertion_jwks
                           else None)


def authenticate(authorization: str | None, assertion: str | None, *, store: KnowledgeStore,
                 policy: AssertionPolicy) -> Principal:
    """The caller of one request.

    Raises:
        UnauthenticatedError: a missing, unknown or wrong token; a missing or invalid assertion.
    """
    parts = split_token(bearer(authorization))
    if parts is None or not token_matches(store.token(parts[0]), parts[1]):
        raise UnauthenticatedError(_DENIED)
    stored = store.token(parts[0])
    if not assertion:
        raise UnauthenticatedError(_DENIED)
    return verify_assertion(assertion, policy=policy, token_name=stored.name if stored else "")
