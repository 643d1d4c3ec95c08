"""The ingestion steps, each callable by name with a JSON payload ``{"operation_id": ...}``.

fetch → parse → extract_facts → chunk_and_embed → index → activate. Each step reads what it
needs from the operation and the staging area and stages its own output, so re-running a
step (or the whole run) rewrites the same staged rows: nothing is duplicated. Nothing is
visible to readers before ``activate``: the chunk index cannot hide an unactivated version
from search, so the new version's chunks are staged (with their vectors) and written at
activation, as are its facts. ``activate`` writes the new chunks first, then deletes the old
version's chunks, then writes the document's facts and removes those it no longer states;
every part of it is idempotent, so a retried activation converges.
"""

from __future__ import annotations

import enum
import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine.errors import NotFoundError
from ragspine.ingestion import staged
from ragspine.ingestion.errors import (
    DocumentTooLargeError,
    SourceChangedError,
    SourceNotFoundError,
    SourceUnavailableError,
    StepOrderError,
)
from ragspine.ingestion.operations import FACTS_SHOWN, ActiveVersion, FactRead, Operation, OperationStore, StagingArea

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ragspine.facts.glossary import Glossary
    from ragspine.facts.model import Fact
    from ragspine.facts.ports import FactStore
    from ragspine.ingestion.model import Block, ParsedDocument
    from ragspine.ingestion.parsers.guard import ParseLimits
    from ragspine.llm.ports import Embedder
    from ragspine.retrieval.ports import ChunkIndex
    from ragspine.retrieval.version_text import VersionTextStore


class Step(enum.StrEnum):
    """The pipeline's steps, in order; the value is the name a worker is called with."""

    FETCH = "fetch"
    PARSE = "parse"
    EXTRACT_FACTS = "extract_facts"
    CHUNK_AND_EMBED = "chunk_and_embed"
    INDEX = "index"
    ACTIVATE = "activate"


@dataclass(frozen=True)
class StepContext:
    """The ports every step may use."""

    operations: OperationStore
    staging: StagingArea
    facts: FactStore
    index: ChunkIndex | None
    embedder: Embedder | None
    glossary: Glossary
    max_bytes: int
    # The index takes vectors later (``retrieval.dense_backfill``): chunks are indexed without
    # them and the document is searchable by BM25 at once.
    defer_embedding: bool = False
    # Each version's normalised text and its chunks' offsets (citation reads); None: not kept.
    texts: VersionTextStore | None = None
    # What an Office package may inflate to, and each parse's time and memory budget; None: the defaults.
    parse_limits: ParseLimits | None = None


@dataclass(frozen=True, slots=True)
class StepResult:
    """What one step did: warnings for the operation and, from ``activate``, the final counts."""

    step: Step
    operation_id: str
    warnings: tuple[str, ...] = ()
    facts: int = 0
    chunks: int = 0
    pages: int = 0

    def to_payload(self) -> dict[str, Any]:
        """The result as the JSON a worker Lambda returns to the state machine."""
        return {"operation_id": self.operation_id, "step": self.step.value, "warnings": list(self.warnings),
                "facts": self.facts, "chunks": self.chunks, "pages": self.pages}


StepFunction = Callable[[Operation, StepContext], StepResult]


def _require(context: StepContext, operation: Operation, name: str, step: Step) -> bytes:
    data = context.staging.get(operation.id, name)
    if data is None:
        raise StepOrderError(f"{step.value} needs the '{name}' output of an earlier step for operation {operation.id}")
    return data


def fetch(operation: Operation, context: StepContext) -> StepResult:
    """Read the file's bytes, check its size and hash, and stage them."""
    if operation.source.startswith("s3://"):
        from ragspine.aws.s3_source import read_object
        from ragspine.ingestion.pipeline import object_meta

        data, metadata = read_object(operation.source, max_bytes=context.max_bytes)
        meta = object_meta(operation.doc_id, metadata)
        # A Gateway run's sensitivity and library come from its space, never from object metadata.
        if operation.space is None and (meta.sensitivity, meta.library, meta.context) != (
                operation.sensitivity, operation.library, operation.context):
            operation = context.operations.save(replace(operation, sensitivity=meta.sensitivity, library=meta.library,
                                                        context=meta.context))
        return _stage_source(operation, context, data, Path(operation.source).name)
    path = Path(operation.source)
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise IsADirectoryError(operation.source)
        if size > context.max_bytes:
            raise DocumentTooLargeError(f"{path.name} is {size:,} bytes, over the {context.max_bytes:,}-byte "
                                        "limit; split it or upload a smaller file.")
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError) as exc:
        raise SourceNotFoundError(f"{operation.source}: cannot open the file ({type(exc).__name__})") from exc
    except OSError as exc:
        raise SourceUnavailableError(f"{operation.source}: reading failed ({exc.strerror or exc})") from exc
    return _stage_source(operation, context, data, path.name)


