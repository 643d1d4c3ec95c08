"""The ``ragspine`` command line against the embedded data folder.

``load-samples`` and ``serve --samples`` ingest the ACME documents through the pipeline;
``facts.csv`` is only the fixture the ingested facts are compared with.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import yaml
from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.ingestion.facts_extract import EXTRACTOR_VERSION
from ragspine.ingestion.operations import OperationStatus
from ragspine.retrieval.model import SearchFilters
from ragspine.samples.build_acme import SAMPLES_DIR
from ragspine.sensitivity import Sensitivity
from ragspine.settings import Settings
from tests.support.process_caches import close_services
from tests.support.samples import read_facts_csv

if TYPE_CHECKING:
    from ragspine.bootstrap import Services
    from ragspine.facts.model import Fact
    from ragspine.ingestion.operations import Operation

runner = CliRunner()
WIDE = {"COLUMNS": "200"}
MINUTES = "ACME_Board_Minutes_2025Q4.docx"
# Every manifest entry but the FAQ index, which is not a document.
SAMPLE_DOCS = [d["file"] for d in yaml.safe_load((SAMPLES_DIR / "manifest.yaml").read_text(encoding="utf-8"))[
    "documents"] if d["file"] != "faq.yaml"]


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder after one ``load-samples`` on an empty one (ingested once per module: tests copy it)."""
    from ragspine.settings import get_settings

    folder = tmp_path_factory.mktemp("ingested") / "data"
    with pytest.MonkeyPatch.context() as patch:
        for name, value in {"RAGSPINE_DATA_DIR": str(folder), "RAGSPINE_EMBEDDER": "none",
                            "RAGSPINE_ENV": "test", "RAGSPINE_TODAY": "2026-11-30"}.items():
            patch.setenv(name, value)
        patch.delenv("RAGSPINE_BACKEND", raising=False)
        get_settings.cache_clear()
        close_services()
        result = runner.invoke(app, ["load-samples"], env=WIDE)
        get_settings.cache_clear()
        close_services()
    assert result.exit_code == 0, result.output
    assert "8 succeeded, 0 failed" in result.output
    assert "sample data: 8 of 8 documents ingested (8 now, 0 unchanged): 114 facts, " in result.output
    return folder


@pytest.fixture
def loaded(settings: Settings, ingested: Path) -> Settings:
    """The ingested folder as this test's data folder; ``load-samples`` there finds every document done."""
    shutil.copytree(ingested, settings.data_dir)
    result = runner.invoke(app, ["load-samples"], env=WIDE)
    assert result.exit_code == 0, result.output
    assert "8 of 8 documents ingested (0 now, 8 unchanged): 114 facts" in result.output
    return settings


def _services() -> Services:
    from ragspine.bootstrap import get_services

    return get_services()


def _compared(fact: Fact) -> tuple[object, ...]:
    return (fact.metric_code, fact.entity, fact.geography, fact.channel, fact.period_type, fact.period,
            fact.value, type(fact.value), fact.unit, fact.source_doc_id, fact.source_locator, fact.source_file_hash,
            fact.sensitivity)


def _operations(services: Services) -> list[Operation]:
    from ragspine.bootstrap import build_ingest_context

    return build_ingest_context(services).operations.list_operations()


class TestLoadSamples:
    def test_every_manifest_document_is_ingested_with_its_manifest_metadata(self, loaded: Settings) -> None:
        operations = {op.doc_id: op for op in _operations(_services())}
        assert sorted(operations) == sorted(SAMPLE_DOCS)
        assert {op.status for op in operations.values()} == {OperationStatus.SUCCEEDED}
        assert (operations[MINUTES].sensitivity, operations[MINUTES].library) == (Sensitivity.RESTRICTED,
                                                                                  "governance")
        assert operations["ACME_Product_Policy.md"].sensitivity is Sensitivity.PUBLIC
        assert operations["ACME_FY2024_Review.pptx"].library == "financial_reports"
        assert (loaded.data_dir / "operations.db").exists()

    def test_the_ingested_facts_are_exactly_the_curated_file(self, loaded: Settings) -> None:
        services = _services()
        curated = read_facts_csv(SAMPLES_DIR / "facts.csv")
        assert services.facts.count() == len(curated) == 114
        stored = [services.facts.get(fact.key) for fact in curated]
        assert [_compared(f) for f in stored if f] == [_compared(f) for f in curated]
        assert {f.extractor_version for f in stored if f} == {EXTRACTOR_VERSION}  # extracted, not copied from the file

    def test_a_narrative_hit_carries_the_active_version(self, loaded: Settings) -> None:
        services = _services()
        assert services.retrieval is not None
        hits = services.retrieval.retriever.retrieve("Project Lotus", top_k=3).hits
        versions = {op.doc_id: op.version_id for op in _operations(services)}
        assert hits and all(h.chunk.version_id == versions[h.doc_id] for h in hits)
        assert all(h.chunk.version_id and h.chunk.version_id.startswith("v-") for h in hits)

    def test_the_restricted_minutes_are_indexed_but_never_exposed(self, loaded: Settings) -> None:
        services = _services()
        assert services.retrieval is not None
        raised = SearchFilters(max_sensitivity=Sensitivity.RESTRICTED)
        stored = services.retrieval.index.search("Project Falcon Hikari Retail", top_k=5, filters=raised)
        assert stored and {h.chunk.sensitivity for h in stored if h.chunk.doc_id == MINUTES} == {
            Sensitivity.RESTRICTED}
        searched = runner.invoke(app, ["search", "Project Falcon Hikari Retail", "--json"])
        assert searched.exit_code == 0, searched.output
        assert [h for h in json.loads(searched.output)["hits"] if h["doc"] == MINUTES or "Falcon" in h["text"]] == []
        asked = runner.invoke(app, ["ask", "What did the board decide about Project Falcon?"])
        assert MINUTES not in asked.output and "420" not in asked.output

    def test_running_it_again_redoes_nothing(self, loaded: Settings) -> None:
        services = _services()
        assert services.retrieval is not None
        before = (_operations(services), services.facts.count(), services.retrieval.index.count())
        again = runner.invoke(app, ["load-samples"], env=WIDE)
        assert again.exit_code == 0, again.output
        assert "8 of 8 documents ingested (0 now, 8 unchanged): 114 facts" in again.output
        after = (_operations(services), services.facts.count(), services.retrieval.index.count())
        assert after == before  # same operations, untouched (no new updated_at), same rows


