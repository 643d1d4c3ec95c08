"""A signed upload link is single-use under concurrency, and the recorded hash is always that of the stored bytes.

An outside probe sent ten parallel PUTs to one link over forty rounds: in two rounds several
succeeded, and once the stored sha256 did not match the stored bytes. Locally the link's route
now creates the file exclusively (exactly one PUT wins); on S3, where a presigned URL accepts
every PUT until it expires, the bytes are sealed once at ``knowledge_document_upload`` with a
conditional write, and what any later PUT sends is never read.
"""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests

from ragspine.bootstrap import get_knowledge_gateway
from tests.support.knowledge_api import Gateway

pytestmark = pytest.mark.both_backends

EMBEDDED_ONLY = pytest.mark.parametrize("backend", ["embedded"])
ROUNDS = 25
PARALLEL = 10
SIZE = 64


def _contents(round_no: int) -> list[bytes]:
    """Ten different files of the same declared size."""
    return [f"# round {round_no:03d} writer {i:02d}\n".encode().ljust(SIZE, b"x") for i in range(PARALLEL)]


def _ticket(gateway: Gateway, space: str) -> dict[str, Any]:
    return gateway.ok("POST", f"/spaces/{space}/file-resources",  # type: ignore[no-any-return]
                      {"fileName": "race.md", "mimeType": "text/markdown", "fileSize": SIZE})


def _stored_bytes(resource_id: str) -> bytes:
    gw = get_knowledge_gateway()
    location = gw.files.location(resource_id, ".md")
    if location.startswith("s3://"):
        bucket, key = location[len("s3://"):].split("/", 1)
        return bytes(gw.files.client.get_object(Bucket=bucket, Key=key)["Body"].read())  # type: ignore[attr-defined]
    return Path(location).read_bytes()


def _put(gateway: Gateway, url: str, data: bytes) -> int:
    if "://testserver" in url:
        return int(gateway.client.put(url.split("://testserver", 1)[1], content=data).status_code)
    return int(requests.put(url, data=data, headers={"Content-Type": "text/markdown"}, timeout=30).status_code)


@EMBEDDED_ONLY
def test_ten_parallel_puts_exactly_one_wins_and_the_hash_matches_every_round(gateway: Gateway) -> None:
    space = gateway.create_space()["knowledgeSpaceId"]
    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        for round_no in range(ROUNDS):
            ticket = _ticket(gateway, space)
            contents = _contents(round_no)
            url = str(ticket["uploadUrl"])
            statuses = list(pool.map(lambda data, url=url: _put(gateway, url, data), contents))  # type: ignore[misc]
            assert sorted(statuses) == [200] + [409] * (PARALLEL - 1), (round_no, statuses)
            stored = _stored_bytes(ticket["fileResourceId"])
            assert stored == contents[statuses.index(200)]
            resource = get_knowledge_gateway().store.file(ticket["fileResourceId"])
            assert resource is not None and resource.uploaded
            assert resource.sha256 == "sha256:" + hashlib.sha256(stored).hexdigest()


def test_the_document_keeps_the_bytes_it_was_uploaded_with(gateway: Gateway) -> None:
    """Parallel PUTs, then the upload; a PUT after it changes neither the bytes nor their hash (a reindex agrees)."""
    space = gateway.create_space()["knowledgeSpaceId"]
    ticket = _ticket(gateway, space)
    contents = _contents(0)
    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        list(pool.map(lambda data: _put(gateway, ticket["uploadUrl"], data), contents))
    change = gateway.ok("POST", f"/spaces/{space}/documents",
                        {"fileResourceId": ticket["fileResourceId"], "documentName": "race"})
    stored = _stored_bytes(ticket["fileResourceId"])
    assert stored in contents
    resource = get_knowledge_gateway().store.file(ticket["fileResourceId"])
    assert resource is not None and resource.sha256 == "sha256:" + hashlib.sha256(stored).hexdigest()
    late = b"# a late writer\n".ljust(SIZE, b"y")
    assert _put(gateway, ticket["uploadUrl"], late) in (200, 409)  # S3 accepts it; it is never read
    assert _stored_bytes(ticket["fileResourceId"]) == stored
    gateway.settle()
    document = gateway.document(change["documentId"])
    assert document["status"] == "ACTIVE", document
    reindex = gateway.ok("POST", f"/documents/{change['documentId']}:reindex",
                         {"expectedVersion": document["lockVersion"]})
    gateway.settle()
    assert gateway.operation(reindex["operationId"])["status"] == "SUCCEEDED"
