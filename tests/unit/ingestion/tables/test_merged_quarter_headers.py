"""A fiscal year merged over its quarters in a spreadsheet (``FY2025`` across B3:E3 over ``Q1 … Q4``) is read.

The xlsx reader fills a merged cell across the columns it spans, so the year is written in every
quarter's column: it is still the one year over them. Two such blocks side by side (``FY2025``
over its quarters, then ``FY2024`` over its own) give each column the quarter of the year above it.
"""

from __future__ import annotations

import io

import pytest

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import zoo_glossary

_COLUMNS = "BCDEFGHI"


def _workbook(years: list[str], merged: bool) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Quarterly net sales"
    sheet["A1"] = "Net sales by fiscal quarter (JPY billion)."
    sheet["A3"] = "JPY bn"
    for block, year in enumerate(years):
        first, last = _COLUMNS[4 * block], _COLUMNS[4 * block + 3]
        sheet[f"{first}3"] = year
        if merged:
            sheet.merge_cells(f"{first}3:{last}3")
        for quarter in range(4):
            sheet[f"{_COLUMNS[4 * block + quarter]}4"] = f"Q{quarter + 1}"
    sheet.append(["Net sales", *[float(10 + i) for i in range(4 * len(years))]])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _periods(years: list[str], merged: bool) -> dict[str, float]:
    doc = parse_document(_workbook(years, merged), filename="q.xlsx", doc_id="q.xlsx", max_bytes=1_000_000)
    facts = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00").facts
    return {f.period: f.value for f in facts if f.metric_code == "NET_SALES"}


@pytest.mark.parametrize("merged", [True, False])
def test_a_year_merged_over_its_quarters_dates_each_quarter(merged: bool) -> None:
    assert _periods(["FY2025"], merged) == {"2025Q1": 10, "2025Q2": 11, "2025Q3": 12, "2025Q4": 13}


def test_two_years_each_merged_over_its_quarters() -> None:
    assert _periods(["FY2025", "FY2024"], merged=True) == {
        "2025Q1": 10, "2025Q2": 11, "2025Q3": 12, "2025Q4": 13, "2024Q1": 14, "2024Q2": 15, "2024Q3": 16,
        "2024Q4": 17}