def _stage_source(operation: Operation, context: StepContext, data: bytes, name: str) -> StepResult:
    """Check the bytes against the operation's hash (recording it when unknown, as for S3 uploads) and stage them."""
    digest = file_hash(data)
    if operation.file_hash and digest != operation.file_hash:
        raise SourceChangedError(f"{name} changed since it was submitted; submit it again.")
    if not operation.file_hash:
        context.operations.save(replace(operation, file_hash=digest))
    context.staging.put(operation.id, "source", data)
    return StepResult(Step.FETCH, operation.id)


def parse(operation: Operation, context: StepContext) -> StepResult:
    """Parse the staged bytes into blocks (bad input raises a permanent ``IngestionError``)."""
    data = _require(context, operation, "source", Step.PARSE)
    filename, limits = Path(operation.source).name, context.parse_limits
    if limits is not None and limits.out_of_process:
        from ragspine.ingestion.parsers.isolated import parse_in_child

        parsed = parse_in_child(data, doc_id=operation.doc_id, filename=filename, max_bytes=context.max_bytes,
                                limits=limits)
        encoded, pages = parsed.document, parsed.pages
    else:
        from ragspine.ingestion.parsers import parse_document

        doc = parse_document(data, doc_id=operation.doc_id, filename=filename, max_bytes=context.max_bytes,
                             limits=limits)
        encoded, pages = staged.dump_document(doc), doc.pages
    context.staging.put(operation.id, "document", encoded)
    if operation.pages_count != pages:
        context.operations.save(replace(operation, pages_count=pages))
    return StepResult(Step.PARSE, operation.id, pages=pages)


def extract(operation: Operation, context: StepContext) -> StepResult:
    """Extract facts from the document's tables and stage them (not yet visible)."""
    from ragspine.ingestion.facts_extract import ExtractionResult, extract_facts

    doc = staged.load_document(_require(context, operation, "document", Step.EXTRACT_FACTS))
    result = extract_facts(doc, glossary=context.glossary, source_file_hash=operation.file_hash,
                           sensitivity=operation.sensitivity)
    context.operations.save(replace(operation, facts_read=len(result.facts), facts_sample=facts_sample(result.facts)))
    if operation.space is not None:
        # A Gateway document: the fact table has no Gateway ACL, so nothing is published there
        # and its tables stay in the chunks, searchable through the Gateway alone. The tables are
        # still read, so whoever maintains the space sees what they state and what could not be read.
        empty = ExtractionResult(doc_id=operation.doc_id, facts=(), warnings=())
        context.staging.put(operation.id, "extraction", staged.dump_extraction(empty))
        return StepResult(Step.EXTRACT_FACTS, operation.id, warnings=(*result.warnings, *unpublished(result.facts)))
    context.staging.put(operation.id, "extraction", staged.dump_extraction(result))
    return StepResult(Step.EXTRACT_FACTS, operation.id, warnings=result.warnings, facts=len(result.facts))


def facts_sample(facts: Sequence[Fact], limit: int = FACTS_SHOWN) -> tuple[FactRead, ...]:
    """At most ``limit`` facts, taken from each table in turn (document order), so a sample shows every table."""
    by_table: dict[str, list[Fact]] = {}
    for fact in facts:
        by_table.setdefault(_table_of(fact.source_locator), []).append(fact)
    chosen: list[Fact] = []
    depth = 0
    while len(chosen) < min(limit, len(facts)):
        chosen += [rows[depth] for rows in by_table.values() if depth < len(rows)][:limit - len(chosen)]
        depth += 1
    return tuple(FactRead(f.metric_code, f.entity, f.period, f.value, f.unit, f.source_locator) for f in chosen)


