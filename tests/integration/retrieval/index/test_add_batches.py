"""Batches written in one transaction: a reader sees all of them or none, and reloads its index once.

The reader and the writer are two ``EmbeddedChunkIndex`` objects on one file (the asks' and the
ingestion's); ``full_loads`` counts the reader's full reads of every row.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.retrieval.embedded_index import EmbeddedChunkIndex, IndexBatch
from ragspine.retrieval.embedded_rows import field_counts
from ragspine.retrieval.errors import VectorDimensionError
from ragspine.retrieval.model import Chunk, SearchFilters
from tests.fakes.chunks import make_chunk
from tests.fakes.hashing_embedder import HashingEmbedder

EMBEDDER = HashingEmbedder(16)


def _chunks(n: int, doc: str) -> list[Chunk]:
    return [make_chunk(f"{doc}-{i}", f"passage {i} of {doc} about herd {i % 7}", doc_id=doc, version_id="v1")
            for i in range(n)]


def _ids(index: EmbeddedChunkIndex, query: str) -> list[str]:
    return sorted(h.chunk.chunk_id for h in index.search(query, top_k=50, filters=SearchFilters()))


def test_a_reader_reloads_once_for_batches_written_together(index_path: Path) -> None:
    writer = EmbeddedChunkIndex(index_path)
    writer.add(_chunks(3, "old"))
    reader = EmbeddedChunkIndex(index_path)
    assert _ids(reader, "passage") == ["old-0", "old-1", "old-2"]
    chunks = _chunks(40, "new")
    seen_during: list[list[str]] = []

    def batches() -> Iterator[IndexBatch]:
        for start in range(0, 40, 10):
            part = chunks[start:start + 10]
            seen_during.append(_ids(reader, "new"))  # the reader asks between the writer's batches
            yield part, EMBEDDER.embed([c.text for c in part]), [field_counts(c) for c in part]

    assert writer.add_batches(batches()) == 40
    assert seen_during == [[], [], [], []]  # nothing of the version before all of it
    assert _ids(reader, "new") == sorted(c.chunk_id for c in chunks)
    assert reader.full_loads == 2  # the first load, then one for all four batches
    fresh = EmbeddedChunkIndex(index_path)
    query = EMBEDDER.embed(["herd 3"])[0]
    assert [(h.chunk.chunk_id, h.score) for h in reader.search("herd 3", top_k=10, filters=SearchFilters(),
                                                               query_vector=query)] == [
        (h.chunk.chunk_id, h.score) for h in fresh.search("herd 3", top_k=10, filters=SearchFilters(),
                                                          query_vector=query)]


def test_a_failing_batch_leaves_none_of_them_written(index_path: Path) -> None:
    writer = EmbeddedChunkIndex(index_path)
    good, bad = _chunks(5, "a"), _chunks(5, "b")
    with pytest.raises(VectorDimensionError):
        writer.add_batches([(good, EMBEDDER.embed([c.text for c in good]), None),
                            (bad, HashingEmbedder(8).embed([c.text for c in bad]), None)])
    assert writer.count() == 0
    assert writer.add_batches([([], None, None)]) == 0
    assert writer.add_batches([(good, None, None)]) == 5  # the vocabulary of the rolled-back write was not kept
    assert _ids(writer, "passage") == sorted(c.chunk_id for c in good)
