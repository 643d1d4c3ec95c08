"""Citation reads and download links on the AWS adapters: DynamoDB and S3 on moto.

The Gateway app is built as the Knowledge Lambda builds it; each operation runs the real
ingestion steps in process against the ingest table and the staging bucket (the state
machine's own tests cover Step Functions), so version texts land in S3 under ``texts/``.
The chunk index is not configured here (no OpenSearch domain): citations are taken from the
stored offsets, and the S3 presigned GET is followed through moto, byte for byte.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from fastapi.testclient import TestClient

from ragspine.bootstrap import build_ingest_context, get_knowledge_gateway, get_services
from ragspine.settings import Settings, get_settings
from tests.support.aws_session import forget_shared_session
from tests.support.cfn import REPO_ROOT, dynamodb_create_table_kwargs
from tests.support.knowledge_api import Gateway, issue_token
from tests.support.process_caches import close_knowledge_gateway, close_services

BUCKET = "ragspine-uploads-test"
POLICY = (REPO_ROOT / "shared" / "ragspine" / "samples" / "acme" / "ACME_Product_Policy.md").read_bytes()


class _InProcessLauncher:
    """Runs an operation's ingestion at once, in this process, on the AWS stores."""

    def start(self, operation_id: str) -> None:
        from ragspine.ingestion.runner import InProcessRunner
        from ragspine.knowledge.operations import finalize

        InProcessRunner(sleep=lambda _: None).run(operation_id, context=build_ingest_context(get_services()))
        gateway = get_knowledge_gateway()
        operation = gateway.store.operation(operation_id)
        document = gateway.store.document(operation.document_id) if operation else None
        if document is not None:
            finalize(gateway, document)


@pytest.fixture
def aws_gateway(aws_settings: Settings, aws: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Gateway]:
    import boto3

    from ragspine.api.app import create_app
    from ragspine.api.routers import knowledge

    aws.create_table(**dynamodb_create_table_kwargs("KnowledgeTable", "knowledge-test"))
    aws.create_table(**dynamodb_create_table_kwargs("IngestTable", "ingest-test"))
    boto3.client("s3", region_name="us-east-1").create_bucket(Bucket=BUCKET)
    for name, value in {"KNOWLEDGE_TABLE": "knowledge-test", "KNOWLEDGE_BUCKET": BUCKET, "INGEST_TABLE": "ingest-test",
                        "STAGING_BUCKET": BUCKET,
                        "INGEST_STATE_MACHINE_ARN": "arn:aws:states:us-east-1:123456789012:stateMachine:x"}.items():
        monkeypatch.setenv(f"RAGSPINE_{name}", value)
    get_settings.cache_clear()
    close_knowledge_gateway()
    close_services()
    # A session an earlier test built keeps the credentials it read then; the links are signed with these.
    forget_shared_session()
    app = create_app(routers=[])
    knowledge.install(app, get_settings())
    get_knowledge_gateway().launcher = _InProcessLauncher()
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Gateway(client, get_settings(), issue_token())
    close_knowledge_gateway()
    close_services()
    forget_shared_session()


@pytest.fixture
def session_built_earlier(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process's AWS session built by an earlier test, under credentials no longer in force."""
    from ragspine.aws.boto3_client import shared_botocore_session

    forget_shared_session()
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "earlier")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "earlier-secret")
    assert shared_botocore_session().get_credentials().secret_key == "earlier-secret"


def _upload(gateway: Gateway) -> dict[str, Any]:
    import boto3

    space = gateway.create_space()
    ticket = gateway.ok("POST", f"/spaces/{space['knowledgeSpaceId']}/file-resources",
                        {"fileName": "ACME_Product_Policy.md", "mimeType": "text/markdown", "fileSize": len(POLICY)})
    assert ticket["uploadUrl"].startswith(f"https://{BUCKET}.s3")
    key = urlsplit(ticket["uploadUrl"]).path.lstrip("/")
    boto3.client("s3", region_name="us-east-1").put_object(Bucket=BUCKET, Key=key, Body=POLICY)  # the caller's PUT
    change = gateway.ok("POST", f"/spaces/{space['knowledgeSpaceId']}/documents",
                        {"fileResourceId": ticket["fileResourceId"], "documentName": "Product policy"})
    detail = gateway.document(change["documentId"])
    assert detail["activeVersion"]["status"] == "READY", detail
    return detail


