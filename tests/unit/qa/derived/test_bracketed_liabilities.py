"""Liabilities a UK "net assets" balance sheet writes in brackets (``Current liabilities (600)``) are read at their
size: the check "total assets = net assets + total liabilities" holds and no ratio over them is negative. A bracketed
figure the layout does not deduct as a liability (a cost, a loss, net current liabilities) keeps its sign."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ragspine.domain.files import GLOSSARY
from ragspine.domain.glossary_file import read_glossary
from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from tests.unit.qa.derived.statement_set import answered, statement_qa

_DOC = "Example_Results_FY2024.md"


def _figure(value: int, bracketed: bool) -> str:
    return f"({value:,})" if bracketed else f"{value:,}"


def _facts(folder: Path, *tables: tuple[str, tuple[tuple[str, str], ...]]) -> list[Fact]:
    """The facts ``extract_facts`` reads from one document of ``tables`` (title, rows), each headed `EUR m | FY2024`."""
    blocks = tuple(Block(BlockKind.TABLE, f"t{n}", f"table={n}", (title,), (("EUR m", "FY2024"), *rows), (), title)
                   for n, (title, rows) in enumerate(tables, 1))
    doc = ParsedDocument(_DOC, "Example Group results FY2024", "text/markdown", blocks)
    return list(extract_facts(doc, glossary=read_glossary(folder / GLOSSARY), source_file_hash="sha256:00").facts)


def _percent(numerator: int, denominator: int) -> str:
    """A ratio in percent to two places, a half rounded up as the answers round it (140.625 is 140.63)."""
    return str((Decimal(numerator) * 100 / Decimal(denominator)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _balance_sheet(current: int, non_current: int, headed: bool, bracketed: bool) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A balance sheet of current assets 900, its liabilities deducted in brackets (UK) or stated (US)."""
    assets = (("Non-current assets", "1,600"), ("Inventories", "200"), ("Current assets", "900"),
              ("Total assets", "2,500"))
    payables, borrowings = current - 100, non_current - 40
    if headed:  # a heading over each section's items, its total unlabelled, and the result line it leaves
        liabilities: tuple[tuple[str, str], ...] = (
            ("Current liabilities", ""), ("Trade payables", _figure(payables, bracketed)),
            ("Short-term borrowings", _figure(100, bracketed)), ("", _figure(current, bracketed)),
            ("Net current assets", f"{900 - current:,}"),
            ("Non-current liabilities", ""), ("Long-term borrowings", _figure(borrowings, bracketed)),
            ("Provisions", _figure(40, bracketed)), ("", _figure(non_current, bracketed)))
    else:  # each section closed by its own total, as the items' sum
        liabilities = (("Trade payables", _figure(payables, bracketed)),
                       ("Short-term borrowings", _figure(100, bracketed)),
                       ("Current liabilities", _figure(current, bracketed)),
                       ("Long-term borrowings", _figure(borrowings, bracketed)),
                       ("Provisions", _figure(40, bracketed)),
                       ("Non-current liabilities", _figure(non_current, bracketed)))
    total = current + non_current
    return "Consolidated balance sheet", (*assets, *liabilities, ("Total liabilities", _figure(total, bracketed)),
                                          ("Net assets", f"{2500 - total:,}"), ("Total equity", f"{2500 - total:,}"))


@settings(max_examples=8, deadline=None)
@example(current=640, non_current=100, headed=False, bracketed=True)  # a current ratio of 140.625: a half to round
@given(current=st.integers(300, 800), non_current=st.integers(100, 1000), headed=st.booleans(),
       bracketed=st.booleans())
def test_a_balance_sheet_deducting_its_liabilities_checks_out(folder: Path, current: int, non_current: int,
                                                              headed: bool, bracketed: bool) -> None:
    # GIVEN a balance sheet writing its liabilities in brackets (deducted on the way to net assets) or at their size
    qa = statement_qa(folder, _facts(folder, _balance_sheet(current, non_current, headed, bracketed)))
    total = current + non_current
    # THEN total assets equal net assets plus total liabilities
    check = answered(qa, "Does total assets equal net assets plus total liabilities in FY2024?").answer
    assert "equals net assets (NET_ASSETS) + total liabilities (TOTAL_LIABILITIES) 2500 EUR_M" in check
    assert "yes" in check and "differ" not in check
    # AND the liabilities are stated, and the ratios over them computed, at their size
    assert f"total liabilities (TOTAL_LIABILITIES): {total} EUR_M" in answered(
        qa, "What were total liabilities in FY2024?").answer
    assert f"current ratio (CURRENT_RATIO): {_percent(900, current)} PCT" in answered(
        qa, "What was the current ratio in FY2024?").answer
    assert f"(DEBT_RATIO): {_percent(total, 2500)} PCT" in answered(qa, "What was the debt ratio in FY2024?").answer
    working = answered(qa, "What was net working capital in FY2024?").answer
    assert f"(NET_WORKING_CAPITAL): {900 - current} EUR_M" in working


def test_bracketed_figures_outside_a_liabilities_section_keep_their_sign(folder: Path) -> None:
    # GIVEN an income statement's costs in brackets, and a balance sheet whose current liabilities exceed its
    # current assets: the result line says so in brackets
    income = ("Consolidated income statement", (("Revenue", "2,000"), ("Cost of sales", "(1,200)"),
                                                ("Gross profit", "800"), ("Operating profit", "(150)")))
    balance = ("Consolidated balance sheet", (("Current assets", "900"), ("Total assets", "2,500"),
                                              ("Current liabilities", ""), ("Trade payables", "(1,000)"),
                                              ("Net current liabilities", "(100)"), ("Total liabilities", "(1,000)"),
                                              ("Net assets", "1,500")))
    facts = {f.metric_code: f.value for f in _facts(folder, income, balance)}
    # THEN the costs and the loss stay negative, the liabilities are their size, the net shortfall stays negative
    assert facts["COST_OF_SALES"] == -1200 and facts["OPERATING_INCOME"] == -150
    assert facts["TOTAL_LIABILITIES"] == 1000
    assert facts["label:net current liabilities"] == -100


def test_a_bracketed_line_among_liabilities_stated_at_their_size_keeps_its_sign(folder: Path) -> None:
    # GIVEN a US layout: liabilities at their size, one line deducted inside the section
    balance = ("Consolidated balance sheet", (("Total assets", "2,500"), ("Current liabilities:", ""),
                                              ("Long-term debt", "500"), ("Unamortized discount", "(20)"),
                                              ("Accounts payable", "300"), ("Total current liabilities", "780")))
    facts = {f.metric_code: f.value for f in _facts(folder, balance)}
    # THEN the deduction stays negative: the section's total is stated at its size, so nothing is deducted by layout
    assert facts["label:current liabilities: unamortized discount"] == -20
    assert facts["CURRENT_LIABILITIES"] == 780
