"""Authenticating one Gateway request: the service token, then the user assertion, both on every call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ragspine.errors import UnauthenticatedError
from ragspine.knowledge.identity import (
    AssertionPolicy,
    StoredToken,
    bearer,
    dev_key,
    load_jwks,
    split_token,
    token_matches,
    verify_assertion,
)
from ragspine.settings import Environment

if TYPE_CHECKING:
    from ragspine.knowledge.model import Principal
    from ragspine.knowledge.ports import KnowledgeStore
    from ragspine.knowledge.secrets import GatewaySecrets
    from ragspine.settings import Settings

_DENIED = "the service token or the user assertion is missing or invalid: send a valid token and a fresh assertion"


def assertion_policy(settings: Settings, secrets: GatewaySecrets | None = None) -> AssertionPolicy:
    """Trusted keys now: the local HS256 key outside production, the key set of the Gateway's secret
    (a deployment) or of ``RAGSPINE_KNOWLEDGE_ASSERTION_JWKS`` (a file).

    Read on each request, so a new key set (or the first dev key) applies without a restart.
    """
    development = settings.env is not Environment.PRODUCTION
    jwks = secrets.assertion_jwks if secrets else None
    if jwks is None and settings.knowledge_assertion_jwks:
        jwks = load_jwks(settings.knowledge_assertion_jwks)
    return AssertionPolicy(issuer=settings.knowledge_assertion_issuer, audience=settings.knowledge_assertion_audience,
                           leeway_s=settings.knowledge_assertion_leeway_s,
                           hs256_key=dev_key(settings.data_dir) if development else None,
                           jwks=jwks)


def authenticate(authorization: str | None, assertion: str | None, *, store: KnowledgeStore,
                 policy: AssertionPolicy, tokens: Mapping[str, StoredToken] | None = None) -> Principal:
    """The caller of one request; its token is looked up in ``tokens`` (the Gateway secret's records), then the store.

    Raises:
        UnauthenticatedError: a missing, unknown or wrong token; a missing or invalid assertion.
    """
    parts = split_token(bearer(authorization))
    stored = None if parts is None else (tokens or {}).get(parts[0]) or store.token(parts[0])
    if parts is None or not token_matches(stored, parts[1]):
        raise UnauthenticatedError(_DENIED)
    if not assertion:
        raise UnauthenticatedError(_DENIED)
    return verify_assertion(assertion, policy=policy, token_name=stored.name if stored else "")
