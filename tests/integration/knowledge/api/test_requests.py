"""Requests at the edge: closed schemas refuse forbidden fields, Idempotency-Key, signed uploads, envelope, no redirects."""

from __future__ import annotations

import re
import sqlite3
import time
from typing import Any

import pytest

from ragspine.bootstrap import get_knowledge_gateway
from ragspine.knowledge.files import sign
from tests.support.knowledge_api import BASE, Gateway

pytestmark = pytest.mark.both_backends  # every test here runs on the embedded default and on AWS (moto)


# The local service's own upload route (AWS uploads are S3 presigned PUTs) and its SQLite idempotency records.
EMBEDDED_ONLY = pytest.mark.parametrize("backend", ["embedded"])

# Seed 003: fields an agent may never send (impersonation, ACL principals, provider ids, version selection,
# model/pipeline knobs, TOC/KG, provider URLs, local paths, storage keys, TTLs, binary bodies).
FORBIDDEN = ["tenantId", "userId", "onBehalfOf", "aclPrincipals", "datasetId", "ragflowDocumentId", "chunkId",
             "versionId", "versionNo", "model", "pipeline", "rerank", "threshold", "vectorWeight", "toc",
             "knowledgeGraph", "providerUrl", "localPath", "storageKey", "ttl", "expiresInSeconds", "content",
             "base64"]


def _fields(gateway: Gateway) -> list[str]:
    return [f["field"] for f in gateway.last.json()["meta"]["error"]["fieldErrors"]]


@pytest.mark.parametrize("name", FORBIDDEN)
def test_a_forbidden_field_is_refused_with_a_field_error(gateway: Gateway, name: str) -> None:
    space = gateway.create_space()
    resource = gateway.file_resource(space["knowledgeSpaceId"], b"# a\n\nbody\n")
    response = gateway.call("POST", f"/spaces/{space['knowledgeSpaceId']}/documents",
                            {"fileResourceId": resource, "documentName": "d", name: "x"})
    assert response.status_code == 400
    assert response.json()["meta"]["error"]["code"] == "KNOWLEDGE_INVALID_INPUT"
    assert _fields(gateway) == [name]


def test_the_same_key_and_body_replays_the_first_response(gateway: Gateway) -> None:
    space = gateway.create_space()
    resource = gateway.file_resource(space["knowledgeSpaceId"], b"# a\n\nbody\n")
    body = {"fileResourceId": resource, "documentName": "d"}
    first = gateway.ok("POST", f"/spaces/{space['knowledgeSpaceId']}/documents", body, key="call-1")
    again = gateway.ok("POST", f"/spaces/{space['knowledgeSpaceId']}/documents", body, key="call-1")
    assert again["operationId"] == first["operationId"] and again["documentId"] == first["documentId"]
    listed = gateway.ok("GET", f"/spaces/{space['knowledgeSpaceId']}/documents", headers=gateway.headers(key=False))
    assert len(listed["items"]) == 1
    other = gateway.call("POST", f"/spaces/{space['knowledgeSpaceId']}/documents", {**body, "documentName": "e"},
                         key="call-1")
    assert other.status_code == 409 and "Idempotency-Key" in other.json()["meta"]["error"]["message"]


def test_a_mutation_without_a_key_is_refused(gateway: Gateway) -> None:
    body = {"code": "k", "name": "n", "profileCode": "enterprise-long-document", "defaultSecurityDomainCode": "internal"}
    assert gateway.call("POST", "/spaces", body, headers=gateway.headers(key=False)).status_code == 400
    assert _fields(gateway) == ["Idempotency-Key"]


@EMBEDDED_ONLY
def test_a_key_expires_after_its_window(gateway: Gateway) -> None:
    body = {"code": "k1", "name": "n", "profileCode": "enterprise-long-document",
            "defaultSecurityDomainCode": "internal"}
    assert gateway.call("POST", "/spaces", body, key="k").status_code == 201
    assert gateway.call("POST", "/spaces", body, key="k").status_code == 201  # replayed
    with sqlite3.connect(gateway.settings.knowledge_db_path) as conn:  # the window passes
        conn.execute("UPDATE idempotency SET expiration = 1")
    assert gateway.call("POST", "/spaces", body, key="k").status_code == 409  # run again: the code is taken


