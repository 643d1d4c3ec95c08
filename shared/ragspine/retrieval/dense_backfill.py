"""Dense vectors computed in the background, after a document's passages are already searchable by BM25.

Embedding is nearly all of an ingestion's time on a CPU (multilingual e5: about ten 500-character
passages per second per core), while parsing, chunking and the BM25 index take a fraction of a
second per document. So on the embedded index a document becomes searchable as soon as it is
activated, and ``BackgroundEmbedder`` gives its passages their vectors afterwards, in a thread
beside the ingestion (the engine releases the GIL, so a second core embeds while the first
parses). Until a passage has its vector, the hybrid search ranks it by its BM25 score alone.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ragspine.background_priority import lower_this_thread
from ragspine.errors import RagspineError
from ragspine.llm.ports import Embedder
from ragspine.retrieval.model import Chunk
from ragspine.retrieval.passage_text import dense_text

logger = logging.getLogger(__name__)

DEFAULT_BATCH = 8  # passages per engine call (questions take their own lane of the engine, never waiting for one)
DEFAULT_WINDOW = 256  # passages read per scan, sorted by length into batches


class BackfillIndex(Protocol):
    """What the backfill needs of an index: the passages without vectors, and a way to set them."""

    def without_vectors(self, limit: int) -> list[Chunk]:
        """Up to ``limit`` searchable chunks without a dense vector, oldest first."""
        ...

    def vectors_pending(self, *, doc_id: str | None = None, version_id: str | None = None) -> int:
        """How many searchable chunks lack a vector."""
        ...

    def set_vectors(self, chunk_ids: Sequence[str], vectors: Sequence[Sequence[float]]) -> int:
        """Set the vectors of indexed chunks; return how many were updated."""
        ...


def supports_backfill(index: object) -> bool:
    """Whether an index can take vectors after its chunks (the embedded index can; OpenSearch here does not)."""
    return all(callable(getattr(index, name, None)) for name in ("without_vectors", "vectors_pending", "set_vectors"))


def length_batches(chunks: Sequence[Chunk], size: int) -> list[list[Chunk]]:
    """Batches of passages of similar length (length bucketing: an engine that pads a batch pads little)."""
    ordered = sorted(chunks, key=lambda c: (len(dense_text(c)), c.chunk_id))
    return [ordered[start:start + size] for start in range(0, len(ordered), size)]


@dataclass(frozen=True, slots=True)
class BackfillProgress:
    """Passages embedded by this backfill so far, those still pending in the index, seconds spent embedding.

    ``batch`` is the passages the last call embedded, in ``batch_seconds`` (a reader tells each
    document's progress from them).
    """

    embedded: int
    pending: int
    seconds: float
    batch: tuple[Chunk, ...] = ()
    batch_seconds: float = 0.0


class BackgroundEmbedder:
    """A daemon thread giving indexed passages their dense vectors; ``wake`` after indexing, ``drain`` to wait."""

    def __init__(self, index: BackfillIndex, embedder: Embedder, *, batch_size: int = DEFAULT_BATCH,
                 window: int = DEFAULT_WINDOW, on_progress: Callable[[BackfillProgress], None] | None = None) -> None:
        self._index = index
        self._embedder = embedder
        self._batch_size = max(1, batch_size)
        self._window = max(self._batch_size, window)
        self._on_progress = on_progress
        self._cond = threading.Condition()
        self._requested = 0  # wake-ups asked for
        self._settled = -1  # the last wake-up after which a scan found nothing to embed
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._lowered = False  # the thread runs at the lowest CPU priority (after its first passage)
        self.embedded = 0
        self.seconds = 0.0
        self.error: RagspineError | None = None

    def start(self) -> BackgroundEmbedder:
        """Start the thread (it first embeds whatever is already pending)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="ragspine-dense-backfill", daemon=True)
            self._thread.start()
        return self

    def wake(self) -> None:
        """New passages were indexed: look for them."""
        with self._cond:
            self._requested += 1
            self._cond.notify_all()

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until every passage indexed so far has its vector; False on timeout, stop or embedder failure."""
        self.wake()
        with self._cond:
            target = self._requested
            done = self._cond.wait_for(lambda: self._settled >= target or not self._alive(), timeout)
            return bool(done) and self._settled >= target

    def stop(self, timeout: float | None = None) -> None:
        """Stop after the current batch (the passages left keep their BM25 leg and are embedded next time)."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        """The thread is alive and not asked to stop (False after an embedder failure)."""
        return self._alive()

    def pending(self) -> int:
        """Passages in the index still without a vector."""
        return self._index.vectors_pending()

    def _alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and not self._stopping

    def _run(self) -> None:
        try:
            while True:
                with self._cond:
                    if self._stopping:
                        return
                    seen = self._requested
                if not self._embed_window():
                    self._settle(seen)
        except RagspineError as exc:
            # The BM25 leg still finds every passage; the next ingest or serve tries again.
            self.error = exc
            logger.warning("background embedding stopped", extra={"error_code": exc.code})
        finally:
            with self._cond:
                self._cond.notify_all()

    def _settle(self, seen: int) -> None:
        """Nothing was pending after wake-up ``seen``: tell ``drain``, then sleep until the next wake-up or stop."""
        with self._cond:
            self._settled = max(self._settled, seen)
            self._cond.notify_all()
            self._cond.wait_for(lambda: self._stopping or self._requested > seen)

    def _lower_priority(self, first: Chunk) -> None:
        """Embed one passage at normal priority, then lower this thread to the lowest CPU and I/O priority.

        The engine starts its worker threads on its first call, and a thread inherits the priority of
        the one that starts it: started here first, they keep the normal priority the asks' query
        embedding needs, while this thread's own share of the work waits for the routes.
        """
        self._embedder.embed([dense_text(first)])
        lower_this_thread()
        self._lowered = True

    def _embed_window(self) -> bool:
        """Embed one window of pending passages; False when there was none."""
        chunks = self._index.without_vectors(self._window)
        if not chunks:
            return False
        for batch in length_batches(chunks, self._batch_size):
            with self._cond:
                if self._stopping:
                    return True
            if not self._lowered:
                self._lower_priority(batch[0])
            began = time.perf_counter()
            vectors = self._embedder.embed([dense_text(c) for c in batch])
            self._index.set_vectors([c.chunk_id for c in batch], vectors)
            spent = time.perf_counter() - began
            self.seconds += spent
            self.embedded += len(batch)
            if self._on_progress is not None:
                self._on_progress(BackfillProgress(self.embedded, self._index.vectors_pending(), self.seconds,
                                                   tuple(batch), spent))
        return True
