"""The page Lambda's own API on moto: evidence from S3, the corpus documents and their facts, feedback in DynamoDB.

Each call is the HTTP API's payload 1.0 event after the JWT authorizer (its claims in the request
context). The stores are the deployed ones: operations and active versions in the ingest table,
the files in the uploads bucket, facts in the fact table, feedback in the feedback table, all
created from template.yaml's own definitions.
"""

from __future__ import annotations

import base64
import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ragspine
from ragspine.api.page_api import aws_stores, groups_of
from ragspine.aws.dynamo_facts import DynamoFactStore
from ragspine.facts.model import Fact
from ragspine.sensitivity import Sensitivity
from ragspine.settings import Settings, get_settings
from tests.conftest import FACTS_TABLE
from tests.support.page_corpus import BUCKET, Corpus, deployed_corpus
from tests.support.samples import load_sample_facts

SAMPLES = Path(ragspine.__file__).parent / "samples"
HOST = "p4g3a1pi.execute-api.us-east-1.amazonaws.com"
MINUTES = "ACME_Board_Minutes_2025Q4.docx"
READER = {"sub": "a1b2", "client_id": "ask-page", "iss": "https://cognito-idp.us-east-1.amazonaws.com/pool"}
ADMIN = {**READER, "sub": "c3d4", "cognito:groups": "[ragspine-admins analysts]"}


@pytest.fixture
def corpus(aws_settings: Settings, aws: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Corpus]:
    yield from deployed_corpus(aws, monkeypatch)


def _event(method: str, path: str, query: dict[str, str] | None = None, body: object = None,
           claims: dict[str, str] | None = None) -> dict[str, Any]:
    """What the page's HTTP API sends the page function once the JWT authorizer has passed the call."""
    headers = {"Authorization": "Bearer eyJraWQiOiJleGFtcGxlIn0.e30.c2ln", "Host": HOST, "X-Forwarded-Proto": "https"}
    return {"version": "1.0", "resource": path, "path": path, "httpMethod": method, "headers": headers,
            "multiValueHeaders": {k: [v] for k, v in headers.items()}, "queryStringParameters": query,
            "multiValueQueryStringParameters": {k: [v] for k, v in (query or {}).items()} or None,
            "pathParameters": None, "stageVariables": None,
            "requestContext": {"accountId": "123456789012", "apiId": "p4g3a1pi", "domainName": HOST,
                               "httpMethod": method, "path": path, "requestId": "Jx1-page-2",
                               "resourcePath": path, "stage": "$default",
                               "authorizer": {"claims": claims or READER, "scopes": None}},
            "body": None if body is None else json.dumps(body), "isBase64Encoded": False}


def _call(event: dict[str, Any], context: Any) -> tuple[int, Any]:
    handler = importlib.import_module("functions.page.app").handler
    response = handler(event, context)
    assert response["headers"]["Content-Type"] == "application/json"
    return response["statusCode"], json.loads(response["body"])


def test_a_fact_chip_opens_its_worksheet_cell_from_the_version_stored_in_s3(corpus: Corpus,
                                                                            lambda_context: Any) -> None:
    digest = corpus.add(SAMPLES / "acme" / "ACME_Quarterly_Revenue.xlsx")
    status, body = _call(_event("GET", "/v1/evidence", {"doc": "ACME_Quarterly_Revenue.xlsx",
                                                        "locator": "sheet=2024,cell=D2", "version": digest}),
                         lambda_context)
    assert status == 200, body
    row, col = body["highlight"]
    assert body["rows"][row][col] == "322" and body["rows"][row][1] == "ACME_CN" and body["rows"][1][col] == "2024Q3"
    assert (body["status"], body["format"], body["version"], body["current"]) == ("shown", "table", digest, True)


def test_a_slide_cell_and_a_pdf_page_render_from_s3(corpus: Corpus, lambda_context: Any) -> None:
    corpus.add(SAMPLES / "acme" / "ACME_FY2025_Review.pptx")
    corpus.add(SAMPLES / "vela" / "Vela_FY2025_Chair_Letter.pdf")
    _, slide = _call(_event("GET", "/v1/evidence", {"doc": "ACME_FY2025_Review.pptx",
                                                    "locator": "slide=2,table=1,row=营业收入,col=FY2025"}),
                     lambda_context)
    row, col = slide["highlight"]
    assert (slide["rows"][row][0], slide["rows"][row][col], slide["lang"]) == ("营业收入", "1452", "zh")
    _, page = _call(_event("GET", "/v1/evidence", {
        "doc": "Vela_FY2025_Chair_Letter.pdf", "locator": "page=1,para=1",
        "find": "The board proposes to keep the dividend policy unchanged"}), lambda_context)
    assert page["format"] == "image" and page["image"].startswith("data:image/png;base64,")
    x0, y0, x1, y1 = page["box"]
    assert 0 < x0 < x1 and 0 < y0 < y1


