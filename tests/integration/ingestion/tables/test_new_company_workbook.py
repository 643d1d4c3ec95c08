"""A second company's segment workbook in the long layout, through ``ragspine ingest`` and ``ragspine ask``.

A food maker (fiscal year ending in March, JPY billion) writes its domain folder from
``ragspine domain init`` and edits it as docs/your-company.md says; its workbook is laid out
``Segment | Metric | FY2024 | FY2025`` (segments merged down column B, the table under a
title row and starting in column B). Every figure must be answered with its cell, and a
caption naming one metric must never relabel the rows of another.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.settings import Settings
from tests.support.ask import asker
from tests.support.domain_env import serving_domain
from tests.support.process_caches import close_services

runner = CliRunner()

GLOSSARY = """\
version: food-glossary-1
home_entity: MINORI_GROUP
default_channel: TOTAL
fiscal_year: {end_month: 3, named_by: end}
currency: JPY

units:
  JPY_B:
    names: {en: JPY billion, zh: 十亿日元, ja: 十億円}
    aliases: [JPY billion, billions of yen, 十億円]
    currency: JPY
  PCT:
    names: {en: percent, zh: 百分比, ja: パーセント}

metrics:
  NET_SALES:
    unit: JPY_B
    additive: true
    names: {en: net sales, zh: 销售额, ja: 売上高}
    aliases: [net sales, sales, 売上高, 销售额]
  OPERATING_INCOME:
    unit: JPY_B
    additive: true
    names: {en: operating income, zh: 营业利润, ja: 営業利益}
    aliases: [operating income, operating profit, 営業利益, 营业利润]

levels:
  group:
    names: {en: group, zh: 集团, ja: グループ}
  segment:
    names: {en: segment, zh: 分部, ja: セグメント}
    aliases: [each segment, all segments, segments, 各セグメント]

entities:
  MINORI_GROUP:
    level: group
    names: {en: Minori Foods Group, zh: 稔食品集团, ja: みのり食品グループ}
    aliases: [group, whole group, group total, 全社, minori foods]
  MINORI_WHOLESALE:
    parent: MINORI_GROUP
    level: segment
    names: {en: Wholesale, zh: 批发, ja: 卸売}
    aliases: [wholesale, 卸売, 卸売事業, 批发]
  MINORI_RETAIL:
    parent: MINORI_GROUP
    level: segment
    names: {en: Retail, zh: 零售, ja: 小売}
    aliases: [retail, 小売, 小売事業, 零售]

channels:
  TOTAL:
    names: {en: total, zh: 合计, ja: 合計}
    aliases: [all channels, 合计, 合計]

fillers: [minori]
"""

# (segment, metric, FY2024, FY2025) in the order the sheet lists them.
ROWS = (
    ("Wholesale", "Net sales", 15.2, 16.8),
    ("", "Operating income", 1.4, 1.6),
    ("Retail", "Net sales", 9.7, 10.3),
    ("", "Operating income", 0.8, 0.9),
    ("Total", "Net sales", 24.9, 27.1),
)


def _workbook(path: Path, caption: str, rows: tuple[tuple[str, str, float, float], ...]) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Segments"
    sheet["B1"] = caption
    for col, header in zip("BCDE", ("Segment", "Metric", "FY2024", "FY2025"), strict=True):
        sheet[f"{col}3"] = header
    for offset, (segment, metric, fy24, fy25) in enumerate(rows):
        row = 4 + offset
        sheet[f"B{row}"], sheet[f"C{row}"], sheet[f"D{row}"], sheet[f"E{row}"] = segment, metric, fy24, fy25
    for start, (segment, *_rest) in enumerate(rows):
        if segment and start + 1 < len(rows) and not rows[start + 1][0]:
            sheet.merge_cells(f"B{4 + start}:B{5 + start}")
    book.save(path)


@pytest.fixture
def food_domain(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A domain folder from ``ragspine domain init``, edited for the food maker and checked."""
    folder = tmp_path / "minori"
    assert runner.invoke(app, ["domain", "init", str(folder)]).exit_code == 0
    (folder / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
    domain = (folder / "domain.yaml").read_text(encoding="utf-8")
    (folder / "domain.yaml").write_text(domain.replace("Example Co", "Minori Foods"), encoding="utf-8")
    checked = runner.invoke(app, ["domain", "check", str(folder)])
    assert checked.exit_code == 0, checked.output
    yield from serving_domain(monkeypatch, folder)


def _ingest(path: Path) -> str:
    result = runner.invoke(app, ["ingest", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    close_services()
    return result.output


def _ask(question: str) -> str:
    return runner.invoke(app, ["ask", question], env={"COLUMNS": "200"}).output


def test_long_layout_workbook_answers_each_segment_figure_with_its_cell(food_domain: Path, tmp_path: Path) -> None:
    book = tmp_path / "Minori_Segments_FY2025.xlsx"
    _workbook(book, "Segment results (JPY billion; fiscal years ending March)", ROWS)
    _ingest(book)

    answer = _ask("What were Wholesale net sales in FY2025?")
    assert "16.8 JPY_B" in answer, answer
    assert "Minori_Segments_FY2025.xlsx · sheet=Segments,cell=E4,row=Wholesale/Net sales,col=FY2025" in answer
    assert "1.6 JPY_B" in _ask("What was Wholesale operating income in FY2025?")
    retail = _ask("What were Retail net sales in FY2024?")
    assert "9.7 JPY_B" in retail and "sheet=Segments,cell=D6,row=Retail/Net sales,col=FY2024" in retail
    assert "0.8 JPY_B" in _ask("What was the operating income of Retail in FY2024?")


def test_a_caption_naming_net_sales_never_relabels_operating_income_rows(food_domain: Path, tmp_path: Path) -> None:
    book = tmp_path / "Minori_Segment_Sales.xlsx"
    flipped = (("Wholesale", "Operating income", 16.1, 1.6), ("", "Net sales", 15.2, 16.8),
               ("Retail", "Operating profit", 0.8, 0.9), ("", "Net sales", 9.7, 10.3))
    _workbook(book, "Wholesale and Retail segment net sales (JPY billion)", flipped)
    _ingest(book)

    answer = _ask("What were Wholesale net sales in FY2025?")
    assert "16.8 JPY_B" in answer and "16.1" not in answer, answer
    assert "1.6 JPY_B" in _ask("What was Wholesale operating income in FY2025?")


def test_over_post_v1_ask_the_figure_comes_with_its_cell(food_domain: Path, tmp_path: Path) -> None:
    book = tmp_path / "Minori_Segments_FY2025.xlsx"
    _workbook(book, "Segment results (JPY billion; fiscal years ending March)", ROWS)
    _ingest(book)
    ask = asker("/v1/ask", get_services())

    body = ask("What were Wholesale net sales in FY2025?")
    assert "16.8 JPY_B" in body["answer"]
    assert [(s["doc"], s["locator"]) for s in body["sources"]] == [
        ("Minori_Segments_FY2025.xlsx", "sheet=Segments,cell=E4,row=Wholesale/Net sales,col=FY2025")]
