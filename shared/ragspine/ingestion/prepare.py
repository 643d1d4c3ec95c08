"""The CPU-bound part of ingesting a parsed document, with no port: its facts, chunks and index terms.

The ingestion steps call these functions in the service's process. A parse child
(``parsers.isolated``) calls them as well, right after parsing, and sends back everything
encoded as it is staged (``PreparedDocument``): the service's process then only writes it,
so reading a large document's tables, cutting its passages and tokenizing them for the index
no longer hold the interpreter lock that the ask routes need. Both paths run the same
functions, so a document gives the same facts, chunks and terms either way.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ragspine.citation import table_of
from ragspine.ingestion import staged
from ragspine.ingestion.chunking import ChunkMeta, chunk_document
from ragspine.ingestion.document_context import apply_context, document_context
from ragspine.ingestion.facts_extract import ExtractionResult, extract_facts
from ragspine.ingestion.json_in_steps import SteppedArrays
from ragspine.ingestion.model import BlockKind
from ragspine.ingestion.operations import FACTS_SHOWN, FactRead
from ragspine.retrieval.embedded_rows import field_counts
from ragspine.retrieval.version_text import safe_version_id, version_text

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ragspine.facts.glossary import Glossary
    from ragspine.facts.model import Fact
    from ragspine.ingestion.chunking import ChunkedDocument
    from ragspine.ingestion.model import Block, ParsedDocument
    from ragspine.ingestion.operations import Operation
    from ragspine.retrieval.model import Chunk
    from ragspine.retrieval.version_text import VersionText


@dataclass(frozen=True, slots=True)
class StagedFacts:
    """What ``extract_facts`` stages for a document (published at activation), and what it reports."""

    extraction: ExtractionResult
    warnings: tuple[str, ...]
    facts: int  # staged for publication (none for a Gateway document)
    read: int  # read from the tables
    sample: tuple[FactRead, ...]  # what the operation shows of them


def facts_to_stage(doc: ParsedDocument, operation: Operation, glossary: Glossary) -> StagedFacts:
    """The facts of the document's tables; none published for a Gateway document, whose tables are still read."""
    result = extract_facts(doc, glossary=glossary, source_file_hash=operation.file_hash,
                           sensitivity=operation.sensitivity)
    if operation.space is not None:
        # A Gateway document: the fact table has no Gateway ACL, so nothing is published there
        # and its tables stay in the chunks, searchable through the Gateway alone. The tables are
        # still read, so whoever maintains the space sees what they state and what could not be read.
        empty = ExtractionResult(doc_id=operation.doc_id, facts=(), warnings=())
        return StagedFacts(empty, (*result.warnings, *unpublished(result.facts)), 0, len(result.facts),
                           facts_sample(result.facts))
    return StagedFacts(result, result.warnings, len(result.facts), len(result.facts), facts_sample(result.facts))


def facts_sample(facts: Sequence[Fact], limit: int = FACTS_SHOWN) -> tuple[FactRead, ...]:
    """At most ``limit`` facts, taken from each table in turn (document order), so a sample shows every table."""
    by_table: dict[str, list[Fact]] = {}
    for fact in facts:
        by_table.setdefault(table_of(fact.source_locator), []).append(fact)
    chosen: list[Fact] = []
    depth = 0
    while len(chosen) < min(limit, len(facts)):
        chosen += [rows[depth] for rows in by_table.values() if depth < len(rows)][:limit - len(chosen)]
        depth += 1
    return tuple(FactRead(f.metric_code, f.entity, f.period, f.value, f.unit, f.source_locator) for f in chosen)


def unpublished(facts: Sequence[Fact]) -> tuple[str, ...]:
    """One warning per table of a Gateway document whose figures were read but are not published as facts."""
    by_table: dict[str, int] = {}
    for fact in facts:
        table = table_of(fact.source_locator)
        by_table[table] = by_table.get(table, 0) + 1
    return tuple(f"{table}: no facts published from the {n} figures read: a knowledge space's documents stay out "
                 "of the shared fact table (it has no space ACL), so this table is answered as passages"
                 for table, n in by_table.items())


@dataclass(frozen=True, slots=True)
class PlannedChunks:
    """A document's chunks: as cut (with the text their offsets point into) and with the document's context."""

    chunked: ChunkedDocument
    children: list[Chunk]
    parents: list[Chunk]