def test_a_restricted_document_is_withheld_unread_unlisted_and_its_facts_never_shown(corpus: Corpus, aws: Any,
                                                                                  lambda_context: Any) -> None:
    corpus.add(SAMPLES / "acme" / MINUTES, sensitivity=Sensitivity.RESTRICTED)
    corpus.add(SAMPLES / "acme" / "ACME_Quarterly_Revenue.xlsx")
    secret = Fact("REVENUE", "ACME_SECRET", "CN", "TOTAL", "FY", "2026", 999, "USD_M", MINUTES, "para=3",
                  sensitivity=Sensitivity.RESTRICTED)
    DynamoFactStore(FACTS_TABLE, client=aws).put_many([secret])
    corpus.s3.delete_object(Bucket=BUCKET, Key=f"uploads/{MINUTES}")  # had the view read it, it would be 410
    status, body = _call(_event("GET", "/v1/evidence", {"doc": MINUTES, "locator": "para=1"}), lambda_context)
    assert status == 200 and (body["status"], body["text"], body["rows"], body["image"]) == ("withheld", "", [], "")
    _, listed = _call(_event("GET", "/v1/documents"), lambda_context)
    assert [d["doc"] for d in listed] == ["ACME_Quarterly_Revenue.xlsx"]
    status, facts = _call(_event("GET", "/v1/documents/facts", {"doc": MINUTES}), lambda_context)
    assert status == 200 and facts == {"status": "withheld", "doc": MINUTES, "count": 0, "facts": [], "versions": []}
    assert "999" not in json.dumps(facts) and "ACME_SECRET" not in json.dumps(listed)


def test_the_documents_list_and_a_documents_facts_come_from_the_fact_table(corpus: Corpus, aws: Any,
                                                                           lambda_context: Any) -> None:
    digest = corpus.add(SAMPLES / "acme" / "ACME_Quarterly_Revenue.xlsx")
    corpus.add(SAMPLES / "acme" / "ACME_FY2024_Review.pptx")
    load_sample_facts(DynamoFactStore(FACTS_TABLE, client=aws))
    status, listed = _call(_event("GET", "/v1/documents"), lambda_context)
    assert status == 200
    counts = {d["doc"]: d["facts"] for d in listed}
    assert counts == {"ACME_FY2024_Review.pptx": 60, "ACME_Quarterly_Revenue.xlsx": 24}
    assert {d["version"] for d in listed if d["doc"].endswith(".xlsx")} == {digest}
    _, detail = _call(_event("GET", "/v1/documents/facts", {"doc": "ACME_Quarterly_Revenue.xlsx"}), lambda_context)
    assert detail["status"] == "shown" and detail["count"] == len(detail["facts"]) == 24
    q3 = next(f for f in detail["facts"] if f["id"] == "REVENUE/ACME_CN/TOTAL/Q2024Q3")
    assert (q3["value"], q3["unit"], q3["period"], q3["version"]) == ("322", "USD_M", "Q2024Q3", digest)
    assert q3["locator"].startswith("sheet=2024,cell=D2")
    assert detail["versions"] == [{"version": digest, "version_id": f"v-{digest[7:19]}", "active": True,
                                   "ingested_at": None}]
    # the fact's locator and version open its cell, as a chip does
    _, cell = _call(_event("GET", "/v1/evidence", {"doc": "ACME_Quarterly_Revenue.xlsx", "locator": q3["locator"],
                                                   "version": q3["version"]}), lambda_context)
    row, col = cell["highlight"]
    assert cell["rows"][row][col] == "322"


