"""The domain's sample corpus as demo data: where it lives, which documents it holds, how it is loaded.

The product paths (``ragspine load-samples``, ``ragspine serve --samples``, ``make run``) ingest
``sample_documents()`` through the ingestion pipeline, like any upload. ``facts.csv`` is the
acceptance fixture the ingested facts are compared with; ``load_sample_facts`` and
``index_sample_documents`` are fast fixtures for tests and benchmarks only.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ragspine.facts.curated import read_facts_csv

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ragspine.facts.ports import FactStore
    from ragspine.ingestion.steps import StepContext
    from ragspine.llm.ports import Embedder
    from ragspine.retrieval.ports import ChunkIndex

logger = logging.getLogger(__name__)

FACTS_FILE = "facts.csv"
# Narrative sources: the decks (highlights, tables as rows), MD&A, reports, policy, minutes.
# The workbook is figures only (the fact table has them) and faq.yaml is the FAQ index.
INDEXED_SUFFIXES = (".pptx", ".docx", ".md")
NARRATIVE_BLOCKS = frozenset({"title", "heading", "paragraph", "list_item"})
SAMPLE_MAX_BYTES = 50 * 1024 * 1024


def sample_dir() -> Path:
    """Folder of the configured domain's sample documents (``samples`` in its domain.yaml).

    Raises:
        ConfigurationError: the domain names no sample documents.
    """
    from ragspine.domain.profile import current_profile
    from ragspine.errors import ConfigurationError

    profile = current_profile()
    if profile.samples is None:
        raise ConfigurationError(f"domain {profile.name} has no sample documents: set `samples` in its "
                                 "domain.yaml, or ingest your own files with `ragspine ingest`")
    return profile.samples


def sample_question() -> str | None:
    """The question ``make run`` asks first (``sample_question`` in the domain's domain.yaml)."""
    from ragspine.domain.profile import current_profile

    return current_profile().sample_question


def ensure_sample_corpus(folder: Path | None = None) -> Path:
    """Return the sample folder, building the shipped demo documents first if they are missing."""
    folder = folder or sample_dir()
    if not (folder / "manifest.yaml").exists():
        from ragspine.samples import build_for

        logger.info("building the sample corpus into %s", folder)
        build_for(folder)
    return folder


def sample_documents(folder: Path | None = None) -> list[Path]:
    """The documents of the sample manifest the pipeline ingests, in manifest order.

    Every listed file the parsers read (decks, workbook, MD&A, report, policy, the RESTRICTED
    minutes); ``faq.yaml`` is not a document but the FAQ index, which ``build_faq`` reads.
    Their sensitivity and library come from the manifest (``ingestion.pipeline.document_meta``).
    """
    import yaml

    from ragspine.ingestion.parsers import supported_extensions

    folder = ensure_sample_corpus(folder)
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text(encoding="utf-8"))
    names = [str(entry["file"]) for entry in manifest["documents"]]
    return [folder / name for name in names if Path(name).suffix.lower() in supported_extensions()]


def clear_unversioned_chunks(context: StepContext, doc_ids: Iterable[str]) -> int:
    """Remove the chunks of each document that has no active version yet; return how many.

    Before the samples were ingested, ``load-samples`` indexed them directly, without a
    version id. Activation retires only the previous *active* version's chunks, so those
    rows would stay beside the ingested ones and every passage would be found twice. A
    document without an active version has nothing of the pipeline's in the index (an
    activation interrupted before recording its version is re-done in full on the next run),
    so all its rows can go. Documents already ingested are left alone: a re-run costs nothing.
    """
    if context.index is None:
        return 0
    return sum(context.index.delete(doc_id=doc_id) for doc_id in doc_ids if not context.staging.active(doc_id))


def index_sample_documents(index: ChunkIndex, *, embedder: Embedder | None = None,
                           folder: Path | None = None) -> int:
    """Parse, chunk and index the sample documents with their manifest sensitivity and library.

    A fast fixture for tests, evaluation and benchmarks only: no product path (CLI, serve,
    ``make run``) uses it; they ingest ``sample_documents()`` through the pipeline, which
    versions the chunks. The RESTRICTED board minutes are
    indexed too, as RESTRICTED: the index filter and the prompt guard keep them out of
    every prompt and answer, which the tests prove.
    """
    import yaml

    from ragspine.ingestion.parsers import parse_document
    from ragspine.retrieval.chunking import ChunkMeta
    from ragspine.retrieval.indexing import index_document
    from ragspine.sensitivity import Sensitivity

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

    A fast fixture for tests and benchmarks only. ``facts.csv`` is the acceptance fixture,
    not the source of truth: no product path (CLI, serve, ``make run``) calls this; they
    ingest the sample documents, and tests prove the ingested facts equal this file.
    """
    facts = read_facts_csv(ensure_sample_corpus(folder) / FACTS_FILE)
    return store.put_many(facts)
