"""Dense vectors after the fact: passages indexed without vectors are searchable by BM25 at once,
then ``BackgroundEmbedder`` gives them vectors and the hybrid leg takes over."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence

import pytest

from ragspine.errors import ProviderUnavailableError
from ragspine.retrieval.dense_backfill import BackfillProgress, BackgroundEmbedder, length_batches, supports_backfill
from ragspine.retrieval.embedded_index import EmbeddedChunkIndex
from ragspine.retrieval.model import Chunk, SearchFilters
from ragspine.retrieval.passage_text import dense_text
from tests.fakes.chunks import make_chunk
from tests.fakes.hashing_embedder import HashingEmbedder


def _chunks(n: int, doc: str = "notes.md") -> list[Chunk]:
    return [make_chunk(f"{doc}-{i}", f"passage {i} about zebra stripes " + "x" * i, doc_id=doc, version_id="v1")
            for i in range(n)]


class CountingEmbedder(HashingEmbedder):
    """The hashing embedder, recording the size of every batch it was given."""

    def __init__(self, dimension: int = 32, *, fail: bool = False) -> None:
        super().__init__(dimension)
        self.batches: list[int] = []
        self.texts: list[str] = []
        self.policies: list[int | None] = []  # the calling thread's scheduling policy, per batch
        self.fail = fail

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self.fail:
            raise ProviderUnavailableError("the embedding model cannot be loaded")
        self.batches.append(len(texts))
        self.texts.extend(texts)
        self.policies.append(os.sched_getscheduler(0) if hasattr(os, "sched_getscheduler") else None)
        return super().embed(texts)


def test_passages_indexed_without_vectors_are_found_by_bm25_then_embedded(index: EmbeddedChunkIndex) -> None:
    embedder = CountingEmbedder()
    index.add(_chunks(20) + _chunks(3, doc="other.md"))
    query = embedder.embed(["zebra stripes"])[0]
    # BEFORE: the dense leg has nothing, BM25 answers; every passage is pending
    assert index.vectors_pending() == 23 and index.vectors_pending(doc_id="other.md") == 3
    assert index.search("zebra", top_k=3, filters=SearchFilters(), query_vector=query)
    seen: list[BackfillProgress] = []
    background = BackgroundEmbedder(index, embedder, batch_size=8, window=16, on_progress=seen.append).start()
    try:
        assert background.drain(timeout=30)
    finally:
        background.stop(timeout=5)
    # AFTER: every passage has its vector, in batches of at most 8, progress reported per batch
    # (after one passage embedded at normal priority, so the engine's own threads start at it)
    assert index.vectors_pending() == 0 and background.embedded == 23
    assert embedder.batches[1] == 1 and max(embedder.batches[2:]) <= 8 and sum(embedder.batches[2:]) == 23
    assert seen[-1].embedded == 23 and seen[-1].pending == 0
    hits = index.search("zebra", top_k=3, filters=SearchFilters(), query_vector=query)
    assert hits and all(h.source == "hybrid" for h in hits)
    assert index.dimension == 32


def test_pending_vectors_are_counted_per_version_with_or_without_the_document(index: EmbeddedChunkIndex) -> None:
    index.add(_chunks(5) + [make_chunk(f"b-{i}", f"passage {i} about okapis", doc_id="b.md", version_id="v2")
                            for i in range(2)])
    assert index.vectors_pending(version_id="v2") == 2 and index.vectors_pending(version_id="v1") == 5
    assert index.vectors_pending(doc_id="b.md", version_id="v1") == 0
    assert index.vectors_pending(doc_id="notes.md", version_id="v1") == 5 and index.vectors_pending() == 7


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
def test_the_background_thread_embeds_at_the_lowest_priority_and_leaves_the_others(
        index: EmbeddedChunkIndex) -> None:
    embedder = CountingEmbedder()
    index.add(_chunks(10))
    background = BackgroundEmbedder(index, embedder, batch_size=4).start()
    try:
        assert background.drain(timeout=30)
    finally:
        background.stop(timeout=5)
    assert embedder.policies[0] == os.SCHED_OTHER  # the first passage, before lowering
    assert set(embedder.policies[1:]) == {os.SCHED_IDLE} and len(embedder.policies) == 4
    assert os.sched_getscheduler(0) == os.SCHED_OTHER  # the caller's thread (the routes') is untouched


def test_a_wake_after_new_passages_embeds_them_too(index: EmbeddedChunkIndex) -> None:
    background = BackgroundEmbedder(index, CountingEmbedder()).start()
    try:
        assert background.drain(timeout=30)  # nothing yet
        index.add(_chunks(5))
        assert background.drain(timeout=30)
        assert index.vectors_pending() == 0
    finally:
        background.stop(timeout=5)


def test_a_failing_embedder_stops_the_backfill_and_leaves_bm25_working(index: EmbeddedChunkIndex) -> None:
    index.add(_chunks(4))
    background = BackgroundEmbedder(index, CountingEmbedder(fail=True)).start()
    assert not background.drain(timeout=30)
    assert background.error is not None and background.error.code == "KNOWLEDGE_PROVIDER_UNAVAILABLE"
    assert index.vectors_pending() == 4
    assert [h.source for h in index.search("zebra", top_k=2, filters=SearchFilters())] == ["bm25", "bm25"]


def test_batches_are_bucketed_by_length_and_parents_are_never_embedded(index: EmbeddedChunkIndex) -> None:
    chunks = [make_chunk(f"c{i}", "w" * length) for i, length in enumerate([50, 3, 400, 7, 51, 399])]
    assert [[c.text.__len__() for c in b] for b in length_batches(chunks, 2)] == [[3, 7], [50, 51], [399, 400]]
    index.add([make_chunk("parent", "whole section", is_parent=True), *chunks[:2]])
    assert index.vectors_pending() == 2
    assert supports_backfill(index) and not supports_backfill(object())


def test_identical_passages_are_embedded_once_and_every_copy_gets_the_vector(index: EmbeddedChunkIndex) -> None:
    # what a filing repeats: a page number, "None.", a running title; each copy is its own citable passage
    repeated = ["5", "None.", "Table of Contents"]
    chunks = [make_chunk(f"r{i}", repeated[i % 3], doc_id="filing.pdf", version_id="v1") for i in range(9)]
    chunks += _chunks(4, doc="filing.pdf")
    index.add(chunks)
    embedder = CountingEmbedder()
    seen: list[BackfillProgress] = []
    background = BackgroundEmbedder(index, embedder, batch_size=4, workers=1, on_progress=seen.append).start()
    try:
        assert background.drain(timeout=30)
    finally:
        background.stop(timeout=5)
    embedded = embedder.texts[1:]  # the first call is the one passage embedded before the thread is lowered
    assert sorted(embedded) == sorted({dense_text(c) for c in chunks}) and len(embedded) == 7
    assert index.vectors_pending() == 0 and background.embedded == 13 and seen[-1].embedded == 13
    assert sum(len(p.batch) for p in seen) == 13  # progress counts every copy given a vector
    # every copy is found by the dense leg, with its twins' vector
    query = embedder.embed(["Table of Contents"])[0]
    hits = index.search("contents", top_k=5, filters=SearchFilters(), query_vector=query)
    assert {h.chunk.chunk_id for h in hits if h.chunk.text == "Table of Contents"} == {"r2", "r5", "r8"}
    assert all(h.source == "hybrid" for h in hits)


class MeetingEmbedder(CountingEmbedder):
    """Each batch of two waits for a second one to be embedding at the same moment (a broken barrier otherwise)."""

    def __init__(self) -> None:
        super().__init__()
        self.meeting = threading.Barrier(2, timeout=60)
        self.threads: set[str] = set()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if len(texts) == 2:
            self.threads.add(threading.current_thread().name)
            self.meeting.wait()  # raises BrokenBarrierError when no other batch runs beside this one
        return super().embed(texts)


def test_two_workers_embed_two_batches_at_once_both_at_the_lowest_priority(index: EmbeddedChunkIndex) -> None:
    index.add(_chunks(9))  # one passage embedded alone first, then four batches of two: two rounds of two
    embedder, helper = MeetingEmbedder(), MeetingEmbedder()
    helper.meeting = embedder.meeting  # a batch of the first worker meets one of the helper
    background = BackgroundEmbedder(index, embedder, batch_size=2, workers=2, helper=helper).start()
    try:
        assert background.drain(timeout=120)
    finally:
        background.stop(timeout=5)
    assert index.vectors_pending() == 0 and background.embedded == 9 and not embedder.meeting.broken
    assert sorted(embedder.batches + helper.batches) == [1, 1, 2, 2, 2, 2]  # the first passage, then each text once
    assert helper.batches == [2, 2] and not set(helper.texts) & set(embedder.texts[1:])
    assert len(embedder.threads | helper.threads) == 2
    if hasattr(os, "SCHED_IDLE"):
        assert set(embedder.policies[1:] + helper.policies) == {os.SCHED_IDLE}  # the helper thread too


def test_a_failing_helper_stops_the_backfill_like_a_failing_embedder(index: EmbeddedChunkIndex) -> None:
    index.add(_chunks(5))
    background = BackgroundEmbedder(index, CountingEmbedder(), batch_size=2, workers=2,
                                    helper=CountingEmbedder(fail=True)).start()
    assert not background.drain(timeout=30)
    assert background.error is not None and background.error.code == "KNOWLEDGE_PROVIDER_UNAVAILABLE"
    assert index.vectors_pending() == 5  # the pair's vectors are not written; BM25 still finds every passage
