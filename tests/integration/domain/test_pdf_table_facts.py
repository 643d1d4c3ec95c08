"""PDF tables become facts for a configured domain, on ACME and on Vela.

Each PDF is written at test time (pypdf, Helvetica, figures right-aligned under their period
headers as reports set them), ingested with ``ragspine ingest`` into an empty data folder of
the domain, then asked through ``answer_question`` and ``POST /v1/ask``: the figure comes with
its ``page=N,table=T,row=…,col=…`` locator. A table whose cells do not check out against the
page text (a figure set between two period columns) gives no fact and a warning in its
operation, and the question about it finds nothing rather than a guessed cell.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ragspine.bootstrap import build_operation_stores, get_services
from ragspine.cli import app
from ragspine.domain.files import shipped_domains_dir
from ragspine.settings import get_settings
from tests.integration.ingestion.documents import PdfLine, pdf_layout
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import point_at
from tests.support.process_caches import close_services

runner = CliRunner()

# Helvetica advance widths (1/1000 em) of the characters the figures and headers use.
_WIDTHS = {**dict.fromkeys("0123456789", 556), ",": 278, ".": 278, "%": 889, "(": 333, ")": 333, "-": 333,
           "F": 611, "Y": 667, " ": 278}
SIZE = 10.0


def right(x: float, y: float, text: str) -> PdfLine:
    """``text`` set so that it ends at ``x`` (right-aligned, as figures are)."""
    return (x - sum(_WIDTHS[c] for c in text) * SIZE / 1000, y, SIZE, False, text)


def table_pdf(heading: str, corner: str, rows: list[tuple[str, str, str]], *, centred_row: int | None = None) -> bytes:
    """A page: a bold heading naming the entity, then a table with FY2024 and FY2025 columns.

    ``centred_row``: that row has one figure, set halfway between the two columns (the layout
    of a merged cell, which no reading of positions can place under one period for sure).
    """
    lines: list[PdfLine] = [(72, 740, 16, True, heading),
                            (72, 716, SIZE, False, "The year closed in line with the plan set out last spring."),
                            (72, 690, SIZE, False, corner), right(320, 690, "FY2024"), right(400, 690, "FY2025")]
    for i, (label, fy2024, fy2025) in enumerate(rows, start=1):
        y = 690 - 16 * i
        lines.append((72, y, SIZE, False, label))
        if i == centred_row:
            lines.append(right(360 + sum(_WIDTHS[c] for c in fy2024) * SIZE / 2000, y, fy2024))
            continue
        lines += [right(320, y, fy2024), right(400, y, fy2025)]
    return pdf_layout(lines)


def _ingest(path: Path) -> str:
    result = runner.invoke(app, ["ingest", str(path)], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    return result.output


def _sources(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(s["doc"], s["locator"]) for s in body["sources"]]


def _warnings(doc_id: str) -> list[str]:
    operations, _ = build_operation_stores(get_settings())
    return [w for op in operations.list_operations(doc_id=doc_id) for w in op.warnings]


ACME_DOC = "ACME_HK_FY2025_Review.pdf"
ACME_BAD = "ACME_JP_FY2025_Review.pdf"
VELA_DOC = "Vela_Clinics_FY2025_Review.pdf"
VELA_BAD = "Vela_Diagnostics_FY2025_Review.pdf"


@pytest.fixture(params=WAYS)
def acme(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Ask]:
    """ACME's domain, an empty data folder, two PDFs ingested: one clean table, one that does not check out."""
    point_at(monkeypatch, shipped_domains_dir() / "acme", tmp_path / "data")
    (tmp_path / ACME_DOC).write_bytes(table_pdf(
        "Hong Kong (ACME_HK)", "USD millions",
        [("Revenue", "1,234.5", "1,301.2"), ("Operating profit", "88.0", "95.4"), ("Gross margin", "41.2%", "42.5%")]))
    (tmp_path / ACME_BAD).write_bytes(table_pdf(
        "Japan (ACME_JP)", "USD millions", [("Revenue", "2,010.0", "2,150.5"), ("Operating profit", "310.0", "")],
        centred_row=2))
    _ingest(tmp_path / ACME_DOC)
    _ingest(tmp_path / ACME_BAD)
    yield asker(request.param, get_services())
    get_settings.cache_clear()
    close_services()


