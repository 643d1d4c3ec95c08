"""What ``sam build`` produced works: the built functions ingest, answer and serve the Gateway.

Each function runs from the build output only (its code folder and layers, a python3.12 process,
see ``tests/artifact/functions.py``); DynamoDB, S3, Step Functions and Secrets Manager are moto in
server mode, OpenSearch is osmem-server. The mapping the worker creates the index from, the domain
files the ask function answers with and the contracts the Knowledge function validates against are
read by those processes, so they can only come from the artifact.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import requests

from ragspine.ingestion.steps import Step
from tests.integration.whole_stack.conftest import BusinessSystem
from tests.support.cfn import REPO_ROOT
from tests.support.stack import Stack, wait_for_executions

pytestmark = pytest.mark.slow  # runs the sam build output (tests/support/sam_build.py)

SAMPLES = REPO_ROOT / "shared" / "ragspine" / "samples" / "acme"
POLICY = SAMPLES / "ACME_Product_Policy.md"
REVIEW = SAMPLES / "ACME_FY2024_Review.pptx"
RETURNS = "How many days do customers have to return an item?"


def _ask(stack: Stack, load_event: Callable[[str], dict[str, Any]], question: str) -> dict[str, Any]:
    event = load_event("ask_found")
    event["body"] = json.dumps({"question": question}, ensure_ascii=False)
    response = stack.invoke("AskFunction", event)
    assert response["statusCode"] == 200, response["body"]
    return json.loads(response["body"])  # type: ignore[no-any-return]


def test_an_s3_upload_is_ingested_by_the_built_worker_and_the_built_ask_answers_from_it(
        stack: Stack, load_event: Callable[[str], dict[str, Any]]) -> None:
    # GIVEN a review deck and a policy dropped under uploads/ of the stack's bucket
    [deck] = stack.put_object("UploadsBucket", "uploads/ACME_FY2024_Review.pptx", REVIEW.read_bytes())
    stack.put_object("UploadsBucket", "uploads/ACME_Product_Policy.md", POLICY.read_bytes())
    # WHEN the built trigger started their executions and the built worker ran every step
    assert deck["operations"][0]["created"] is True
    assert wait_for_executions(stack) == ["SUCCEEDED", "SUCCEEDED"]
    steps = [event["step"] for function, event in stack.invocations if function == "WorkerFunction"]
    assert sorted(steps) == sorted(step.value for step in Step for _ in range(2))
    # THEN the built ask function answers a structured question from the deck's facts, with its locator
    answer = _ask(stack, load_event, "2024年日本的毛利率是多少")
    assert (answer["route"], answer["status"]) == ("structured", "found") and "36.0 PCT" in answer["answer"]
    assert answer["sources"] == [{"doc": "ACME_FY2024_Review.pptx",
                                  "locator": "slide=4,table=1,row=GROSS_MARGIN,col=FY2024"}]
    # AND a narrative question from the policy's passages in the index the worker created from the mapping
    narrative = _ask(stack, load_event, RETURNS)
    assert narrative["route"] == "narrative" and "30 days" in narrative["answer"], narrative
    assert any(source["doc"] == "ACME_Product_Policy.md" and source["locator"] for source in narrative["sources"])


def test_the_built_knowledge_function_creates_a_space_and_serves_an_uploaded_document(
        stack: Stack, crm: BusinessSystem) -> None:
    # GIVEN a space created through the built Knowledge function (the index comes from the mapping)
    space = crm.ok("POST", "/spaces", {"code": "acme-policies", "name": "ACME policies",
                                       "profileCode": "enterprise-long-document",
                                       "defaultSecurityDomainCode": "internal"})
    assert space["status"] == "ACTIVE", space
    space_id = space["knowledgeSpaceId"]
    # WHEN a document is uploaded through its presigned URL and ingested
    body = POLICY.read_bytes()
    ticket = crm.ok("POST", f"/spaces/{space_id}/file-resources",
                    {"fileName": "ACME_Product_Policy.md", "mimeType": "text/markdown", "fileSize": len(body)})
    put = requests.put(ticket["uploadUrl"], data=body, headers={"Content-Type": "text/markdown"}, timeout=30)
    assert put.status_code == 200, put.text
    change = crm.ok("POST", f"/spaces/{space_id}/documents",
                    {"fileResourceId": ticket["fileResourceId"], "documentName": "ACME_Product_Policy.md"})
    assert wait_for_executions(stack) == ["SUCCEEDED"]
    # THEN a search finds it and the hit's citation reads back
    found = crm.ok("POST", "/search", {"query": RETURNS, "knowledgeSpaceIds": [space_id], "limit": 5})
    hit = next((h for h in found["hits"] if "30 days" in h["text"]), None)
    assert hit is not None and hit["documentId"] == change["documentId"], found
    read = crm.ok("GET", f"/documents/{hit['documentId']}/citations/{hit['citationId']}",
                  query={"versionId": hit["versionId"]})
    assert read["matchedContent"].startswith(hit["text"])


def test_the_built_workflow_function_compiles_scaffolds_and_searches_its_catalog(
        stack: Stack, load_event: Callable[[str], dict[str, Any]]) -> None:
    # GIVEN the built workflow function (its DSL schemas and catalog data come from the layer)
    def call(name: str) -> dict[str, Any]:
        response = stack.invoke("WorkflowFunction", load_event(name))
        assert response["statusCode"] == 200, (name, response["body"])
        return json.loads(response["body"])  # type: ignore[no-any-return]

    # WHEN it compiles a described workflow, scaffolds one and searches the catalog
    compiled = call("workflow_compile")
    scaffold = call("workflow_scaffold")
    found = call("workflow_catalog_search")
    # THEN each answer carries what only the packaged resources could give
    assert compiled["plan"], compiled
    assert scaffold["document"] and scaffold["match"], scaffold  # a curated catalog template matched
    assert found["hits"], sorted(found)
