"""Index lifecycle: replace, delete by document and version, persistence, bad files, concurrency."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from ragspine.errors import InvalidInputError, ProviderUnavailableError
from ragspine.retrieval.embedded_index import EmbeddedChunkIndex
from ragspine.retrieval.errors import (
    ChunkLineageError,
    IndexCorruptError,
    IndexMissingError,
    InvalidTopKError,
    QueryEmptyError,
    QueryTooLongError,
    UnknownFilterError,
    VectorDimensionError,
)
from ragspine.retrieval.model import Chunk, SearchFilters

ALL = SearchFilters()


def chunk(chunk_id: str, text: str, doc_id: str = "doc", version_id: str | None = "v1") -> Chunk:
    return Chunk(chunk_id, doc_id, f"para={chunk_id}", text, version_id=version_id)


def ids(index: EmbeddedChunkIndex, query: str) -> set[str]:
    return {h.chunk.chunk_id for h in index.search(query, top_k=100, filters=ALL)}


class TestWrites:
    def test_adding_the_same_chunk_id_replaces_it(self, index: EmbeddedChunkIndex) -> None:
        index.add([chunk("a", "old wording")])
        index.add([chunk("a", "new wording")])
        assert index.count() == 1 and ids(index, "old") == set() and ids(index, "new") == {"a"}

    def test_delete_by_version_keeps_other_versions(self, index: EmbeddedChunkIndex) -> None:
        index.add([chunk("a1", "lotus", version_id="v1"), chunk("a2", "lotus", version_id="v2"),
                   chunk("b1", "lotus", doc_id="other")])
        assert index.delete(doc_id="doc", version_id="v1") == 1
        assert ids(index, "lotus") == {"a2", "b1"}

    def test_delete_by_document_removes_every_version(self, index: EmbeddedChunkIndex) -> None:
        index.add([chunk("a1", "lotus", version_id="v1"), chunk("a2", "lotus", version_id="v2"),
                   chunk("b1", "lotus", doc_id="other")])
        assert index.delete(doc_id="doc") == 2
        assert ids(index, "lotus") == {"b1"} and index.count() == 1

    def test_get_returns_chunks_in_the_order_asked_and_skips_unknown(self, index: EmbeddedChunkIndex) -> None:
        index.add([chunk("a", "x"), chunk("b", "y")])
        assert [c.chunk_id for c in index.get(["b", "zzz", "a"])] == ["b", "a"]

    def test_chunk_without_locator_is_refused_before_any_write(self, index: EmbeddedChunkIndex) -> None:
        with pytest.raises(ChunkLineageError):
            index.add([chunk("ok", "fine"), Chunk("bad", "doc", " ", "text")])
        assert index.count() == 0

    def test_vectors_must_align_and_match_the_dimension(self, index_path: Path) -> None:
        index = EmbeddedChunkIndex(index_path, dimension=3)
        with pytest.raises(VectorDimensionError):
            index.add([chunk("a", "x")], [[1.0, 0.0]])
        with pytest.raises(VectorDimensionError):
            index.add([chunk("a", "x"), chunk("b", "y")], [[1.0, 0.0, 0.0]])
        with pytest.raises(VectorDimensionError):
            index.add([chunk("a", "x")], [[0.0, 0.0, 0.0]])
        with pytest.raises(VectorDimensionError):
            EmbeddedChunkIndex(index_path, dimension=4)


class TestPersistence:
    def test_a_reopened_index_finds_the_same_chunks_and_vectors(self, index_path: Path) -> None:
        first = EmbeddedChunkIndex(index_path)
        first.add([chunk("a", "香港 营业收入"), chunk("b", "日本 毛利率")], [[1.0, 0.0], [0.0, 1.0]])
        first.close()
        again = EmbeddedChunkIndex(index_path, create=False)
        assert again.dimension == 2 and again.count() == 2
        hits = again.search("毛利率", top_k=2, filters=ALL, query_vector=[0.0, 1.0])
        assert hits[0].chunk.chunk_id == "b" and hits[0].chunk.text == "日本 毛利率"

    def test_a_second_instance_sees_writes_of_the_first(self, index_path: Path) -> None:
        reader, writer = EmbeddedChunkIndex(index_path), EmbeddedChunkIndex(index_path)
        assert ids(reader, "lotus") == set()
        writer.add([chunk("a", "lotus")])
        assert ids(reader, "lotus") == {"a"}
        writer.delete(doc_id="doc")
        assert ids(reader, "lotus") == set()


class TestBadFiles:
    def test_missing_file_without_create_is_a_typed_error(self, tmp_path: Path) -> None:
        with pytest.raises(IndexMissingError) as caught:
            EmbeddedChunkIndex(tmp_path / "nope.db", create=False)
        assert isinstance(caught.value, ProviderUnavailableError) and caught.value.code == "RETRIEVAL_INDEX_MISSING"

    def test_garbage_file_is_reported_corrupt(self, tmp_path: Path) -> None:
        path = tmp_path / "chunks.db"
        path.write_bytes(b"this is not a database" * 100)
        with pytest.raises(IndexCorruptError) as caught:
            EmbeddedChunkIndex(path)
        assert caught.value.code == "RETRIEVAL_INDEX_CORRUPT" and not caught.value.retryable

    def test_another_sqlite_file_is_not_taken_for_an_index(self, tmp_path: Path) -> None:
        path = tmp_path / "facts.db"
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE fact_metric (x)")
        with pytest.raises(IndexCorruptError):
            EmbeddedChunkIndex(path)

    def test_file_damaged_after_writing_is_reported_corrupt(self, index_path: Path) -> None:
        writer = EmbeddedChunkIndex(index_path)
        writer.add([chunk(str(i), "lotus " * 50) for i in range(200)])
        writer.close()  # the last connection checkpoints the WAL into the main file
        with index_path.open("r+b") as raw:  # keep the header, scribble over the pages
            raw.seek(100)
            raw.write(b"\xff" * 20_000)
        with pytest.raises(IndexCorruptError):
            EmbeddedChunkIndex(index_path).search("lotus", top_k=3, filters=ALL)


class TestBadRequests:
    @pytest.mark.parametrize(("query", "top_k", "filters", "error"), [
        ("   ", 5, ALL, QueryEmptyError),
        ("香" * 2001, 5, ALL, QueryTooLongError),
        ("ok", 0, ALL, InvalidTopKError),
        ("ok", 5, SearchFilters(extra={"colour": "red"}), UnknownFilterError),
    ])
    def test_bad_requests_raise_typed_client_errors(self, index: EmbeddedChunkIndex, query: str, top_k: int,
                                                   filters: SearchFilters, error: type[InvalidInputError]) -> None:
        with pytest.raises(error) as caught:
            index.search(query, top_k=top_k, filters=filters)
        assert isinstance(caught.value, InvalidInputError) and caught.value.field_errors

    def test_wrong_query_vector_size_is_a_client_error(self, index: EmbeddedChunkIndex) -> None:
        index.add([chunk("a", "x")], [[1.0, 0.0]])
        with pytest.raises(VectorDimensionError):
            index.search("x", top_k=1, filters=ALL, query_vector=[1.0, 0.0, 0.0])

    def test_query_without_any_token_finds_nothing(self, index: EmbeddedChunkIndex) -> None:
        index.add([chunk("a", "x")])
        assert index.search("。？！", top_k=3, filters=ALL) == []


class TestConcurrency:
    def test_readers_keep_searching_while_one_writer_adds(self, index_path: Path) -> None:
        # GIVEN one shared index with a first batch
        index = EmbeddedChunkIndex(index_path)
        index.add([chunk("seed", "lotus project")], [[1.0, 0.0, 0.0]])
        errors: list[BaseException] = []
        seen: list[int] = []
        done = threading.Event()

        def write() -> None:
            try:
                for batch in range(20):
                    index.add([chunk(f"w{batch}-{i}", f"lotus batch {batch}", doc_id=f"d{batch}") for i in range(25)],
                              [[0.0, 1.0, 0.0]] * 25)
            except BaseException as exc:  # noqa: BLE001 - collected for the assertion below
                errors.append(exc)
            finally:
                done.set()

        def read() -> None:
            try:
                while not done.is_set():
                    hits = index.search("lotus", top_k=5, filters=ALL, query_vector=[1.0, 0.0, 0.0])
                    assert hits and hits[0].chunk.text.startswith("lotus")
                    seen.append(len(hits))
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        # WHEN three readers search while the writer adds 500 chunks
        threads = [threading.Thread(target=write)] + [threading.Thread(target=read) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        # THEN nothing failed, readers were served throughout, and the last write is visible
        assert errors == [] and seen
        assert index.count() == 501 and ids(index, "batch 19") >= {f"w19-{i}" for i in range(25)}
