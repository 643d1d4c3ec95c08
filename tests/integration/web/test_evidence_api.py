"""``GET /v1/evidence`` renders the cited region from the stored version; RESTRICTED is withheld unread."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import ragspine
from ragspine.api.routers.page import evidence_library
from ragspine.evidence.library import EvidenceLibrary
from ragspine.ingestion.operations import ActiveVersion, Operation, OperationKey, OperationStatus
from ragspine.ingestion.sqlite_operations import SqliteOperationStore, SqliteStagingArea
from ragspine.sensitivity import Sensitivity
from ragspine.settings import Settings

SAMPLES = Path(ragspine.__file__).parent / "samples"


class Stored:
    """A real SQLite operation store holding ingested versions of files copied under tmp_path."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.store = SqliteOperationStore(root / "operations.db")
        self.staging = SqliteStagingArea(self.store)

    def add(self, source: Path, *, doc_id: str | None = None, sensitivity: Sensitivity = Sensitivity.INTERNAL,
            activate: bool = True) -> str:
        """Record ``source`` as a succeeded version of ``doc_id``; return its file hash."""
        doc_id = doc_id or source.name
        copy = self.root / f"{hashlib.sha256(source.read_bytes()).hexdigest()[:8]}-{source.name}"
        shutil.copy(source, copy)
        digest = "sha256:" + hashlib.sha256(copy.read_bytes()).hexdigest()
        version_id = f"v-{digest[7:23]}"
        draft = Operation(id=f"op-{digest[7:19]}", doc_id=doc_id, version_id=version_id, file_hash=digest,
                          source=str(copy), sensitivity=sensitivity)
        operation, _ = self.store.create_or_get(OperationKey(doc_id, digest), draft)
        self.store.save(Operation(**{**{f: getattr(operation, f) for f in operation.__slots__},  # type: ignore[attr-defined]
                                     "status": OperationStatus.SUCCEEDED}))
        if activate:
            self.staging.activate(ActiveVersion(doc_id, version_id, operation.id, "{}"))
        return digest


@pytest.fixture
def stored(tmp_path: Path) -> Iterator[Stored]:
    held = Stored(tmp_path)
    yield held
    held.store.close()


@pytest.fixture
def client(settings: Settings, stored: Stored) -> Iterator[TestClient]:
    from ragspine.api.app import create_local_app

    app = create_local_app(settings)
    app.dependency_overrides[evidence_library] = lambda: EvidenceLibrary(
        stored.store, stored.staging, max_sensitivity=Sensitivity.CONFIDENTIAL)
    with TestClient(app) as test_client:
        yield test_client


