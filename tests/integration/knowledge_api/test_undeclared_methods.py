"""What schemathesis found on the Gateway: 405s name the contract's methods, actions are not ids, names need a stem."""

from __future__ import annotations

import pytest

from ragspine.knowledge.contract import schema_validator
from tests.support.knowledge_api import BASE, Gateway


@pytest.mark.parametrize(("method", "path", "allowed"), [
    ("OPTIONS", "/spaces", "GET, POST"),
    ("PUT", "/spaces/ks-1", "DELETE, GET, PATCH"),
    ("OPTIONS", "/documents/d-1", "DELETE, GET, PATCH"),
    ("PATCH", "/documents/d-1:enable", "POST"),
    ("GET", "/documents/d-1:replace", "POST"),
    ("DELETE", "/operations/op-1:cancel", "POST"),
    ("PUT", "/spaces/ks-1/documents", "GET, POST"),
])
def test_an_undeclared_method_is_405_with_the_contracts_methods(gateway: Gateway, method: str, path: str,
                                                                 allowed: str) -> None:
    reply = gateway.client.request(method, BASE + path, headers=gateway.headers(), json={})
    assert reply.status_code == 405 and reply.headers["allow"] == allowed


def test_a_document_id_never_swallows_an_action(gateway: Gateway) -> None:
    reply = gateway.client.get(BASE + "/documents/d-1:enable", headers=gateway.headers())
    assert reply.status_code == 405  # GET of the :enable action, not GET of a document "d-1:enable"


@pytest.mark.parametrize(("name", "valid"), [("report.pdf", True), ("..pdf", True), ("a/b.PDF", True),
                                             (".pdf", False), ("notes/.md", False), ("report.exe", False)])
def test_the_contract_accepts_exactly_the_names_the_gateway_ingests(gateway: Gateway, name: str,
                                                                    valid: bool) -> None:
    body = {"fileName": name, "fileSize": 3, "mimeType": "application/pdf"}
    assert schema_validator("FileResourceCreateRequest").is_valid(body) is valid
    space = gateway.create_space()["knowledgeSpaceId"]
    reply = gateway.call("POST", f"/spaces/{space}/file-resources", body)
    assert (reply.status_code == 201) is valid, reply.text
