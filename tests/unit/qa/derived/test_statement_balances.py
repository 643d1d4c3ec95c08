"""Balances enter formulas from the balance sheet as 10-Ks word them, never from a cash-flow change row."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.domain.files import GLOSSARY
from ragspine.domain.glossary_file import read_glossary
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from ragspine.ingestion.table_axes import name_of
from ragspine.qa.answer import answer_question
from tests.unit.qa.derived.statement_set import statement_qa

DOC = "Corning_like_10K.md"


def _table(title: str, rows: list[tuple[str, str, str]]) -> list[str]:
    return [f"## {title} (in millions of U.S. dollars)", "", "| Item | 2020 | 2019 |", "|---|---|---|",
            *(f"| {a} | {b} | {c} |" for a, b, c in rows), ""]


# A 10-K's own wording: "Inventories, net" on the balance sheet; "Inventories" again in the cash flow
# statement, as the change in the year, above the operating total.
STATEMENTS = "\n".join([
    *_table("Consolidated statements of income", [("Net sales", "11,303", "11,503"),
                                                  ("Cost of sales", "7,772", "7,468")]),
    *_table("Consolidated balance sheets", [("Accounts receivable, net", "2,133", "1,836"),
                                            ("Inventories, net", "2,438", "2,320"),
                                            ("Accounts payable", "1,174", "1,587")]),
    *_table("Consolidated statements of cash flows", [("Net income", "512", "960"),
                                                      ("Accounts receivable", "(251)", "(162)"),
                                                      ("Inventories", "423", "(298)"),
                                                      ("Net cash provided by operating activities", "2,180", "2,031")]),
])


def test_balances_worded_with_net_are_the_pack_items_and_change_rows_are_not(folder: Path) -> None:
    glossary = read_glossary(folder / GLOSSARY)
    doc = parse_document(STATEMENTS.encode(), filename=DOC, doc_id=DOC, max_bytes=1_000_000)
    facts = extract_facts(doc, glossary=glossary, source_file_hash="sha256:00").facts
    by_key = {(f.metric_code, f.period): f for f in facts}
    assert by_key[("INVENTORIES", "2019")].value == 2320  # the balance, never the change (-298)
    assert by_key[("RECEIVABLES", "2020")].value == 2133
    assert "Inventories net" in by_key[("INVENTORIES", "2019")].source_locator

    result = answer_question("What is the FY2020 days payable outstanding (DPO)?", qa=statement_qa(folder, list(facts)))
    assert "63.86 DAYS" in result.answer, result.answer  # 1380.5 / (7772 + 2438 - 2320) * 365
    assert "-298" not in result.answer


@pytest.mark.parametrize(("label", "metric"), [
    ("Property, plant and equipment — net", "PPE"), ("Property, plant and equipment (net)", "PPE"),
    ("Inventories, net", "INVENTORIES"), ("Total inventories, net", "INVENTORIES"),
    ("Accounts receivable, net", "RECEIVABLES"), ("Trade accounts receivable, net", "RECEIVABLES"),
])
def test_balance_sheet_wordings_of_10_ks_are_the_pack_items(folder: Path, label: str, metric: str) -> None:
    assert name_of(read_glossary(folder / GLOSSARY), label).metric == metric
