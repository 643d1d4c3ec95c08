"""The ingestion steps, each callable by name with a JSON payload ``{"operation_id": ...}``.

fetch → parse → extract_facts → chunk_and_embed → index (a check) → activate. Each step reads what it
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
import itertools
import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ragspine.errors import NotFoundError
from ragspine.facts.open_vocabulary import is_open_code, note_open_codes_written
from ragspine.ingestion import staged
from ragspine.ingestion.errors import SourceChangedError, StepOrderError
from ragspine.ingestion.fact_conflicts import differing_facts
from ragspine.ingestion.facts_extract import primary_facts
from ragspine.ingestion.operations import ActiveVersion, FactRead, Operation, OperationStore, StagingArea, utcnow
from ragspine.ingestion.parsers import parse_document
from ragspine.ingestion.sources import SourceReader, read_path, read_uri, scheme_of
from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ragspine.facts.glossary import Glossary
    from ragspine.facts.ports import FactStore
    from ragspine.ingestion import prepare, staged_identity, submission
    from ragspine.ingestion.parsers import isolated
    from ragspine.ingestion.parsers.guard import ParseLimits
    from ragspine.ingestion.prepare import PreparedDocument
    from ragspine.llm.ports import Embedder
    from ragspine.retrieval import embedded_index, passage_text, version_text
    from ragspine.retrieval.model import Chunk
    from ragspine.retrieval.ports import ChunkIndex
    from ragspine.retrieval.version_text import VersionTextStore
else:
    # Loaded on first use: the worker's cold start imports only what every step needs.
    isolated = LazyModule("ragspine.ingestion.parsers.isolated")
    prepare = LazyModule("ragspine.ingestion.prepare")
    staged_identity = LazyModule("ragspine.ingestion.staged_identity")
    submission = LazyModule("ragspine.ingestion.submission")
    embedded_index = LazyModule("ragspine.retrieval.embedded_index")
    passage_text = LazyModule("ragspine.retrieval.passage_text")
    version_text = LazyModule("ragspine.retrieval.version_text")

# Chunks decoded and written at a time by ``activate``: a large document's chunks (and their term
# counts) are never all in memory at once, and each index write is a transaction of this many.
ACTIVATE_BATCH = 2000


class Step(enum.StrEnum):
    """The pipeline's steps, in order; the value is the name a worker is called with.

    The values are stored: in each operation's record (``step``; a cancel is refused once it is
    ``activate``), in the state machine's payloads (an execution started before a deployment
    finishes with the old definition) and as the step metric's dimension. So they never change,
    even where a member's name says more: ``CHECK_INDEX`` (value ``index``) only checks that the
    index is reachable and the staged vectors align; ``ACTIVATE`` writes the chunks and facts.
    """

    FETCH = "fetch"
    PARSE = "parse"
    EXTRACT_FACTS = "extract_facts"
    CHUNK_AND_EMBED = "chunk_and_embed"
    CHECK_INDEX = "index"
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
    # Where documents are parsed in a child (``parse_limits.out_of_process``), the child also reads
    # the facts, cuts the chunks and counts their index terms; False: it parses only.
    prepare_in_child: bool = True
    # Readers of sources with a scheme (``s3://``), by scheme; a source without one is a local path.
    sources: Mapping[str, SourceReader] = field(default_factory=dict)


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
    if scheme_of(operation.source) is not None:
        data, metadata = read_uri(operation.source, context.sources, max_bytes=context.max_bytes)
        meta = submission.object_meta(operation.doc_id, metadata)
        # A Gateway run's sensitivity and library come from its space, never from object metadata.
        if operation.space is None and (meta.sensitivity, meta.library, meta.context) != (
                operation.sensitivity, operation.library, operation.context):
            operation = context.operations.save(replace(operation, sensitivity=meta.sensitivity, library=meta.library,
                                                        context=meta.context))
        return _stage_source(operation, context, data, operation.display_name)
    return _stage_source(operation, context, read_path(operation.source, max_bytes=context.max_bytes),
                         operation.display_name)


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
    """Parse the staged bytes into blocks (bad input raises a permanent ``IngestionError``).

    In a parse child (``parse_limits.out_of_process``) the child goes on past parsing: it also
    computes what ``extract_facts`` and ``chunk_and_embed`` would (``ingestion.prepare``), and this
    step stages all of it, so those steps only report it and the service's process only writes.
    """
    data = _require(context, operation, "source", Step.PARSE)
    filename, limits = operation.display_name, context.parse_limits
    if limits is not None and limits.out_of_process:
        request = (prepare.PrepareRequest(operation, context.glossary, index_terms=_takes_index_terms(context.index))
                   if context.prepare_in_child else None)
        parsed = isolated.parse_in_child(data, doc_id=operation.doc_id, filename=filename, max_bytes=context.max_bytes,
                                         limits=limits, prepare=request)
        encoded, pages = parsed.document, parsed.pages
        context.staging.put(operation.id, "document", encoded)
        if parsed.prepared is not None:
            _stage_prepared(operation, context, encoded, parsed.prepared)
    else:
        doc = parse_document(data, doc_id=operation.doc_id, filename=filename, max_bytes=context.max_bytes,
                             limits=limits)
        encoded, pages = staged.dump_document(doc), doc.pages
        context.staging.put(operation.id, "document", encoded)
    if operation.pages_count != pages:
        context.operations.save(replace(operation, pages_count=pages))
    return StepResult(Step.PARSE, operation.id, pages=pages)


def _takes_index_terms(index: ChunkIndex | None) -> bool:
    """Whether ``index`` is the embedded index, which takes the terms a parse child counted."""
    if index is None:
        return False
    return isinstance(index, embedded_index.EmbeddedChunkIndex)


def _stage_prepared(operation: Operation, context: StepContext, document: bytes, prepared: PreparedDocument) -> None:
    """Stage what a parse child computed past parsing, and last the note that says it is there and for which document.

    The version's text is written now (keyed by version, so a retried run rewrites the same
    record; nothing cites it before activation).
    """
    context.staging.put(operation.id, "extraction", prepared.extraction)
    chunk_warnings: tuple[str, ...] = ()
    if context.index is not None:
        context.staging.put(operation.id, "chunks", prepared.chunks)
        if prepared.index_terms is not None:
            context.staging.put(operation.id, "index_terms", prepared.index_terms)
    if context.texts is not None and operation.version_id:
        if prepared.text is not None:
            context.texts.put(prepared.text)
        else:
            chunk_warnings = _unkept_text(operation.version_id)
    note = {"document": _digest(document), "extract": {"warnings": list(prepared.extract_warnings),
                                                        "facts": prepared.facts, "read": prepared.facts_read,
                                                        "sample": [asdict(f) for f in prepared.facts_sample]},
            "chunk": {"warnings": list(chunk_warnings), "chunks": prepared.children}}
    context.staging.put(operation.id, "prepared", json.dumps(note, ensure_ascii=False).encode("utf-8"))


def _prepared(operation: Operation, context: StepContext, document: bytes) -> dict[str, Any] | None:
    """The note ``_stage_prepared`` left, if it was left for this very staged document.

    Only where documents are parsed in a child: elsewhere (the AWS worker) none is ever left, and
    looking costs a read of the staging bucket.
    """
    if context.parse_limits is None or not context.parse_limits.out_of_process:
        return None
    stored = context.staging.get(operation.id, "prepared")
    if stored is None:
        return None
    note: dict[str, Any] = json.loads(stored)
    return note if note.get("document") == _digest(document) else None


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _unkept_text(version_id: str) -> tuple[str, ...]:
    return (f"version id {version_id!r} cannot name a text folder: citations of it are not readable by offset",)


def extract(operation: Operation, context: StepContext) -> StepResult:
    """Extract facts from the document's tables and stage them (not yet visible)."""
    document = _require(context, operation, "document", Step.EXTRACT_FACTS)
    note = _prepared(operation, context, document)
    if note is not None:  # a parse child extracted them and the parse step staged them
        read = note["extract"]
        context.operations.save(replace(operation, facts_read=int(read["read"]),
                                        facts_sample=tuple(FactRead(**f) for f in read["sample"])))
        return StepResult(Step.EXTRACT_FACTS, operation.id, warnings=tuple(read["warnings"]), facts=int(read["facts"]))
    found = prepare.facts_to_stage(staged.load_document(document), operation, context.glossary)
    context.operations.save(replace(operation, facts_read=found.read, facts_sample=found.sample))
    context.staging.put(operation.id, "extraction", staged.dump_extraction(found.extraction))
    return StepResult(Step.EXTRACT_FACTS, operation.id, warnings=found.warnings, facts=found.facts)


