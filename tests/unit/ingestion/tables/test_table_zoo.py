"""Every specimen of the table zoo, in every format, gives exactly its facts: none missing, none wrong."""

from __future__ import annotations

import re

import pytest

from ragspine.facts.model import UNDATED, stated_date
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import FORMATS, SPECIMENS, Specimen, render, zoo_glossary

LOCATORS = {
    "xlsx": r"^sheet=Zoo,cell=[B-Z]\d+,row=[^,]+,col=[^,]+(?:,date=\d{4}-\d{2}-\d{2})?$",
    "csv": r"^table=1,row=[^,]+,col=[^,]+(?:,date=\d{4}-\d{2}-\d{2})?$",
    "md": r"^table=1,row=[^,]+,col=[^,]+(?:,date=\d{4}-\d{2}-\d{2})?$",
    "docx": r"^table=1,row=[^,]+,col=[^,]+(?:,date=\d{4}-\d{2}-\d{2})?$",
    "html": r"^table=1,row=[^,]+,col=[^,]+(?:,date=\d{4}-\d{2}-\d{2})?$",
    "pptx": r"^slide=1,table=1,row=[^,]+,col=[^,]+(?:,date=\d{4}-\d{2}-\d{2})?$",
}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("specimen", SPECIMENS, ids=lambda s: s.name)
def test_each_layout_in_each_format_gives_exactly_its_facts(specimen: Specimen, fmt: str) -> None:
    data = render(specimen, fmt)
    doc = parse_document(data, filename=f"zoo.{fmt}", doc_id=f"zoo.{fmt}", max_bytes=10_000_000)
    result = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00")
    got = {(f.metric_code, f.entity, f.period, f.value, f.unit) for f in result.facts}
    assert got == specimen.facts, result.warnings
    assert len(got) == len(result.facts)
    # a fact without a period is undated, and only such a fact: never a dated type with an empty period
    assert all((f.period == "") == (f.period_type == UNDATED) for f in result.facts)
    for fact in result.facts:
        assert re.match(LOCATORS[fmt], fact.source_locator), fact.source_locator
        assert stated_date(fact) == specimen.stated_date, fact.source_locator  # a date the table states, and only it
    if specimen.warns:
        assert any(specimen.warns in w and f"zoo.{fmt}" in w for w in result.warnings), result.warnings
