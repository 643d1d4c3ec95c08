"""knowledge_document_download over HTTP: a 60-second signed link to the active version's bytes, nothing else."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from ragspine.bootstrap import get_knowledge_gateway
from ragspine.knowledge.model import Action
from tests.integration.knowledge.api.conftest import Runs
from tests.support.cfn import REPO_ROOT
from tests.support.knowledge_api import SAMPLE_MD, Gateway, check_against_contract, grant

POLICY = (REPO_ROOT / "shared" / "ragspine" / "samples" / "acme" / "ACME_Product_Policy.md").read_bytes()


@pytest.fixture
def doc(gateway: Gateway) -> dict[str, Any]:
    space = gateway.create_space()
    change = gateway.upload(space["knowledgeSpaceId"], POLICY, name="Product policy", file_name="ACME_Product_Policy.md")
    gateway.settle()
    return gateway.document(change["documentId"])


def _link(client: Gateway, document_id: str, body: Any = None) -> Any:
    return client.call("POST", f"/documents/{document_id}:create-download-link", {} if body is None else body,
                       headers=client.headers(key=False))


def _follow(gateway: Gateway, url: str) -> Any:
    parts = urlsplit(url)
    response = gateway.client.get(f"{parts.path}?{parts.query}", follow_redirects=False)
    if response.status_code != 200:
        check_against_contract("GET", parts.path, response.status_code, response.json())
    return response


def test_the_link_downloads_the_active_versions_bytes_exactly(gateway: Gateway, doc: dict[str, Any]) -> None:
    response = _link(gateway, doc["documentId"])
    assert response.status_code == 200, response.text
    link = response.json()["data"]
    assert link["documentId"] == doc["documentId"] and link["versionId"] == doc["activeVersion"]["versionId"]
    assert (link["fileName"], link["mimeType"], link["fileSize"]) == ("ACME_Product_Policy.md", "text/markdown",
                                                                      len(POLICY))
    assert link["expiresInSeconds"] == 60
    expires = int(parse_qs(urlsplit(link["downloadUrl"]).query)["expires"][0])
    assert datetime.fromisoformat(link["expiresAt"].replace("Z", "+00:00")) == datetime.fromtimestamp(expires, UTC)
    downloaded = _follow(gateway, link["downloadUrl"])
    assert downloaded.status_code == 200
    assert hashlib.sha256(downloaded.content).digest() == hashlib.sha256(POLICY).digest()  # byte-identical
    assert downloaded.headers["content-type"].startswith("text/markdown")
    assert "attachment" in downloaded.headers["content-disposition"]
    assert downloaded.headers["cache-control"] == "no-store"


def test_the_link_names_no_storage_key(gateway: Gateway, doc: dict[str, Any]) -> None:
    url = _link(gateway, doc["documentId"]).json()["data"]["downloadUrl"]
    resource_id = get_knowledge_gateway().store.version(doc["activeVersion"]["versionId"]).file_resource_id
    assert resource_id not in url and "knowledge-files" not in url and ".md" not in url
    assert set(parse_qs(urlsplit(url).query)) == {"expires", "signature"}


def test_every_call_signs_a_new_link_without_an_idempotency_key(gateway: Gateway, doc: dict[str, Any]) -> None:
    first = _link(gateway, doc["documentId"]).json()["data"]
    gw = get_knowledge_gateway()
    later = gw.clock() + timedelta(seconds=5)
    gw.clock = lambda: later
    second = _link(gateway, doc["documentId"]).json()["data"]
    assert first["downloadUrl"] != second["downloadUrl"] and second["expiresAt"] > first["expiresAt"]


@pytest.mark.parametrize("body", [{"versionId": "ver-1"}, {"expiresInSeconds": 3600}, {"ttl": 5}, []])
def test_the_body_is_exactly_empty(gateway: Gateway, doc: dict[str, Any], body: Any) -> None:
    response = _link(gateway, doc["documentId"], body)
    assert response.status_code == 400
    assert response.json()["meta"]["error"]["code"] == "KNOWLEDGE_INVALID_INPUT"


def test_an_expired_link_is_refused(gateway: Gateway, doc: dict[str, Any]) -> None:
    url = _link(gateway, doc["documentId"]).json()["data"]["downloadUrl"]
    gw = get_knowledge_gateway()
    later = gw.clock() + timedelta(seconds=61)
    gw.clock = lambda: later
    refused = _follow(gateway, url)
    assert refused.status_code == 403 and refused.json()["data"] is None
    error = refused.json()["meta"]["error"]
    assert error["code"] == "KNOWLEDGE_FORBIDDEN" and "expired" in error["message"]


def test_a_tampered_link_is_refused(gateway: Gateway, doc: dict[str, Any]) -> None:
    url = _link(gateway, doc["documentId"]).json()["data"]["downloadUrl"]
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    expires, signature = int(query["expires"][0]), query["signature"][0]
    flipped = ("0" if signature[0] != "0" else "1") + signature[1:]
    tampered = [f"{parts.path}?expires={expires}&signature={flipped}",  # another signature
                f"{parts.path}?expires={expires + 3600}&signature={signature}",  # a longer life
                f"{parts.path.rsplit('/', 1)[0]}/ver-other?expires={expires}&signature={signature}"]  # another version
    for path in tampered:
        response = gateway.client.get(path)
        assert response.status_code == 403, path
        assert response.json()["meta"]["error"]["code"] == "KNOWLEDGE_FORBIDDEN"
        check_against_contract("GET", urlsplit(path).path, 403, response.json())
    malformed = gateway.client.get(f"{parts.path}?expires=soon&signature={signature}")
    assert malformed.status_code == 400


def test_downloading_needs_document_download(gateway: Gateway, doc: dict[str, Any]) -> None:
    grant(doc["spaceId"], "USER", "viewer", Action.SPACE_VIEW, Action.DOCUMENT_VIEW)
    grant(doc["spaceId"], "USER", "fetcher", Action.SPACE_VIEW, Action.DOCUMENT_VIEW, Action.DOCUMENT_DOWNLOAD)
    viewer = _link(gateway.as_user("viewer"), doc["documentId"])
    assert viewer.status_code == 403 and viewer.json()["meta"]["error"]["code"] == "KNOWLEDGE_FORBIDDEN"
    assert _link(gateway.as_user("stranger"), doc["documentId"]).status_code == 404  # may not even see it
    fetched = _link(gateway.as_user("fetcher"), doc["documentId"])
    assert fetched.status_code == 200
    assert _follow(gateway, fetched.json()["data"]["downloadUrl"]).content == POLICY


def test_only_the_current_active_version_is_downloaded(gateway: Gateway, doc: dict[str, Any]) -> None:
    old_url = _link(gateway, doc["documentId"]).json()["data"]["downloadUrl"]
    replacement = POLICY + b"\nA new rule.\n"
    resource = gateway.file_resource(doc["spaceId"], replacement, "ACME_Product_Policy.md")
    gateway.ok("POST", f"/documents/{doc['documentId']}:replace", {"expectedVersion": 0, "fileResourceId": resource})
    gateway.settle()
    link = _link(gateway, doc["documentId"]).json()["data"]
    assert link["versionId"] == gateway.document(doc["documentId"])["activeVersion"]["versionId"]
    assert link["versionId"] != doc["activeVersion"]["versionId"] and link["fileSize"] == len(replacement)
    assert _follow(gateway, link["downloadUrl"]).content == replacement
    assert _follow(gateway, old_url).content == POLICY  # a link issued before names its own version's bytes


def test_no_link_before_a_version_is_ready(gateway: Gateway, runs: Runs) -> None:
    runs.hold.clear()
    space = gateway.create_space()
    change = gateway.upload(space["knowledgeSpaceId"], SAMPLE_MD.encode())
    response = _link(gateway, change["documentId"])
    assert response.status_code == 409 and "no active version" in response.json()["meta"]["error"]["message"]
    runs.hold.set()


def test_a_deleted_documents_link_no_longer_downloads(gateway: Gateway, doc: dict[str, Any]) -> None:
    url = _link(gateway, doc["documentId"]).json()["data"]["downloadUrl"]
    gateway.ok("DELETE", f"/documents/{doc['documentId']}", {"expectedVersion": 0})
    assert _follow(gateway, url).status_code == 404
    assert _link(gateway, doc["documentId"]).status_code == 404
