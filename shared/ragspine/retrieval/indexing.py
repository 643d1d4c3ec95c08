"""Putting a parsed document into a chunk index: chunk, embed the children, write."""

from __future__ import annotations

from ragspine.ingestion.document_context import apply_context, document_context
from ragspine.ingestion.model import ParsedDocument
from ragspine.llm.ports import Embedder
from ragspine.retrieval.chunking import ChunkMeta, chunk_document
from ragspine.retrieval.passage_text import dense_text
from ragspine.retrieval.ports import ChunkIndex


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
