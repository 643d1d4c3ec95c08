"""A statement set of one's own: ``domain init`` + the finance pack, a statements document ingested through
the CLI, then margins, ratios, checks and averages asked through ``answer_question`` and ``POST /v1/ask``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.bootstrap import Services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingest_into_finance_domain, pointed_services

TODAY = "2025-06-30"
DOC = "Example_Statements_FY2024.md"
STATEMENTS = """# Example Co consolidated statements FY2024

## Group consolidated figures

Unit: EUR m

| Item | FY2022 | FY2023 | FY2024 |
| --- | --- | --- | --- |
| Revenue | 1650 | 1800 | 2000 |
| Cost of sales | 1020 | 1100 | 1200 |
| Operating income | 110 | 126 | 150 |
| Net income | 70 | 81 | 100 |
| Total assets | 2200 | 2300 | 2500 |
| Total liabilities | 1150 | 1180 | 1250 |
| Net assets | 1050 | 1120 | 1250 |
| Current assets | 800 | 850 | 900 |
| Inventories | 180 | 190 | 200 |
| Current liabilities | 560 | 580 | 600 |
| Cash flow from operating activities | 180 | 200 | 220 |
| Purchases of property, plant and equipment | (60) | (70) | (80) |
"""
COMPUTED = re.compile(r"（计算自：([^（）]*)）")


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """``domain init`` + ``include: [finance]``, then ``ragspine ingest`` of the statements (once per module)."""
    return ingest_into_finance_domain(tmp_path_factory.mktemp("statements"), {DOC: STATEMENTS}, today=TODAY)


@pytest.fixture
def services(ingested: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> Iterator[Services]:
    yield from pointed_services(monkeypatch, *ingested, today=TODAY)


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, services: Services) -> Ask:
    return asker(request.param, services)


def computed(body: dict[str, object], marker: str) -> tuple[str, set[str]]:
    """The one line holding ``marker`` and the rows it cites; every cited cell is among the answer's sources."""
    answer = str(body["answer"])
    lines = [line for line in answer.splitlines() if marker in line]
    assert len(lines) == 1, answer
    cited = COMPUTED.search(lines[0])
    assert cited is not None, lines[0]
    parts = cited.group(1).split("；")
    sources = {f"{s['doc']} · {s['locator']}" for s in body["sources"]}  # type: ignore[attr-defined]
    assert set(parts) <= sources
    return lines[0], {p.split(" · ")[1] for p in parts}


def rows(year: str, *labels: str) -> set[str]:
    return {f"table=1,row={label},col={year}" for label in labels}


def test_the_statements_are_facts_of_the_pack_items(services: Services) -> None:
    stated = services.facts.get
    from ragspine.facts.model import FactKey

    fact = stated(FactKey("INVENTORIES", "EXAMPLE_GROUP", "TOTAL", "FY", "2024"))
    assert fact is not None and fact.value == 200 and fact.unit == "EUR_M"


def test_operating_margin(ask: Ask) -> None:
    body = ask("What was the operating margin in FY2024?")
    assert body["status"] == "found"
    line, cited = computed(body, "operating margin")
    assert "7.50 PCT" in line and cited == rows("FY2024", "Operating income", "Revenue")


def test_quick_ratio_in_japanese(ask: Ask) -> None:
    line, cited = computed(ask("2024年度の当座比率は何%か"), "当座比率")
    assert "116.67 PCT" in line and cited == rows("FY2024", "Current assets", "Inventories", "Current liabilities")


def test_dupont_roe(ask: Ask) -> None:
    line, cited = computed(ask("2024年度のROEをDuPont分解(純利益率×総資産回転率×財務レバレッジ)で求めると何%か"),
                           "ROE_DUPONT")
    # Turnover and leverage over average balances: 100 / ((1120 + 1250) / 2) = 8.44 %, both year-ends cited
    assert "8.44 PCT" in line and "FY2023 と FY2024 の期末の平均" in line
    assert cited == rows("FY2024", "Net income", "Revenue", "Total assets", "Net assets") | \
        rows("FY2023", "Total assets", "Net assets")


def test_balance_sheet_check(ask: Ask) -> None:
    line, cited = computed(ask("2024年度の資産合計は負債合計と純資産合計の和に一致するか"), "一致")
    assert "2500 EUR_M は 負債合計（TOTAL_LIABILITIES） + 純資産合計（NET_ASSETS） 2500 EUR_M と一致します" in line
    assert cited == rows("FY2024", "Total assets", "Total liabilities", "Net assets")


