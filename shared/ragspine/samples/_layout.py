"""Where each figure sits in the built documents, and how its locator is spelled.

The document builders and the facts.csv writer both read this module, so a locator in
facts.csv cannot drift from the cell that actually holds the value.
"""

from __future__ import annotations

from ragspine.samples.acme_figures import ENTITIES, QUARTERLY_REVENUE, Metric

REVIEW_DECKS: dict[str, str] = {
    "2024": "ACME_FY2024_Review.pptx",
    "2025": "ACME_FY2025_Review.pptx",
}
MDA_DOCS: dict[str, str] = {
    "2024": "ACME_FY2024_MDA.docx",
    "2025": "ACME_FY2025_MDA.docx",
}
QUARTERLY_WORKBOOK = "ACME_Quarterly_Revenue.xlsx"
JP_REPORT = "ACME_JP_2025_Report.md"
PRODUCT_POLICY = "ACME_Product_Policy.md"
BOARD_MINUTES = "ACME_Board_Minutes_2025Q4.docx"
FAQ_FILE = "faq.yaml"
MANIFEST_FILE = "manifest.yaml"
FACTS_FILE = "facts.csv"

TITLE_SLIDE = 1
FIRST_ENTITY_SLIDE = 2
CHANNEL_SLIDE = 6
HIGHLIGHTS_SLIDE = 7
METRIC_HEADER = "Metric"
CHANNEL_HEADER = "Entity/Channel"

# Quarterly sheet: entities from row 2 in figure order, quarters Q1..Q4 in columns B..E.
_FIRST_ENTITY_ROW = 2
_QUARTER_COLUMNS = "BCDE"


def deck_columns(fiscal_year: str) -> tuple[str, str]:
    """Return the two year columns of a review deck: the prior year and the reported one."""
    return str(int(fiscal_year) - 1), fiscal_year


def source_deck_year(year: str) -> str:
    """Return the fiscal year of the review deck that is the source of ``year``'s figures.

    FY2023 only appears as the comparison column of the FY2024 deck; every other year is
    sourced from its own deck, never from its repetition as a later deck's prior year.
    """
    return year if year in REVIEW_DECKS else str(int(year) + 1)


def metric_row_label(metric: Metric, fiscal_year: str) -> str:
    """Return a metric's row label: codes in the FY2024 deck, Chinese names in FY2025's.

    The two decks label rows differently on purpose, so parsers must map both spellings.
    """
    return metric.code if fiscal_year == "2024" else metric.name_zh


def entity_slide(entity_code: str) -> int:
    """Return the slide number of an entity's key-figure table."""
    codes = [item.code for item in ENTITIES]
    return FIRST_ENTITY_SLIDE + codes.index(entity_code)


def table_locator(slide: int, row: str, year: str) -> str:
    """Return the locator of one cell of a slide's first table."""
    return f"slide={slide},table=1,row={row},col=FY{year}"


def quarter_cell(entity_code: str, quarter: str) -> tuple[str, str]:
    """Return (sheet name, cell reference) holding an entity's revenue for a quarter."""
    codes = [row.entity for row in QUARTERLY_REVENUE]
    year, q = quarter.split("Q")
    row = _FIRST_ENTITY_ROW + codes.index(entity_code)
    return year, f"{_QUARTER_COLUMNS[int(q) - 1]}{row}"


def cell_locator(sheet: str, cell: str, row: str, col: str) -> str:
    """Return the locator of a worksheet cell: its reference, then its row label and column header."""
    return f"sheet={sheet},cell={cell},row={row},col={col}"
