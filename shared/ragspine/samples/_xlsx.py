"""Build the quarterly revenue workbook (ACME_Quarterly_Revenue.xlsx)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from openpyxl import Workbook

from ragspine.samples import _layout
from ragspine.samples._ooxml import FIXED_TIMESTAMP, normalize_package
from ragspine.samples.acme_figures import QUARTERLY_REVENUE, QUARTERS

if TYPE_CHECKING:
    from pathlib import Path

UNIT_NOTE = "Unit: USD_M (TOTAL channel)"


def build_quarterly_workbook(path: Path) -> None:
    """Write one sheet per year: entities as rows, quarters as columns, numeric cells."""
    workbook = Workbook()
    workbook.remove(workbook.worksheets[0])  # start from no sheet: sheets are named by year
    props = workbook.properties
    props.title = "ACME quarterly revenue"
    props.creator = "ACME sample corpus"
    props.lastModifiedBy = "ACME sample corpus"
    props.created = FIXED_TIMESTAMP
    for year in sorted({quarter[:4] for quarter in QUARTERS}):
        sheet = workbook.create_sheet(title=year)
        sheet["A1"] = "Entity"
        for quarter in (q for q in QUARTERS if q.startswith(year)):
            for row in QUARTERLY_REVENUE:
                # Labels and values are placed through the same mapping as the locators.
                _, ref = _layout.quarter_cell(row.entity, quarter)
                column, row_number = ref[0], ref[1:]
                sheet[f"{column}1"] = quarter
                sheet[f"A{row_number}"] = row.entity
                # Numbers, not text, as in a real finance export; the quarterly literals
                # of the spec are all integers, so int() loses nothing.
                sheet[ref] = int(row.value(quarter))
        sheet["A6"] = UNIT_NOTE
        sheet.column_dimensions["A"].width = 28
    workbook.save(str(path))
    normalize_package(path)