def chunk_and_embed(operation: Operation, context: StepContext) -> StepResult:
    """Chunk the document under its version id, embed the children (unless deferred), and stage both.

    The version's normalised text and its children's offsets are stored here (keyed by version,
    so a retried step rewrites the same record); nothing cites them before activation.
    """
    stored = _require(context, operation, "document", Step.CHUNK_AND_EMBED)
    note = _prepared(operation, context, stored)
    if note is not None:  # a parse child chunked it and the parse step staged the chunks and the text
        _keep_document(operation, context, stored)
        warnings = tuple(note["chunk"]["warnings"])
        if context.index is None:
            return _not_indexed(operation, context, warnings)
        if _embeds_now(context):
            children, parents, _ = staged.load_chunks(_require(context, operation, "chunks", Step.CHUNK_AND_EMBED))
            context.staging.put(operation.id, "chunks", staged.dump_chunks(children, parents,
                                                                           _embed(context, children)))
        return StepResult(Step.CHUNK_AND_EMBED, operation.id, warnings=warnings, chunks=int(note["chunk"]["chunks"]))
    extraction = staged.load_extraction(_require(context, operation, "extraction", Step.CHUNK_AND_EMBED))
    planned = prepare.plan_chunks(staged.load_document(stored), extraction.facts, operation)
    warnings = ()
    if context.texts is not None and operation.version_id:
        record = prepare.version_record(operation, planned.chunked)
        if record is not None:
            context.texts.put(record)
            _keep_document(operation, context, stored)
        else:  # a caller's own version id, such as 2024/Q1: the text is not kept, the ingestion goes on
            warnings = _unkept_text(operation.version_id)
    if context.index is None:
        return _not_indexed(operation, context, warnings)
    vectors = _embed(context, planned.children) if _embeds_now(context) else None
    context.staging.put(operation.id, "chunks", staged.dump_chunks(planned.children, planned.parents, vectors))
    return StepResult(Step.CHUNK_AND_EMBED, operation.id, warnings=warnings, chunks=len(planned.children))