def test_average_over_a_range_and_cagr(ask: Ask) -> None:
    line, cited = computed(ask("average revenue from 2022 to 2024"), "average:")
    assert "1816.67 EUR_M (mean of 3 figures)" in line
    assert cited == rows("FY2022", "Revenue") | rows("FY2023", "Revenue") | rows("FY2024", "Revenue")
    line, _ = computed(ask("revenue CAGR from 2022 to 2024"), "compound annual growth rate")
    assert "(2 years): 10.10%" in line


def test_gross_profit_as_revenue_minus_cost_of_sales(ask: Ask) -> None:
    line, cited = computed(ask("2024年度の売上高から売上原価を差し引いた額はいくらか。"), " − ")
    assert "：800 EUR_M" in line and cited == rows("FY2024", "Revenue", "Cost of sales")


@pytest.mark.parametrize("question", ["2024年度のROEをDuPont分解(純利益率×総資産回転率×財務レバレッジ)で求めると何%か",
                                      "What was ROE in FY2024 using net margin × asset turnover × financial leverage?"])
def test_a_figure_asked_by_its_formula_leads_the_answer(ask: Ask, question: str) -> None:
    body = ask(question)
    first = str(body["answer"]).splitlines()[0]
    assert "ROE_DUPONT" in first and "8.44 PCT" in first, body["answer"]


def test_free_cash_flow_with_capex_written_as_an_outflow(ask: Ask) -> None:
    line, cited = computed(ask("What was free cash flow in FY2024?"), "FREE_CASH_FLOW")
    assert ": 140 EUR_M" in line, line  # 220 spent 80 on PP&E, written (80)
    assert cited == rows("FY2024", "Cash flow from operating activities", "Purchases of property plant and equipment")


def test_inventory_turnover_over_the_average_of_both_year_ends(ask: Ask) -> None:
    line, cited = computed(ask("What was the inventory turnover in FY2024?"), "INVENTORY_TURNOVER")
    assert ": 6.15 TIMES" in line, line  # 1200 / ((190 + 200) / 2)
    assert "inventories (INVENTORIES) averaged over the FY2023 and FY2024 year-ends" in line
    assert cited == rows("FY2024", "Cost of sales", "Inventories") | rows("FY2023", "Inventories")


def test_a_year_without_its_opening_balance_uses_the_year_end_and_says_so(ask: Ask) -> None:
    line, cited = computed(ask("What was the inventory turnover in FY2022?"), "INVENTORY_TURNOVER")
    assert ": 5.67 TIMES" in line, line  # 1020 / 180: no FY2021 column
    assert "at the FY2022 year-end (no FY2021 balance is stated, so no average)" in line
    assert cited == rows("FY2022", "Cost of sales", "Inventories")


def test_a_definition_with_an_average_between_two_years_is_one_figure_of_the_later_year(ask: Ask) -> None:
    body = ask("What is the FY2024 asset turnover ratio? Asset turnover ratio is defined as: FY2024 revenue / "
               "(average total assets between FY2023 and FY2024). Round your answer to two decimal places.")
    first = str(body["answer"]).splitlines()[0]
    assert "FY2024 asset turnover (ASSET_TURNOVER): 0.83 TIMES" in first, body["answer"]  # 2000 / 2400
    assert "FY2023 asset turnover" not in body["answer"] and "revenue (REVENUE): 2000" not in body["answer"]


def test_days_payable_without_payables_names_them(ask: Ask) -> None:
    body = ask("What was DPO in FY2024?")
    assert body["status"] == "not_found" and body["sources"] == []
    assert "there is no figure for trade payables (PAYABLES)" in str(body["answer"])


def test_a_count_of_years_over_a_threshold_cites_every_year_compared(ask: Ask) -> None:
    body = ask("How many years did revenue exceed 1,700 million?")
    assert body["status"] == "found"
    line, cited = computed(body, "years above")
    assert ": 2 (FY2024 2000, FY2023 1800; 3 years compared)" in line
    assert cited == rows("FY2022", "Revenue") | rows("FY2023", "Revenue") | rows("FY2024", "Revenue")


def test_a_sum_over_the_years_asked(ask: Ask) -> None:
    body = ask("What is the sum of net income from FY2022 to FY2024?")
    line, cited = computed(body, "FY2022 + FY2023 + FY2024")
    assert ": 251 EUR_M" in line
    assert cited == rows("FY2022", "Net income") | rows("FY2023", "Net income") | rows("FY2024", "Net income")
