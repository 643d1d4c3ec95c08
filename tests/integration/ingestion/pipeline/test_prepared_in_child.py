"""Facts, chunks and index terms computed in the parse child: the same as in the service's process, nothing half-written on a crash."""

from __future__ import annotations

import io
import multiprocessing
import pickle
import signal
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from ragspine.bootstrap import Services
from ragspine.ingestion import staged
from ragspine.ingestion.operations import Operation, OperationStatus, SpaceStamp
from ragspine.ingestion.parsers import parse_document
from ragspine.ingestion.parsers.child_reply import parsed_frames, send_frames
from ragspine.ingestion.parsers.isolated import _prepared
from ragspine.ingestion.prepare import (
    PreparedDocument,
    PrepareRequest,
    StagedIndexTerms,
    dump_index_terms,
    prepare,
)
from ragspine.ingestion.retry import RetryPolicy
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.steps import Step, StepContext, run_step
from ragspine.ingestion.submission import DocumentMeta, submit
from ragspine.retrieval.embedded_rows import field_counts
from ragspine.retrieval.model import Chunk, SearchFilters
from ragspine.samples.build_acme import SAMPLES_DIR
from ragspine.sensitivity import Sensitivity
from tests.integration.ingestion.pipeline.conftest import Ingest
from tests.support.parse_children import RunsOnUnpickling, hostile_parse_child, signal_next_parse_child

BEFORE_ACTIVATION = (Step.FETCH, Step.PARSE, Step.EXTRACT_FACTS, Step.CHUNK_AND_EMBED, Step.CHECK_INDEX)
SAMPLE_FILES = sorted(p.name for p in SAMPLES_DIR.iterdir() if p.suffix in (".docx", ".pptx", ".xlsx", ".md"))


def _in_process(context: StepContext) -> StepContext:
    assert context.parse_limits is not None
    return replace(context, parse_limits=replace(context.parse_limits, out_of_process=False))


def _staged_run(operation: Operation, context: StepContext) -> dict[str, object]:
    """Run every step before activation; what each reported and what it left staged and stored."""
    context.staging.clear(operation.id)
    reported = [run_step(step.value, {"operation_id": operation.id}, context=context) for step in BEFORE_ACTIVATION]
    children, parents, vectors = staged.load_chunks(context.staging.get(operation.id, "chunks") or b"")
    extraction = staged.load_extraction(context.staging.get(operation.id, "extraction") or b"")
    assert context.texts is not None
    return {"reported": reported, "document": context.staging.get(operation.id, "document"),
            "facts": extraction, "children": children, "parents": parents, "vectors": vectors,
            "text": context.texts.get(operation.version_id)}


@pytest.mark.parametrize("gateway", [False, True], ids=["ingest", "knowledge-space"])
@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_a_document_prepared_in_the_child_gives_the_same_facts_chunks_and_terms(
        context: StepContext, name: str, gateway: bool) -> None:
    assert context.parse_limits is not None and context.parse_limits.out_of_process  # the local default
    operation, _ = submit(SAMPLES_DIR / name, operations=context.operations, meta=DocumentMeta())
    if gateway:
        operation = context.operations.save(replace(operation, space=SpaceStamp("space-1", "doc-1", tags=("t",))))
    child = _staged_run(operation, context)
    terms = context.staging.get(operation.id, "index_terms")
    here = _staged_run(operation, _in_process(context))

    assert child == here
    assert child["children"] or child["facts"].facts  # type: ignore[attr-defined]  # every sample gives something
    # The terms the child counted are the ones the index would count itself.
    assert terms is not None
    children: list[Chunk] = child["children"]  # type: ignore[assignment]
    assert StagedIndexTerms(terms, len(children)).for_chunks(0, children) == [field_counts(c) for c in children]


