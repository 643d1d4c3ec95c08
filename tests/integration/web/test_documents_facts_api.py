"""``GET /v1/documents`` and ``/v1/documents/facts`` on the local service: the corpus, each document's facts.

The documents are real sample files recorded in a real SQLite operation store; the facts are the
curated sample facts in the service's own SQLite fact table. A RESTRICTED document is never
listed, and its facts are withheld even when the fact table holds some.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from ragspine.api.routers.page import evidence_library
from ragspine.bootstrap import get_services
from ragspine.evidence.library import EvidenceLibrary
from ragspine.facts.model import Fact
from ragspine.sensitivity import Sensitivity
from ragspine.settings import Settings
from tests.integration.web.test_evidence_api import SAMPLES, Stored, stored
from tests.support.samples import load_sample_facts

__all__ = ["stored"]  # the evidence suite's fixture: its operation store closed after each test
MINUTES = "ACME_Board_Minutes_2025Q4.docx"


@pytest.fixture
def client(settings: Settings, stored: Stored) -> Iterator[TestClient]:
    from ragspine.api.app import create_local_app

    app = create_local_app(settings)
    app.dependency_overrides[evidence_library] = lambda: EvidenceLibrary(
        stored.store, stored.staging, max_sensitivity=Sensitivity.CONFIDENTIAL)
    with TestClient(app) as test_client:
        yield test_client


def test_each_corpus_document_with_its_fact_count_and_its_facts_with_locators(client: TestClient,
                                                                              stored: Stored) -> None:
    xlsx = stored.add(SAMPLES / "acme" / "ACME_Quarterly_Revenue.xlsx")
    stored.add(SAMPLES / "acme" / "ACME_FY2025_Review.pptx")
    stored.add(SAMPLES / "acme" / "ACME_Product_Policy.md")
    load_sample_facts(get_services().facts)
    listed = client.get("/v1/documents").json()
    assert {d["doc"]: d["facts"] for d in listed} == {"ACME_FY2025_Review.pptx": 30, "ACME_Product_Policy.md": 0,
                                                      "ACME_Quarterly_Revenue.xlsx": 24}
    detail = client.get("/v1/documents/facts", params={"doc": "ACME_Quarterly_Revenue.xlsx"}).json()
    assert detail["count"] == 24 and [v["version"] for v in detail["versions"]] == [xlsx]
    fact = next(f for f in detail["facts"] if f["id"] == "REVENUE/ACME_JP/TOTAL/Q2024Q1")
    assert (fact["metric"], fact["entity"], fact["period"], fact["unit"]) == ("REVENUE", "ACME_JP", "Q2024Q1", "USD_M")
    cell = client.get("/v1/evidence", params={"doc": "ACME_Quarterly_Revenue.xlsx", "locator": fact["locator"],
                                              "version": fact["version"]}).json()
    row, col = cell["highlight"]
    assert cell["rows"][row][col] == fact["value"]


def test_a_restricted_document_is_not_listed_and_its_facts_are_withheld(client: TestClient, stored: Stored) -> None:
    stored.add(SAMPLES / "acme" / MINUTES, sensitivity=Sensitivity.RESTRICTED)
    get_services().facts.put_many([Fact("REVENUE", "ACME_SECRET", "CN", "TOTAL", "FY", "2026", 999, "USD_M",
                                        MINUTES, "para=3", sensitivity=Sensitivity.RESTRICTED)])
    assert client.get("/v1/documents").json() == []
    withheld = client.get("/v1/documents/facts", params={"doc": MINUTES})
    assert withheld.status_code == 200
    assert withheld.json() == {"status": "withheld", "doc": MINUTES, "count": 0, "facts": [], "versions": []}


def test_a_restricted_fact_of_a_shown_document_is_left_out(client: TestClient, stored: Stored) -> None:
    stored.add(SAMPLES / "acme" / "ACME_Quarterly_Revenue.xlsx")
    get_services().facts.put_many([Fact("MARGIN", "ACME_CN", "CN", "TOTAL", "FY", "2026", 7, "PCT",
                                        "ACME_Quarterly_Revenue.xlsx", "sheet=2024,cell=Z9",
                                        sensitivity=Sensitivity.RESTRICTED)])
    detail = client.get("/v1/documents/facts", params={"doc": "ACME_Quarterly_Revenue.xlsx"}).json()
    assert (detail["status"], detail["count"], detail["facts"]) == ("shown", 0, [])
    assert [d["facts"] for d in client.get("/v1/documents").json()] == [0]


def test_an_unknown_document_is_404_and_the_routes_are_in_the_openapi_schema(client: TestClient) -> None:
    missing = client.get("/v1/documents/facts", params={"doc": "nothing.xlsx"})
    assert missing.status_code == 404
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/v1/documents", "/v1/documents/facts"} <= set(paths)
