"""The finance pack's debt ratio (total liabilities over total assets) answers to the words analysts ask it by:
"debt-to-asset ratio", "liability to asset ratio", never screened out as outside the business."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.domain.files import GLOSSARY
from ragspine.domain.glossary_file import read_glossary
from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from tests.unit.qa.derived.statement_set import answered, statement_qa

_DOC = "Harbour_Balance_Sheet_FY2024.md"
_ROWS = (("EUR m", "FY2024", "FY2023"), ("Total current assets", "640", "610"), ("Total assets", "1,600", "1,500"),
         ("Total current liabilities", "500", "450"), ("Total liabilities", "440", "420"),
         ("Total equity", "1,160", "1,080"))


def _facts(folder: Path) -> list[Fact]:
    """The facts ``extract_facts`` reads from one balance sheet written in this test's own words."""
    table = Block(BlockKind.TABLE, "t1", "table=1", ("Balance sheet",), _ROWS, (), "Balance sheet")
    doc = ParsedDocument(_DOC, "Harbour Group balance sheet", "text/markdown", (table,))
    return list(extract_facts(doc, glossary=read_glossary(folder / GLOSSARY), source_file_hash="sha256:00").facts)


@pytest.mark.parametrize("question", [
    "What is the debt-to-asset ratio in FY2024?",
    "What is the debt to asset ratio in FY2024?",
    "What is the liability to asset ratio in FY2024?",
    "What was the liabilities-to-assets ratio in FY2024?",
])
def test_the_debt_ratio_is_computed_for_the_words_analysts_use(folder: Path, question: str) -> None:
    # GIVEN a balance sheet stating total liabilities and total assets, in a domain including the finance pack
    qa = statement_qa(folder, _facts(folder))
    # WHEN the ratio is asked in an analyst's words
    answer = answered(qa, question).answer
    # THEN it is computed from both totals (440 / 1600), each cited, and not refused as outside the business
    assert "debt ratio (DEBT_RATIO): 27.50 PCT" in answer
    assert f"{_DOC} · table=1,row=Total liabilities,col=FY2024" in answer
    assert f"{_DOC} · table=1,row=Total assets,col=FY2024" in answer