def _keep_document(operation: Operation, context: StepContext, stored: bytes) -> None:
    """Keep the parsed tables beside the version's text for ``ragspine facts reextract`` (not a Gateway document's)."""
    if (context.texts is not None and operation.space is None and operation.version_id
            and version_text.safe_version_id(operation.version_id)):
        context.texts.put_document(operation.version_id, stored)


def _not_indexed(operation: Operation, context: StepContext, warnings: tuple[str, ...]) -> StepResult:
    context.staging.put(operation.id, "chunks", staged.dump_chunks([], [], None))
    return StepResult(Step.CHUNK_AND_EMBED, operation.id,
                      warnings=(*warnings, "no chunk index configured: not indexed"))


def _embeds_now(context: StepContext) -> bool:
    return context.embedder is not None and not context.defer_embedding


def _embed(context: StepContext, children: Sequence[Chunk]) -> list[list[float]] | None:
    """The children's vectors, or None when there is nothing to embed."""
    texts = [passage_text.dense_text(c) for c in children]
    if context.embedder is None or not texts:
        return None
    return context.embedder.embed(texts)


def check_index(operation: Operation, context: StepContext) -> StepResult:
    """Check the staged batch against the index (reachable, vectors aligned) and mark it ready.

    The batch is written at ``activate``: the index cannot keep an unactivated version out of search.
    """
    staged_chunks = _require(context, operation, "chunks", Step.CHECK_INDEX)
    note = _prepared(operation, context, context.staging.get(operation.id, "document") or b"")
    if note is not None and not _embeds_now(context):  # counted by the child, and no vectors to align
        count = int(note["chunk"]["chunks"])
    else:
        chunks = staged.StagedChunks(staged_chunks)  # counted without decoding a chunk
        if chunks.vectors is not None and chunks.vectors != chunks.children:
            raise StepOrderError(f"operation {operation.id}: {chunks.vectors} vectors for {chunks.children} chunks")
        count = chunks.children
    if context.index is not None:
        context.index.ensure_index()  # the first ingestion creates it; raises when it cannot be reached
    context.staging.put(operation.id, "index_ready", b"1")
    return StepResult(Step.CHECK_INDEX, operation.id, chunks=count)


