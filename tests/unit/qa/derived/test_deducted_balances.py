"""A balance written with a minus sign where a reconciliation deducts it is kept at the size the statement states.

A net-debt reconciliation writes cash as ``(521.7)``; the balance sheet states 521.7. Whichever
document is read first or owns the year, cash is 521.7, and the cash ratio is positive.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.domain.files import GLOSSARY
from ragspine.domain.glossary_file import read_glossary
from ragspine.facts.model import Fact
from ragspine.ingestion.fact_conflicts import differing_facts
from ragspine.ingestion.facts_extract import ExtractionResult, MergedFacts, extract_facts, primary_facts
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from tests.unit.qa.derived.statement_set import answered, statement_qa

_RECONCILIATION = "Example_APM_FY2025.md"
_STATEMENT = "Example_Annual_Report_FY2025.md"


def _document(doc_id: str, title: str, *rows: tuple[str, str]) -> ParsedDocument:
    block = Block(BlockKind.TABLE, "t", "table=1", (title,), (("EUR m", "FY2025"), *rows), (), title)
    return ParsedDocument(doc_id, f"Example Group {title} FY2025", "text/markdown", (block,))


def _merged(folder: Path, cash: str, liabilities: str, order: list[str]) -> tuple[MergedFacts, list[Fact]]:
    glossary = read_glossary(folder / GLOSSARY)
    docs = {
        _RECONCILIATION: _document(_RECONCILIATION, "Net debt", ("Borrowings", "1,832.6"),
                                   ("Cash and cash equivalents", f"({cash})"), ("Net debt", "1,310.9")),
        _STATEMENT: _document(_STATEMENT, "Statement of financial position", ("Cash and cash equivalents", cash),
                              ("Total current liabilities", liabilities)),
    }
    results: list[ExtractionResult] = [extract_facts(docs[name], glossary=glossary, source_file_hash="sha256:00")
                                       for name in order]
    merged = primary_facts(results, glossary)
    return merged, differing_facts((r.facts for r in results), merged.facts)


@settings(max_examples=10, deadline=None)
@given(cash=st.decimals("10.0", "999.9", places=1), order=st.permutations([_RECONCILIATION, _STATEMENT]))
def test_cash_deducted_in_a_reconciliation_is_kept_as_the_statement_states_it(folder: Path, cash: Decimal,
                                                                             order: list[str]) -> None:
    # GIVEN a reconciliation deducting cash and the balance sheet stating it, read in either order
    merged, conflicts = _merged(folder, str(cash), "1,534.2", order)
    kept = {f.metric_code: f for f in merged.facts}
    assert kept["CASH"].value == float(cash) and kept["CASH"].source_doc_id == _STATEMENT
    qa = statement_qa(folder, list(merged.facts))
    qa.facts.put_conflicts(conflicts)
    # THEN the cash ratio is computed from the positive balance
    answer = answered(qa, "What was the cash ratio in FY2025?").answer
    ratio = float(cash) / 1534.2
    assert f"cash ratio (CASH_RATIO): {ratio:.2f} TIMES" in answer
    assert f"-{ratio:.2f}" not in answer


def test_a_flow_keeps_the_owner_rule(folder: Path) -> None:
    # an amount that is no balance (operating profit) is not turned positive: the first owner stands
    glossary = read_glossary(folder / GLOSSARY)
    docs = [_document(_RECONCILIATION, "Bridge", ("Operating profit", "(45.0)")),
            _document(_STATEMENT, "Income statement", ("Operating profit", "45.0"))]
    merged = primary_facts([extract_facts(d, glossary=glossary, source_file_hash="sha256:00") for d in docs],
                           glossary)
    assert [(f.value, f.source_doc_id) for f in merged.facts] == [(-45.0, _RECONCILIATION)]
