"""Table passages stay small: a cited row is quoted with its headers, never with the rest of its table."""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook
from typer.testing import CliRunner

from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.qa.answer import answer_question
from ragspine.sensitivity import Sensitivity
from ragspine.settings import Settings

runner = CliRunner()
CAPTION = "ACME Japan store openings (FY2025)"
CITIES = ["Tokyo", "Osaka", "Kyoto", "Nagoya", "Sapporo", "Fukuoka", "Sendai", "Kobe", "Hiroshima", "Yokohama"]


def _workbook(path: Path) -> Path:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Stores"
    sheet.append([CAPTION])
    sheet.append(["Store", "City", "Opened", "Staff"])
    for index, city in enumerate(CITIES):
        sheet.append([f"{city} Central", city, f"2025-0{index % 9 + 1}-01", 20 + index])
    book.save(path)
    return path


def test_a_cited_row_is_its_own_context_with_its_headers(settings: Settings, tmp_path: Path) -> None:
    result = runner.invoke(app, ["ingest", str(_workbook(tmp_path / "JP_Stores.xlsx"))])
    assert result.exit_code == 0, result.output
    qa = get_services().qa
    assert qa.retriever is not None
    found = qa.retriever.retrieve("When did the Fukuoka Central store open?", top_k=3,
                                  max_sensitivity=Sensitivity.CONFIDENTIAL)
    row = next(e for e in found if e.locator == "sheet=Stores,row=8")
    quoted = row.context or row.text
    assert "Store: Fukuoka Central; City: Fukuoka; Opened: 2025-06-01; Staff: 25" in quoted
    assert quoted.count(CAPTION) == 1
    assert not any(f"{city} Central" in quoted for city in CITIES if city != "Fukuoka")


def test_a_narrative_answer_never_quotes_the_whole_sheet(settings: Settings, tmp_path: Path) -> None:
    result = runner.invoke(app, ["ingest", str(_workbook(tmp_path / "JP_Stores.xlsx"))])
    assert result.exit_code == 0, result.output
    answer = answer_question("When did the Fukuoka Central store open?", qa=get_services().qa)
    assert "Fukuoka" in answer.answer
    cited = {s["locator"] for s in answer.sources}
    assert cited and all(locator.startswith("sheet=Stores,row=") for locator in cited)
    assert answer.answer.count(CAPTION) <= len(cited)  # once per cited row, not once per row of the sheet
    assert sum(f"{city} Central" in answer.answer for city in CITIES) <= len(cited)
