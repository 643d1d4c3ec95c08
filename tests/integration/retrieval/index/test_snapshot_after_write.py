"""A write through the index object that serves searches builds the new snapshot itself.

In the service one ``EmbeddedChunkIndex`` answers the asks and takes the ingestion's writes
(activation adds a version's chunks and deletes the previous version's). Once such a write
returns, the new snapshot is in place: the next search reads no row (``full_loads`` counts the
full reads of every row), and answers exactly as an index opened fresh on the file does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ragspine.retrieval.embedded_index import EmbeddedChunkIndex, IndexBatch
from ragspine.retrieval.model import Chunk, ChunkLabels, SearchFilters
from tests.fakes.chunks import make_chunk
from tests.fakes.hashing_embedder import HashingEmbedder

EMBEDDER = HashingEmbedder(16)
QUERIES = ("herd 3", "passage of report", "lease obligations")


def _chunks(n: int, doc: str, version: str = "v1") -> list[Chunk]:
    return [make_chunk(f"{doc}-{version}-{i}", f"passage {i} of {doc} {version} about herd {i % 7} and lease {i % 3}",
                       doc_id=doc, version_id=version, document_id=doc, company=f"{doc} {version}")
            for i in range(n)]


def _answers(index: EmbeddedChunkIndex) -> list[list[tuple[str, float, str, str]]]:
    """Every query on both legs (BM25 alone, then hybrid), with the labels the hits carry."""
    found = []
    for query in QUERIES:
        for vector in (None, EMBEDDER.embed([query])[0]):
            hits = index.search(query, top_k=20, filters=SearchFilters(), query_vector=vector)
            found.append([(h.chunk.chunk_id, h.score, h.source, h.chunk.category or "") for h in hits])
    return found


def _add_version(index: EmbeddedChunkIndex) -> None:
    chunks = _chunks(40, "report", "v2")
    index.add_batches([(chunks[:20], EMBEDDER.embed([c.text for c in chunks[:20]]), None),
                       (chunks[20:], EMBEDDER.embed([c.text for c in chunks[20:]]), None)])


WRITES: dict[str, Callable[[EmbeddedChunkIndex], object]] = {
    "add_batches": _add_version,
    "delete": lambda index: index.delete(doc_id="report", version_id="v1"),
    "update_metadata": lambda index: index.update_metadata("report", ChunkLabels(category="filings", tags=("q3",))),
}


@pytest.fixture
def serving(index_path: Path) -> EmbeddedChunkIndex:
    """An index with one version of a report and another document, that has answered searches."""
    index = EmbeddedChunkIndex(index_path)
    chunks = _chunks(30, "report") + _chunks(10, "memo")
    index.add(chunks, EMBEDDER.embed([c.text for c in chunks]))
    _answers(index)
    assert index.full_loads == 1
    return index


@pytest.mark.parametrize("write", list(WRITES), ids=list(WRITES))
def test_after_a_write_the_first_search_reads_no_row_and_answers_as_a_fresh_index(
        serving: EmbeddedChunkIndex, index_path: Path, write: str) -> None:
    before = _answers(serving)
    serving.documents()
    WRITES[write](serving)
    assert serving.full_loads == 2 and serving.catalog_reads == 2  # read once, by the write itself
    after, catalog_after = _answers(serving), serving.documents()
    assert serving.full_loads == 2 and serving.catalog_reads == 2  # the searches after it read nothing
    fresh = EmbeddedChunkIndex(index_path)
    assert after == _answers(fresh) and after != before
    assert catalog_after == fresh.documents()


def test_activation_adds_then_deletes_and_searches_still_build_nothing(serving: EmbeddedChunkIndex,
                                                                       index_path: Path) -> None:
    _add_version(serving)
    serving.delete(doc_id="report", version_id="v1")
    assert serving.full_loads == 3
    answers = _answers(serving)
    assert serving.full_loads == 3
    assert answers == _answers(EmbeddedChunkIndex(index_path))
    hits = {chunk_id.split("-")[1] for rows in answers for chunk_id, *_ in rows if chunk_id.startswith("report")}
    assert hits == {"v2"}


def test_searches_during_a_write_answer_from_the_snapshot_they_have(serving: EmbeddedChunkIndex) -> None:
    before = _answers(serving)
    chunks = _chunks(30, "report", "v2")
    during: list[list[list[tuple[str, float, str, str]]]] = []

    def batches() -> Iterator[IndexBatch]:
        for start in range(0, 30, 10):
            during.append(_answers(serving))  # the same object searches between the writer's batches
            yield chunks[start:start + 10], None, None

    assert serving.add_batches(batches()) == 30
    assert during == [before] * 3 and serving.full_loads == 2


def test_an_index_that_never_searched_reads_no_row_on_a_write(index_path: Path) -> None:
    writer = EmbeddedChunkIndex(index_path)
    writer.add(_chunks(10, "report"))
    writer.delete(doc_id="report", version_id="v1")
    writer.add(_chunks(5, "memo"))
    assert writer.full_loads == 0
