"""Fast fixtures over the sample corpus for tests, evaluation and benchmarks (never shipped in the layer).

``read_facts_csv`` reads the curated ``facts.csv`` (the acceptance fixture the ingested facts are
compared with); ``index_sample_documents`` and ``load_sample_facts`` fill an index or a fact store
directly, without the ingestion pipeline the product paths use.
"""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import yaml

from ragspine.demo import FACTS_FILE, ensure_sample_corpus
from ragspine.errors import InvalidInputError
from ragspine.facts.model import Fact, parse_number
from ragspine.facts.ports import FactStore
from ragspine.ingestion.chunking import ChunkMeta, chunk_document
from ragspine.ingestion.document_context import apply_context, document_context
from ragspine.ingestion.model import ParsedDocument
from ragspine.ingestion.parsers import parse_document
from ragspine.llm.ports import Embedder
from ragspine.retrieval.passage_text import dense_text
from ragspine.retrieval.ports import ChunkIndex
from ragspine.sensitivity import Sensitivity

# Narrative sources: the decks (highlights, tables as rows), MD&A, reports, policy, minutes.
# The workbook is figures only (the fact table has them) and faq.yaml is the FAQ index.
INDEXED_SUFFIXES = (".pptx", ".docx", ".md")
NARRATIVE_BLOCKS = frozenset({"title", "heading", "paragraph", "list_item"})
SAMPLE_MAX_BYTES = 50 * 1024 * 1024

COLUMNS = (
    "metric_code", "entity", "geography", "channel", "period_type", "period", "value", "unit",
    "source_doc_id", "source_locator", "source_file_hash", "extractor_version", "mapping_version",
)


def read_facts_csv(path: Path) -> list[Fact]:
    """Parse a facts CSV; empty optional lineage cells become None.

    Raises:
        InvalidInputError: the header is wrong or a value is not a number, naming the line.
    """
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in COLUMNS[:10] if c not in (reader.fieldnames or [])]
        if missing:
            raise InvalidInputError(f"{path.name}: missing columns {', '.join(missing)}")
        facts = []
        for line, row in enumerate(reader, start=2):
            try:
                value = parse_number(row["value"])
            except ValueError as exc:
                raise InvalidInputError(f"{path.name} line {line}: value {row['value']!r} is not a number") from exc
            facts.append(Fact(
                row["metric_code"], row["entity"], row["geography"], row["channel"], row["period_type"],
                row["period"], value, row["unit"], row["source_doc_id"], row["source_locator"],
                source_file_hash=row.get("source_file_hash") or None,
                extractor_version=row.get("extractor_version") or None,
                mapping_version=row.get("mapping_version") or None,
                sensitivity=_sensitivity(row.get("sensitivity"), path.name, line),
            ))
    return facts


def _sensitivity(text: str | None, name: str, line: int) -> Sensitivity:
    """The optional sensitivity column; INTERNAL when absent (the level of the sample decks)."""
    if not text:
        return Sensitivity.INTERNAL
    try:
        return Sensitivity.parse(text)
    except ValueError as exc:
        raise InvalidInputError(f"{name} line {line}: {exc}") from exc



def index_document(doc: ParsedDocument, *, meta: ChunkMeta, index: ChunkIndex, embedder: Embedder | None) -> int:
    """Replace a document's chunks in ``index``; return how many searchable chunks it now has.

    Parents are written without vectors (they are fetched for context, never searched);
    children get passage vectors when an embedder is configured. Chunk ids are
    deterministic, so indexing the same document again rewrites the same rows.
    """
    chunked = chunk_document(doc, meta=meta)
    context = document_context(doc, filename=doc.doc_id)
    parents, children = apply_context(chunked.parents, context), apply_context(chunked.children, context)
    index.delete(doc_id=doc.doc_id, version_id=meta.version_id)
    index.add(parents)
    vectors = embedder.embed([dense_text(c) for c in children]) if embedder and children else None
    index.add(children, vectors)
    return len(children)


def index_sample_documents(index: ChunkIndex, *, embedder: Embedder | None = None,
                           folder: Path | None = None) -> int:
    """Parse, chunk and index the sample documents with their manifest sensitivity and library.

    A fast fixture: the product paths (CLI, serve, ``make run``) ingest ``sample_documents()``
    through the pipeline, which versions the chunks. The RESTRICTED board minutes are
    indexed too, as RESTRICTED: the index filter and the prompt guard keep them out of
    every prompt and answer, which the tests prove.
    """
    folder = ensure_sample_corpus(folder)
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text(encoding="utf-8"))
    total = 0
    for entry in manifest["documents"]:
        name = str(entry["file"])
        if Path(name).suffix not in INDEXED_SUFFIXES:
            continue
        parsed = parse_document((folder / name).read_bytes(), doc_id=name, filename=name, max_bytes=SAMPLE_MAX_BYTES)
        # Tables and their unit captions are figures: the fact table answers those, with locators.
        captions = {b.caption for b in parsed.blocks if b.kind == "table" and b.caption}
        parsed = replace(parsed, blocks=tuple(b for b in parsed.blocks
                                              if b.kind in NARRATIVE_BLOCKS and b.text not in captions))
        meta = ChunkMeta(sensitivity=Sensitivity.parse(str(entry["sensitivity"])), library=str(entry["library"]))
        total += index_document(parsed, meta=meta, index=index, embedder=embedder)
    return total


def load_sample_facts(store: FactStore, folder: Path | None = None) -> int:
    """Upsert the curated ACME facts (full lineage) into ``store``; idempotent.

    ``facts.csv`` is the acceptance fixture, not the source of truth: the product paths ingest
    the sample documents, and tests prove the ingested facts equal this file.
    """
    facts = read_facts_csv(ensure_sample_corpus(folder) / FACTS_FILE)
    return store.put_many(facts)
