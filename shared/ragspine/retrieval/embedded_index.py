"""``EmbeddedChunkIndex``: the local hybrid chunk index (one SQLite file, no server).

BM25 over CJK-aware tokens and cosine over unit float32 vectors, fused by
``retrieval.fusion.fuse_legs`` (min-max score fusion by default, as on OpenSearch). Both legs
score only the rows that pass the filters (sensitivity ceiling included), so a filtered-out
chunk never costs the others recall. Writes go to SQLite (WAL); each
reader process builds an in-memory snapshot per write generation (``embedded_snapshot``)
and keeps serving the previous one while a newer one is being built. A write through an index
object that already serves searches (the service's, where ingestion activates documents) builds
the new snapshot itself, on the writing thread, before its searches may: no ask pays for a
reload that its own process caused. Vectors given later to
stored rows (the background embedder) are written into the snapshot in place: a backfill
never rebuilds the lexical index inside a search.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ragspine.errors import ConfigurationError, FieldError
from ragspine.lazy import LazyModule
from ragspine.retrieval.embedded_rows import check_lineage, chunk_row, field_counts, field_term, term_blobs
from ragspine.retrieval.embedded_snapshot import RESCORE_POOL, EmbeddedSnapshot
from ragspine.retrieval.embedded_store import ChunkStore
from ragspine.retrieval.errors import IndexMissingError, IndexUnavailableError, VectorDimensionError
from ragspine.retrieval.fusion import HybridFusion, fuse_legs
from ragspine.retrieval.model import Chunk, ChunkLabels, ScoredChunk, SearchFilters
from ragspine.retrieval.targeting import DocumentRef
from ragspine.retrieval.validation import MAX_QUERY_CHARS, validate_search
from ragspine.text import query_tokens

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = LazyModule("numpy")

logger = logging.getLogger(__name__)

DEFAULT_DEPTH = 100  # candidates each leg hands to fusion
PARALLEL_MIN_ROWS = 5_000  # below this the thread hand-off costs more than it saves


# One batch of ``add_batches``: chunks, their vectors (or None), their counted terms (or None).
IndexBatch = tuple[Sequence[Chunk], Sequence[Sequence[float]] | None, Sequence[tuple[Counter[str], int]] | None]


class EmbeddedChunkIndex:
    """``ChunkIndex`` over one SQLite file: BM25 + dense vectors fused, filters inside both legs."""

    def __init__(self, path: Path | str, *, dimension: int | None = None, create: bool = True,
                 exact_dense_limit: int = 20_000, rescore_pool: int = RESCORE_POOL, depth: int = DEFAULT_DEPTH,
                 timeout: float = 30.0, max_query_chars: int = MAX_QUERY_CHARS,
                 fusion: HybridFusion | str = HybridFusion.MIN_MAX) -> None:
        """Open (or create) the index file.

        Args:
            path: the SQLite file, e.g. ``<data_dir>/chunks.db``.
            dimension: the vector size; checked against the file when it already has one.
            create: create a missing file; when False a missing file raises.
            exact_dense_limit: up to this many candidate rows the dense leg is exact; above
                it, sign-bit codes pre-select rows that are then scored exactly.
            rescore_pool: how many rows the sign bits pre-select; they are scored on int8
                copies and the best ``1.25 * depth`` of them exactly.
            depth: candidates each leg contributes to fusion (at least ``top_k``).
            timeout: seconds to wait for another process's write lock.
            max_query_chars: the longest query accepted.
            fusion: how the two legs are combined (``retrieval.fusion.HybridFusion``): ``min_max``
                (the default) or ``rrf``.

        Raises:
            IndexMissingError: the file is missing and ``create`` is False.
            IndexCorruptError: the file is not a chunk index.
            VectorDimensionError: ``dimension`` differs from the file's.
            ConfigurationError: a limit is not positive.
        """
        if min(rescore_pool, depth, max_query_chars) < 1 or exact_dense_limit < 0 or timeout < 0:
            raise ConfigurationError("index limits must be positive")
        if fusion not in set(HybridFusion):
            raise ConfigurationError(f"unknown fusion {fusion!r}; use one of {', '.join(HybridFusion)}")
        self._fusion = HybridFusion(fusion)
        path = Path(path)
        if not path.exists():
            if not create:
                raise IndexMissingError(f"the chunk index {path} does not exist; index documents first")
            path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._store = ChunkStore(path, timeout=timeout)
        self._exact_dense_limit = exact_dense_limit
        self._rescore_pool = rescore_pool
        self._depth = depth
        self._max_query_chars = max_query_chars
        self._snapshot: EmbeddedSnapshot | None = None
        self._documents: tuple[int, list[DocumentRef]] | None = None  # (generation, refs)
        self._rebuild = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None  # started on the first large hybrid query
        self._executor_lock = threading.Lock()
        self._dimension = self._stored_dimension()
        if dimension is not None:
            self._check_dimension(dimension)
            if self._dimension is None:
                with self._store.write() as conn:
                    self._store.set_meta(conn, "dimension", str(dimension))
                self._dimension = dimension

    @property
    def dimension(self) -> int | None:
        """The vector size, once known."""
        return self._dimension

    @property
    def full_loads(self) -> int:
        """How many times this reader has read every row to build its in-memory index."""
        return self._store.full_loads

    @property
    def catalog_reads(self) -> int:
        """How many times this object has read every document's context (``documents``) from the file."""
        return self._store.catalog_reads

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]] | None = None, *,
            counted: Sequence[tuple[Counter[str], int]] | None = None) -> int:
        """Index chunks (replacing any with the same chunk_id); vectors align with chunks.

        Parents (``is_parent``) are stored for ``get`` but never searched. ``counted``: each
        chunk's ``field_counts``, already computed elsewhere (an ingestion child process), so
        this process does not tokenize them again.

        Returns:
            How many chunks were written.

        Raises:
            ChunkLineageError: a chunk lacks its id, document id or source locator.
            VectorDimensionError: vectors do not align with chunks or have the wrong size.
        """
        if not chunks:
            return 0
        return self.add_batches([(chunks, vectors, counted)])

    def add_batches(self, batches: Iterable[IndexBatch]) -> int:
        """``add`` of several ``(chunks, vectors, counted)`` batches in one write transaction.

        The batches are taken one at a time, so an iterator may decode each when it is asked for (a
        large document's staged chunks). One transaction: readers see all of them or none, and
        reload their snapshot once, not after every batch.

        Returns:
            How many chunks were written (0 and no write when every batch is empty).

        Raises:
            ChunkLineageError, VectorDimensionError, ValueError: as ``add``; nothing is written then.
        """
        pending = iter(batches)
        first = next((batch for batch in pending if batch[0]), None)
        if first is None:
            return 0
        written = 0
        fresh: dict[str, int] = {}
        dimension = self._dimension
        with self._publishing(), self._store.write() as conn:
            for chunks, vectors, counted in itertools.chain([first], pending):
                if not chunks:
                    continue
                for chunk in chunks:
                    check_lineage(chunk)
                unit = self._unit_rows(vectors, len(chunks)) if vectors is not None else None
                if unit is not None and dimension is not None and unit.shape[1] != dimension:
                    raise VectorDimensionError(f"vectors have {unit.shape[1]} dimensions; this index holds {dimension}",
                                               field_errors=(FieldError("vector", f"{dimension} dimensions"),))
                if counted is not None and len(counted) != len(chunks):
                    raise ValueError(f"{len(counted)} term counts for {len(chunks)} chunks")
                fields = (list(counted) if counted is not None
                          else [(Counter[str](), 0) if c.is_parent else field_counts(c) for c in chunks])
                counts = [n for n, _ in fields]
                if unit is not None and dimension is None:
                    dimension = int(unit.shape[1])
                    self._store.set_meta(conn, "dimension", str(dimension))
                term_ids, new = self._store.term_ids(conn, set().union(*counts))
                fresh.update(new)
                blobs = term_blobs(counts, term_ids)
                rows = [chunk_row(c, length, blobs[i], None if unit is None else unit[i].tobytes())
                        for i, (c, (_, length)) in enumerate(zip(chunks, fields, strict=True))]
                self._store.insert(conn, rows)
                written += len(chunks)
        self._store.remember(fresh)
        self._dimension = dimension
        return written

    def search(self, query: str, *, top_k: int, filters: SearchFilters,
               query_vector: Sequence[float] | None = None) -> list[ScoredChunk]:
        """The best ``top_k`` chunks: BM25, plus cosine and fusion when a query vector is given.

        Hits carry source ``"bm25"`` (BM25 score) without a vector and ``"hybrid"`` (fused
        score) with one.

        Raises:
            InvalidInputError: empty or oversized query, bad ``top_k``, unknown filter field,
                or a query vector of the wrong size (the specific classes are in
                ``ragspine.retrieval.errors``).
            IndexUnavailableError: the index file cannot be read (``IndexCorruptError`` when
                it is damaged).
        """
        text = validate_search(query, top_k=top_k, filters=filters, max_query_chars=self._max_query_chars)
        snapshot = self._current()
        dense_query = None
        if query_vector is not None and snapshot.dimension is not None:
            dense_query = self._unit_rows([query_vector], 1)[0]
        allowed = snapshot.mask(filters)
        depth = max(self._depth, top_k)
        # On a large index the dense leg runs beside BM25: both are numpy work that releases
        # the GIL, so the hybrid costs about the slower leg rather than the sum (measured).
        pending = (self._legs().submit(snapshot.dense, dense_query, allowed, depth)
                   if dense_query is not None and snapshot.size >= PARALLEL_MIN_ROWS else None)
        # Every query word is looked up in both fields (OpenSearch: ``multi_match``, ``most_fields``).
        words = query_tokens(text)
        lexical = snapshot.bm25(self._store.lookup_terms([*words, *map(field_term, words)]), allowed, depth)
        if dense_query is None:
            positions, scores, source = lexical.positions[:top_k].tolist(), lexical.scores[:top_k].tolist(), "bm25"
        else:
            dense = pending.result() if pending is not None else snapshot.dense(dense_query, allowed, depth)
            fused = fuse_legs([(leg.positions.tolist(), leg.scores.tolist()) for leg in (lexical, dense)],
                              mode=self._fusion, top_k=top_k)
            positions, scores, source = [p for p, _ in fused], [s for _, s in fused], "hybrid"
        row_ids = [int(snapshot.row_ids[p]) for p in positions]
        found = self._store.fetch(row_ids)
        # A second check of the ceiling on what leaves the index (seed 000: two exits).
        return [ScoredChunk(found[r], float(s), source) for r, s in zip(row_ids, scores, strict=True)
                if r in found and found[r].sensitivity <= filters.max_sensitivity]

    def without_vectors(self, limit: int) -> list[Chunk]:
        """Up to ``limit`` searchable chunks indexed without a dense vector (their BM25 leg already works)."""
        return self._store.without_vectors(limit)

    def vectors_pending(self, *, doc_id: str | None = None, version_id: str | None = None) -> int:
        """How many searchable chunks still lack a dense vector (all, one document's, or one version's)."""
        return self._store.count_without_vectors(doc_id, version_id)

    def set_vectors(self, chunk_ids: Sequence[str], vectors: Sequence[Sequence[float]]) -> int:
        """Give already indexed chunks their dense vectors; return how many rows were updated.

        Raises:
            VectorDimensionError: vectors do not align with the ids or have the wrong size.
        """
        if not chunk_ids:
            return 0
        unit = self._unit_rows(vectors, len(chunk_ids))
        new_dimension = self._dimension is None
        # The ``vectors`` counter, not ``generation``: readers add these rows' vectors to the
        # snapshot they hold instead of rebuilding it (the lexical side has not changed).
        with self._store.write(counter="vectors") as conn:
            if new_dimension:
                self._store.set_meta(conn, "dimension", str(unit.shape[1]))
            updated = self._store.set_vectors(conn, [(unit[i].tobytes(), c) for i, c in enumerate(chunk_ids)])
        if new_dimension:
            self._dimension = int(unit.shape[1])
        return updated

    def get(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """Chunks (children or parents) by id, in the order asked; missing ids are skipped.

        No sensitivity ceiling applies here: the caller (expansion) filters what it fetches.
        """
        return self._store.get(chunk_ids)

    def documents(self) -> list[DocumentRef]:
        """Every searchable document's context (``DocumentCatalog``), read again only after a write."""
        generation = self._store.generation()
        cached = self._documents
        if cached is not None and cached[0] == generation:
            return cached[1]
        refs = [DocumentRef(doc_id, company, period) for doc_id, company, period in self._store.documents()]
        self._documents = (generation, refs)
        return refs

    def delete(self, *, doc_id: str, version_id: str | None = None) -> int:
        """Remove a document's chunks, or only those of one version; return how many."""
        with self._publishing():
            return self._store.delete(doc_id, version_id)

    def update_metadata(self, document_id: str, labels: ChunkLabels) -> int:
        """Stamp a Gateway document's new metadata on all its chunks (the next search sees it)."""
        with self._publishing():
            return self._store.relabel(document_id, labels)

    def count(self) -> int:
        """Number of chunks stored, parents included."""
        return self._store.count()

    def ensure_index(self) -> bool:
        """Nothing to do: the index file and its tables are created when the index is opened."""
        return False

    def close(self) -> None:
        """Close every thread's database connection and stop the dense-leg worker."""
        self._store.close()
        with self._executor_lock:
            if self._executor is not None:
                self._executor.shutdown(wait=True)
                self._executor = None

    # -- internals ----------------------------------------------------------------------------
    def _legs(self) -> ThreadPoolExecutor:
        executor = self._executor
        if executor is None:
            with self._executor_lock:
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ragspine-dense")
                executor = self._executor
        return executor

    def _current(self) -> EmbeddedSnapshot:
        generation, vectors = self._store.counters()
        snapshot = self._snapshot
        if snapshot is not None and snapshot.generation == generation and snapshot.vectors == vectors:
            return snapshot
        # With a snapshot in hand, never wait: keep answering from it while another thread
        # brings it up to date (a rebuild reads every row, seconds at 100k chunks).
        if not self._rebuild.acquire(blocking=snapshot is None):
            assert snapshot is not None
            return snapshot
        try:
            return self._brought_up_to_date()
        finally:
            self._rebuild.release()

    @contextmanager
    def _publishing(self) -> Iterator[None]:
        """Around a write that changes rows: once it is committed, build this object's new snapshot here.

        The rebuild lock is held from before the write until the new snapshot is in place, so
        from the commit on this object's searches keep answering from the snapshot they have
        instead of building the new one inside a request. An object that never searched has
        no snapshot to keep current and builds nothing (a batch ingest, another process's writer).
        The document catalog (``documents``), once read, is read again here as well.
        """
        if self._snapshot is None:
            yield
            return
        with self._rebuild:
            yield
            try:
                if self._documents is not None:  # the asks read the catalog too: first, it is the quicker read
                    self.documents()
                self._brought_up_to_date()
            except IndexUnavailableError as exc:  # the write stands; the next search builds the snapshot
                logger.warning("chunk index snapshot not rebuilt after a write", extra={"error_code": exc.code})

    def _brought_up_to_date(self) -> EmbeddedSnapshot:
        """The snapshot of the file's current counters, built or updated; the caller holds the rebuild lock."""
        generation, vectors = self._store.counters()
        current = self._snapshot
        if current is not None and current.generation == generation and current.vectors != vectors:
            current = self._add_new_vectors(current)
        if current is None or current.generation != generation:
            self._dimension = self._stored_dimension()
            (loaded, loaded_vectors), rows, field_terms = self._store.load()
            current = EmbeddedSnapshot(loaded, rows, dimension=self._dimension, document_field_terms=field_terms,
                                       exact_dense_limit=self._exact_dense_limit, rescore_pool=self._rescore_pool,
                                       vectors=loaded_vectors)
            self._snapshot = current
        return current

    def _add_new_vectors(self, snapshot: EmbeddedSnapshot) -> EmbeddedSnapshot | None:
        """Write the vectors stored since ``snapshot`` into it; None when rows changed too (reload)."""
        (generation, vectors), rows = self._store.vectors_since(snapshot.vectors)
        self._dimension = self._stored_dimension()
        if generation != snapshot.generation or self._dimension is None:
            return None
        if rows:
            snapshot.add_vectors(np.fromiter((r for r, _ in rows), dtype=np.int64, count=len(rows)),
                                 [blob for _, blob in rows], dimension=self._dimension, vectors=vectors)
        else:
            snapshot.vectors = vectors
        return snapshot

    def _stored_dimension(self) -> int | None:
        with self._store.translated():
            stored = self._store.meta("dimension")
        return None if stored is None else int(stored)

    def _check_dimension(self, size: int) -> None:
        if self._dimension is not None and size != self._dimension:
            raise VectorDimensionError(f"vectors have {size} dimensions; this index holds {self._dimension}",
                                       field_errors=(FieldError("vector", f"{self._dimension} dimensions"),))

    def _unit_rows(self, vectors: Sequence[Sequence[float]], expected: int) -> npt.NDArray[np.float32]:
        matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[0] != expected:
            raise VectorDimensionError(f"expected {expected} vectors of equal size, got shape {matrix.shape}")
        self._check_dimension(int(matrix.shape[1]))
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        if not np.isfinite(matrix).all() or not (norms > 0).all():
            raise VectorDimensionError("vectors must be finite and non-zero")
        unit: npt.NDArray[np.float32] = (matrix / norms).astype(np.float32)
        return unit

