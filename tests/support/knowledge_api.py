"""A Gateway client for tests: real tokens and assertions, the local app, HTTP calls hidden behind verbs."""

from __future__ import annotations

import itertools
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from fastapi.testclient import TestClient

from ragspine.bootstrap import get_knowledge_gateway
from ragspine.knowledge.contract import load_contract, schema_validator
from ragspine.knowledge.identity import StoredToken, _digest, dev_key, new_token, sign_dev_assertion, split_token
from ragspine.knowledge.model import Action, Grant, PrincipalType
from ragspine.settings import Settings

BASE = "/internal/v1/knowledge"
ADMIN = ("admin", ("knowledge-admin",), ("public", "internal", "confidential", "restricted"))
SAMPLE_MD = "# Travel policy\n\nEmployees book economy class for flights under six hours.\n\n## Hotels\n\nUp to 150 EUR a night.\n"
_counter = itertools.count()
_METHODS = ("get", "put", "post", "patch", "delete")


def _templates() -> list[tuple[re.Pattern[str], str, dict[str, Any]]]:
    spec = load_contract()
    found = []
    for path, item in spec["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\{[^}]+\\}", "[^/:]+", re.escape(path)) + "$")
        found.append((pattern, path, item))
    return found


MAX_RESPONSE_BYTES = 10 * 1024 * 1024  # the plugin's artifactMaxBytes default
MAX_ERROR_BYTES = 65_536


def check_sizes(status: int, content: bytes) -> None:
    """Seed 003's budgets: every response under 10 MiB, an error body under 65,536 bytes."""
    assert len(content) < MAX_RESPONSE_BYTES
    if status >= 400:
        assert len(content) < MAX_ERROR_BYTES