def test_serve_samples_ingests_then_prints_the_sourced_sample_answer(settings: Settings, monkeypatch) -> None:
    import uvicorn

    served: list[int] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, log_level, **proxy: served.append(port))
    for start in ("8 now, 0 unchanged", "0 now, 8 unchanged"):  # a fresh data folder, then a second start
        result = runner.invoke(app, ["serve", "--samples", "--port", "8123"], env=WIDE)
        assert result.exit_code == 0, result.output
        assert f"sample data: 8 of 8 documents ingested ({start}): 114 facts, " in result.output
        assert "sample question: 2024年日本的毛利率是多少" in result.output and "36.0 PCT" in result.output
        assert "source: ACME_FY2024_Review.pptx · slide=4,table=1,row=GROSS_MARGIN,col=FY2024" in result.output
        assert result.output.index("sample question") < result.output.index("serving on")
        assert "┃ file" not in result.output  # the per-file table only when a sample failed
    assert served == [8123, 8123]


def test_load_samples_never_reads_the_curated_facts_file(settings: Settings, monkeypatch) -> None:
    import tests.support.samples

    def refuse(*args: object, **kwargs: object) -> int:
        raise AssertionError("a product path loaded facts.csv")

    # the fixtures live outside the engine now; the command must not reach them either way
    monkeypatch.setattr(tests.support.samples, "load_sample_facts", refuse)
    monkeypatch.setattr(tests.support.samples, "index_sample_documents", refuse)
    monkeypatch.setattr(tests.support.samples, "read_facts_csv", refuse)
    result = runner.invoke(app, ["load-samples"], env=WIDE)
    assert result.exit_code == 0, result.output
    assert _services().facts.count() == 114


def test_ask_prints_the_answer_and_its_sources(loaded: Settings) -> None:
    result = runner.invoke(app, ["ask", "2024年日本的毛利率是多少"])
    assert result.exit_code == 0
    assert "36.0 PCT" in result.output
    assert "source: ACME_FY2024_Review.pptx · slide=4,table=1,row=GROSS_MARGIN,col=FY2024" in result.output


def test_ask_json_is_the_api_response_shape(loaded: Settings) -> None:
    result = runner.invoke(app, ["ask", "--json", "中国内地FY2024的REVENUE是多少"])
    body = json.loads(result.output)
    assert set(body) == {"answer", "sources", "route", "status", "slots", "assumptions", "results", "refinements",
                         "clarification", "refusal_reason", "narrative_status", "narrative_detail", "language",
                         "parts"}
    assert body["results"][0]["value"] == 1320


def test_two_data_dirs_are_independent(loaded: Settings, tmp_path, monkeypatch) -> None:
    from ragspine.settings import get_settings

    monkeypatch.setenv("RAGSPINE_DATA_DIR", str(tmp_path / "other"))
    get_settings.cache_clear()
    close_services()
    result = runner.invoke(app, ["ask", "2024年日本的毛利率是多少"])
    assert result.exit_code == 0
    assert "未找到" in result.output  # the fresh folder holds no facts: honest, no number
    assert (tmp_path / "other" / "facts.db").exists()


def test_empty_question_exits_2_with_a_clear_message(settings: Settings) -> None:
    result = runner.invoke(app, ["ask", "  "])
    assert result.exit_code == 2
    assert "KNOWLEDGE_INVALID_INPUT" in result.output and "empty" in result.output


def test_invalid_settings_are_refused_at_start_up(settings: Settings, monkeypatch) -> None:
    from ragspine.settings import get_settings

    monkeypatch.setenv("RAGSPINE_BACKEND", "aws")
    monkeypatch.delenv("RAGSPINE_FACTS_TABLE", raising=False)
    get_settings.cache_clear()
    close_services()
    result = runner.invoke(app, ["ask", "营收"])
    assert result.exit_code == 2
    assert "RAGSPINE_FACTS_TABLE is required" in result.output


def test_a_sample_that_fails_is_reported_and_serve_still_starts(settings: Settings, tmp_path, monkeypatch) -> None:
    import uvicorn

    import ragspine.demo

    real = ragspine.demo.sample_documents
    broken = tmp_path / "ACME_Broken.docx"
    broken.write_bytes(b"not a zip")
    monkeypatch.setattr("ragspine.cli_ingest.sample_documents", lambda folder=None: [*real(folder), broken])
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    loaded = runner.invoke(app, ["load-samples"], env=WIDE)
    assert loaded.exit_code == 1 and "8 succeeded, 1 failed" in loaded.output
    assert "sample data: 8 of 9 documents ingested" in loaded.output
    served = runner.invoke(app, ["serve", "--samples"], env=WIDE)
    assert served.exit_code == 0, served.output
    assert "ACME_Broken.docx" in served.output and "FAILED" in served.output and "36.0 PCT" in served.output
