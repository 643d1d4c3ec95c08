"""The ACME sample corpus as demo data: where it lives and how it is loaded."""

from __future__ import annotations

import logging
from dataclasses import replace
from importlib import resources
from pathlib import Path

from ragspine.facts.curated import read_facts_csv
from ragspine.facts.ports import FactStore
from ragspine.llm.ports import Embedder
from ragspine.retrieval.ports import ChunkIndex

logger = logging.getLogger(__name__)

SAMPLE_QUESTION = "2024年日本的毛利率是多少"
FACTS_FILE = "facts.csv"
# Narrative sources: the decks (highlights, tables as rows), MD&A, reports, policy, minutes.
# The workbook is figures only (the fact table has them) and faq.yaml is the FAQ index.
INDEXED_SUFFIXES = (".pptx", ".docx", ".md")
NARRATIVE_BLOCKS = frozenset({"title", "heading", "paragraph", "list_item"})
SAMPLE_MAX_BYTES = 50 * 1024 * 1024


def sample_dir() -> Path:
    """Folder of the built ACME documents, shipped as package data."""
    return Path(str(resources.files("ragspine") / "samples" / "acme"))


def ensure_sample_corpus(folder: Path | None = None) -> Path:
    """Return the sample folder, building the documents first if they are missing."""
    folder = folder or sample_dir()
    if not (folder / FACTS_FILE).exists():
        from ragspine.samples.build_acme import build_corpus

        logger.info("building the ACME sample corpus into %s", folder)
        build_corpus(folder)
    return folder


def index_sample_documents(index: ChunkIndex, *, embedder: Embedder | None = None,
                           folder: Path | None = None) -> int:
    """Parse, chunk and index the sample documents with their manifest sensitivity and library.

    The RESTRICTED board minutes are indexed too, as RESTRICTED: the index filter and the
    prompt guard keep them out of every prompt and answer, which the tests prove.
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
    """Upsert the curated ACME facts (full lineage) into ``store``; idempotent."""
    facts = read_facts_csv(ensure_sample_corpus(folder) / FACTS_FILE)
    return store.put_many(facts)
