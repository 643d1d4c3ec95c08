"""A dense backfill (vectors given to passages already indexed) must not rebuild a reader's index.

The reader and the writer are two ``EmbeddedChunkIndex`` objects on one file, as a service
process and the background embedder's are. ``full_loads`` counts the reader's full
reads of every row; results are compared with a reader that loads the final file fresh.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.retrieval.embedded_index import EmbeddedChunkIndex
from ragspine.retrieval.model import Chunk, ScoredChunk, SearchFilters
from tests.fakes.chunks import make_chunk
from tests.fakes.hashing_embedder import HashingEmbedder

EMBEDDER = HashingEmbedder(32)
QUERIES = ("zebra stripes", "lion mane", "passage 7", "savanna grass at dawn")
WORDS = ("zebra", "stripes", "lion", "mane", "savanna", "grass", "dawn", "river", "herd")


def _chunks(n: int, doc: str = "animals.md") -> list[Chunk]:
    return [make_chunk(f"{doc}-{i}", f"passage {i} " + " ".join(WORDS[(i * k) % len(WORDS)] for k in range(1, 6)),
                       doc_id=doc, version_id="v1") for i in range(n)]


def _answers(index: EmbeddedChunkIndex) -> list[list[tuple[str, float, str]]]:
    """Every query's hits on both legs: BM25 alone and the hybrid."""
    found: list[list[ScoredChunk]] = []
    for query in QUERIES:
        found.append(index.search(query, top_k=10, filters=SearchFilters()))
        found.append(index.search(query, top_k=10, filters=SearchFilters(), query_vector=EMBEDDER.embed([query])[0]))
    return [[(h.chunk.chunk_id, h.score, h.source) for h in hits] for hits in found]


def _backfill(writer: EmbeddedChunkIndex, reader: EmbeddedChunkIndex, batch: int) -> None:
    """Embed every pending passage ``batch`` at a time, the reader answering between batches."""
    while pending := writer.without_vectors(batch):
        writer.set_vectors([c.chunk_id for c in pending], EMBEDDER.embed([c.text for c in pending]))
        _answers(reader)


# exact_dense_limit 0 and a small pool: the compressed copies (sign bits, int8) are used and updated too
@pytest.mark.parametrize(("exact_limit", "pool"), [(20_000, 2000), (0, 8)])
def test_a_backfill_in_batches_never_rebuilds_the_readers_index(index_path: Path, exact_limit: int, pool: int) -> None:
    writer = EmbeddedChunkIndex(index_path)
    writer.add(_chunks(60))
    reader = EmbeddedChunkIndex(index_path, exact_dense_limit=exact_limit, rescore_pool=pool)
    _answers(reader)  # the first load: no vector yet, BM25 only
    assert reader.full_loads == 1

    _backfill(writer, reader, batch=8)  # 8 batches, every one followed by asks on both legs

    # no full reload during the backfill, and the answers are a fresh reader's, both legs
    assert reader.full_loads == 1
    assert writer.vectors_pending() == 0
    fresh = EmbeddedChunkIndex(index_path, exact_dense_limit=exact_limit, rescore_pool=pool)
    assert _answers(reader) == _answers(fresh)
    assert all(source == "hybrid" for hits in _answers(reader)[1::2] for _, _, source in hits)


def test_new_passages_still_reload_and_vectors_written_before_them_are_kept(index_path: Path) -> None:
    writer = EmbeddedChunkIndex(index_path)
    writer.add(_chunks(30))
    reader = EmbeddedChunkIndex(index_path)
    _answers(reader)
    _backfill(writer, reader, batch=8)
    writer.add(_chunks(10, doc="more.md"))  # rows added: the lexical side changed, one reload
    _answers(reader)
    assert reader.full_loads == 2
    _backfill(writer, reader, batch=4)
    assert reader.full_loads == 2
    assert _answers(reader) == _answers(EmbeddedChunkIndex(index_path))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.integers(1, 40), batch=st.integers(1, 12), dense_first=st.booleans(),
       limit=st.sampled_from([0, 5, 20_000]))
def test_any_backfill_gives_a_fresh_loads_answers(tmp_path_factory: pytest.TempPathFactory, size: int, batch: int,
                                                  dense_first: bool, limit: int) -> None:
    path = tmp_path_factory.mktemp("backfill") / "chunks.db"
    writer = EmbeddedChunkIndex(path)
    chunks = _chunks(size)
    if dense_first:  # the snapshot starts with some vectors (and the dimension) already known
        writer.add(chunks[:1], EMBEDDER.embed([chunks[0].text]))
        writer.add(chunks[1:])
    else:
        writer.add(chunks)
    reader = EmbeddedChunkIndex(path, exact_dense_limit=limit, rescore_pool=4)
    _answers(reader)
    _backfill(writer, reader, batch)
    assert reader.full_loads == 1
    assert _answers(reader) == _answers(EmbeddedChunkIndex(path, exact_dense_limit=limit, rescore_pool=4))


def test_an_index_file_written_before_the_vectors_counter_gets_it_on_open(index_path: Path) -> None:
    writer = EmbeddedChunkIndex(index_path)
    writer.add(_chunks(20))
    writer.close()
    with sqlite3.connect(index_path) as conn:  # back to the earlier layout: no column, index or counter
        conn.execute("DROP INDEX chunks_by_vector_seq")
        conn.execute("ALTER TABLE chunks DROP COLUMN vector_seq")
        conn.execute("DELETE FROM index_meta WHERE key = 'vectors'")
    conn.close()
    writer, reader = EmbeddedChunkIndex(index_path), EmbeddedChunkIndex(index_path)
    _answers(reader)
    _backfill(writer, reader, batch=8)
    assert reader.full_loads == 1 and writer.vectors_pending() == 0
    assert _answers(reader) == _answers(EmbeddedChunkIndex(index_path))
