"""Ingesting the sample decks and workbook reproduces the curated facts exactly; real files never crash.

The curated ``facts.csv`` was written by hand before extraction existed; these tests prove the
extractor and the merge rule of ``primary_facts`` reach the same 114 facts, value types and
locators included, so the file stops being the source of truth.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from ragspine.facts.model import Fact
from ragspine.ingestion.errors import IngestionError
from ragspine.ingestion.facts_extract import EXTRACTOR_VERSION, ExtractionResult, extract_facts, primary_facts
from ragspine.ingestion.parsers import parse_document, supported_extensions
from ragspine.samples.build_acme import SAMPLES_DIR
from tests.support.cfn import REPO_ROOT
from tests.support.glossary import default_glossary
from tests.support.samples import read_facts_csv

SOURCES = ("ACME_FY2024_Review.pptx", "ACME_FY2025_Review.pptx", "ACME_Quarterly_Revenue.xlsx")
CORPUS = REPO_ROOT.parent / "shared" / "corpus" / "docs"
THIRD_PARTY = (sorted(p for p in CORPUS.glob("*") if p.suffix.lower() in supported_extensions())
               if CORPUS.is_dir() else [])


def _extract(path: Path) -> ExtractionResult:
    data = path.read_bytes()
    doc = parse_document(data, doc_id=path.name, filename=path.name, max_bytes=50_000_000)
    return extract_facts(doc, glossary=default_glossary(),
                         source_file_hash="sha256:" + hashlib.sha256(data).hexdigest())


def _compared(fact: Fact) -> tuple[object, ...]:
    """What must match the curated row, the value's Python type included (1320 is not 1320.0)."""
    return (fact.metric_code, fact.entity, fact.geography, fact.channel, fact.period_type, fact.period,
            fact.value, type(fact.value), fact.unit, fact.source_doc_id, fact.source_locator)


@pytest.fixture(scope="module")
def results() -> list[ExtractionResult]:
    return [_extract(SAMPLES_DIR / name) for name in SOURCES]


def test_sample_documents_reproduce_the_curated_facts_exactly(results: list[ExtractionResult]) -> None:
    merged = primary_facts(results)
    curated = read_facts_csv(SAMPLES_DIR / "facts.csv")
    assert len(curated) == 114
    assert sorted(map(_compared, merged.facts), key=repr) == sorted(map(_compared, curated), key=repr)
    assert merged.warnings == (), "the FY2025 deck's FY2024 comparatives agree with the FY2024 deck"


def test_every_fact_carries_full_lineage(results: list[ExtractionResult]) -> None:
    curated = {f.key: f for f in read_facts_csv(SAMPLES_DIR / "facts.csv")}
    for fact in primary_facts(results).facts:
        assert fact.source_file_hash == curated[fact.key].source_file_hash  # the hash of the file's bytes
        assert fact.extractor_version == EXTRACTOR_VERSION
        assert fact.mapping_version == default_glossary().version


def test_sample_documents_extract_without_warnings(results: list[ExtractionResult]) -> None:
    assert [r.warnings for r in results] == [(), (), ()]
    assert [len(r.facts) for r in results] == [60, 60, 24]
    assert [r.reporting_period.label if r.reporting_period else None for r in results] == [
        "FY2024", "FY2025", None]


def test_comparatives_of_a_later_deck_are_dropped(results: list[ExtractionResult]) -> None:
    fy2025 = results[1]
    assert any(f.period == "2024" for f in fy2025.facts)  # the deck does state FY2024 ...
    kept = primary_facts(results).facts
    assert not any(f.source_doc_id == SOURCES[1] and f.period == "2024" for f in kept)  # ... as comparatives


@pytest.mark.skipif(not THIRD_PARTY, reason=f"third-party corpus not present at {CORPUS}")
@pytest.mark.parametrize("path", THIRD_PARTY, ids=lambda p: p.name)
def test_third_party_documents_yield_facts_or_warnings_never_a_crash(path: Path) -> None:
    try:
        result = _extract(path)
    except IngestionError as error:  # unreadable files are the parsers' business, with our error
        assert error.code.startswith("INGEST_")
        return
    assert result.facts or result.warnings
    for fact in result.facts:
        assert fact.source_doc_id == path.name and fact.source_locator.startswith(("slide=", "sheet=", "table=", "page="))
