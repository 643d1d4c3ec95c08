"""The ACME sample corpus as an evaluation collection, indexed exactly as the demo does."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ragspine.llm.ports import Embedder
from ragspine.retrieval.embedded_index import EmbeddedChunkIndex
from ragspine.retrieval.model import Chunk, ChunkLabels, ScoredChunk, SearchFilters
from ragspine.retrieval.ports import ChunkIndex
from tests.eval.model import EvalCorpus
from tests.eval.questions import QUESTIONS_FILE, load_questions
from tests.support.samples import index_sample_documents


class RecordingIndex:
    """A ``ChunkIndex`` that forwards to another and keeps the searchable chunks and vectors it was given.

    The baselines (bm25s, numpy cosine) need the same chunks and vectors the embedded index
    holds; recording them on the way in avoids reading the index's private file layout.
    """

    def __init__(self, inner: ChunkIndex) -> None:
        self.inner = inner
        self.chunks: list[Chunk] = []
        self.vectors: list[Sequence[float]] = []

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]] | None = None) -> int:
        """Forward, and remember the searchable (non-parent) chunks and their vectors."""
        for i, chunk in enumerate(chunks):
            if not chunk.is_parent:
                self.chunks.append(chunk)
                if vectors is not None:
                    self.vectors.append(vectors[i])
        return self.inner.add(chunks, vectors)

    def search(self, query: str, *, top_k: int, filters: SearchFilters,
               query_vector: Sequence[float] | None = None) -> list[ScoredChunk]:
        """Forward."""
        return self.inner.search(query, top_k=top_k, filters=filters, query_vector=query_vector)

    def get(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """Forward."""
        return self.inner.get(chunk_ids)

    def ensure_index(self) -> bool:
        """Forward."""
        return self.inner.ensure_index()

    def update_metadata(self, document_id: str, labels: ChunkLabels) -> int:
        """Forward (the sample corpus has no Gateway documents)."""
        return self.inner.update_metadata(document_id, labels)

    def delete(self, *, doc_id: str, version_id: str | None = None) -> int:
        """Forward and forget the document's recorded chunks."""
        keep = [i for i, c in enumerate(self.chunks) if not (c.doc_id == doc_id and
                                                             (version_id is None or c.version_id == version_id))]
        if self.vectors:
            self.vectors = [self.vectors[i] for i in keep]
        self.chunks = [self.chunks[i] for i in keep]
        return self.inner.delete(doc_id=doc_id, version_id=version_id)

    def count(self) -> int:
        """Forward."""
        return self.inner.count()


def build_acme_index(path: Path, *, embedder: Embedder | None = None
                     ) -> tuple[EmbeddedChunkIndex, list[Chunk], list[Sequence[float]] | None]:
    """Index the ACME narrative documents with ``tests.support.samples.index_sample_documents``.

    Returns:
        The index, its searchable chunks in insertion order, and their passage vectors (None
        without an embedder).
    """
    index = EmbeddedChunkIndex(path, dimension=embedder.dimension if embedder else None)
    recorder = RecordingIndex(index)
    index_sample_documents(recorder, embedder=embedder)
    return index, recorder.chunks, (recorder.vectors if embedder else None)


def acme_corpus(chunks: Sequence[Chunk], questions: Path = QUESTIONS_FILE) -> EvalCorpus:
    """The labelled questions over the indexed ACME chunks."""
    return EvalCorpus(
        name="acme",
        description="ACME sample corpus: narrative chunks of the decks, MD&As, JP report, policy and "
                    "RESTRICTED minutes (as `tests.support.samples.index_sample_documents` indexes them); "
                    "labelled zh/en/ja questions from tests/eval/acme_questions.yaml",
        chunks=tuple(chunks),
        queries=load_questions(questions),
        notes=("gold = (doc, locator); several gold chunks are alternatives, any one is a hit",
               "restricted-only questions are scored as leaks: a RESTRICTED chunk in any mode's top 10"),
    )
