"""The ingestion steps keep each version's text; a version id that cannot name a folder is a warning, not a failure."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.ingestion.operations import Operation, OperationKey, OperationStatus
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.sqlite_operations import SqliteOperationStore, SqliteStagingArea
from ragspine.ingestion.steps import StepContext
from ragspine.retrieval.version_text import LocalVersionTextStore
from tests.fakes.facts import InMemoryFactStore
from tests.support.glossary import default_glossary

POLICY = "# Travel policy\n\nEmployees book economy class for flights under six hours.\n\n## Hotels\n\nUp to 150 EUR.\n"


@pytest.fixture
def context(tmp_path: Path) -> Iterator[StepContext]:
    store = SqliteOperationStore(tmp_path / "operations.db")
    yield StepContext(operations=store, staging=SqliteStagingArea(store), facts=InMemoryFactStore(), index=None,
                      embedder=None, glossary=default_glossary(), max_bytes=1 << 20,
                      texts=LocalVersionTextStore(tmp_path / "texts"))
    store.close()


def _run(context: StepContext, tmp_path: Path, version_id: str) -> Operation:
    source = tmp_path / "policy.md"
    source.write_text(POLICY, encoding="utf-8")
    draft = Operation(id=f"op-{len(version_id)}", doc_id="policy.md", version_id=version_id, file_hash="",
                      source=str(source))
    operation = context.operations.create_or_get(OperationKey("policy.md", version_id), draft)[0]
    return InProcessRunner(sleep=lambda _: None).run(operation.id, context=context)


def test_a_run_stores_the_versions_text_even_without_an_index(context: StepContext, tmp_path: Path) -> None:
    done = _run(context, tmp_path, "ver-1")
    assert done.status is OperationStatus.SUCCEEDED
    assert context.texts is not None
    record = context.texts.get("ver-1")
    assert record is not None and record.text.startswith("Travel policy\nEmployees book economy")
    assert [record.text[p.start:p.end] for p in record.passages.values()] == [
        "Employees book economy class for flights under six hours.", "Up to 150 EUR."]
    assert all(p.exact for p in record.passages.values())


def test_an_unsafe_version_id_is_a_warning(context: StepContext, tmp_path: Path) -> None:
    done = _run(context, tmp_path, "2024/Q1")
    assert done.status is OperationStatus.SUCCEEDED
    assert any("cannot name a text folder" in w for w in done.warnings)
    assert not (tmp_path / "texts").exists()
