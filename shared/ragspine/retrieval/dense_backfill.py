"""Dense vectors computed in the background, after a document's passages are already searchable by BM25.

Embedding is nearly all of an ingestion's time on a CPU (multilingual e5: about ten 500-character
passages per second per core), while parsing, chunking and the BM25 index take a fraction of a
second per document. So on the embedded index a document becomes searchable as soon as it is
activated, and ``BackgroundEmbedder`` gives its passages their vectors afterwards, in a thread
beside the ingestion (the engine releases the GIL, so a second core embeds while the first
parses). Until a passage has its vector, the hybrid search ranks it by its BM25 score alone.

What it embeds is as little as the vectors need: each distinct dense text of a window once (a
filing repeats short passages, "None.", "Table of Contents", a page number, and every copy gets
the one vector), in batches of similar length. When a core is free it embeds two batches at
once (``free_workers``), each in a thread of its own at the same lowest priority, the second
through a ``helper`` embedder whose calls do not wait for the first's (the service gives the e5
BLAS kernel a second passage embedder; its products release the GIL).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, cast

from ragspine.background_priority import lower_this_thread
from ragspine.errors import RagspineError
from ragspine.llm.cores import free_cores
from ragspine.llm.ports import Embedder
from ragspine.retrieval.model import Chunk
from ragspine.retrieval.passage_text import dense_text

logger = logging.getLogger(__name__)

DEFAULT_BATCH = 8  # passages per engine call (questions take their own lane of the engine, never waiting for one)
DEFAULT_WINDOW = 256  # passages read per scan, sorted by length into batches
MAX_WORKERS = 2  # batches embedded at once: one per free core, the e5 kernel's products gain little beyond


def free_workers(busy_workers: int, *, cores: int | None = None, load: float | None = None,
                 limit: int = MAX_WORKERS) -> int:
    """Batches to embed at once next: the cores free of other work, at least 1, at most ``limit``.

    The 1-minute load average counts this embedder's own ``busy_workers`` too, so they are given
    back before the usable cores are compared with it; an unknown load counts as a busy machine.
    """
    return min(max(1, limit), free_cores(cores, load, own_busy=busy_workers))


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


def by_dense_text(chunks: Sequence[Chunk]) -> dict[str, list[Chunk]]:
    """The passages grouped by the text the embedder would read, in first-seen order."""
    groups: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        groups.setdefault(dense_text(chunk), []).append(chunk)
    return groups


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
                 window: int = DEFAULT_WINDOW, workers: int = 0, helper: Embedder | None = None,
                 on_progress: Callable[[BackfillProgress], None] | None = None) -> None:
        """Describe the thread; nothing runs before ``start``.

        ``workers`` is how many batches are embedded at once; 0 decides it at each window from the
        cores free then (``free_workers``). ``helper`` embeds the batches beside the first (the
        same model, vectors interchangeable with ``embedder``'s, but calls that never wait for
        ``embedder``'s); ``embedder`` itself when None, whose calls may then take turns.
        """
        self._index = index
        self._embedder = embedder
        self._helper = helper if helper is not None else embedder
        self._batch_size = max(1, batch_size)
        self._window = max(self._batch_size, window)
        self._workers = max(0, workers)
        self._busy = 0  # batches the last window embedded at once (their load is in the load average)
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
    def workers(self) -> int:
        """Batches embedded at once as configured; 0: decided for each window from the free cores."""
        return self._workers

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
        """Embed one window of pending passages, each distinct text once; False when there was none."""
        chunks = self._index.without_vectors(self._window)
        if not chunks:
            return False
        copies = by_dense_text(chunks)
        texts = {same[0].chunk_id: text for text, same in copies.items()}
        batches = length_batches([same[0] for same in copies.values()], self._batch_size)
        if not self._lowered:
            self._lower_priority(batches[0][0])
        workers = self._workers or free_workers(self._busy)
        for start in range(0, len(batches), workers):
            with self._cond:
                if self._stopping:
                    return True
            group = batches[start:start + workers]
            self._busy = len(group)
            began = time.perf_counter()
            results = self._embed_at_once([[texts[c.chunk_id] for c in batch] for batch in group])
            self.seconds += time.perf_counter() - began
            for batch, (vectors, spent) in zip(group, results, strict=True):
                given = [(chunk, vector) for first, vector in zip(batch, vectors, strict=True)
                         for chunk in copies[texts[first.chunk_id]]]
                self._index.set_vectors([chunk.chunk_id for chunk, _ in given], [vector for _, vector in given])
                self.embedded += len(given)
                if self._on_progress is not None:
                    self._on_progress(BackfillProgress(self.embedded, self._index.vectors_pending(), self.seconds,
                                                       tuple(chunk for chunk, _ in given), spent))
        return True

    def _embed_at_once(self, batches: list[list[str]]) -> list[tuple[list[list[float]], float]]:
        """Each batch's vectors and seconds; the first batch in this thread, the others in helper threads.

        The helpers are daemon threads of their own (a pool's threads would hold the interpreter's
        exit for their batch, or refuse work once it began), lowered like this one.
        """
        results: list[tuple[list[list[float]], float] | BaseException | None] = [None] * len(batches)

        def helper(index: int) -> None:
            lower_this_thread()
            try:
                results[index] = self._timed_embed(batches[index], self._helper)
            except BaseException as exc:  # noqa: BLE001 - raised again in this thread, as if it had embedded the batch
                results[index] = exc

        threads = [threading.Thread(target=helper, args=(i,), name="ragspine-dense-helper", daemon=True)
                   for i in range(1, len(batches))]
        for thread in threads:
            thread.start()
        results[0] = self._timed_embed(batches[0], self._embedder)
        for thread in threads:
            thread.join()
        for result in results:
            if isinstance(result, BaseException):
                raise result
        return cast("list[tuple[list[list[float]], float]]", results)  # every helper stored its result

    @staticmethod
    def _timed_embed(texts: list[str], embedder: Embedder) -> tuple[list[list[float]], float]:
        began = time.perf_counter()
        vectors = embedder.embed(texts)
        return vectors, time.perf_counter() - began