def test_a_failed_mutation_is_not_remembered(gateway: Gateway) -> None:
    space = gateway.create_space()
    path = f"/spaces/{space['knowledgeSpaceId']}"
    assert gateway.call("PATCH", path, {"expectedVersion": 9, "name": "x"}, key="k").status_code == 409
    assert gateway.call("PATCH", path, {"expectedVersion": 9, "name": "x"}, key="k").status_code == 409


def _ticket(gateway: Gateway, size: int, name: str = "a.md") -> tuple[dict[str, Any], str, str]:
    space = gateway.create_space()["knowledgeSpaceId"]
    ticket = gateway.ok("POST", f"/spaces/{space}/file-resources",
                        {"fileName": name, "mimeType": "text/markdown", "fileSize": size})
    return ticket, ticket["uploadUrl"].split("://testserver", 1)[1], space


@EMBEDDED_ONLY
def test_signed_upload_urls_are_checked(gateway: Gateway) -> None:
    ticket, url, _ = _ticket(gateway, 5)
    assert ticket["uploadMethod"] == "PUT" and ticket["expiresAt"].endswith("Z")
    tampered = url[:-1] + ("0" if url[-1] != "0" else "1")
    assert gateway.client.put(tampered, content=b"hello").status_code == 404
    other_id = url.replace(ticket["fileResourceId"], "fr-other")
    assert gateway.client.put(other_id, content=b"hello").status_code == 404
    past = int(time.time()) - 1  # a correctly signed URL whose time has passed
    signature = sign(get_knowledge_gateway().config.signing_key, ticket["fileResourceId"], past)
    expired = f"{url.split('?')[0]}?expires={past}&signature={signature}"
    assert gateway.client.put(expired, content=b"hello").status_code == 404
    assert "storage" not in url and ".ragspine" not in url  # the URL names no storage key
    assert gateway.client.put(url, content=b"hello!").status_code == 413
    assert gateway.client.put(url, content=b"hey").status_code == 400
    assert gateway.client.put(url, content=b"hello").status_code == 200
    assert gateway.client.put(url, content=b"hello").status_code == 409


def test_file_size_and_type_limits(gateway: Gateway) -> None:
    space = gateway.create_space()["knowledgeSpaceId"]
    limit = gateway.settings.knowledge_upload_max_bytes
    path = f"/spaces/{space}/file-resources"
    assert gateway.call("POST", path, {"fileName": "a.md", "mimeType": "text/markdown", "fileSize": limit}
                        ).status_code == 201
    assert gateway.call("POST", path, {"fileName": "a.md", "mimeType": "text/markdown", "fileSize": limit + 1}
                        ).status_code == 400
    assert _fields(gateway) == ["fileSize"]
    assert gateway.call("POST", path, {"fileName": "a.exe", "mimeType": "application/x-msdownload", "fileSize": 9}
                        ).status_code == 400
    assert _fields(gateway) == ["fileName"]


@EMBEDDED_ONLY
def test_a_file_resource_must_be_uploaded_before_it_is_used(gateway: Gateway) -> None:
    ticket, _, space = _ticket(gateway, 5)
    response = gateway.call("POST", f"/spaces/{space}/documents",
                            {"fileResourceId": ticket["fileResourceId"], "documentName": "d"})
    assert response.status_code == 409
    elsewhere = gateway.create_space()["knowledgeSpaceId"]
    response = gateway.call("POST", f"/spaces/{elsewhere}/documents",
                            {"fileResourceId": ticket["fileResourceId"], "documentName": "d"})
    assert response.status_code == 404  # a file resource belongs to its space


