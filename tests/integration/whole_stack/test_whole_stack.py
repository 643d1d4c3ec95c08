"""The stack of template.yaml driven as users would, from a Gateway upload and an S3 drop to answers.

The Gateway document's path: space → file resource → presigned S3 PUT → upload → the ingest
state machine (moto) → the worker (in-process) → chunks in OpenSearch (osmem-server) → READY
→ a Gateway search, the hit's citation read back, the file downloaded through its presigned link
(and never an answer on the ordinary Ask route, which holds no Gateway grant). The plain S3
upload's path: ``uploads/`` → the trigger → the same state machine → facts in DynamoDB → a
structured and a narrative answer, each with its source and locator. Then what
goes wrong: a poisoned file ends FAILED with its code, a replayed event creates nothing, and a
cancelled operation leaves nothing half-visible.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
import requests

from ragspine.ingestion.operations import OperationStatus
from ragspine.ingestion.steps import Step
from tests.integration.whole_stack.conftest import BusinessSystem
from tests.support.cfn import REPO_ROOT
from tests.support.stack import Stack, wait_for_executions

SAMPLES = REPO_ROOT / "shared" / "ragspine" / "samples" / "acme"
POLICY = SAMPLES / "ACME_Product_Policy.md"
REVIEW = SAMPLES / "ACME_FY2024_Review.pptx"
RETURNS = "How many days do customers have to return an item?"


def _space(crm: BusinessSystem) -> str:
    data = crm.ok("POST", "/spaces", {"code": "acme-policies", "name": "ACME policies",
                                      "profileCode": "enterprise-long-document",
                                      "defaultSecurityDomainCode": "internal"})
    return str(data["knowledgeSpaceId"])


def _file(crm: BusinessSystem, space_id: str, name: str, body: bytes, mime: str = "text/markdown") -> str:
    """A file resource whose bytes went to its presigned S3 URL, as the business system PUTs them."""
    ticket = crm.ok("POST", f"/spaces/{space_id}/file-resources",
                    {"fileName": name, "mimeType": mime, "fileSize": len(body)})
    assert ticket["uploadMethod"] == "PUT" and ticket["uploadUrl"].startswith("https://")
    # the presigned URL signs the declared type: the PUT sends it as Content-Type
    response = requests.put(ticket["uploadUrl"], data=body, headers={"Content-Type": mime}, timeout=30)
    assert response.status_code == 200, response.text
    return str(ticket["fileResourceId"])


def _upload(crm: BusinessSystem, space_id: str, name: str, body: bytes, **kwargs: Any) -> dict[str, Any]:
    file_id = _file(crm, space_id, name, body, **kwargs)
    return crm.ok("POST", f"/spaces/{space_id}/documents", {"fileResourceId": file_id, "documentName": name})


def _ask(stack: Stack, load_event: Callable[[str], dict[str, Any]], question: str) -> dict[str, Any]:
    event = load_event("ask_found")
    event["body"] = json.dumps({"question": question}, ensure_ascii=False)
    response = stack.invoke("AskFunction", event)
    assert response["statusCode"] == 200, response["body"]
    return json.loads(response["body"])  # type: ignore[no-any-return]


def _chunks_of(doc_id: str, space_id: str | None = None) -> list[Any]:
    """The indexed passages of one document (a Gateway document's match only a query naming its space)."""
    from ragspine.bootstrap import get_services
    from ragspine.retrieval.model import SearchFilters

    retrieval = get_services().retrieval
    assert retrieval is not None and retrieval.index is not None, "the stack has no chunk index"
    filters = SearchFilters(doc_ids=(doc_id,), space_ids=(space_id,) if space_id else ())
    return retrieval.index.search("return policy refund membership ACME", top_k=50, filters=filters)


def _fact_keys(stack: Stack, doc: str) -> list[tuple[str, str]]:
    """The fact table's items of one source document, read through its by_source_doc index."""
    items = stack.client("dynamodb").query(
        TableName=stack.names["FactsTable"], IndexName="by_source_doc",
        KeyConditionExpression="source_doc_id = :doc", ExpressionAttributeValues={":doc": {"S": doc}})["Items"]
    return sorted((item["pk"]["S"], item["sk"]["S"]) for item in items)


def test_the_template_builds_every_table_the_bucket_and_the_state_machine(stack: Stack) -> None:
    tables = stack.client("dynamodb").list_tables()["TableNames"]
    declared = [k for k, r in stack.template["Resources"].items()
                if r["Type"] in ("AWS::DynamoDB::Table", "AWS::Serverless::SimpleTable")]
    assert sorted(tables) == sorted(stack.names[k] for k in declared) and len(declared) >= 4
    bucket = stack.names["UploadsBucket"]
    assert stack.client("s3").get_bucket_versioning(Bucket=bucket)["Status"] == "Enabled"
    rules = stack.client("s3").get_bucket_lifecycle_configuration(Bucket=bucket)["Rules"]
    assert any(rule["Filter"].get("Prefix") == "staging/" for rule in rules)
    definition = stack.client("stepfunctions").describe_state_machine(
        stateMachineArn=stack.names["IngestStateMachine"])["definition"]
    assert stack.client("lambda").get_function(FunctionName="WorkerFunction")["Configuration"]["FunctionArn"] \
        in definition
    # every function's variables name the stack's own resources
    assert stack.environment["RAGSPINE_KNOWLEDGE_TABLE"] == stack.names["KnowledgeTable"]
    assert stack.environment["RAGSPINE_INGEST_STATE_MACHINE_ARN"] == stack.names["IngestStateMachine"]
    assert stack.environment["RAGSPINE_ENV"] == "production"


def test_a_gateway_document_goes_from_s3_through_the_state_machine_to_ready_and_answers(
        stack: Stack, crm: BusinessSystem, load_event: Callable[[str], dict[str, Any]]) -> None:
    # GIVEN a space and a document uploaded by a business system through the Knowledge Lambda
    space_id = _space(crm)
    change = _upload(crm, space_id, "ACME_Product_Policy.md", POLICY.read_bytes())
    assert change["operationStatus"] in ("PENDING", "RUNNING", "SUCCEEDED")
    # the file is in S3 under knowledge/, which the uploads/ trigger does not watch
    keys = [o["Key"] for o in stack.client("s3").list_objects_v2(Bucket=stack.names["UploadsBucket"])["Contents"]]
    assert any(key.startswith("knowledge/") for key in keys)
    assert not [f for f, _ in stack.invocations if f == "IngestTriggerFunction"]
    # WHEN its execution of the state machine ends
    assert wait_for_executions(stack) == ["SUCCEEDED"]
    worker_steps = [event["step"] for function, event in stack.invocations if function == "WorkerFunction"]
    assert worker_steps == [step.value for step in Step]
    # THEN the operation SUCCEEDED and the document detail shows its READY active version
    operation = crm.ok("GET", f"/operations/{change['operationId']}")
    assert (operation["status"], operation["error"], operation["progress"]["percent"]) == ("SUCCEEDED", None, 100)
    detail = crm.ok("GET", f"/documents/{change['documentId']}")
    assert detail["status"] == "ACTIVE" and detail["searchable"] is True and detail["candidateVersion"] is None
    assert detail["activeVersion"]["status"] == "READY" and detail["activeVersion"]["versionNo"] == 1
    # its chunks are in the OpenSearch index, tagged with the Gateway's version
    chunks = _chunks_of(change["documentId"], space_id)
    assert chunks and {hit.chunk.version_id for hit in chunks} == {change["versionId"]}
    # AND a Gateway search through the Knowledge Lambda finds it, and the hit's citation reads back exactly
    found = crm.ok("POST", "/search", {"query": RETURNS, "knowledgeSpaceIds": [space_id], "limit": 5})
    assert {(h["documentId"], h["versionId"]) for h in found["hits"]} == {(change["documentId"], change["versionId"])}
    hit = next((h for h in found["hits"] if "30 days" in h["text"]), None)
    assert hit is not None, found  # osmem has no k-NN: the lexical leg alone ranks here
    read = crm.ok("GET", f"/documents/{hit['documentId']}/citations/{hit['citationId']}",
                  query={"versionId": hit["versionId"]})
    assert read["locatorPrecision"] == "EXACT_OFFSET" and read["matchedContent"].startswith(hit["text"])
    # AND the file comes back through its presigned link, byte for byte
    link = crm.ok("POST", f"/documents/{change['documentId']}:create-download-link", {})
    assert link["expiresInSeconds"] == 60 and "X-Amz-Expires=60" in link["downloadUrl"]
    downloaded = requests.get(link["downloadUrl"], timeout=30)
    assert downloaded.status_code == 200 and downloaded.content == POLICY.read_bytes()
    # BUT the ordinary Ask route, which holds no Gateway grant, never answers from it
    answer = _ask(stack, load_event, RETURNS)
    assert all(source["doc"] != change["documentId"] for source in answer["sources"]), answer["sources"]


def test_a_plain_s3_upload_takes_the_same_path_and_a_replay_creates_nothing(
        stack: Stack, load_event: Callable[[str], dict[str, Any]]) -> None:
    # GIVEN a review deck dropped under uploads/ of the stack's bucket
    [first] = stack.put_object("UploadsBucket", "uploads/ACME_FY2024_Review.pptx", REVIEW.read_bytes())
    assert first["operations"][0]["created"] is True
    assert wait_for_executions(stack) == ["SUCCEEDED"]
    operation_id = first["operations"][0]["operation_id"]
    from ragspine.bootstrap import build_operation_store, get_services
    from ragspine.settings import get_settings

    operation = build_operation_store(get_settings()).get(operation_id)
    assert operation is not None and operation.status is OperationStatus.SUCCEEDED, operation
    # THEN its facts are in the DynamoDB fact table, each with its locator
    facts = _fact_keys(stack, "ACME_FY2024_Review.pptx")
    margin = get_services().facts.find(metric_code="GROSS_MARGIN", entity="ACME_JP")
    assert facts and margin and all(f.source_doc_id == "ACME_FY2024_Review.pptx" and f.source_locator for f in margin)
    # and a structured question answers from them, with the source and locator
    answer = _ask(stack, load_event, "2024年日本的毛利率是多少")
    assert (answer["route"], answer["status"]) == ("structured", "found") and "36.0 PCT" in answer["answer"]
    assert answer["sources"] == [{"doc": "ACME_FY2024_Review.pptx",
                                  "locator": "slide=4,table=1,row=GROSS_MARGIN,col=FY2024"}]
    # AND a policy dropped the same way answers a narrative question, citing it
    stack.put_object("UploadsBucket", "uploads/ACME_Product_Policy.md", POLICY.read_bytes())
    assert wait_for_executions(stack) == ["SUCCEEDED", "SUCCEEDED"]
    narrative = _ask(stack, load_event, RETURNS)
    assert narrative["route"] == "narrative" and "30 days" in narrative["answer"], narrative
    assert any(source["doc"] == "ACME_Product_Policy.md" and source["locator"] for source in narrative["sources"])
    # WHEN S3 delivers the same event again
    head = stack.client("s3").head_object(Bucket=stack.names["UploadsBucket"], Key="uploads/ACME_FY2024_Review.pptx")
    [replayed] = stack.notify(stack.names["UploadsBucket"], "uploads/ACME_FY2024_Review.pptx",
                              size=head["ContentLength"], etag=head["ETag"].strip('"'))
    # THEN nothing new: the same operation, no second execution, the same facts
    assert replayed["operations"] == [{"operation_id": operation_id, "created": False, "started": False}]
    assert len(stack.executions("IngestStateMachine")) == 2  # the deck's and the policy's
    assert _fact_keys(stack, "ACME_FY2024_Review.pptx") == facts


def test_a_poisoned_document_ends_failed_with_its_code_on_both_paths(stack: Stack, crm: BusinessSystem) -> None:
    poison = b"%PDF-1.7\n" + bytes(range(256)) * 8 + b"\n%%EOF\n"  # a PDF header over bytes no reader can parse
    # GIVEN a poisoned file uploaded through the Gateway
    space_id = _space(crm)
    change = _upload(crm, space_id, "broken.pdf", poison, mime="application/pdf")
    assert wait_for_executions(stack) == ["FAILED"]  # the state machine's own end state
    # THEN its operation is FAILED with the pipeline's code, not retryable, and nothing became visible
    operation = crm.ok("GET", f"/operations/{change['operationId']}")
    assert operation["status"] == "FAILED" and operation["retryable"] is False
    assert operation["error"]["code"].startswith("INGEST_"), operation["error"]
    detail = crm.ok("GET", f"/documents/{change['documentId']}")
    assert detail["status"] == "CREATE_FAILED" and detail["activeVersion"] is None and detail["searchable"] is False
    candidate = detail["candidateVersion"]
    assert candidate["status"] == "FAILED" and candidate["error"]["code"] == operation["error"]["code"]
    assert _chunks_of(change["documentId"]) == []
    # AND the same file dropped under uploads/ fails with the same code
    [dropped] = stack.put_object("UploadsBucket", "uploads/broken.pdf", poison)
    assert wait_for_executions(stack) == ["FAILED", "FAILED"]
    from ragspine.bootstrap import build_operation_store
    from ragspine.settings import get_settings

    failed = build_operation_store(get_settings()).get(dropped["operations"][0]["operation_id"])
    assert failed is not None and failed.status is OperationStatus.FAILED and failed.error is not None
    assert failed.error.code == operation["error"]["code"] and _fact_keys(stack, "broken.pdf") == []


@pytest.fixture
def held_index(monkeypatch: pytest.MonkeyPatch) -> dict[str, threading.Event]:
    """The worker's index step writes its chunks, then waits for the test before returning to the state machine."""
    from ragspine.ingestion import steps

    real = steps.STEPS[Step.CHECK_INDEX]
    events = {"indexed": threading.Event(), "release": threading.Event()}
    calls = {"n": 0}

    def index(operation: Any, context: Any) -> Any:
        result = real(operation, context)
        calls["n"] += 1
        if calls["n"] == 2:  # the second run (the replacement) is held with its chunks written
            events["indexed"].set()
            assert events["release"].wait(timeout=60), "the test never released the index step"
        return result

    monkeypatch.setitem(steps.STEPS, Step.CHECK_INDEX, index)
    return events


def test_a_cancelled_replacement_leaves_no_half_visible_version(
        stack: Stack, crm: BusinessSystem, held_index: dict[str, threading.Event],
        load_event: Callable[[str], dict[str, Any]]) -> None:
    # GIVEN a READY document
    space_id = _space(crm)
    first = _upload(crm, space_id, "ACME_Product_Policy.md", POLICY.read_bytes())
    assert wait_for_executions(stack) == ["SUCCEEDED"]
    lock = crm.ok("GET", f"/documents/{first['documentId']}")["lockVersion"]
    # WHEN a replacement is cancelled after its chunks were written, before activation
    edited = POLICY.read_bytes() + b"\n\n## Gift cards\n\nGift cards are refunded within 90 days.\n"
    file_id = _file(crm, space_id, "ACME_Product_Policy.md", edited)
    second = crm.ok("POST", f"/documents/{first['documentId']}:replace",
                    {"expectedVersion": lock, "fileResourceId": file_id})
    assert held_index["indexed"].wait(timeout=60), "the replacement never reached its index step"
    cancelled = crm.ok("POST", f"/operations/{second['operationId']}:cancel", {})
    assert cancelled["status"] == "CANCELLED"
    held_index["release"].set()
    assert wait_for_executions(stack) == ["FAILED", "SUCCEEDED"]  # newest first: the Cancelled state is a Fail
    # THEN the first version is still the active one, the cancelled candidate is shown as such
    detail = crm.ok("GET", f"/documents/{first['documentId']}")
    assert detail["activeVersion"]["versionId"] == first["versionId"] and detail["activeVersion"]["status"] == "READY"
    assert detail["candidateVersion"]["status"] == "CANCELLED" and detail["searchable"] is True
    assert crm.ok("GET", f"/operations/{second['operationId']}")["status"] == "CANCELLED"
    # and no search reaches the cancelled version's text
    chunks = _chunks_of(first["documentId"], space_id)
    assert chunks and {hit.chunk.version_id for hit in chunks} == {first["versionId"]}
    found = crm.ok("POST", "/search", {"query": "How long are gift cards refunded?", "knowledgeSpaceIds": [space_id]})
    assert all("90 days" not in hit["text"] and hit["versionId"] == first["versionId"] for hit in found["hits"])
