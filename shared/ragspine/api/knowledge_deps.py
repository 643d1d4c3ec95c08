"""Dependencies of the Gateway router: the Gateway, and the pipeline hooks (auth, idempotency, audit)."""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any

from aws_lambda_powertools.utilities.idempotency import BasePersistenceLayer, DynamoDBPersistenceLayer
from fastapi import Depends

from ragspine.api.knowledge_http import Hooks
from ragspine.api.knowledge_idempotency import SqlitePersistenceLayer, idempotent_call
from ragspine.bootstrap import get_knowledge_gateway, load_gateway_secrets
from ragspine.knowledge.authn import assertion_policy, authenticate
from ragspine.knowledge.gateway import Gateway
from ragspine.knowledge.model import Principal
from ragspine.settings import Backend, Settings, get_settings


def gateway() -> Gateway:
    """The process-wide Gateway (override with ``app.dependency_overrides`` in tests)."""
    return get_knowledge_gateway()


@lru_cache(maxsize=4)
def _idempotency_store(backend: str, where: str) -> BasePersistenceLayer:
    """Powertools' DynamoDB layer in the knowledge table on AWS (pk/sk), our SQLite layer in knowledge.db locally."""
    if backend == "aws":
        return DynamoDBPersistenceLayer(table_name=where, key_attr="pk", sort_key_attr="sk")
    return SqlitePersistenceLayer(where)


def build_hooks(gateway: Gateway, settings: Settings) -> Hooks:
    """Authentication against the Gateway's tokens, Powertools idempotency, the Gateway's audit log."""
    aws = settings.backend is Backend.AWS
    records = _idempotency_store(settings.backend.value, (settings.knowledge_table or "") if aws
                                 else str(settings.knowledge_db_path))

    def idempotent(request: dict[str, Any], run: Any) -> dict[str, Any]:
        return idempotent_call(records, ttl_s=settings.knowledge_idempotency_ttl_s, request=request, run=run)

    def check(token: str | None, assertion: str | None) -> Principal:
        secrets = load_gateway_secrets(settings)  # cached by Powertools: a rotated key set applies within max age
        return authenticate(token, assertion, store=gateway.store, policy=assertion_policy(settings, secrets),
                            tokens=secrets.service_tokens if secrets else None)

    return Hooks(authenticate=check,
                 idempotent=idempotent, audit=gateway.store.append_audit)


def hooks(gw: Annotated[Gateway, Depends(gateway)]) -> Hooks:
    """The hooks for this process's Gateway and settings."""
    return build_hooks(gw, get_settings())


GatewayDep = Annotated[Gateway, Depends(gateway)]
HooksDep = Annotated[Hooks, Depends(hooks)]
