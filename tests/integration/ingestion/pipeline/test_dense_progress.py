"""The dense leg's progress on the operation: passages done and total, the rate and the time left while
vectors are pending, none of the two once every passage has its vector; saved at most every few seconds.

Real ingestion (``submit`` and the in-process runner, or ``ragspine ingest``) and the real background
embedder wired by the bootstrap; the embedder is the deterministic hashing one, held after its first
batches so the pending state can be read before it is released.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ragspine import bootstrap
from ragspine.bootstrap import build_ingest_context, get_services, start_pending_backfill
from ragspine.cli import app
from ragspine.ingestion.dense_progress import DenseProgressRecorder
from ragspine.ingestion.operations import Operation, OperationKey, OperationStatus
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.sqlite_operations import SqliteOperationStore
from ragspine.ingestion.submission import DocumentMeta, submit
from ragspine.retrieval.dense_backfill import BackfillProgress
from ragspine.retrieval.embedded_index import EmbeddedChunkIndex
from ragspine.settings import Settings
from tests.fakes.chunks import make_chunk
from tests.fakes.hashing_embedder import HashingEmbedder
from tests.support.process_caches import close_services

runner = CliRunner()
WIDE = {"COLUMNS": "200"}
ANIMALS = ("zebra", "giraffe", "okapi", "gazelle", "buffalo", "hyena", "meerkat", "pangolin", "aardvark", "kudu",
           "impala", "warthog")


# A markdown file of a dozen sections, each long enough to be a passage of its own.
FIELD_GUIDE = "# Field guide\n\n" + "\n\n".join(
    f"## The {name}\n\n" + " ".join(f"The {name} is described in paragraph {n} of this field guide, "
                                    "with its habitat, diet and behaviour in the herd." for n in range(12))
    for name in ANIMALS) + "\n"


def _handbook(folder: Path) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "field-guide.md"
    path.write_text(FIELD_GUIDE, encoding="utf-8")
    return path


class HeldEmbedder(HashingEmbedder):
    """Embeds its first ``free`` calls at once, then waits for ``release`` before each further call."""

    def __init__(self, free: int) -> None:
        super().__init__(32)
        self.free = free
        self.release = threading.Event()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self.free > 0:
            self.free -= 1
        else:
            assert self.release.wait(timeout=60), "the test never released the embedder"
        return super().embed(texts)


@pytest.fixture
def held(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldEmbedder]:
    """The services with the held embedder as the document embedder; calls 1-2 free: the first passage
    (at normal priority) and the first batch."""
    embedder = HeldEmbedder(free=2)
    monkeypatch.setattr(bootstrap, "build_embedders", lambda _settings: (HashingEmbedder(32), embedder))
    close_services()
    yield embedder
    embedder.release.set()


def _shown(operation_id: str) -> dict[str, Any]:
    result = runner.invoke(app, ["operations", "show", operation_id, "--json"])
    assert result.exit_code == 0, result.output
    body: dict[str, Any] = json.loads(result.output)
    return body


def _wait_for_dense(operation_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60  # a bound on a hang, not a speed check
    while (dense := _shown(operation_id)["dense"]) is None:
        assert time.monotonic() < deadline, "the background embedder saved no progress"
        time.sleep(0.05)
    return dense  # type: ignore[no-any-return]


def test_the_operation_shows_the_rate_and_time_left_while_vectors_are_pending_and_none_once_complete(
        held: HeldEmbedder, tmp_path: Path) -> None:
    context = build_ingest_context(get_services())
    operation, _ = submit(_handbook(tmp_path / "docs"), operations=context.operations, meta=DocumentMeta())
    done = InProcessRunner().run(operation.id, context=context)
    assert done.status is OperationStatus.SUCCEEDED and done.chunks_count > 8  # more than one batch
    assert _shown(operation.id)["dense"] is None  # nothing embedded yet
    background = start_pending_backfill(get_services())
    assert background is not None
    try:
        # WHILE the embedder is held after its first batch: done, total, a positive rate, a time left
        dense = _wait_for_dense(operation.id)
        assert 0 < dense["done"] < dense["total"] == done.chunks_count
        assert dense["per_second"] > 0 and dense["seconds_left"] >= 0
        text = runner.invoke(app, ["operations", "show", operation.id]).output
        assert f"dense: {dense['done']} of {dense['total']} passages embedded, " in text
        assert " passages/s, about " in text and " left (as of " in text
        held.release.set()
        assert background.drain(timeout=60)
    finally:
        background.stop(timeout=5)
    # ONCE complete: every passage done, no rate and no time left
    dense = _shown(operation.id)["dense"]
    assert dense["done"] == dense["total"] == done.chunks_count
    assert (dense["per_second"], dense["seconds_left"]) == (None, None)
    assert f"dense: {dense['total']} of {dense['total']} passages embedded (as of " in runner.invoke(
        app, ["operations", "show", operation.id]).output


def test_ragspine_ingest_leaves_each_operation_complete(settings: Settings, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bootstrap, "build_embedders", lambda _settings: (HashingEmbedder(32), HashingEmbedder(32)))
    close_services()
    path = _handbook(tmp_path / "docs")
    (path.parent / "note.txt").write_text("Okapis are shy.", encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path.parent)], env=WIDE)
    assert result.exit_code == 0, result.output
    operations = build_ingest_context(get_services()).operations.list_operations()
    assert len(operations) == 2
    for operation in operations:
        dense = _shown(operation.id)["dense"]
        assert dense["done"] == dense["total"] == operation.chunks_count > 0, dense
        assert (dense["per_second"], dense["seconds_left"]) == (None, None)


class Clock:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _succeeded(store: SqliteOperationStore, chunks: int) -> Operation:
    draft = Operation(id="op-1", doc_id="guide.md", version_id="v1", file_hash="h", source="guide.md")
    created, _ = store.create_or_get(OperationKey("guide.md", "v1"), draft)
    return store.save(replace(created, status=OperationStatus.SUCCEEDED, chunks_count=chunks))


def test_progress_is_saved_at_most_every_few_seconds_and_always_at_the_end(tmp_path: Path) -> None:
    # GIVEN a SUCCEEDED operation whose 20 passages are indexed without vectors
    index = EmbeddedChunkIndex(tmp_path / "chunks.db")
    store = SqliteOperationStore(tmp_path / "operations.db")
    chunks = [make_chunk(f"c{i}", f"passage {i} about zebra stripes " + "x" * i, doc_id="guide.md", version_id="v1") for i in range(20)]
    index.add(chunks)
    _succeeded(store, 20)
    clock = Clock()
    record = DenseProgressRecorder(store, index, save_every_s=3.0, window_s=30.0, clock=clock)
    embedder = HashingEmbedder(8)

    def batch(part: list[Any], seconds: float) -> None:
        index.set_vectors([c.chunk_id for c in part], embedder.embed([c.text for c in part]))
        record(BackfillProgress(0, index.vectors_pending(), 0.0, tuple(part), seconds))

    def dense() -> Any:
        operation = store.get("op-1")
        assert operation is not None
        return operation.dense

    # the first batch is saved at once: 8 of 20 in 2 s, so 4 passages/s and 3 s left
    batch(chunks[:8], 2.0)
    first = dense()
    assert (first.done, first.total, first.per_second, first.seconds_left) == (8, 20, 4.0, 3.0)
    # a batch one second later is not saved (the store keeps the first)
    clock.now += 1.0
    batch(chunks[8:12], 1.0)
    assert dense() == first
    # three seconds after the last save it is, with the rate over the three batches: 16 passages from 98 to 104
    clock.now += 3.0
    batch(chunks[12:16], 2.0)
    saved = dense()
    assert (saved.done, saved.total, saved.per_second, saved.seconds_left) == (16, 20, 2.67, 1.5)
    # the last passages are saved at once, whenever they come: complete, no rate, no time left
    clock.now += 0.5
    batch(chunks[16:], 0.5)
    last = dense()
    assert (last.done, last.total, last.per_second, last.seconds_left) == (20, 20, None, None)