def _table_of(locator: str) -> str:
    """The table part of a cell's locator (``page=4,table=1`` of ``page=4,table=1,row=…,col=…``)."""
    return re.split(r",(?:cell|row|col)=", locator, maxsplit=1)[0]


def unpublished(facts: Sequence[Fact]) -> tuple[str, ...]:
    """One warning per table of a Gateway document whose figures were read but are not published as facts."""
    by_table: dict[str, int] = {}
    for fact in facts:
        table = _table_of(fact.source_locator)
        by_table[table] = by_table.get(table, 0) + 1
    return tuple(f"{table}: no facts published from the {n} figures read: a knowledge space's documents stay out "
                 "of the shared fact table (it has no space ACL), so this table is answered as passages"
                 for table, n in by_table.items())


def chunk_and_embed(operation: Operation, context: StepContext) -> StepResult:
    """Chunk the document under its version id, embed the children (unless deferred), and stage both.

    The version's normalised text and its children's offsets are stored here (keyed by version,
    so a retried step rewrites the same record); nothing cites them before activation.
    """
    from ragspine.ingestion.document_context import apply_context, document_context
    from ragspine.retrieval.chunking import ChunkMeta, chunk_document
    from ragspine.retrieval.passage_text import dense_text

    stored = _require(context, operation, "document", Step.CHUNK_AND_EMBED)
    doc = staged.load_document(stored)
    extraction = staged.load_extraction(_require(context, operation, "extraction", Step.CHUNK_AND_EMBED))
    doc = without_fact_tables(doc, extraction.facts)
    meta = ChunkMeta(sensitivity=operation.sensitivity, library=operation.library, version_id=operation.version_id)
    if operation.space is not None:
        space = operation.space
        meta = replace(meta, space_id=space.space_id, document_id=space.document_id, category=space.category,
                       tags=space.tags, version_label=space.version_label, product_code=space.product_code)
    chunked = chunk_document(doc, meta=meta)
    warnings: tuple[str, ...] = ()
    if context.texts is not None and operation.version_id:
        from ragspine.retrieval.version_text import safe_version_id, version_text

        if safe_version_id(operation.version_id):
            context.texts.put(version_text(operation.doc_id, operation.version_id, chunked))
            if operation.space is None:  # the parsed tables, for `ragspine facts reextract`
                context.texts.put_document(operation.version_id, stored)
        else:  # a caller's own version id, such as 2024/Q1: the text is not kept, the ingestion goes on
            warnings = (f"version id {operation.version_id!r} cannot name a text folder: citations of it are "
                        "not readable by offset",)
    if context.index is None:
        context.staging.put(operation.id, "chunks", staged.dump_chunks([], [], None))
        return StepResult(Step.CHUNK_AND_EMBED, operation.id,
                          warnings=(*warnings, "no chunk index configured: not indexed"))
    about = document_context(doc, filename=Path(operation.source).name, given=dict(operation.context))
    children, parents = apply_context(chunked.children, about), apply_context(chunked.parents, about)
    texts = [dense_text(c) for c in children]
    embed_now = context.embedder is not None and bool(texts) and not context.defer_embedding
    vectors = context.embedder.embed(texts) if context.embedder is not None and embed_now else None
    context.staging.put(operation.id, "chunks", staged.dump_chunks(children, parents, vectors))
    return StepResult(Step.CHUNK_AND_EMBED, operation.id, warnings=warnings, chunks=len(children))


def without_fact_tables(doc: ParsedDocument, facts: Sequence[Fact]) -> ParsedDocument:
    """The document without the tables its facts came from, nor their unit captions.

    The fact table answers those figures, each with its cell locator; indexed as passages too,
    their rows crowd the narrative (the "why") out of search. Tables that gave no fact stay.
    """
    from ragspine.ingestion.model import BlockKind

    located = {f.source_locator for f in facts}
    tables = [b for b in doc.blocks if b.kind is BlockKind.TABLE
              and any(loc == b.locator or loc.startswith(b.locator + ",") for loc in located)]
    if not tables:
        return doc
    captions = {b.caption for b in tables if b.caption}
    dropped = {b.locator for b in tables}

    def answered_by_facts(block: Block) -> bool:
        if block.kind is BlockKind.TABLE:
            return block.locator in dropped
        return block.text in captions

    return replace(doc, blocks=tuple(b for b in doc.blocks if not answered_by_facts(b)))