def activate(operation: Operation, context: StepContext) -> StepResult:
    """Make the new version the searchable one, then retire the old version's chunks and facts."""
    _require(context, operation, "index_ready", Step.ACTIVATE)
    chunks = staged.StagedChunks(_require(context, operation, "chunks", Step.ACTIVATE))
    extraction = _require(context, operation, "extraction", Step.ACTIVATE).decode("utf-8")
    own = staged.load_extraction(extraction)
    if context.parse_limits is not None and context.parse_limits.out_of_process:  # computed by a parse child
        staged_identity.check_staged_identity(operation, chunks, own, context.index, batch=ACTIVATE_BATCH)
    previous = next(iter(context.staging.active(operation.doc_id)), None)
    if context.index is not None and chunks.children:
        _add_chunks(operation, context, context.index, chunks)
    if context.index is not None and previous is not None and previous.version_id != operation.version_id:
        context.index.delete(doc_id=operation.doc_id, version_id=previous.version_id)
    context.staging.activate(ActiveVersion(operation.doc_id, operation.version_id, operation.id, extraction))
    # Facts are merged over every active document (a report owns its year; comparatives fill gaps),
    # and only the keys this document states, or stated before, are rewritten.
    active = [staged.load_extraction(v.extraction) for v in context.staging.active()]
    merged = primary_facts(active, context.glossary)
    touched = {f.key for f in own.facts}
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
    return StepResult(Step.ACTIVATE, operation.id, warnings=warnings, facts=kept, chunks=chunks.children)


def _add_chunks(operation: Operation, context: StepContext, index: ChunkIndex, chunks: staged.StagedChunks) -> None:
    """Index the parents, then the children with the terms a parse child counted for them, a batch at a time.

    The embedded index writes every batch in one transaction, so its readers (the asks) reload
    their snapshot once for the whole version, not once per batch.
    """
    limits = context.parse_limits
    in_child = limits is not None and limits.out_of_process
    terms = context.staging.get(operation.id, "index_terms") if in_child and _takes_index_terms(index) else None
    counted_terms = prepare.StagedIndexTerms(terms, chunks.children) if terms is not None else None
    parents = ((batch, None, None) for batch in chunks.parent_batches(ACTIVATE_BATCH))
    children = ((batch, vectors, counted_terms.for_chunks(first, batch) if counted_terms is not None else None)
                for first, batch, vectors in chunks.child_batches(ACTIVATE_BATCH))
    if isinstance(index, embedded_index.EmbeddedChunkIndex):
        index.add_batches(itertools.chain(parents, children))
        return
    for batch, vectors, _ in itertools.chain(parents, children):  # counted terms are the embedded index's
        index.add(batch, vectors)


STEPS: Mapping[Step, StepFunction] = {
    Step.FETCH: fetch, Step.PARSE: parse, Step.EXTRACT_FACTS: extract,
    Step.CHUNK_AND_EMBED: chunk_and_embed, Step.CHECK_INDEX: check_index, Step.ACTIVATE: activate,
}


def run_step(name: str, payload: Mapping[str, Any], *, context: StepContext,
             steps: Mapping[Step, StepFunction] = STEPS) -> dict[str, Any]:
    """Run one step by name for ``payload["operation_id"]``; the entry point of a worker Lambda.

    Raises:
        NotFoundError: no such operation.
        ValueError: ``name`` is not a step.
        RagspineError: whatever the step raises (transient ones are retried by the caller).
    """
    operation = context.operations.get(str(payload["operation_id"]))
    if operation is None:
        raise NotFoundError(f"no ingestion operation {payload['operation_id']}")
    operation = context.operations.save(replace(operation, heartbeat_at=utcnow()))  # renew the runner's lease
    return steps[Step(name)](operation, context).to_payload()


def file_hash(data: bytes) -> str:
    """The lineage hash of a file's bytes: ``sha256:<hex>``."""
    return "sha256:" + hashlib.sha256(data).hexdigest()