def check_against_contract(method: str, url_path: str, status: int, body: Any) -> None:
    """Fail unless the contract declares this route, method and status, and the body validates against it."""
    matches = [(path, item) for pattern, path, item in _templates() if pattern.match(url_path)]
    assert matches, f"the contract has no path for {url_path}"
    path, item = matches[0]
    operation = item.get(method.lower())
    assert operation is not None, f"the contract has no {method} {path}"
    declared = operation["responses"].get(str(status))
    assert declared is not None, f"{method} {path} answered {status}, which the contract does not declare"
    if "$ref" in declared:
        declared = load_contract()["components"]["responses"][declared["$ref"].rsplit("/", 1)[-1]]
    schema = declared["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    errors = sorted(schema_validator(schema).iter_errors(body), key=str)
    assert not errors, f"{method} {path} {status}: {errors[0].message} at {list(errors[0].absolute_path)}"


@dataclass
class Gateway:
    """Drives the Gateway over HTTP as a business system would."""

    client: TestClient
    settings: Settings
    token: str
    user: tuple[str, tuple[str, ...], tuple[str, ...]] = ADMIN
    last: Any = field(default=None)
    settler: Callable[[], object] | None = None  # waits for the runs (the state machine's executions on AWS)
    stack: Any = None  # the moto stack of the AWS backend (tests.support.stack.Stack), else None

    def as_user(self, user: str, roles: tuple[str, ...] = (), domains: tuple[str, ...] = ("internal",)) -> Gateway:
        """The same client acting for another user."""
        return Gateway(self.client, self.settings, self.token, (user, roles, domains), settler=self.settler,
                       stack=self.stack)

    def assertion(self) -> str:
        user, roles, domains = self.user
        return sign_dev_assertion(dev_key(self.settings.data_dir), user=user, roles=list(roles), departments=[],
                                  domains=list(domains), issuer=self.settings.knowledge_assertion_issuer,
                                  audience=self.settings.knowledge_assertion_audience)

    def headers(self, *, key: str | Literal[False] | None = None, **extra: str) -> dict[str, str]:
        """The harness's headers; ``key`` the Idempotency-Key (None: a fresh one, False: none, as a read sends)."""
        found = {"Authorization": f"Bearer {self.token}", "X-User-Assertion": self.assertion(),
                 "X-Tool-Call-Id": f"call-{next(_counter)}", "X-Harness-Session-Id": "session-1"}
        if key is not False:
            found["Idempotency-Key"] = key or uuid.uuid4().hex
        found.update(extra)
        return found

    def call(self, method: str, path: str, body: Any = None, *, key: str | None = None,
             headers: dict[str, str] | None = None, params: dict[str, Any] | None = None) -> Any:
        sent = headers if headers is not None else self.headers(key=key)
        response = self.client.request(method, BASE + path, json=body, headers=sent, params=params,
                                       follow_redirects=False)
        self.last = response
        check_against_contract(method, response.request.url.path, response.status_code, response.json())
        check_sizes(response.status_code, response.content)
        return response

    def ok(self, method: str, path: str, body: Any = None, **kwargs: Any) -> Any:
        response = self.call(method, path, body, **kwargs)
        assert response.status_code < 300, response.text
        return response.json()["data"]

    # --- resources ------------------------------------------------------------------------

    def create_space(self, code: str | None = None, **overrides: Any) -> dict[str, Any]:
        body = {"code": code or f"space-{uuid.uuid4().hex[:8]}", "name": "ACME policies",
                "profileCode": "enterprise-long-document", "defaultSecurityDomainCode": "internal", **overrides}
        return self.ok("POST", "/spaces", body)  # type: ignore[no-any-return]

    def file_resource(self, space_id: str, data: bytes, name: str = "policy.md",
                      mime: str = "text/markdown") -> str:
        ticket = self.ok("POST", f"/spaces/{space_id}/file-resources",
                         {"fileName": name, "mimeType": mime, "fileSize": len(data)})
        if "://testserver" not in ticket["uploadUrl"]:  # an S3 presigned PUT (AWS): it signs the declared type
            import requests

            sent = requests.put(ticket["uploadUrl"], data=data, headers={"Content-Type": mime}, timeout=30)
            assert sent.status_code == 200, sent.text
            return str(ticket["fileResourceId"])
        url = ticket["uploadUrl"].split("://testserver", 1)[1]
        response = self.client.put(url, content=data, headers={"Content-Type": "application/octet-stream"})
        check_against_contract("PUT", response.request.url.path, response.status_code, response.json())
        assert response.status_code == 200, response.text
        return str(ticket["fileResourceId"])

    def upload(self, space_id: str, data: bytes = SAMPLE_MD.encode(), name: str = "Travel policy",
               metadata: dict[str, Any] | None = None, file_name: str = "policy.md") -> dict[str, Any]:
        body: dict[str, Any] = {"fileResourceId": self.file_resource(space_id, data, file_name), "documentName": name}
        if metadata is not None:
            body["metadata"] = metadata
        return self.ok("POST", f"/spaces/{space_id}/documents", body)  # type: ignore[no-any-return]

    def settle(self) -> None:
        """Wait for every queued ingestion run of this process (every execution of the state machine on AWS)."""
        if self.settler is not None:
            self.settler()
            return
        get_knowledge_gateway().launcher.drain()  # type: ignore[attr-defined]

    def document(self, document_id: str) -> dict[str, Any]:
        return self.ok("GET", f"/documents/{document_id}", headers=self.headers(key=False))  # type: ignore[no-any-return]

    def operation(self, operation_id: str) -> dict[str, Any]:
        return self.ok("GET", f"/operations/{operation_id}", headers=self.headers(key=False))  # type: ignore[no-any-return]


def grant(space_id: str, kind: str, name: str, *actions: Action) -> None:
    """Store a grant directly (the CLI has its own tests)."""
    get_knowledge_gateway().store.put_grant(Grant(space_id, PrincipalType(kind), name, frozenset(actions)))


def issue_token(name: str = "harness") -> str:
    """A real service token stored in the Gateway's store."""
    token, stored = new_token(name)
    get_knowledge_gateway().store.put_token(stored)
    return token


def token_record(token: str, name: str) -> StoredToken:
    """The stored record of a token written beforehand (the sample events carry a fixed one)."""
    import secrets

    parts = split_token(token)
    assert parts is not None, f"not a service token: {token!r}"
    salt = secrets.token_hex(16)
    return StoredToken(parts[0], name, salt, _digest(salt, parts[1]))
