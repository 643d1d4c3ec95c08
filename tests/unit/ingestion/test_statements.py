"""Financial statement titles and their kinds (``facts.statements``)."""

from __future__ import annotations

import pytest

from ragspine.facts.statements import is_statement_title, statement_kind, statement_tags


@pytest.mark.parametrize(("title", "kind"), [
    ("Consolidated Balance Sheets", "balance_sheet"),
    ("Consolidated Balance Shee t", "balance_sheet"),  # PDFium's split word
    ("CONSOLIDATED STATEMENTS OF CASH FLOWS", "cash_flows"),
    ("Consolidated Statement of Cash Flows (continued)", "cash_flows"),
    ("Consolidated Statements of Comprehensive Income", "comprehensive_income"),
    ("Consolidated Statements of Operations", "income"),
    ("Consolidated Statements of Earnings", "income"),
    ("ConsolidatedStatementsofOperations", "income"),
    ("Consolidated Statements of Shareholders' Equity", "equity"),
    ("Consolidated Statements of Financial Position", "balance_sheet"),
    # the registrant on the title's line (Corning's setting)
    ("Consolidated Balance Sheets Corning Incorporated and Subsidiary Companies", "balance_sheet"),
    ("Consolidated Balance Shee t The Coca-Cola Company and Subsidiaries", "balance_sheet"),
    ("Consolidated Statements of Income Corning Incorporated and Subsidiary Companies", "income"),
])
def test_statement_titles_are_recognised_with_their_kind(title: str, kind: str) -> None:
    assert is_statement_title(title)
    assert statement_kind(title) == kind


@pytest.mark.parametrize("text", [
    "Item 8. Financial Statements and Supplementary Data",
    "Notes to Consolidated Financial Statements",
    "Years ended December 31",
    "The consolidated balance sheets of the Company present fairly, in all material respects, its position",
    "Consolidated Balance Sheets 52",
    "Balance sheet data is provided in the following table and subsidiaries",  # no registrant's name
    "Consolidated Balance Sheets of the Company and Subsidiaries",  # "of the": a sentence, not a name
])
def test_other_lines_are_not_statement_titles(text: str) -> None:
    assert statement_kind(text) is None


def test_a_heading_trail_gives_its_statement_tag() -> None:
    assert statement_tags(("PART II", "Item 8.", "Consolidated Balance Sheets")) == ("statement:balance_sheet",)
    assert statement_tags(("PART II", "Item 7.")) == ()
