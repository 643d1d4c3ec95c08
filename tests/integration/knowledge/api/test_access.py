"""The Gateway's ACL: grants per space to users, roles and departments; security domains; 404 before 403; audit."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.knowledge.identity import dev_key, sign_dev_assertion
from ragspine.knowledge.model import Action
from tests.integration.knowledge.api.conftest import Runs
from tests.support.knowledge_api import Gateway, grant


@pytest.fixture
def doc(gateway: Gateway) -> dict[str, Any]:
    space = gateway.create_space()
    change = gateway.upload(space["knowledgeSpaceId"])
    gateway.settle()
    return gateway.document(change["documentId"])


def _status(client: Gateway, method: str, path: str, body: Any = None) -> int:
    headers = client.headers(key=False) if method == "GET" else client.headers()
    return int(client.call(method, path, body, headers=headers).status_code)


def test_without_a_grant_nothing_exists(gateway: Gateway, doc: dict[str, Any]) -> None:
    bob = gateway.as_user("bob")
    assert bob.ok("GET", "/spaces", headers=bob.headers(key=False))["items"] == []
    assert _status(bob, "GET", f"/spaces/{doc['spaceId']}") == 404
    assert _status(bob, "GET", f"/documents/{doc['documentId']}") == 404
    assert _status(bob, "GET", f"/operations/{doc['activeVersion']['operationId']}") == 404
    assert _status(bob, "PATCH", f"/documents/{doc['documentId']}", {"expectedVersion": 0, "documentName": "x"}) == 404
    missing = bob.call("GET", "/documents/doc-does-not-exist", headers=bob.headers(key=False)).json()
    hidden = bob.call("GET", f"/documents/{doc['documentId']}", headers=bob.headers(key=False)).json()
    assert hidden["meta"]["error"]["message"].replace(doc["documentId"], "ID") == \
        missing["meta"]["error"]["message"].replace("doc-does-not-exist", "ID")  # nothing tells them apart


def test_a_viewer_sees_but_may_not_change(gateway: Gateway, doc: dict[str, Any]) -> None:
    grant(doc["spaceId"], "ROLE", "reader", Action.SPACE_VIEW, Action.DOCUMENT_VIEW)
    reader = gateway.as_user("carol", roles=("reader",))
    assert _status(reader, "GET", f"/documents/{doc['documentId']}") == 200
    assert _status(reader, "GET", f"/operations/{doc['activeVersion']['operationId']}") == 200
    assert _status(reader, "PATCH", f"/documents/{doc['documentId']}", {"expectedVersion": 0,
                                                                        "documentName": "x"}) == 403
    assert reader.last.json()["meta"]["error"]["code"] == "KNOWLEDGE_FORBIDDEN"
    assert _status(reader, "POST", f"/spaces/{doc['spaceId']}/file-resources",
                   {"fileName": "a.md", "mimeType": "text/markdown", "fileSize": 3}) == 403
    assert _status(reader, "POST", "/spaces", {"code": "mine", "name": "n", "profileCode": "enterprise-long-document",
                                               "defaultSecurityDomainCode": "internal"}) == 403


def test_grants_to_a_user_and_a_department(gateway: Gateway, doc: dict[str, Any]) -> None:
    grant(doc["spaceId"], "USER", "dave", Action.SPACE_VIEW, Action.DOCUMENT_VIEW, Action.DOCUMENT_UPDATE)
    dave = gateway.as_user("dave")
    assert _status(dave, "PATCH", f"/documents/{doc['documentId']}", {"expectedVersion": 0,
                                                                      "documentName": "by dave"}) == 200
    erin = gateway.as_user("erin")
    in_finance = sign_dev_assertion(dev_key(gateway.settings.data_dir), user="erin", roles=[], departments=["finance"],
                                    domains=["internal"], issuer=gateway.settings.knowledge_assertion_issuer,
                                    audience=gateway.settings.knowledge_assertion_audience)
    path = f"/documents/{doc['documentId']}"
    assert erin.call("GET", path, headers=erin.headers(key=False, **{"X-User-Assertion": in_finance})
                     ).status_code == 404
    grant(doc["spaceId"], "DEPARTMENT", "finance", Action.SPACE_VIEW, Action.DOCUMENT_VIEW)
    assert erin.call("GET", path, headers=erin.headers(key=False, **{"X-User-Assertion": in_finance})
                     ).status_code == 200
    assert _status(erin, "GET", path) == 404  # the same user without the department claim


def test_the_security_domain_hides_what_the_assertion_does_not_list(gateway: Gateway, doc: dict[str, Any]) -> None:
    grant(doc["spaceId"], "ROLE", "reader", Action.SPACE_VIEW, Action.DOCUMENT_VIEW)
    outsider = gateway.as_user("frank", roles=("reader",), domains=("public",))
    assert _status(outsider, "GET", f"/documents/{doc['documentId']}") == 404
    admin_public = gateway.as_user("root", roles=("knowledge-admin",), domains=("public",))
    assert _status(admin_public, "GET", f"/spaces/{doc['spaceId']}") == 404  # admins too


def test_retry_needs_operation_retry_on_top_of_the_operations_action(gateway: Gateway, runs: Runs) -> None:
    space = gateway.create_space()["knowledgeSpaceId"]
    runs.index_down = True
    change = gateway.upload(space)
    gateway.settle()
    grant(space, "ROLE", "maintainer", Action.SPACE_VIEW, Action.DOCUMENT_VIEW, Action.DOCUMENT_UPLOAD)
    maintainer = gateway.as_user("gina", roles=("maintainer",))
    path = f"/operations/{change['operationId']}:retry"
    assert _status(maintainer, "POST", path, {"reason": "index back"}) == 403
    grant(space, "ROLE", "maintainer", Action.SPACE_VIEW, Action.DOCUMENT_VIEW, Action.DOCUMENT_UPLOAD,
          Action.OPERATION_RETRY)
    assert _status(maintainer, "POST", path, {"reason": "index back"}) == 202


def test_the_grant_command_takes_effect_on_the_next_request(gateway: Gateway, doc: dict[str, Any]) -> None:
    henry = gateway.as_user("henry", roles=("auditor",))
    assert _status(henry, "GET", f"/spaces/{doc['spaceId']}") == 404
    runner = CliRunner()
    added = runner.invoke(app, ["knowledge", "grant", "add", "--space", doc["spaceId"], "--to", "role:auditor",
                                "--actions", "SPACE_VIEW,DOCUMENT_VIEW"])
    assert added.exit_code == 0, added.output
    assert _status(henry, "GET", f"/spaces/{doc['spaceId']}") == 200
    assert "role:auditor" in runner.invoke(app, ["knowledge", "grant", "list"]).output
    assert runner.invoke(app, ["knowledge", "grant", "remove", "--space", doc["spaceId"], "--to",
                               "role:auditor"]).exit_code == 0
    assert _status(henry, "GET", f"/spaces/{doc['spaceId']}") == 404
    bad = runner.invoke(app, ["knowledge", "grant", "add", "--space", "*", "--to", "team:x", "--actions", "SPACE_VIEW"])
    assert bad.exit_code != 0


def test_a_grant_on_every_space_allows_creating_one(gateway: Gateway) -> None:
    grant("*", "ROLE", "space-maker", Action.SPACE_CREATE, Action.SPACE_VIEW)
    maker = gateway.as_user("ivy", roles=("space-maker",))
    body = {"code": "ivy", "name": "Ivy's", "profileCode": "enterprise-long-document",
            "defaultSecurityDomainCode": "internal"}
    assert _status(maker, "POST", "/spaces", body) == 201


def test_mutations_and_denials_are_audited_without_secrets(gateway: Gateway, doc: dict[str, Any]) -> None:
    bob = gateway.as_user("bob")
    bob.call("GET", f"/documents/{doc['documentId']}", headers=bob.headers(key=False, **{"X-Tool-Call-Id": "t-9"}))
    gateway.call("GET", "/spaces", headers={"X-User-Assertion": "x"})
    result = CliRunner().invoke(app, ["knowledge", "audit", "--json", "--limit", "100"])
    lines = [line for line in result.output.splitlines() if line.startswith("{")]
    import json

    entries = [json.loads(line) for line in lines]
    actions = [(e["user_id"], e["action"], e["result"], e["error_code"]) for e in entries]
    assert ("admin", "SPACE_CREATE", "ALLOWED", None) in actions
    assert ("admin", "DOCUMENT_UPLOAD", "ALLOWED", None) in actions
    assert ("bob", "DOCUMENT_VIEW", "DENIED", "KNOWLEDGE_NOT_FOUND") in actions
    assert ("-", "SPACE_VIEW", "DENIED", "KNOWLEDGE_UNAUTHENTICATED") in actions
    denied = next(e for e in entries if e["user_id"] == "bob")
    assert denied["tool_call_id"] == "t-9" and denied["resource"] == doc["documentId"]
    assert "Travel" not in result.output and "eyJ" not in result.output  # no document text, no assertion