def test_every_response_is_the_envelope_and_echoes_the_request_id(gateway: Gateway) -> None:
    headers = gateway.headers(key=False, **{"X-Request-Id": "req-abc"})
    for path in ("/spaces", "/spaces/ks-none", "/documents/doc-none", "/operations/op-none"):
        body = gateway.call("GET", path, headers=headers).json()
        assert set(body) == {"data", "meta"}
        assert body["meta"]["requestId"] == "req-abc" and body["meta"]["apiVersion"] == "v1"
        assert body["meta"]["timestamp"].endswith("Z")


def test_errors_stay_small_and_say_nothing_internal(gateway: Gateway) -> None:
    body = {"code": "x" * 5000, "name": "n" * 5000, "profileCode": "x", "defaultSecurityDomainCode": "y" * 5000,
            **{f"extra{i}": i for i in range(500)}}
    response = gateway.call("POST", "/spaces", body)
    assert response.status_code == 400 and len(response.content) < 65_536
    assert len(response.json()["meta"]["error"]["fieldErrors"]) <= 100


def test_no_redirects_ever(gateway: Gateway) -> None:
    response = gateway.client.get(BASE + "/spaces/", headers=gateway.headers(key=False), follow_redirects=False)
    assert response.status_code == 404 and "location" not in response.headers


def test_a_body_that_is_not_json_is_invalid_input(gateway: Gateway) -> None:
    response = gateway.client.post(BASE + "/spaces", content=b"{nope", headers=gateway.headers())
    assert response.status_code == 400 and response.json()["meta"]["error"]["fieldErrors"][0]["field"] == "body"


@EMBEDDED_ONLY
def test_a_non_ascii_signature_is_refused_not_a_crash(gateway: Gateway) -> None:
    # Found by schemathesis: compare_digest raised TypeError on non-ASCII text (a 500).
    _, url, _ = _ticket(gateway, 5)
    response = gateway.client.put(url.split("signature=")[0] + "signature=%C3%88%F1%A9%80", content=b"hello")
    assert response.status_code == 404


@pytest.mark.parametrize("header", ["Idempotency-Key", "X-Tool-Call-Id", "X-Harness-Session-Id", "X-Request-Id"])
def test_headers_longer_than_the_contract_allows_are_refused(gateway: Gateway, header: str) -> None:
    # Found by schemathesis: a 257-character Idempotency-Key was accepted.
    body = {"code": "h", "name": "n", "profileCode": "enterprise-long-document", "defaultSecurityDomainCode": "internal"}
    assert gateway.call("POST", "/spaces", body, headers=gateway.headers(**{header: "k" * 257})).status_code == 400
    assert _fields(gateway) == [header.lower()]
    assert gateway.call("POST", "/spaces", body, headers=gateway.headers(**{header: "k" * 256})).status_code == 201


@pytest.mark.parametrize("request_id", ["r" * 10_000, "r" * 257, "req id", "<script>", 'a"b', "req\tid"])
def test_a_request_id_that_is_not_a_plain_token_is_replaced_never_echoed(gateway: Gateway, request_id: str) -> None:
    # Found by the outside probe: a refused 10,000-character X-Request-Id came back whole in meta.requestId.
    body = {"code": "h", "name": "n", "profileCode": "enterprise-long-document", "defaultSecurityDomainCode": "internal"}
    headers = gateway.headers(**{"X-Request-Id": request_id, "X-Amzn-Trace-Id": request_id})
    for response in (gateway.call("POST", "/spaces", body, headers=headers),
                     gateway.call("GET", "/spaces/ks-none", headers=headers)):
        meta = response.json()["meta"]
        assert re.fullmatch(r"[0-9a-f]{32}", meta["requestId"]), meta["requestId"][:80]
        assert response.headers["x-request-id"] == meta["requestId"]
        assert meta["traceId"] == meta["requestId"]


def test_a_plain_request_and_trace_id_are_echoed(gateway: Gateway) -> None:
    trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
    headers = gateway.headers(**{"X-Request-Id": "r" * 256, "X-Amzn-Trace-Id": trace})
    meta = gateway.call("GET", "/spaces/ks-none", headers=headers).json()["meta"]
    assert meta["requestId"] == "r" * 256 and meta["traceId"] == trace
