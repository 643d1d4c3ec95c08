"""The table zoo's facts round-trip unchanged through both fact stores: SQLite (embedded) and DynamoDB (moto)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ragspine.aws.dynamo_facts import DynamoFactStore
from ragspine.facts.model import UNDATED, Fact
from ragspine.facts.ports import FactStore
from ragspine.facts.sqlite_store import SqliteFactStore
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.conftest import FACTS_TABLE
from tests.unit.ingestion.tables.zoo import SPECIMENS, render, zoo_glossary


@pytest.fixture(params=["embedded", "aws"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[FactStore]:
    if request.param == "embedded":
        yield SqliteFactStore(tmp_path / "facts.db")
    else:
        client: Any = request.getfixturevalue("aws")
        yield DynamoFactStore(FACTS_TABLE, client=client)


def _zoo_facts(fmt: str) -> list[Fact]:
    facts: list[Fact] = []
    for specimen in SPECIMENS:
        name = f"zoo_{specimen.name}.{fmt}"
        doc = parse_document(render(specimen, fmt), filename=name, doc_id=name, max_bytes=10_000_000)
        facts += extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00").facts
    return facts


@pytest.mark.parametrize("fmt", ["xlsx", "docx"])
def test_every_zoo_fact_is_stored_and_read_back_as_extracted(store: FactStore, fmt: str) -> None:
    facts = _zoo_facts(fmt)
    assert len(facts) == sum(len(s.facts) for s in SPECIMENS)
    for fact in facts:  # one document's keys are unique; the zoo repeats keys across documents
        store.put_many([fact])
        assert store.get(fact.key) == fact


def test_an_undated_fact_is_stored_under_its_own_key_and_no_dated_one(store: FactStore) -> None:
    undated = Fact("label:fair value amount: trademarks", "MINORI_GROUP", "", "TOTAL", UNDATED, "", 25, "JPY_M",
                   "zoo.md", "table=1,row=Trademarks,col=Fair value amount", source_file_hash="sha256:00")
    dated = Fact("label:fair value amount: trademarks", "MINORI_GROUP", "", "TOTAL", "FY", "2025", 27, "JPY_M",
                 "other.md", "table=1,row=Trademarks,col=FY2025", source_file_hash="sha256:01")
    store.put_many([undated, dated])
    assert store.get(undated.key) == undated
    assert store.get(dated.key) == dated
    assert store.get_with_conflicts(undated.key) == (undated, [])
    assert sorted(f.period_type for f in store.find(metric_code=undated.metric_code, entity="MINORI_GROUP")) == [
        "FY", UNDATED]
    assert store.delete_by_source("zoo.md") == 1
    assert store.get(undated.key) is None and store.get(dated.key) == dated