def test_the_decks_and_workbook_prepared_in_the_child_publish_the_curated_facts(ingest: Ingest,
                                                                               services: Services) -> None:
    done = [ingest(SAMPLES_DIR / name) for name in
            ("ACME_FY2024_Review.pptx", "ACME_FY2025_Review.pptx", "ACME_Quarterly_Revenue.xlsx")]
    assert [op.status for op in done] == [OperationStatus.SUCCEEDED] * 3
    assert services.facts.count() == sum(op.facts_count for op in done) == 114
    assert services.retrieval is not None
    hits = services.retrieval.index.search("revenue", top_k=3, filters=SearchFilters())
    assert hits and all(h.chunk.doc_id in {op.doc_id for op in done} for h in hits)


@pytest.fixture
def long_docx(tmp_path: Path) -> Path:
    """20,000 paragraphs: seconds to parse and chunk, so a signal lands mid-document."""
    import docx

    document = docx.Document()
    for number in range(20_000):
        document.add_paragraph(f"Paragraph {number} of a long manual on travel, hotels and expenses.")
    out = io.BytesIO()
    document.save(out)
    path = tmp_path / "manual.docx"
    path.write_bytes(out.getvalue())
    return path


@pytest.fixture
def kill_the_parse_child() -> Iterator[list[signal.Signals]]:
    with signal_next_parse_child() as signals:
        yield signals


def test_a_child_killed_mid_document_fails_the_operation_and_writes_nothing(
        ingest: Ingest, services: Services, context: StepContext, long_docx: Path,
        kill_the_parse_child: list[signal.Signals]) -> None:
    kill_the_parse_child.append(signal.SIGSEGV)
    failed = ingest(long_docx)
    assert failed.status is OperationStatus.FAILED and failed.error is not None
    assert failed.error.code == "INGEST_PARSER_CRASHED" and not failed.error.retryable
    assert "manual.docx: the parser stopped abnormally (signal SIGSEGV)" in failed.error.message
    # Nothing of the document reached a reader, nor the staging area past the source.
    assert services.retrieval is not None
    assert not services.retrieval.index.search("travel hotels", top_k=5, filters=SearchFilters())
    assert services.facts.count() == 0
    for name in ("document", "extraction", "chunks", "index_terms", "prepared"):
        assert context.staging.get(failed.id, name) is None
    # The next document gets a fresh child and is ingested whole.
    done = ingest(SAMPLES_DIR / "ACME_FY2024_MDA.docx")
    assert done.status is OperationStatus.SUCCEEDED and done.chunks_count > 0


def test_a_child_that_answers_with_code_to_run_fails_the_operation_and_runs_nothing(
        ingest: Ingest, services: Services, context: StepContext, tmp_path: Path) -> None:
    marker = tmp_path / "the-exploit-ran"
    exploit = pickle.dumps(("parsed", RunsOnUnpickling(str(marker))))
    with hostile_parse_child([exploit]):
        failed = ingest(SAMPLES_DIR / "ACME_FY2024_MDA.docx")
    assert not marker.exists()
    assert failed.status is OperationStatus.FAILED and failed.error is not None
    assert failed.error.code == "INGEST_PARSER_REPLY_INVALID" and not failed.error.retryable
    assert "answered with something that is not a parse result" in failed.error.message
    for name in ("document", "extraction", "chunks", "index_terms", "prepared"):
        assert context.staging.get(failed.id, name) is None
    assert services.facts.count() == 0
    # The next document gets a real child and is ingested whole.
    done = ingest(SAMPLES_DIR / "ACME_Product_Policy.md")
    assert done.status is OperationStatus.SUCCEEDED and done.chunks_count > 0


def _frames(document: bytes, pages: int, prepared: PreparedDocument) -> list[bytes]:
    """The frames an honest parse child sends for ``prepared``."""
    ours, theirs = multiprocessing.Pipe(duplex=True)
    send_frames(theirs, parsed_frames(document, pages, prepared))
    frames = []
    while ours.poll(0.1):
        frames.append(ours.recv_bytes())
    ours.close()
    theirs.close()
    return frames


