"""The Knowledge Lambda (functions/knowledge) on moto: events/knowledge_*.json through Mangum, DynamoDB and S3."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ragspine.bootstrap import get_knowledge_gateway
from ragspine.knowledge.identity import dev_key, sign_dev_assertion
from ragspine.settings import Settings, get_settings
from tests.support.cfn import dynamodb_create_table_kwargs
from tests.support.knowledge_api import token_record
from tests.support.process_caches import close_knowledge_gateway

Invoke = Callable[..., tuple[int, dict[str, Any]]]
BUCKET = "ragspine-uploads-test"


@pytest.fixture
def invoke(aws_settings: Settings, aws: Any, monkeypatch: pytest.MonkeyPatch, load_event: Any,
           lambda_context: Any) -> Iterator[Invoke]:
    import boto3

    aws.create_table(**dynamodb_create_table_kwargs("KnowledgeTable", "knowledge-test"))
    aws.create_table(**dynamodb_create_table_kwargs("IngestTable", "ingest-test"))
    boto3.client("s3", region_name="us-east-1").create_bucket(Bucket=BUCKET)
    machine = boto3.client("stepfunctions", region_name="us-east-1").create_state_machine(
        name="ingest", definition=json.dumps({"StartAt": "Done", "States": {"Done": {"Type": "Succeed"}}}),
        roleArn="arn:aws:iam::123456789012:role/ingest")["stateMachineArn"]
    for name, value in {"KNOWLEDGE_TABLE": "knowledge-test", "KNOWLEDGE_BUCKET": BUCKET, "INGEST_TABLE": "ingest-test",
                        "STAGING_BUCKET": BUCKET, "INGEST_STATE_MACHINE_ARN": machine}.items():
        monkeypatch.setenv(f"RAGSPINE_{name}", value)
    get_settings.cache_clear()
    close_knowledge_gateway()
    settings = get_settings()
    module = importlib.import_module("functions.knowledge.app")
    first = load_event("knowledge_space_list")
    token = first["headers"]["Authorization"].split()[1]
    get_knowledge_gateway().store.put_token(token_record(token, "harness"))
    assertion = sign_dev_assertion(dev_key(settings.data_dir), user="alice", roles=["knowledge-admin"], departments=[],
                                   domains=["internal"], issuer=settings.knowledge_assertion_issuer,
                                   audience=settings.knowledge_assertion_audience)

    def call(name: str, **replace: str) -> tuple[int, dict[str, Any]]:
        text = json.dumps(load_event(name)).replace("ASSERTION", assertion)
        for old, new in replace.items():
            text = text.replace(old, new)
        response = module.handler(json.loads(text), lambda_context)
        return response["statusCode"], json.loads(response["body"])

    yield call
    close_knowledge_gateway()


def test_a_space_lives_and_dies_through_the_lambda(invoke: Invoke) -> None:
    status, body = invoke("knowledge_space_list")
    assert status == 200 and body["data"] == {"items": []} and body["meta"]["requestId"] == "req-space_list"
    status, created = invoke("knowledge_space_create")
    assert status == 201, created
    space_id = created["data"]["knowledgeSpaceId"]
    status, replayed = invoke("knowledge_space_create")  # the same Idempotency-Key and body: the first response
    assert status == 201 and replayed["data"]["knowledgeSpaceId"] == space_id
    status, updated = invoke("knowledge_space_update", SPACE_ID=space_id)
    assert status == 200 and updated["data"]["version"] == 2
    status, deleted = invoke("knowledge_space_delete", SPACE_ID=space_id)
    assert status == 200 and deleted["data"]["status"] == "DELETED"


def test_a_request_without_a_valid_token_is_refused(invoke: Invoke) -> None:
    status, body = invoke("knowledge_space_list", kgt_0a1b2c3d4e5f_=("kgt_0a1b2c3d4e5f_x"))
    assert status == 401 and body["meta"]["error"]["code"] == "KNOWLEDGE_UNAUTHENTICATED"


def test_uploads_go_to_s3_through_a_presigned_url(invoke: Invoke) -> None:
    _, created = invoke("knowledge_space_create")
    space_id = created["data"]["knowledgeSpaceId"]
    gateway = get_knowledge_gateway()
    from ragspine.knowledge.files import create_file_resource
    from ragspine.knowledge.model import Principal

    admin = Principal("alice", frozenset({"knowledge-admin"}), security_domains=frozenset({"internal"}))
    resource, url = create_file_resource(gateway, admin, space_id, {"fileName": "a.md", "mimeType": "text/markdown",
                                                                    "fileSize": 5}, base_url="https://unused")
    assert url.startswith(f"https://{BUCKET}.s3") and "knowledge/" in url and "Signature" in url
    gateway.files.put(resource.id, ".md", b"hello")  # what the caller's PUT to the URL stores
    from ragspine.knowledge.documents import upload_document

    document, version, operation_id = upload_document(gateway, admin, space_id,
                                                      {"fileResourceId": resource.id, "documentName": "A"})
    run = gateway.ingestion.get(operation_id)
    assert run is not None and run.source == f"s3://{BUCKET}/knowledge/{resource.id}.md"
    assert (document.status.value, version.number) == ("CREATING", 1)
    import boto3

    executions = boto3.client("stepfunctions", region_name="us-east-1").list_executions(
        stateMachineArn=get_settings().ingest_state_machine_arn)["executions"]
    assert [e["name"] for e in executions] == [operation_id]  # one execution of the ingest state machine


def test_the_signed_local_upload_route_refuses_a_bad_signature(invoke: Invoke) -> None:
    status, body = invoke("knowledge_file_upload")
    assert status == 404 and set(body) == {"data", "meta"}
