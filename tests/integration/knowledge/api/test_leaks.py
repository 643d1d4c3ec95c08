"""Gateway documents reach no caller without a Gateway grant: not through /v1/search, /v1/ask, the CLI,
workflow retrieval, nor the shared fact table.

Each test uploads through the Gateway (the real app and embedded index), checks that the
Gateway's own search finds the document, then asks the ordinary surfaces.
"""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.retrieval.workflow_retriever import WorkflowNodeRetriever
from tests.support.cfn import REPO_ROOT
from tests.support.knowledge_api import Gateway

SECRET = ("# Merger plan\n\nThe Kestrel acquisition closes on the ninth of March; the quokka codename stays "
          "internal to the deal team.\n")
WORKBOOK = REPO_ROOT / "shared" / "ragspine" / "samples" / "acme" / "ACME_Quarterly_Revenue.xlsx"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def upload(gateway: Gateway, data: bytes, file_name: str, mime: str = "text/markdown") -> str:
    space = gateway.create_space()["knowledgeSpaceId"]
    body = {"fileResourceId": gateway.file_resource(space, data, file_name, mime), "documentName": file_name}
    change = gateway.ok("POST", f"/spaces/{space}/documents", body)
    gateway.settle()
    assert gateway.document(change["documentId"])["searchable"]
    return str(change["documentId"])


def gateway_hits(gateway: Gateway, query: str) -> list[dict[str, Any]]:
    response = gateway.call("POST", "/search", {"query": query, "limit": 8}, headers=gateway.headers(key=False))
    return response.json()["data"]["hits"]  # type: ignore[no-any-return]


def test_ordinary_search_surfaces_never_return_gateway_passages(gateway: Gateway) -> None:
    document_id = upload(gateway, SECRET.encode(), "merger.md")
    assert [h["documentId"] for h in gateway_hits(gateway, "Kestrel acquisition quokka")] == [document_id]
    # /v1/search, with and without naming the space's library
    space_id = gateway.document(document_id)["spaceId"]
    for body in ({"query": "Kestrel acquisition quokka"}, {"query": "Kestrel quokka", "library": [space_id]}):
        response = gateway.client.post("/v1/search", json=body)
        assert response.status_code == 200 and response.json()["hits"] == [], response.text
    # /v1/ask: no citation of it, and its words nowhere in the answer
    answer = gateway.client.post("/v1/ask", json={"question": "When does the Kestrel acquisition close?"}).json()
    assert "ninth of March" not in str(answer) and document_id not in str(answer)
    # `ragspine search` and the workflow knowledge-retrieval node
    cli = CliRunner().invoke(app, ["search", "Kestrel acquisition quokka", "--json"])
    assert cli.exit_code == 0 and json.loads(cli.output)["hits"] == [], cli.output
    retrieval = get_services().retrieval
    assert retrieval is not None
    assert WorkflowNodeRetriever(retrieval.retriever).retrieve("Kestrel acquisition quokka", top_k=5) == []


def test_a_gateway_workbook_publishes_no_fact_and_stays_searchable_as_passages(gateway: Gateway) -> None:
    document_id = upload(gateway, WORKBOOK.read_bytes(), WORKBOOK.name, XLSX)
    facts = get_services().facts
    assert facts.count() == 0 and facts.find(metric_code="REVENUE", entity="ACME_CN") == []
    answer = gateway.client.post("/v1/ask", json={"question": "What was Mainland China revenue in 2024Q1?"}).json()
    assert answer["status"] != "found" and "298" not in str(answer.get("answer"))
    # the figures are still evidence, for the Gateway's callers only
    found = gateway_hits(gateway, "Mainland China revenue 2024")
    assert found and {h["documentId"] for h in found} == {document_id} and any("298" in h["text"] for h in found)
