"""IFRS and UK statement wording maps onto the finance pack's line items, so the pack's formulas compute.

"Depreciation, amortisation and impairment", "Finance costs", "Net cash from operating activities",
"Purchase of property, plant and equipment", "Profit for the period"; and "Total equity" (with
non-controlling interests) is net assets, apart from the equity attributable to the owners.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.domain.files import GLOSSARY
from ragspine.domain.glossary_file import read_glossary
from ragspine.ingestion.facts_extract import extract_facts, primary_facts
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from tests.unit.qa.derived.statement_set import answered, statement_facts, statement_qa

_DEPRECIATION = ["Depreciation, amortisation and impairment", "Depreciation and amortisation",
                 "Depreciation, amortization and impairment"]
_OPERATING_CASH = ["Net cash from operating activities", "Net cash inflow from operating activities",
                   "Net cash generated from operating activities"]
_INTEREST = ["Finance costs", "Finance expenses"]
_CAPEX = ["Purchase of property, plant and equipment", "Purchases of property, plant and equipment"]


def _statements(folder: Path, depreciation: str, operating_cash: str, interest: str, capex: str) -> list[str]:
    rows = (("EUR m", "FY2025"), ("Revenue", "4,812.6"), ("Operating profit", "478.0"), (depreciation, "(231.5)"),
            (interest, "(62.5)"), ("Profit for the period", "313.6"), (operating_cash, "612.8"), (capex, "(264.1)"),
            ("Total assets", "6,437.2"), ("Equity attributable to owners of the parent", "2,685.0"),
            ("Total equity", "2,772.8"))
    block = Block(BlockKind.TABLE, "t", "table=1", ("Key figures",), rows, (), "Key figures")
    doc = ParsedDocument("Example_Annual_Report_FY2025.md", "Example Group Annual Report FY2025", "text/markdown",
                         (block,))
    glossary = read_glossary(folder / GLOSSARY)
    merged = primary_facts([extract_facts(doc, glossary=glossary, source_file_hash="sha256:00")], glossary)
    qa = statement_qa(folder, list(merged.facts))
    return [answered(qa, question).answer for question in (
        "What was the EBITDA margin in FY2025?", "What was the interest coverage in FY2025?",
        "What was free cash flow in FY2025?", "What was the equity ratio in FY2025?",
        "What was the net margin in FY2025?")]


@settings(max_examples=6, deadline=None)
@given(depreciation=st.sampled_from(_DEPRECIATION), operating_cash=st.sampled_from(_OPERATING_CASH),
       interest=st.sampled_from(_INTEREST), capex=st.sampled_from(_CAPEX))
def test_ifrs_line_items_feed_the_pack_formulas(folder: Path, depreciation: str, operating_cash: str, interest: str,
                                                capex: str) -> None:
    ebitda_margin, coverage, free_cash_flow, equity_ratio, net_margin = _statements(
        folder, depreciation, operating_cash, interest, capex)
    assert "EBITDA margin (EBITDA_MARGIN): 14.74 PCT" in ebitda_margin  # (478.0 + 231.5) / 4812.6
    assert "interest coverage ratio (INTEREST_COVERAGE): 7.65 TIMES" in coverage  # 478.0 / 62.5
    assert "free cash flow (FREE_CASH_FLOW): 348.7 EUR_M" in free_cash_flow  # 612.8 - 264.1
    assert "net margin (NET_MARGIN): 6.52 PCT" in net_margin  # 313.6 / 4812.6


def test_total_equity_is_net_assets_and_the_owners_equity_stays_apart(folder: Path) -> None:
    equity_ratio = _statements(folder, _DEPRECIATION[0], _OPERATING_CASH[0], _INTEREST[0], _CAPEX[0])[3]
    assert "equity ratio (EQUITY_RATIO): 43.07 PCT" in equity_ratio  # total equity 2772.8 / 6437.2
    assert "different figures" not in equity_ratio and "2685" not in equity_ratio


@pytest.mark.parametrize(("question", "first_line"), [
    ("2024年度の売上収益営業利益率は何%か", "営業利益率（OPERATING_MARGIN）：7.50 PCT"),
    ("2024年度の売上高営業利益率は何%か", "営業利益率（OPERATING_MARGIN）：7.50 PCT"),
    ("What was the EBIT margin in FY2024?", "operating margin (OPERATING_MARGIN): 7.50 PCT"),
])
def test_the_ifrs_names_of_the_operating_margin_lead_with_the_margin(folder: Path, question: str,
                                                                     first_line: str) -> None:
    # "売上収益営業利益率" holds the name of revenue (売上収益): the margin asked leads, not the revenue line
    answer = answered(statement_qa(folder, statement_facts()), question).answer
    assert first_line in answer.splitlines()[0]