@pytest.mark.parametrize("forge", ["space", "sensitivity", "chunk-id"])
def test_a_child_that_stamps_its_chunks_for_another_space_fails_the_operation_and_writes_nothing(
        context: StepContext, services: Services, forge: str) -> None:
    name = "ACME_Product_Policy.md"
    operation, _ = submit(SAMPLES_DIR / name, operations=context.operations, meta=DocumentMeta())
    operation = context.operations.save(replace(operation, space=SpaceStamp("space-1", "doc-1", tags=("t",))))
    # What an honest child computes, then the chunks re-stamped as a child taken over could.
    document = staged.dump_document(parse_document((SAMPLES_DIR / name).read_bytes(), doc_id=operation.doc_id,
                                                   filename=name, max_bytes=1 << 24))
    prepared = prepare(document, PrepareRequest(operation, context.glossary, index_terms=True))
    children, parents, _ = staged.load_chunks(prepared.chunks)
    change = {"space": {"space_id": "space-2"}, "sensitivity": {"sensitivity": Sensitivity.PUBLIC},
              "chunk-id": {}}[forge]
    children = [replace(c, **change) for c in children]  # type: ignore[arg-type]
    if forge == "chunk-id":
        children[0] = replace(children[0], chunk_id="another-documents-chunk")
    forged = replace(prepared, chunks=staged.dump_chunks(children, parents, None))
    with hostile_parse_child(_frames(document, 1, forged)):
        failed = InProcessRunner(RetryPolicy(), sleep=lambda _: None).run(operation.id, context=context)
    assert failed.status is OperationStatus.FAILED and failed.error is not None
    assert failed.error.code == "INGEST_PARSER_REPLY_INVALID" and not failed.error.retryable
    assert "nothing of it was written" in failed.error.message
    assert services.retrieval is not None
    assert services.retrieval.index.get([c.chunk_id for c in children + parents]) == []


class _BrokenGlossary:
    """Not a glossary: reading facts with it fails as a bug in the extractor would."""


def test_an_unexpected_failure_past_parsing_leaves_the_work_to_the_steps(context: StepContext) -> None:
    operation, _ = submit(SAMPLES_DIR / "ACME_Quarterly_Revenue.xlsx", operations=context.operations,
                          meta=DocumentMeta())
    run_step(Step.FETCH.value, {"operation_id": operation.id}, context=_in_process(context))
    run_step(Step.PARSE.value, {"operation_id": operation.id}, context=_in_process(context))
    document = context.staging.get(operation.id, "document")
    assert document is not None
    request = PrepareRequest(operation, _BrokenGlossary(), index_terms=True)  # type: ignore[arg-type]
    assert _prepared(document, request, "revenue.xlsx") is None


def test_terms_counted_for_other_chunks_are_never_used(context: StepContext) -> None:
    operation, _ = submit(SAMPLES_DIR / "ACME_Product_Policy.md", operations=context.operations, meta=DocumentMeta())
    children = _staged_run(operation, context)["children"]
    assert isinstance(children, list) and len(children) > 1
    terms = dump_index_terms(children)
    staged = StagedIndexTerms(terms, len(children))
    assert staged.for_chunks(0, children) == [field_counts(c) for c in children]
    first, rest = staged.for_chunks(0, children[:1]), staged.for_chunks(1, children[1:])  # read by batches
    assert first is not None and rest is not None and [*first, *rest] == staged.for_chunks(0, children)
    assert StagedIndexTerms(terms, len(children) - 1).for_chunks(0, children[1:]) is None  # the index counts them
    assert staged.for_chunks(1, children[1:2]) == [field_counts(children[1])]
    assert staged.for_chunks(0, children[1:]) is None  # counted for other positions
    assert staged.for_chunks(0, [replace(children[0], chunk_id="other"), *children[1:]]) is None
