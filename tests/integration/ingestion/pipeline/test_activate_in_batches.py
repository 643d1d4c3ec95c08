"""Activation reads a version's staged chunks a batch at a time: the same rows, much less memory.

Memory is counted with ``tracemalloc`` (what the interpreter allocates: the same on any machine,
whatever its load), against reading the same staged chunks whole in the same run.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.bootstrap import Services
from ragspine.ingestion import steps
from ragspine.ingestion.operations import Operation, OperationStatus
from ragspine.ingestion.staged import load_chunks
from ragspine.ingestion.steps import Step, StepContext, StepResult
from ragspine.retrieval.model import Chunk, SearchFilters
from tests.integration.ingestion.pipeline.conftest import Ingest

BATCH = 100  # activation's batch here: the document below has over ten of them
WORDS = ("ledger", "accrual", "dividend", "impairment", "goodwill", "tranche", "covenant", "lessee", "hedge")


@pytest.fixture(autouse=True, params=["process", "thread"])
def isolation(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Parsed in a child (the staged chunks are checked and their terms counted there) or in the service."""
    monkeypatch.setenv("RAGSPINE_INGEST_PARSE_ISOLATION", request.param)  # autouse: set before the settings are read
    yield request.param


def _long_document(path: Path, notes: int = 120, paragraphs: int = 10) -> Path:
    lines = ["# Annual report"]
    for n in range(notes):
        lines.append(f"\n## Note {n}\n")
        for p in range(paragraphs):
            words = " ".join(f"{WORDS[(n + p + i) % len(WORDS)]}{(n * paragraphs + p + i) % 97}" for i in range(40))
            lines.append(f"Paragraph {p} of note {n} states {words}.\n")
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _peak_of(step: steps.StepFunction, operation: Operation, context: StepContext) -> tuple[StepResult, int]:
    """What ``step`` returns, and the most memory it held at once beyond what was held before it."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        result = step(operation, context)
        return result, tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def test_activation_writes_every_staged_row_holding_a_fraction_of_them(
        ingest: Ingest, context: StepContext, services: Services, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(steps, "ACTIVATE_BATCH", BATCH)
    staged: list[Chunk] = []
    peaks: dict[str, int] = {}

    def measured_activate(operation: Operation, ctx: StepContext) -> StepResult:
        def read_whole(op: Operation, c: StepContext) -> StepResult:
            children, parents, _ = load_chunks(c.staging.get(op.id, "chunks") or b"")
            staged.extend([*children, *parents])
            return StepResult(Step.ACTIVATE, op.id)

        _, peaks["read whole"] = _peak_of(read_whole, operation, ctx)
        result, peaks["activate"] = _peak_of(steps.activate, operation, ctx)
        return result

    # GIVEN an index that has taken a document (what its first write loads is loaded) and a long document,
    # WHEN the long one is ingested (its activation measured beside a whole read of its chunks)
    assert ingest(_long_document(tmp_path / "short.md", notes=2)).status is OperationStatus.SUCCEEDED
    operation = ingest(_long_document(tmp_path / "annual.md"), steps={Step.ACTIVATE: measured_activate})
    # THEN every staged chunk is in the index as it was staged, and the text is searchable
    assert operation.status is OperationStatus.SUCCEEDED
    children = [c for c in staged if not c.is_parent]
    assert len(children) > 10 * BATCH
    assert services.retrieval is not None
    index = services.retrieval.index
    assert sorted(index.get([c.chunk_id for c in staged]), key=lambda c: c.chunk_id) == sorted(
        staged, key=lambda c: c.chunk_id)
    assert index.search("Paragraph 7 of note 119", top_k=1, filters=SearchFilters())[0].chunk.source_locator == (
        children[-3].source_locator)
    # AND activation (decoding, checking and writing them) held well under what reading them whole holds
    # (reading the staged text itself, about a third of a whole read, is the floor)
    assert peaks["activate"] < 0.6 * peaks["read whole"], peaks
