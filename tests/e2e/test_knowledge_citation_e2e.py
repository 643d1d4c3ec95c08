"""End to end on the local service (uvicorn on loopback): upload a sample-corpus document through the
Gateway, watch its operation to SUCCEEDED, search it, read the hit's citation back (EXACT_OFFSET)
and download the file through its link, byte-identical."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from ragspine.api.app import create_local_app
from ragspine.bootstrap import get_knowledge_gateway
from ragspine.knowledge.identity import dev_key, new_token, sign_dev_assertion
from ragspine.settings import Settings
from tests.support.cfn import REPO_ROOT
from tests.support.loopback import serve
from tests.support.process_caches import close_knowledge_gateway

SAMPLE = REPO_ROOT / "shared" / "ragspine" / "samples" / "acme" / "ACME_FY2025_MDA.docx"


@pytest.fixture
def service(settings: Settings) -> Iterator[str]:
    close_knowledge_gateway()
    with serve(create_local_app(settings), name="knowledge-e2e-uvicorn", log_level="error") as base_url:
        yield base_url
    close_knowledge_gateway()


def test_upload_watch_read_a_citation_and_download(service: str, settings: Settings) -> None:
    token, stored = new_token("e2e")
    get_knowledge_gateway().store.put_token(stored)
    assertion = sign_dev_assertion(dev_key(settings.data_dir), user="alice", roles=["knowledge-admin"], departments=[],
                                   domains=["internal"], issuer=settings.knowledge_assertion_issuer,
                                   audience=settings.knowledge_assertion_audience)
    headers = {"Authorization": f"Bearer {token}", "X-User-Assertion": assertion}
    data = SAMPLE.read_bytes()
    with httpx.Client(base_url=f"{service}/internal/v1/knowledge", headers=headers, follow_redirects=False,
                      timeout=30) as gw:
        space = gw.post("/spaces", headers={"Idempotency-Key": "s1"}, json={
            "code": "acme-e2e", "name": "ACME", "profileCode": "enterprise-long-document",
            "defaultSecurityDomainCode": "internal"}).json()["data"]["knowledgeSpaceId"]
        ticket = gw.post(f"/spaces/{space}/file-resources", headers={"Idempotency-Key": "f1"}, json={
            "fileName": SAMPLE.name, "fileSize": len(data),
            "mimeType": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}).json()["data"]
        assert httpx.put(ticket["uploadUrl"], content=data, timeout=30).status_code == 200
        change = gw.post(f"/spaces/{space}/documents", headers={"Idempotency-Key": "u1"}, json={
            "fileResourceId": ticket["fileResourceId"], "documentName": "FY2025 MD&A"}).json()["data"]
        status = "PENDING"
        for _ in range(600):  # the operation, watched as a business system would (at most ~60 s)
            status = gw.get(f"/operations/{change['operationId']}").json()["data"]["status"]
            if status in ("SUCCEEDED", "FAILED", "CANCELLED"):
                break
            time.sleep(0.1)
        assert status == "SUCCEEDED"
        detail = gw.get(f"/documents/{change['documentId']}").json()["data"]
        version_id = detail["activeVersion"]["versionId"]
        found = gw.post("/search", json={"query": "Project Lotus", "knowledgeSpaceIds": [space], "limit": 3}).json()
        hits = found["data"]["hits"]
        assert hits and "Project Lotus" in hits[0]["text"], found
        hit = hits[0]
        assert (hit["documentId"], hit["versionId"]) == (change["documentId"], version_id)
        # the hit carries every field the read needs, under the same names
        read = gw.get(f"/documents/{hit['documentId']}/citations/{hit['citationId']}",
                      params={"versionId": hit["versionId"]}).json()["data"]
        assert read["locatorPrecision"] == "EXACT_OFFSET" and read["versionId"] == hit["versionId"]
        assert hit["text"] == read["matchedContent"][:len(hit["text"])]
        link = gw.post(f"/documents/{change['documentId']}:create-download-link", json={}).json()["data"]
        assert link["expiresInSeconds"] == 60
        downloaded = httpx.get(link["downloadUrl"], timeout=30)
        assert downloaded.status_code == 200 and downloaded.content == data  # byte-identical
