"""A cash-flow statement's working-capital lines are changes, never the balances of the same names."""

from __future__ import annotations

import pytest

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.support.markdown_facts import markdown_facts
from tests.unit.ingestion.tables.zoo import zoo_glossary


def _facts(heading: str) -> dict[str, tuple[str, float]]:
    rows = [("Net income", "900", "1,000"), (heading, "", ""), ("Net sales", "(120)", "86"),
            ("Accounts payable", "4,086", "(1,200)"), ("Net cash provided by operating activities", "2,000", "2,500"),
            ("Net sales", "5", "6")]
    text = "\n".join(["Consolidated statements of cash flows (in millions of US dollars)", "",
                      "| Item | FY2024 | FY2025 |", "|---|---|---|", *(f"| {a} | {b} | {c} |" for a, b, c in rows), ""])
    doc = parse_document(text.encode(), filename="cash.md", doc_id="cash.md", max_bytes=1_000_000)
    facts = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00").facts
    return {f.source_locator.split("row=")[1]: (f.metric_code, f.value) for f in facts if f.period == "2025"}


@pytest.mark.parametrize("heading", ["Changes in operating assets and liabilities:", "(Increase) decrease in:",
                                     "Increase (decrease) in operating liabilities", "営業資産及び負債の増減"])
def test_rows_under_a_heading_of_changes_are_changes(heading: str) -> None:
    facts = _facts(heading)

    change = facts[f"{heading.rstrip(':')}: Net sales,col=FY2025"]
    assert change[1] == 86 and change[0] != "NET_SALES"
    assert facts[f"{heading.rstrip(':')}: Accounts payable,col=FY2025"][1] == -1200
    assert facts["Net cash provided by operating activities,col=FY2025"][1] == 2500
    assert facts["Net sales,col=FY2025"] == ("NET_SALES", 6)  # after the net row, labels are read as written


def test_balance_items_above_an_operating_cash_total_are_its_components() -> None:
    rows = [["(Millions)", "2018", "2017"], ["Net income including noncontrolling interest", "$5,363", "$4,869"],
            ["Accounts receivable", "(305)", "(245)"], ["Inventories", "(509)", "(387)"],
            ["Net cash provided by operating activities", "$6,439", "$6,240"]]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * 3, *("| " + " | ".join(r) + " |" for r in rows[1:])]
    facts = {(f.metric_code, f.period): f.value
             for f in markdown_facts("# Cash flows\n\n" + "\n".join(lines) + "\n", "c.md")}
    assert facts[("label:net cash provided by operating activities: accounts receivable", "2018")] == -305
    assert facts[("label:net cash provided by operating activities: inventories", "2017")] == -387
    assert not any("receivable" in metric.lower() and ":" not in metric for metric, _ in facts)