def test_feedback_is_stored_in_dynamodb_and_listed_newest_first_for_administrators_only(
        corpus: Corpus, lambda_context: Any) -> None:
    first = {"reason": "wrong_number", "question": "ACME China revenue 2024Q3?", "answer": "322 USD_M",
             "value": "322", "fact_id": "REVENUE/ACME_CN/TOTAL/Q2024Q3", "doc": "ACME_Quarterly_Revenue.xlsx",
             "locator": "sheet=2024,cell=D2", "version": "sha256:54c0"}
    status, stored = _call(_event("POST", "/v1/feedback", body=first), lambda_context)
    assert status == 201 and stored["id"].startswith("fb-") and stored["locator"] == "sheet=2024,cell=D2"
    _call(_event("POST", "/v1/feedback", body={"reason": "helpful", "question": "q2", "answer": "a2"}), lambda_context)
    status, refused = _call(_event("GET", "/v1/feedback"), lambda_context)
    assert status == 403 and refused["error"]["code"] == "KNOWLEDGE_FORBIDDEN"
    status, listed = _call(_event("GET", "/v1/feedback", {"limit": "10"}, claims=ADMIN), lambda_context)
    assert status == 200 and {item["reason"] for item in listed} == {"wrong_number", "helpful"}
    assert listed[0]["created_at"] >= listed[1]["created_at"]
    mine = next(item for item in listed if item["reason"] == "wrong_number")
    assert {k: mine[k] for k in first} == first


@pytest.mark.parametrize(("method", "path", "query", "body", "status"), [
    ("GET", "/v1/evidence", {"doc": "nothing.xlsx", "locator": "sheet=1,cell=A1"}, None, 404),
    ("GET", "/v1/evidence", {"doc": "ACME_Quarterly_Revenue.xlsx", "locator": "sheet=Nope,cell=A1"}, None, 404),
    ("GET", "/v1/evidence", {"doc": "ACME_Quarterly_Revenue.xlsx"}, None, 400),
    ("GET", "/v1/evidence", {"doc": "ACME_Quarterly_Revenue.xlsx", "locator": "sheet=2024,cell=D2",
                             "version": "sha256:" + "0" * 64}, None, 410),
    ("GET", "/v1/documents/facts", {"doc": "nothing.xlsx"}, None, 404),
    ("GET", "/v1/documents/facts", None, None, 400),
    ("POST", "/v1/feedback", None, {"reason": "loved_it", "question": "q", "answer": "a"}, 400),
    ("GET", "/v1/feedback", {"limit": "0"}, None, 400),
])
def test_each_failure_has_its_status_and_says_what_to_fix(corpus: Corpus, lambda_context: Any, method: str, path: str,
                                                         query: dict[str, str] | None, body: object,
                                                         status: int) -> None:
    corpus.add(SAMPLES / "acme" / "ACME_Quarterly_Revenue.xlsx")
    got, payload = _call(_event(method, path, query, body, claims=ADMIN), lambda_context)
    assert got == status, payload
    assert payload["error"]["code"].startswith("KNOWLEDGE_") and payload["error"]["message"]


@pytest.mark.parametrize("raw", [json.dumps({"reason": "helpful", "question": "q", "answer": "a"}).encode("utf-16"),
                                 json.dumps({"reason": "helpful", "question": "q", "answer": "a"}).encode("utf-32-le"),
                                 b'{"reason": "helpful", "question": "caf\xe9", "answer": "a"}'],
                         ids=["utf-16", "utf-32-le", "latin-1"])
def test_feedback_not_in_utf8_is_refused_and_nothing_is_stored(corpus: Corpus, lambda_context: Any,
                                                              raw: bytes) -> None:
    # a binary body reaches the function base64-encoded; its bytes must be UTF-8, never decoded with replacement
    event = {**_event("POST", "/v1/feedback"), "body": base64.b64encode(raw).decode("ascii"), "isBase64Encoded": True}
    status, refused = _call(event, lambda_context)
    assert status == 400 and refused["error"]["code"] == "KNOWLEDGE_INVALID_INPUT", refused
    assert "not UTF-8" in refused["error"]["message"]
    assert _call(_event("GET", "/v1/feedback", {"limit": "10"}, claims=ADMIN), lambda_context) == (200, [])
    utf8 = json.dumps({"reason": "helpful", "question": "café", "answer": "a"}, ensure_ascii=False).encode("utf-8")
    status, stored = _call({**event, "body": base64.b64encode(utf8).decode("ascii")}, lambda_context)
    assert status == 201 and stored["question"] == "café", stored


def test_a_replaced_file_in_s3_is_gone_for_the_version_that_cited_it(corpus: Corpus, lambda_context: Any) -> None:
    digest = corpus.add(SAMPLES / "acme" / "ACME_Quarterly_Revenue.xlsx")
    corpus.s3.put_object(Bucket=BUCKET, Key="uploads/ACME_Quarterly_Revenue.xlsx", Body=b"other bytes")
    status, body = _call(_event("GET", "/v1/evidence", {"doc": "ACME_Quarterly_Revenue.xlsx",
                                                        "locator": "sheet=2024,cell=D2", "version": digest}),
                         lambda_context)
    assert status == 410 and "ask again" in body["error"]["message"]


