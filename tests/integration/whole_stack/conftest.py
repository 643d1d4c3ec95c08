"""The deployed stack as one piece: template.yaml on moto, osmem-server as the search domain, users' calls as events.

A business system calls the Knowledge function with API Gateway events (an ES256 service
assertion verified against a key set, as in production), PUTs bytes to the presigned S3 URL and
watches its operation; people drop files under ``uploads/`` and ask through the Ask function.
Every Lambda invocation (the S3 trigger, each state-machine Task) runs the in-process handler.
"""

from __future__ import annotations

import copy
import json
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.stack import Stack, deploy_stack

pytest.importorskip("osmem_server", reason="osmem-server (PyPI) stands in for the OpenSearch domain")

BASE = "/internal/v1/knowledge"
KID = "crm-idp-1"


@pytest.fixture(scope="module")
def osmem() -> Iterator[str]:
    """One in-memory OpenSearch-compatible server on loopback for the module."""
    from osmem_server import OsmemServer

    server = OsmemServer.start(addr="127.0.0.1:0")
    yield str(server.url)
    server.close()


@dataclass
class BusinessSystem:
    """A Gateway client that speaks to the Knowledge Lambda in API Gateway events, as the plugin's calls arrive."""

    stack: Stack
    token: str
    private_key: Any
    issuer: str
    audience: str
    template: dict[str, Any]

    def assertion(self, user: str = "crm-admin", roles: tuple[str, ...] = ("knowledge-admin",)) -> str:
        import jwt

        now = int(time.time())
        claims = {"sub": user, "roles": list(roles), "departments": [], "securityDomains": ["internal"],
                  "iss": self.issuer, "aud": self.audience, "iat": now, "exp": now + 300}
        return jwt.encode(claims, self.private_key, algorithm="ES256", headers={"kid": KID})

    def call(self, method: str, path: str, body: Any = None, *, key: str | None = None,
             query: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
        event = copy.deepcopy(self.template)
        headers = {"Accept": "application/json", "Host": event["headers"]["Host"], "X-Forwarded-Proto": "https",
                   "Authorization": f"Bearer {self.token}", "X-User-Assertion": self.assertion(),
                   "X-Request-Id": f"req-{uuid.uuid4().hex[:8]}", "X-Tool-Call-Id": f"call-{uuid.uuid4().hex[:8]}",
                   "X-Harness-Session-Id": "whole-stack", "Content-Type": "application/json"}
        if method != "GET":
            headers["Idempotency-Key"] = key or uuid.uuid4().hex
        event.update(path=BASE + path, httpMethod=method, headers=headers,
                     multiValueHeaders={k: [v] for k, v in headers.items()},
                     pathParameters={"proxy": path.lstrip("/")}, queryStringParameters=query,
                     multiValueQueryStringParameters={k: [v] for k, v in query.items()} if query else None,
                     body=None if body is None else json.dumps(body))
        event["requestContext"].update(httpMethod=method, path=f"/prod{BASE}{path}")
        response = self.stack.invoke("KnowledgeFunction", event)
        return response["statusCode"], json.loads(response["body"])

    def ok(self, method: str, path: str, body: Any = None, **kwargs: Any) -> dict[str, Any]:
        status, payload = self.call(method, path, body, **kwargs)
        assert status < 300, payload
        assert payload["meta"]["success"] is True and payload["meta"]["error"] is None
        return payload["data"]  # type: ignore[no-any-return]


@pytest.fixture
def stack(settings: Any, monkeypatch: pytest.MonkeyPatch, load_event: Callable[[str], dict[str, Any]],
          lambda_context: Any, osmem: str, tmp_path: Path) -> Iterator[Stack]:
    """template.yaml deployed on moto, with a production key set for user assertions."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from jwt.algorithms import ECAlgorithm

    private = ec.generate_private_key(ec.SECP256R1())
    public = json.loads(ECAlgorithm.to_jwk(private.public_key()))
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps({"keys": [{**public, "kid": KID, "alg": "ES256"}]}), encoding="utf-8")
    with deploy_stack(monkeypatch, load_event, lambda_context, search_endpoint=osmem,
                      extra_environment={"RAGSPINE_KNOWLEDGE_ASSERTION_JWKS": str(jwks)}) as deployed:
        deployed.private_key = private  # type: ignore[attr-defined]
        yield deployed


@pytest.fixture
def crm(stack: Stack, load_event: Callable[[str], dict[str, Any]]) -> BusinessSystem:
    """A business system holding a service token stored the way `ragspine knowledge token create` stores it."""
    from ragspine.bootstrap import build_knowledge_store
    from ragspine.knowledge.identity import new_token
    from ragspine.settings import get_settings

    settings = get_settings()
    token, record = new_token("crm")
    build_knowledge_store(settings).put_token(record)
    return BusinessSystem(stack, token, stack.private_key, settings.knowledge_assertion_issuer,  # type: ignore[attr-defined]
                          settings.knowledge_assertion_audience, load_event("knowledge_space_create"))
