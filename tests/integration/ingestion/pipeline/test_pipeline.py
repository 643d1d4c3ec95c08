"""The embedded pipeline end to end: curated facts reproduced, no duplicates, versions swap atomically."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path

from ragspine.bootstrap import Services
from ragspine.errors import ProviderUnavailableError
from ragspine.facts.model import Fact, FactKey
from ragspine.facts.ports import FactStore
from ragspine.ingestion.errors import StepOrderError
from ragspine.ingestion.operations import Operation, OperationStatus
from ragspine.ingestion.steps import Step, StepContext, StepResult, run_step
from ragspine.retrieval.model import SearchFilters
from ragspine.samples.build_acme import SAMPLES_DIR
from tests.integration.ingestion.pipeline.conftest import Ingest
from tests.support.samples import read_facts_csv

SOURCES = ("ACME_FY2024_Review.pptx", "ACME_FY2025_Review.pptx", "ACME_Quarterly_Revenue.xlsx")
REVIEW = """# ACME Japan FY2024 Review

The {word} programme carried the year.

## ACME Japan revenue (USD millions)

| Metric | FY2024 |
|---|---|
| Revenue | {revenue} |
"""
JP_REVENUE = FactKey("REVENUE", "ACME_JP", "TOTAL", "FY", "2024")


def _compared(fact: Fact) -> tuple[object, ...]:
    return (fact.metric_code, fact.entity, fact.geography, fact.channel, fact.period_type, fact.period,
            fact.value, type(fact.value), fact.unit, fact.source_doc_id, fact.source_locator, fact.source_file_hash)


def _hits(services: Services, query: str) -> list[str]:
    assert services.retrieval is not None
    return [h.chunk.text for h in services.retrieval.index.search(query, top_k=5, filters=SearchFilters())]


def _write(path: Path, word: str, revenue: int) -> Path:
    path.write_text(REVIEW.format(word=word, revenue=revenue), encoding="utf-8")
    return path


class TestSampleCorpus:
    def test_ingesting_the_decks_and_workbook_yields_exactly_the_curated_facts(self, ingest: Ingest,
                                                                               services: Services) -> None:
        # GIVEN the two ACME decks and the quarterly workbook, WHEN each is ingested
        done = [ingest(SAMPLES_DIR / name) for name in SOURCES]
        # THEN every operation succeeded and the fact store holds exactly the 114 curated facts
        assert [op.status for op in done] == [OperationStatus.SUCCEEDED] * 3
        curated = read_facts_csv(SAMPLES_DIR / "facts.csv")
        assert services.facts.count() == len(curated) == 114
        stored = [services.facts.get(fact.key) for fact in curated]
        assert [_compared(f) for f in stored if f] == [_compared(f) for f in curated]
        assert sum(op.facts_count for op in done) == 114

    def test_ingestion_order_does_not_change_the_facts(self, ingest: Ingest, services: Services) -> None:
        for name in reversed(SOURCES):
            ingest(SAMPLES_DIR / name)
        curated = read_facts_csv(SAMPLES_DIR / "facts.csv")
        assert services.facts.count() == 114
        stored = [services.facts.get(fact.key) for fact in curated]
        assert [_compared(f) for f in stored if f] == [_compared(f) for f in curated]


class TestIdempotence:
    def test_replaying_the_same_file_creates_no_second_operation_and_no_duplicates(
            self, ingest: Ingest, services: Services, context: StepContext, tmp_path: Path) -> None:
        path = _write(tmp_path / "jp.md", "zebra", 999)
        first = ingest(path)
        facts, chunks = services.facts.count(), services.retrieval.index.count()  # type: ignore[union-attr]
        second = ingest(path)
        assert second.id == first.id and len(context.operations.list_operations()) == 1
        assert (services.facts.count(), services.retrieval.index.count()) == (facts, chunks)  # type: ignore[union-attr]

    def test_re_running_every_step_by_name_writes_the_same_rows(
            self, ingest: Ingest, services: Services, context: StepContext, tmp_path: Path) -> None:
        path = _write(tmp_path / "jp.md", "zebra", 999)
        first = ingest(path)
        counts = services.facts.count(), services.retrieval.index.count()  # type: ignore[union-attr]
        for step in Step:  # as a worker Lambda would, twice each
            run_step(step.value, {"operation_id": first.id}, context=context)
            run_step(step.value, {"operation_id": first.id}, context=context)
        assert (services.facts.count(), services.retrieval.index.count()) == counts  # type: ignore[union-attr]

    def test_a_step_run_before_its_input_exists_fails_permanently(
            self, context: StepContext, ingest: Ingest, tmp_path: Path) -> None:
        from ragspine.ingestion.submission import DocumentMeta, submit

        operation, _ = submit(_write(tmp_path / "jp.md", "zebra", 1), operations=context.operations,
                              meta=DocumentMeta())
        try:
            run_step("parse", {"operation_id": operation.id}, context=context)
        except StepOrderError as exc:
            assert exc.code == "INGEST_STEP_ORDER"
        else:
            raise AssertionError("parse ran without fetch")


class TestVersions:
    def test_the_old_version_answers_until_the_new_one_is_fully_indexed(
            self, ingest: Ingest, services: Services, tmp_path: Path) -> None:
        # GIVEN version 1 of a document is ingested
        path = _write(tmp_path / "jp.md", "zebra", 999)
        v1 = ingest(path)
        assert _hits(services, "zebra") and services.facts.get(JP_REVENUE).value == 999  # type: ignore[union-attr]

        # WHEN version 2 fails in its index step on every attempt (the index is down)
        def broken(operation: Operation, context: StepContext) -> StepResult:
            raise ProviderUnavailableError("index down")

        _write(path, "yak", 1001)
        failed = ingest(path, steps={Step.CHECK_INDEX: broken})
        # THEN nothing of version 2 is visible and version 1 still answers
        assert failed.status is OperationStatus.FAILED and failed.version_id != v1.version_id
        assert failed.retry_count == 4 and failed.error is not None and failed.error.retryable
        assert _hits(services, "zebra") and not _hits(services, "yak")
        assert services.facts.get(JP_REVENUE).value == 999  # type: ignore[union-attr]

        # WHEN the same upload is replayed once the index is back THEN version 2 replaces version 1 entirely
        v2 = ingest(path)
        assert v2.status is OperationStatus.SUCCEEDED and v2.id == failed.id is not None
        assert _hits(services, "yak") and not _hits(services, "zebra")
        assert services.facts.get(JP_REVENUE).value == 1001  # type: ignore[union-attr]
        assert services.facts.count() == 1

    def test_a_version_without_a_fact_retires_the_old_fact(self, ingest: Ingest, services: Services,
                                                          tmp_path: Path) -> None:
        path = _write(tmp_path / "jp.md", "zebra", 999)
        ingest(path)
        path.write_text("# ACME Japan FY2024 Review\n\nNo figures this time.\n", encoding="utf-8")
        done = ingest(path)
        assert done.status is OperationStatus.SUCCEEDED and done.facts_count == 0
        assert services.facts.count() == 0 and any("no table" in w for w in done.warnings)


    def test_readers_never_find_the_fact_missing_while_a_new_version_activates(
            self, context: StepContext, tmp_path: Path) -> None:
        import dataclasses

        from ragspine.ingestion.retry import RetryPolicy
        from ragspine.ingestion.runner import InProcessRunner
        from ragspine.ingestion.submission import DocumentMeta, submit

        # GIVEN a fact store that checks, after every write, what a concurrent reader would see
        seen: list[object] = []

        class Watched:
            def __init__(self, inner: FactStore) -> None:
                self.inner = inner

            def __getattr__(self, name: str) -> object:
                return getattr(self.inner, name)

            def put_many(self, facts: Iterable[Fact]) -> int:
                written = self.inner.put_many(facts)
                seen.append(self.inner.get(JP_REVENUE))
                return written

            def delete_by_source(self, source_doc_id: str, *, keep: Collection[FactKey] = ()) -> int:
                removed = self.inner.delete_by_source(source_doc_id, keep=keep)
                seen.append(self.inner.get(JP_REVENUE))
                return removed

        watched = dataclasses.replace(context, facts=Watched(context.facts))
        runner = InProcessRunner(RetryPolicy(), sleep=lambda _: None)
        path = _write(tmp_path / "jp.md", "zebra", 999)
        for revenue in (999, 1001):
            _write(path, "zebra", revenue)
            operation, _ = submit(path, operations=context.operations, meta=DocumentMeta())
            assert runner.run(operation.id, context=watched).status is OperationStatus.SUCCEEDED
        # WHEN version 2 replaced version 1 THEN every intermediate state held the old or the new fact
        values = [getattr(fact, "value", None) for fact in seen]
        assert None not in values[values.index(999):] and values[-1] == 1001
        assert context.facts.count() == 1


def test_sidecar_metadata_sets_sensitivity_and_library(ingest: Ingest, services: Services, tmp_path: Path) -> None:
    from ragspine.ingestion.submission import document_meta

    path = _write(tmp_path / "jp.md", "zebra", 999)
    (tmp_path / "jp.md.meta.json").write_text('{"sensitivity": "confidential", "library": "finance"}')
    ingest(path, meta=document_meta(path))
    assert services.retrieval is not None
    hits = services.retrieval.index.search("zebra", top_k=5, filters=SearchFilters(libraries=("finance",)))
    assert hits and all(h.chunk.sensitivity.name == "CONFIDENTIAL" for h in hits)
    assert services.facts.get(JP_REVENUE).sensitivity.name == "CONFIDENTIAL"  # type: ignore[union-attr]


def test_the_folder_manifest_gives_metadata_and_an_edited_manifest_is_read_again(tmp_path: Path) -> None:
    import os

    from ragspine.ingestion.submission import document_meta

    path = _write(tmp_path / "jp.md", "zebra", 999)
    manifest = tmp_path / "manifest.yaml"
    manifest.write_text("documents:\n  - file: jp.md\n    sensitivity: restricted\n    library: board\n")
    first = document_meta(path)
    assert (first.sensitivity.name, first.library) == ("RESTRICTED", "board")
    manifest.write_text("documents:\n  - file: jp.md\n    sensitivity: internal\n")
    stat = manifest.stat()
    os.utime(manifest, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # a later edit, whatever the clock
    second = document_meta(path)
    assert (second.sensitivity.name, second.library) == ("INTERNAL", "default")