def index(operation: Operation, context: StepContext) -> StepResult:
    """Check the staged batch against the index (reachable, vectors aligned) and mark it ready.

    The batch is written at ``activate``: the index cannot keep an unactivated version out of search.
    """
    children, _, vectors = staged.load_chunks(_require(context, operation, "chunks", Step.INDEX))
    if context.index is not None:
        context.index.ensure_index()  # the first ingestion creates it; raises when it cannot be reached
    if vectors is not None and len(vectors) != len(children):
        raise StepOrderError(f"operation {operation.id}: {len(vectors)} vectors for {len(children)} chunks")
    context.staging.put(operation.id, "index_ready", b"1")
    return StepResult(Step.INDEX, operation.id, chunks=len(children))


def activate(operation: Operation, context: StepContext) -> StepResult:
    """Make the new version the searchable one, then retire the old version's chunks and facts."""
    from ragspine.facts.open_vocabulary import is_open_code, note_open_codes_written
    from ragspine.ingestion.fact_conflicts import differing_facts
    from ragspine.ingestion.facts_extract import primary_facts

    _require(context, operation, "index_ready", Step.ACTIVATE)
    children, parents, vectors = staged.load_chunks(_require(context, operation, "chunks", Step.ACTIVATE))
    extraction = _require(context, operation, "extraction", Step.ACTIVATE).decode("utf-8")
    previous = next(iter(context.staging.active(operation.doc_id)), None)
    if context.index is not None and children:
        context.index.add(parents)
        context.index.add(children, vectors)
    if context.index is not None and previous is not None and previous.version_id != operation.version_id:
        context.index.delete(doc_id=operation.doc_id, version_id=previous.version_id)
    context.staging.activate(ActiveVersion(operation.doc_id, operation.version_id, operation.id, extraction))
    # Facts are merged over every active document (a report owns its year; comparatives fill gaps),
    # and only the keys this document states, or stated before, are rewritten.
    active = [staged.load_extraction(v.extraction) for v in context.staging.active()]
    merged = primary_facts(active)
    touched = {f.key for f in staged.load_extraction(extraction).facts}
    if previous is not None:
        touched |= {f.key for f in staged.load_extraction(previous.extraction).facts}
    # Write first, then remove what the document no longer states: a reader sees the old fact
    # or the new one for every key, never neither.
    written = [f for f in merged.facts if f.key in touched]
    context.facts.put_many(written)
    if any(is_open_code(f.metric_code) or is_open_code(f.entity) for f in written):
        note_open_codes_written()  # the labels and companies questions may now name
    context.facts.delete_by_source(operation.doc_id,
                                   keep={f.key for f in written if f.source_doc_id == operation.doc_id})
    # What the other active documents (or tables) state differently for these keys is shown, never dropped.
    context.facts.put_conflicts(differing_facts((r.facts for r in active), written))
    kept = sum(1 for f in merged.facts if f.source_doc_id == operation.doc_id)
    warnings = tuple(w for w in merged.warnings if operation.doc_id in w)
    return StepResult(Step.ACTIVATE, operation.id, warnings=warnings, facts=kept, chunks=len(children))


STEPS: Mapping[Step, StepFunction] = {
    Step.FETCH: fetch, Step.PARSE: parse, Step.EXTRACT_FACTS: extract,
    Step.CHUNK_AND_EMBED: chunk_and_embed, Step.INDEX: index, Step.ACTIVATE: activate,
}


def run_step(name: str, payload: Mapping[str, Any], *, context: StepContext,
             steps: Mapping[Step, StepFunction] = STEPS) -> dict[str, Any]:
    """Run one step by name for ``payload["operation_id"]``; the entry point of a worker Lambda.

    Raises:
        NotFoundError: no such operation.
        ValueError: ``name`` is not a step.
        RagspineError: whatever the step raises (transient ones are retried by the caller).
    """
    from ragspine.ingestion.operations import utcnow

    operation = context.operations.get(str(payload["operation_id"]))
    if operation is None:
        raise NotFoundError(f"no ingestion operation {payload['operation_id']}")
    operation = context.operations.save(replace(operation, heartbeat_at=utcnow()))  # renew the runner's lease
    return steps[Step(name)](operation, context).to_payload()


def file_hash(data: bytes) -> str:
    """The lineage hash of a file's bytes: ``sha256:<hex>``."""
    return "sha256:" + hashlib.sha256(data).hexdigest()