def plan_chunks(doc: ParsedDocument, facts: Sequence[Fact], operation: Operation) -> PlannedChunks:
    """Chunk the document under its version id, without the tables its facts answer, then add its context."""
    doc = without_fact_tables(doc, facts)
    meta = ChunkMeta(sensitivity=operation.sensitivity, library=operation.library, version_id=operation.version_id)
    if operation.space is not None:
        space = operation.space
        meta = replace(meta, space_id=space.space_id, document_id=space.document_id, category=space.category,
                       tags=space.tags, version_label=space.version_label, product_code=space.product_code)
    chunked = chunk_document(doc, meta=meta)
    about = document_context(doc, filename=Path(operation.source).name, given=dict(operation.context))
    return PlannedChunks(chunked, apply_context(chunked.children, about), apply_context(chunked.parents, about))


def without_fact_tables(doc: ParsedDocument, facts: Sequence[Fact]) -> ParsedDocument:
    """The document without the tables its facts came from, nor their unit captions.

    The fact table answers those figures, each with its cell locator; indexed as passages too,
    their rows crowd the narrative (the "why") out of search. Tables that gave no fact stay.
    """
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


def version_record(operation: Operation, chunked: ChunkedDocument) -> VersionText | None:
    """The version's text record, or None when its version id cannot name a text folder (or there is none)."""
    if not operation.version_id or not safe_version_id(operation.version_id):
        return None
    return version_text(operation.doc_id, operation.version_id, chunked)


def dump_index_terms(children: Sequence[Chunk]) -> bytes:
    """Each child's term counts and passage length for the embedded index, with the chunk ids they belong to."""
    fields = [field_counts(chunk) for chunk in children]
    return json.dumps({"ids": [c.chunk_id for c in children], "fields": [[dict(n), length] for n, length in fields]},
                      ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class StagedIndexTerms:
    """What ``dump_index_terms`` wrote, read for one batch of chunks at a time."""

    def __init__(self, data: bytes, children: int) -> None:
        """The staged terms of a version with ``children`` child chunks.

        Raises:
            json.JSONDecodeError, ValueError: the bytes are not ``dump_index_terms``'s JSON.
        """
        self._body = SteppedArrays(data)
        # Counted for another list of chunks (another count): no batch uses them, the index counts.
        self._whole = self._body.length("ids") == children == self._body.length("fields")

    def for_chunks(self, first: int, children: Sequence[Chunk]) -> list[tuple[Counter[str], int]] | None:
        """The terms of ``children`` (positions ``first`` on), or None unless they were counted for exactly these."""
        end = first + len(children)
        if not self._whole or self._body.items("ids", first, end) != [c.chunk_id for c in children]:
            return None
        return [(Counter[str](counts), int(length)) for counts, length in self._body.items("fields", first, end)]


@dataclass(frozen=True, slots=True)
class PrepareRequest:
    """What a parse child needs to go on past parsing: the operation, the glossary, and what the index takes."""

    operation: Operation
    glossary: Glossary
    index_terms: bool  # the index is the embedded one, which takes counted terms


@dataclass(frozen=True, slots=True)
class PreparedDocument:
    """Everything the steps after ``parse`` compute, encoded as they stage it, and what they report."""

    extraction: bytes
    extract_warnings: tuple[str, ...]
    facts: int
    facts_read: int
    facts_sample: tuple[FactRead, ...]
    chunks: bytes  # children and parents, no vectors yet
    children: int
    text: VersionText | None
    index_terms: bytes | None


def prepare(document: bytes, request: PrepareRequest) -> PreparedDocument:
    """Facts, chunks, the version's text and the index terms of a parsed document, read from its staged JSON.

    It reads the staged form, as the in-process steps do, so both see the same document.
    """
    doc = staged.load_document(document)
    found = facts_to_stage(doc, request.operation, request.glossary)
    planned = plan_chunks(doc, found.extraction.facts, request.operation)
    return PreparedDocument(
        extraction=staged.dump_extraction(found.extraction), extract_warnings=found.warnings, facts=found.facts,
        facts_read=found.read, facts_sample=found.sample,
        chunks=staged.dump_chunks(planned.children, planned.parents, None), children=len(planned.children),
        text=version_record(request.operation, planned.chunked),
        index_terms=dump_index_terms(planned.children) if request.index_terms else None)

