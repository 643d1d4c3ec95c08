"""``load-samples`` over a data folder filled by the version before it (curated facts, unversioned chunks).

That version upserted ``facts.csv`` and indexed the narrative documents directly, without a
version id. Ingestion must leave the folder as a fresh ingestion would: no passage twice in
search, and facts equal to the curated file, now extracted from the documents.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragspine.bootstrap import Services, get_services
from ragspine.cli import app
from ragspine.ingestion.facts_extract import EXTRACTOR_VERSION
from ragspine.retrieval.model import SearchFilters
from ragspine.samples.build_acme import SAMPLES_DIR
from ragspine.sensitivity import Sensitivity
from ragspine.settings import Settings, get_settings
from tests.support.process_caches import close_services
from tests.support.samples import index_sample_documents, load_sample_facts, read_facts_csv

runner = CliRunner()
WIDE = {"COLUMNS": "200"}
QUERIES = ("Project Lotus", "香港营收下降 广东道", "returns policy membership", "Project Falcon board")
EVERYTHING = SearchFilters(max_sensitivity=Sensitivity.RESTRICTED)


def _old_load_samples(services: Services) -> int:
    """What ``load-samples`` did before ingestion: the curated facts, then the documents indexed directly."""
    assert services.retrieval is not None
    load_sample_facts(services.facts)
    index_sample_documents(services.retrieval.index, embedder=services.retrieval.document_embedder)
    return services.retrieval.index.count()


def _rows(settings: Settings) -> Counter[str | None]:
    """Chunk rows by version id (None: unversioned), read straight from the embedded index file."""
    with sqlite3.connect(settings.chunks_db_path) as conn:
        return Counter(row[0] for row in conn.execute("SELECT version_id FROM chunks"))


def _found_twice(services: Services) -> list[tuple[str, str, str]]:
    """Passages (document, locator, text) that one search returns more than once, over several queries."""
    assert services.retrieval is not None
    twice: list[tuple[str, str, str]] = []
    for query in QUERIES:
        hits = services.retrieval.index.search(query, top_k=20, filters=EVERYTHING)
        assert hits, query
        seen = Counter((h.chunk.doc_id, h.chunk.source_locator, h.chunk.text) for h in hits)
        twice += [passage for passage, times in seen.items() if times > 1]
    return twice


@pytest.fixture
def fresh_count(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many chunk rows ``load-samples`` leaves in an empty data folder."""
    monkeypatch.setenv("RAGSPINE_DATA_DIR", str(tmp_path / "fresh"))
    get_settings.cache_clear()
    close_services()
    assert runner.invoke(app, ["load-samples"], env=WIDE).exit_code == 0
    retrieval = get_services().retrieval
    assert retrieval is not None
    count = retrieval.index.count()
    monkeypatch.setenv("RAGSPINE_DATA_DIR", str(settings.data_dir))
    get_settings.cache_clear()
    close_services()
    return count


def test_an_old_style_data_folder_ends_as_a_fresh_ingestion(settings: Settings, fresh_count: int) -> None:
    # GIVEN a data folder loaded the old way: 114 curated facts and unversioned passages
    services = get_services()
    legacy = _old_load_samples(services)
    assert set(_rows(settings)) == {None} and services.facts.count() == 114
    assert _found_twice(services) == []

    # WHEN load-samples runs (the new one: ingestion)
    result = runner.invoke(app, ["load-samples"], env=WIDE)

    # THEN the unversioned passages are gone, the index holds what a fresh folder holds,
    assert result.exit_code == 0, result.output
    assert f"removed {legacy} unversioned passages indexed by an earlier load-samples" in result.output
    assert "8 of 8 documents ingested (8 now, 0 unchanged): 114 facts" in result.output
    rows = _rows(settings)
    assert None not in rows and sum(rows.values()) == fresh_count
    # no passage is found twice,
    assert _found_twice(services) == []
    # and the facts equal the curated file, each now extracted from its document
    curated = read_facts_csv(SAMPLES_DIR / "facts.csv")
    stored = [services.facts.get(fact.key) for fact in curated]
    assert services.facts.count() == 114 and None not in stored
    assert [(f.value, f.source_doc_id, f.source_locator, f.source_file_hash) for f in stored if f] == [
        (f.value, f.source_doc_id, f.source_locator, f.source_file_hash) for f in curated]
    assert {f.extractor_version for f in stored if f} == {EXTRACTOR_VERSION}  # none of the curated-1 rows is left


def test_the_next_run_removes_nothing_and_redoes_nothing(settings: Settings) -> None:
    _old_load_samples(get_services())
    assert runner.invoke(app, ["load-samples"], env=WIDE).exit_code == 0
    rows = _rows(settings)
    again = runner.invoke(app, ["load-samples"], env=WIDE)
    assert again.exit_code == 0, again.output
    assert "removed" not in again.output and "(0 now, 8 unchanged)" in again.output
    assert _rows(settings) == rows