@pytest.mark.parametrize(("claims", "groups"), [
    ({"cognito:groups": "[ragspine-admins analysts]"}, {"ragspine-admins", "analysts"}),
    ({"groups": ["a", "b"]}, {"a", "b"}), ({"groups": "a,b"}, {"a", "b"}), ({}, set()),
])
def test_groups_are_read_from_either_claim_and_either_form(claims: dict[str, Any], groups: set[str]) -> None:
    assert groups_of(claims) == groups


_GROUP = st.text(alphabet=st.characters(blacklist_categories=("Z", "C"), blacklist_characters="[],"), min_size=1,
                 max_size=20)


@given(st.sets(_GROUP, max_size=5), st.sampled_from(["list", "brackets", "commas"]),
       st.sampled_from(["cognito:groups", "groups"]))
def test_every_form_of_the_groups_claim_names_the_same_groups(groups: set[str], form: str, claim: str) -> None:
    value: object = {"list": sorted(groups), "brackets": "[" + " ".join(sorted(groups)) + "]",
                     "commas": ",".join(sorted(groups))}[form]
    assert groups_of({claim: value, "sub": "x"}) == groups


def test_an_unexpected_failure_is_a_500_naming_the_request_not_its_cause(corpus: Corpus, lambda_context: Any,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from ragspine.evidence import views

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("secret-internal-detail")

    monkeypatch.setattr(views, "corpus_documents", broken)
    status, body = _call(_event("GET", "/v1/documents"), lambda_context)
    assert status == 500 and "Jx1-page-2" in body["error"]["message"]
    assert "secret-internal-detail" not in json.dumps(body)


def test_without_its_tables_the_page_api_is_a_500_that_names_no_secret(aws_settings: Settings, lambda_context: Any,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from ragspine.api.page_api import aws_stores
    from ragspine.settings import get_settings

    monkeypatch.delenv("RAGSPINE_FEEDBACK_TABLE", raising=False)
    get_settings.cache_clear()
    aws_stores.cache_clear()
    status, body = _call(_event("GET", "/v1/documents"), lambda_context)
    assert status == 500 and "not configured" in body["error"]["message"]
    aws_stores.cache_clear()


@pytest.mark.parametrize(("status", "expected"), [("ACTIVE", (200, "shown")), ("DISABLED", (200, "withheld")),
                                                  ("DELETED", (404, None))])
def test_a_knowledge_space_document_follows_its_gateway_status_and_is_never_in_the_corpus(
        corpus: Corpus, aws: Any, lambda_context: Any, monkeypatch: pytest.MonkeyPatch, status: str,
        expected: tuple[int, str | None]) -> None:
    from datetime import UTC, datetime

    from ragspine.aws.dynamo_knowledge import DynamoKnowledgeStore
    from ragspine.ingestion.operations import SpaceStamp
    from ragspine.knowledge.codec import dump
    from ragspine.knowledge.model import Document, DocumentStatus, Metadata
    from tests.support.cfn import dynamodb_create_table_kwargs

    aws.create_table(**dynamodb_create_table_kwargs("KnowledgeTable", "ragspine-knowledge-page"))
    monkeypatch.setenv("RAGSPINE_KNOWLEDGE_TABLE", "ragspine-knowledge-page")
    get_settings.cache_clear()
    aws_stores.cache_clear()
    now = datetime(2026, 11, 30, tzinfo=UTC)
    document = Document(id="doc-hr1", space_id="sp-hr", name="policy.md", status=DocumentStatus(status),
                        lock_version=2, security_domain="internal", metadata=Metadata(), active_version_id="ver-1",
                        candidate_version_id=None, created_at=now, updated_at=now)
    knowledge = DynamoKnowledgeStore("ragspine-knowledge-page", client=aws)
    knowledge.table.call("put_item", TableName=knowledge.table.name,
                         Item={"pk": {"S": "DOC#doc-hr1"}, "sk": {"S": "DOC"}, "body": {"S": dump(document)}})
    corpus.add(SAMPLES / "acme" / "ACME_Product_Policy.md", doc_id="doc-hr1", key="knowledge/sp-hr/policy.md",
               space=SpaceStamp("sp-hr", "doc-hr1"))
    got, body = _call(_event("GET", "/v1/evidence", {"doc": "doc-hr1", "locator": "heading=Returns"}), lambda_context)
    assert (got, body.get("status")) == expected, body
    assert _call(_event("GET", "/v1/documents"), lambda_context)[1] == []
    assert _call(_event("GET", "/v1/documents/facts", {"doc": "doc-hr1"}), lambda_context)[0] == 404