class TestAcme:
    def test_a_pdf_table_cell_answers_with_its_page_locator(self, acme: Ask) -> None:
        body = acme("What was Hong Kong's revenue in FY2025?")
        assert (body["route"], body["status"]) == ("structured", "found")
        assert "1301.2 USD_M" in body["answer"]
        assert _sources(body) == [(ACME_DOC, "page=1,table=1,row=Revenue,col=FY2025")]

    def test_chinese_and_japanese_questions_reach_the_same_cells(self, acme: Ask) -> None:
        zh = acme("香港2024财年的营业利润是多少")
        assert zh["status"] == "found" and "88.0 USD_M" in zh["answer"]
        assert _sources(zh) == [(ACME_DOC, "page=1,table=1,row=Operating profit,col=FY2024")]
        ja = acme("香港の2025年度の売上総利益率は？")
        assert ja["status"] == "found" and "42.5" in ja["answer"]
        assert _sources(ja) == [(ACME_DOC, "page=1,table=1,row=Gross margin,col=FY2025")]

    def test_a_table_that_does_not_check_out_gives_no_figure_and_a_warning(self, acme: Ask) -> None:
        body = acme("What was Japan's operating profit in FY2024?")
        assert body["status"] != "found" and "310.0" not in body["answer"]
        revenue = acme("What was Japan's revenue in FY2025?")
        assert revenue["status"] != "found" and "2150.5" not in revenue["answer"]
        warnings = _warnings(ACME_BAD)
        assert any("page=1,table=1: the table's cells do not check out against the page text" in w
                   and "no facts taken from it" in w for w in warnings), warnings
        assert not any("check out" in w for w in _warnings(ACME_DOC))


@pytest.fixture(params=WAYS)
def vela(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Ask]:
    """Vela's domain (June fiscal year, divisions), an empty data folder, two PDFs ingested."""
    point_at(monkeypatch, shipped_domains_dir() / "vela", tmp_path / "data")
    (tmp_path / VELA_DOC).write_bytes(table_pdf(
        "Clinics division", "EUR millions",
        [("Revenue", "470.3", "498.1"), ("EBITDA", "61.0", "66.4"), ("EBITDA margin", "13.0%", "13.3%")]))
    (tmp_path / VELA_BAD).write_bytes(table_pdf(
        "Diagnostics division", "EUR millions", [("Revenue", "280.4", "301.9"), ("EBITDA", "41.2", "")],
        centred_row=2))
    _ingest(tmp_path / VELA_DOC)
    _ingest(tmp_path / VELA_BAD)
    yield asker(request.param, get_services())
    get_settings.cache_clear()
    close_services()


class TestVela:
    def test_a_pdf_table_cell_answers_with_its_page_locator(self, vela: Ask) -> None:
        body = vela("What was the Clinics division's EBITDA in FY2025?")
        assert (body["route"], body["status"]) == ("structured", "found")
        assert "66.4 EUR_M" in body["answer"]
        assert _sources(body) == [(VELA_DOC, "page=1,table=1,row=EBITDA,col=FY2025")]

    def test_chinese_and_japanese_questions_reach_the_same_cells(self, vela: Ask) -> None:
        zh = vela("诊所业务2024财年的营业收入是多少")
        assert zh["status"] == "found" and "470.3 EUR_M" in zh["answer"]
        assert _sources(zh) == [(VELA_DOC, "page=1,table=1,row=Revenue,col=FY2024")]
        ja = vela("クリニック事業の2025年度の売上収益は？")
        assert ja["status"] == "found" and "498.1 EUR_M" in ja["answer"]
        assert _sources(ja) == [(VELA_DOC, "page=1,table=1,row=Revenue,col=FY2025")]
        margin = vela("Clinics division EBITDA margin FY2025")
        assert margin["status"] == "found" and "13.3 PCT" in margin["answer"]
        assert _sources(margin) == [(VELA_DOC, "page=1,table=1,row=EBITDA margin,col=FY2025")]

    def test_a_table_that_does_not_check_out_gives_no_figure_and_a_warning(self, vela: Ask) -> None:
        body = vela("What was the Diagnostics division's EBITDA in FY2024?")
        assert body["status"] != "found" and "41.2" not in body["answer"]
        warnings = _warnings(VELA_BAD)
        assert any("do not check out against the page text" in w for w in warnings), warnings