def test_a_citation_reads_from_the_version_text_in_s3(aws_gateway: Gateway) -> None:
    import boto3

    detail = _upload(aws_gateway)
    version_id = detail["activeVersion"]["versionId"]
    keys = {o["Key"] for o in boto3.client("s3", region_name="us-east-1").list_objects_v2(
        Bucket=BUCKET, Prefix=f"texts/{version_id}/")["Contents"]}
    assert keys == {f"texts/{version_id}/text.txt", f"texts/{version_id}/passages.json"}
    record = get_knowledge_gateway().texts.get(version_id)
    assert record is not None and all(p.exact for p in record.passages.values())
    citation = next(cid for cid, p in record.passages.items() if "within 30 days" in record.text[p.start:p.end])
    response = aws_gateway.call("GET", f"/documents/{detail['documentId']}/citations/{citation}",
                                params={"versionId": version_id, "contextBefore": 5000},
                                headers=aws_gateway.headers(key=False))
    assert response.status_code == 200, response.text
    read = response.json()["data"]
    assert "within 30 days" in read["matchedContent"] and read["locatorPrecision"] == "EXACT_OFFSET"
    too_far = aws_gateway.call("GET", f"/documents/{detail['documentId']}/citations/{citation}",
                               params={"versionId": version_id, "contextBefore": 5001},
                               headers=aws_gateway.headers(key=False))
    assert too_far.status_code == 400
    aws_gateway.ok("DELETE", f"/documents/{detail['documentId']}", {"expectedVersion": 0})
    assert get_knowledge_gateway().texts.get(version_id) is None  # deleted with the document


def test_the_download_link_is_a_60_second_presigned_get_of_that_object(session_built_earlier: None,
                                                                       aws_gateway: Gateway) -> None:
    import requests

    detail = _upload(aws_gateway)
    response = aws_gateway.call("POST", f"/documents/{detail['documentId']}:create-download-link", {},
                                headers=aws_gateway.headers(key=False))
    assert response.status_code == 200, response.text
    link = response.json()["data"]
    assert link["expiresInSeconds"] == 60 and link["versionId"] == detail["activeVersion"]["versionId"]
    url = urlsplit(link["downloadUrl"])
    query = parse_qs(url.query)
    assert url.netloc.startswith(BUCKET) and url.path.startswith("/knowledge/fr-")
    assert query["X-Amz-Expires"] == ["60"] and query["X-Amz-Algorithm"] == ["AWS4-HMAC-SHA256"]
    assert "attachment" in query["response-content-disposition"][0]
    assert query["response-content-type"] == ["text/markdown"]
    signed_at = datetime.strptime(query["X-Amz-Date"][0], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    expires_at = datetime.fromisoformat(link["expiresAt"].replace("Z", "+00:00"))
    assert abs(expires_at - (signed_at + timedelta(seconds=60))) <= timedelta(seconds=1)
    # The signature binds this key, this method and this expiry: S3 recomputes it, and so do we.
    assert _sigv4_valid(link["downloadUrl"])
    assert not _sigv4_valid(link["downloadUrl"].replace(url.path, "/knowledge/another-object.md"))
    assert not _sigv4_valid(link["downloadUrl"].replace("X-Amz-Expires=60", "X-Amz-Expires=3600"))
    assert not _sigv4_valid(link["downloadUrl"], method="PUT")
    downloaded = requests.get(link["downloadUrl"], timeout=10)
    assert downloaded.status_code == 200 and downloaded.content == POLICY  # byte-identical
    other = aws_gateway.call("POST", f"/documents/{detail['documentId']}:create-download-link", {},
                             headers=aws_gateway.headers(key=False)).json()["data"]["downloadUrl"]
    assert urlsplit(other).path == url.path  # the same object, each link signed on its own


def _sigv4_valid(url: str, *, method: str = "GET") -> bool:
    """Whether a presigned URL's X-Amz-Signature is the SigV4 signature of that exact request (test credentials)."""
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    given = query.pop("X-Amz-Signature")
    canonical_query = "&".join(f"{quote(k, safe='-_.~')}={quote(v, safe='-_.~')}" for k, v in sorted(query.items()))
    canonical = "\n".join([method, parts.path, canonical_query, f"host:{parts.netloc}", "", "host", "UNSIGNED-PAYLOAD"])
    _, day, region, service, _ = query["X-Amz-Credential"].split("/")
    scope = f"{day}/{region}/{service}/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", query["X-Amz-Date"], scope,
                         hashlib.sha256(canonical.encode()).hexdigest()])
    key = ("AWS4" + os.environ["AWS_SECRET_ACCESS_KEY"]).encode()
    for part in (day, region, service, "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    return hmac.compare_digest(hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest(), given)
