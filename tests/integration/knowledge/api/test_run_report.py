"""A version's ingestion run says what it read: warnings (tables that gave no facts and why), pages, pages/s.

Through the Gateway's own detail and operation routes, against the real app and embedded index.
"""

from __future__ import annotations

from tests.integration.knowledge.api.test_leaks import WORKBOOK, XLSX, upload
from tests.support.cfn import REPO_ROOT
from tests.support.knowledge_api import Gateway

DECK = REPO_ROOT / "shared" / "ragspine" / "samples" / "acme" / "ACME_FY2024_Review.pptx"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
LETTER = REPO_ROOT / "shared" / "ragspine" / "samples" / "vela" / "Vela_FY2025_Chair_Letter.pdf"


def test_a_gateway_workbook_says_why_its_tables_gave_no_facts(gateway: Gateway) -> None:
    document_id = upload(gateway, WORKBOOK.read_bytes(), WORKBOOK.name, XLSX)
    version = gateway.document(document_id)["activeVersion"]
    unpublished = [w for w in version["warnings"] if "no facts published" in w]
    assert unpublished and all(w.startswith("sheet=") for w in unpublished), version["warnings"]
    assert "answered as passages" in unpublished[0]
    operation = gateway.ok("GET", f"/operations/{version['operationId']}")
    assert operation["warnings"] == version["warnings"]


def test_a_slide_deck_gets_one_warning_per_table_not_per_figure(gateway: Gateway) -> None:
    document_id = upload(gateway, DECK.read_bytes(), DECK.name, PPTX)
    unpublished = [w for w in gateway.document(document_id)["activeVersion"]["warnings"] if "no facts published" in w]
    tables = [w.split(":", 1)[0] for w in unpublished]
    assert tables and all(t.startswith("slide=") and ",row=" not in t for t in tables), unpublished
    assert len(tables) == len(set(tables))


def test_a_pdf_version_reports_its_pages_and_pages_per_second(gateway: Gateway) -> None:
    document_id = upload(gateway, LETTER.read_bytes(), LETTER.name, "application/pdf")
    version = gateway.document(document_id)["activeVersion"]
    assert version["pages"] is not None and version["pages"] >= 1
    assert version["pagesPerSecond"] is not None and version["pagesPerSecond"] > 0
    operation = gateway.ok("GET", f"/operations/{version['operationId']}")
    assert operation["pages"] == version["pages"] and operation["pagesPerSecond"] == version["pagesPerSecond"]


def test_a_document_without_tables_says_so(gateway: Gateway) -> None:
    document_id = upload(gateway, b"# Leave\n\nStaff take leave by asking their manager.\n", "leave.md")
    version = gateway.document(document_id)["activeVersion"]
    assert version["warnings"] == [f"{document_id}: no table; no facts extracted"]
    assert version["pages"] == 1  # a Markdown file parses as one page