def _evidence(client: TestClient, **params: str) -> dict[str, object]:
    response = client.get("/v1/evidence", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


def test_a_worksheet_cell_comes_with_its_neighbours_and_its_row_and_column_headers(client: TestClient,
                                                                                  stored: Stored) -> None:
    digest = stored.add(SAMPLES / "acme" / "ACME_Quarterly_Revenue.xlsx")
    body = _evidence(client, doc="ACME_Quarterly_Revenue.xlsx", locator="sheet=2024,cell=D2", version=digest)
    rows = body["rows"]
    assert isinstance(rows, list)
    row, col = body["highlight"]  # type: ignore[misc]
    assert rows[row][col] == "322"
    assert rows[row][1] == "ACME_CN" and rows[1][col] == "2024Q3" and rows[0][col] == "D"
    assert (body["status"], body["format"], body["version"], body["current"]) == ("shown", "table", digest, True)


def test_a_slide_table_cell_is_found_by_its_row_and_column_labels(client: TestClient, stored: Stored) -> None:
    stored.add(SAMPLES / "acme" / "ACME_FY2025_Review.pptx")
    body = _evidence(client, doc="ACME_FY2025_Review.pptx", locator="slide=2,table=1,row=营业收入,col=FY2025")
    rows = body["rows"]
    assert isinstance(rows, list)
    row, col = body["highlight"]  # type: ignore[misc]
    assert (rows[row][0], rows[0][col], rows[row][col]) == ("营业收入", "FY2025", "1452")
    assert body["lang"] == "zh"


def test_a_docx_paragraph_under_its_heading(client: TestClient, stored: Stored) -> None:
    stored.add(SAMPLES / "acme" / "ACME_FY2024_MDA.docx")
    body = _evidence(client, doc="ACME_FY2024_MDA.docx", locator="heading=香港（ACME_HK）,para=2")
    assert body["format"] == "text" and body["title"] == "香港（ACME_HK）"
    assert "香港团队" in str(body["text"])


def test_a_pdf_page_is_an_image_with_the_cited_text_boxed(client: TestClient, stored: Stored) -> None:
    stored.add(SAMPLES / "vela" / "Vela_FY2025_Chair_Letter.pdf")
    body = _evidence(client, doc="Vela_FY2025_Chair_Letter.pdf", locator="page=1,para=1",
                     find="The board proposes to keep the dividend policy unchanged")
    assert str(body["image"]).startswith("data:image/png;base64,")
    x0, y0, x1, y1 = body["box"]  # type: ignore[misc]
    assert 0 < x0 < x1 and 0 < y0 < y1


def test_a_restricted_document_is_withheld_and_its_file_never_read(client: TestClient, stored: Stored) -> None:
    stored.add(SAMPLES / "acme" / "ACME_Board_Minutes_2025Q4.docx", sensitivity=Sensitivity.RESTRICTED)
    for copy in stored.root.glob("*ACME_Board_Minutes*"):
        copy.unlink()  # had the view read the file, it would fail with 410
    body = _evidence(client, doc="ACME_Board_Minutes_2025Q4.docx", locator="para=1")
    assert (body["status"], body["text"], body["rows"], body["image"]) == ("withheld", "", [], "")


def test_the_cited_version_is_shown_after_a_replace_and_a_gone_version_is_410(client: TestClient,
                                                                            stored: Stored, tmp_path: Path) -> None:
    old = stored.add(SAMPLES / "acme" / "ACME_Product_Policy.md", doc_id="policy.md")
    edited = tmp_path / "edited" / "policy.md"
    edited.parent.mkdir()
    edited.write_text("# Policy\n\n## Returns\n\nItems can be returned within 14 days.\n", encoding="utf-8")
    stored.add(edited, doc_id="policy.md")
    body = _evidence(client, doc="policy.md", locator="heading=Returns", version=old)
    assert "30 days" in str(body["text"]) and body["current"] is False
    assert "14 days" in str(_evidence(client, doc="policy.md", locator="heading=Returns")["text"])
    missing = client.get("/v1/evidence", params={"doc": "policy.md", "locator": "heading=Returns",
                                                 "version": "sha256:" + "0" * 64})
    assert missing.status_code == 410


@pytest.mark.parametrize(("locator", "status"), [("sheet=Nope,cell=A1", 404), ("sheet=2024,cell=A1", 200)])
def test_a_locator_naming_nothing_is_404(client: TestClient, stored: Stored, locator: str, status: int) -> None:
    stored.add(SAMPLES / "acme" / "ACME_Quarterly_Revenue.xlsx")
    response = client.get("/v1/evidence", params={"doc": "ACME_Quarterly_Revenue.xlsx", "locator": locator})
    assert response.status_code == status, response.text


def test_an_unknown_document_is_404(client: TestClient) -> None:
    assert client.get("/v1/evidence", params={"doc": "nothing.xlsx", "locator": "sheet=1,cell=A1"}).status_code == 404


def test_the_page_and_its_modules_are_served_with_a_strict_csp(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<rs-evidence" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/ui/app.js").headers["content-type"].startswith(("text/javascript", "application/javascript"))


def test_feedback_on_one_number_is_listed_for_an_administrator(client: TestClient) -> None:
    sent = {"reason": "wrong_number", "question": "Q?", "answer": "A", "value": "322",
            "fact_id": "REVENUE/ACME_CN/TOTAL/Q2024Q3", "doc": "ACME_Quarterly_Revenue.xlsx",
            "locator": "sheet=2024,cell=D2", "version": "sha256:" + "a" * 64}
    created = client.post("/v1/feedback", json=sent)
    assert created.status_code == 201, created.text
    listed = client.get("/v1/feedback").json()
    assert {k: listed[0][k] for k in sent} == sent
    assert client.post("/v1/feedback", json={**sent, "reason": "nonsense"}).status_code in (400, 422)


def test_the_openapi_schema_documents_the_parts_and_the_evidence_route(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    ask = schema["components"]["schemas"]["AskResponse"]["properties"]
    assert {"answer", "sources", "parts"} <= set(ask)
    part = schema["components"]["schemas"]["AnswerPartModel"]["properties"]
    kinds = {k for option in part["kind"]["anyOf"] for k in option.get("enum", [])}
    assert {"fact", "computed", "quoted", "unverified"} <= kinds
    assert "/v1/evidence" in schema["paths"] and "/v1/feedback" in schema["paths"]


@pytest.mark.parametrize(("question", "language"), [("2024年日本的毛利率是多少", "zh"),
                                                    ("2025年の中国の売上高は？", "ja"),
                                                    ("What was ACME_CN revenue in 2024Q3?", "en")])
def test_the_ask_response_says_the_language_it_answers_in(client: TestClient, question: str, language: str) -> None:
    body = client.post("/v1/ask", json={"question": question}).json()
    assert body["language"] == language
    assert "".join(p["text"] for p in body["parts"]) == body["answer"]
