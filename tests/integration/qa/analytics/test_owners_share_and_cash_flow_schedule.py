"""A US GAAP statement set: the company's share of net earnings named by the company's name, and a cash-flow
statement closing with its schedule of changes in working capital, asked through ``answer_question``.

``domain init`` + the finance pack, the statements ingested through the CLI:

* "Net earnings attributable to Example Group" in the statement splitting off the noncontrolling
  interests is net income attributable to the owners of the parent, so the retention ratio is computed
  from it and the dividends paid;
* the "Receivables" row listed under a cash-flow statement's closing cash is the change in receivables,
  never the balance: receivables are the balance sheet's.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.bootstrap import Services
from ragspine.facts.model import FactKey
from ragspine.qa.answer import answer_question
from tests.support.domain_env import ingest_into_finance_domain, pointed_services

TODAY = "2025-06-30"
DOC = "Example_Group_Annual_Statements_FY2024.md"
STATEMENTS = """# Example Group annual statements FY2024

## Statement of earnings

Unit: EUR m

| Item | FY2023 | FY2024 |
| --- | --- | --- |
| Net sales | 1500 | 1600 |
| Cost of sales | 900 | 950 |
| Net earnings, including noncontrolling interests | 118 | 130 |
| Net earnings attributable to noncontrolling interests | 8 | 10 |
| Net earnings attributable to Example Group | 110 | 120 |

## Balance sheet

Unit: EUR m

| Item | FY2023 | FY2024 |
| --- | --- | --- |
| Receivables | 280 | 300 |
| Inventories | 150 | 160 |
| Total current assets | 700 | 760 |

## Statement of cash flows

Unit: EUR m

| Item | FY2023 | FY2024 |
| --- | --- | --- |
| Net earnings, including noncontrolling interests | 118 | 130 |
| Net cash provided by operating activities | 160 | 175 |
| Dividends paid | (40) | (48) |
| Net cash used by financing activities | (70) | (90) |
| Cash and cash equivalents at end of year | 95 | 110 |
| Receivables | (15) | (20) |
| Inventories | (5) | (10) |
| Changes in current assets and liabilities | (20) | (30) |
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return ingest_into_finance_domain(tmp_path_factory.mktemp("owners_share"), {DOC: STATEMENTS}, today=TODAY)


@pytest.fixture
def services(ingested: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> Iterator[Services]:
    yield from pointed_services(monkeypatch, *ingested, today=TODAY)


def test_the_company_named_share_of_net_earnings_gives_the_retention_ratio(services: Services) -> None:
    answer = answer_question("What is the retention ratio of Example Group for FY2024?", qa=services.qa).answer
    assert "0.6" in answer, answer  # 1 - 48 / 120
    assert "Net earnings attributable to Example Group" in answer and "Dividends paid" in answer, answer
    owners = services.facts.get(FactKey("NET_INCOME_OWNERS", "EXAMPLE_GROUP", "TOTAL", "FY", "2024"))
    assert owners is not None and owners.value == 120


def test_receivables_are_the_balance_sheets_not_the_cash_flow_change(services: Services) -> None:
    answer = answer_question("What were Example Group's receivables in FY2024?", qa=services.qa).answer
    assert "300" in answer, answer
    assert "(20)" not in answer and "-20" not in answer and "−20" not in answer, answer
    stated = services.facts.get(FactKey("RECEIVABLES", "EXAMPLE_GROUP", "TOTAL", "FY", "2024"))
    assert stated is not None and stated.value == 300
    assert stated.source_locator.startswith("table=2"), stated.source_locator
