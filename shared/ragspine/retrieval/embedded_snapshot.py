"""An in-memory view of the embedded index: BM25 postings, vectors, filter columns.

A reader builds one snapshot per index generation and shares it between threads. Rows,
postings and filters never change in a snapshot; only vectors given later to its rows (the
background embedder's backfill) are written into it in place (``add_vectors``), so a
backfill never rebuilds the lexical side. Every
query is then a handful of numpy operations over whole arrays, never a Python loop over
rows: BM25 sums precomputed per-posting weights (the bm25s idea: Lucene's BM25 with the
document-length part folded in at build time); the dense leg is one exact matrix-vector
product up to ``exact_dense_limit`` rows and, above it, sign-bit pre-selection, an int8
pass and an exact float32 pass over the survivors. Filters are boolean masks applied
before top-k selection in both legs, so a filtered-out chunk can never push an allowed
one out of the results.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ragspine.lazy import LazyModule
from ragspine.retrieval.embedded_store import TAG_SEPARATOR

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ragspine.retrieval.model import SearchFilters

    BoolArray = npt.NDArray[np.bool_]
    IntArray = npt.NDArray[np.int64]
    FloatArray = npt.NDArray[np.float32]
else:
    np = LazyModule("numpy")

# Lucene's defaults, also bm25s's, so the baseline in the benchmark scores the same way.
BM25_K1 = 1.5
BM25_B = 0.75
# The document field (title, company, period, type) is one phrase shared by all the passages of
# a document. Normalised by the passage's length, it counted most on the thinnest passage (a
# cover page that says little else won a year-only question); with b = 0 for that field (BM25F's
# per-field b) a match in it weighs the same on every passage of the document, and the passage
# field decides between them. On OpenSearch ``title`` and ``context`` are fields of their own
# too, the same on every chunk of a document, so there also they cannot favour a thin passage.
DOCUMENT_FIELD_B = 0.0
# Dense candidates re-scored exactly after the binary pre-selection (see ``_dense_pool``).
RESCORE_POOL = 2000  # 3 MB of rows: past ~4000 the gather falls out of cache and doubles in cost

# SearchFilters field -> column loaded by the store (tags are handled separately).
_FILTER_COLUMNS = {"libraries": "library", "doc_ids": "doc_id", "version_ids": "version_id",
                   "entities": "entity", "periods": "period", "space_ids": "space_id",
                   "document_ids": "document_id", "categories": "category",
                   "version_labels": "version_label", "product_codes": "product_code"}


@dataclass(frozen=True, slots=True)
class Ranked:
    """One leg's result: snapshot positions best first and their scores."""

    positions: IntArray
    scores: FloatArray


class EmbeddedSnapshot:
    """Everything a query needs, built from the store's rows of one generation."""

    def __init__(self, generation: int, rows: list[tuple[Any, ...]], *, dimension: int | None,
                 exact_dense_limit: int, rescore_pool: int = RESCORE_POOL,
                 document_field_terms: Sequence[int] = (), vectors: int = 0) -> None:
        self.generation = generation
        self.vectors = vectors  # the store's ``vectors`` counter this snapshot's vectors are current with
        self.size = len(rows)
        self.exact_dense_limit = exact_dense_limit
        self.rescore_pool = rescore_pool
        self.row_ids: IntArray = np.fromiter((r[0] for r in rows), dtype=np.int64, count=self.size)
        self.sensitivity = np.fromiter((r[1] for r in rows), dtype=np.int8, count=self.size)
        self._columns = {name: _factorize([r[3 + i] for r in rows]) for i, name in enumerate(
            ("library", "doc_id", "version_id", "entity", "period", "space_id", "document_id", "category"))}
        self._columns.update({name: _factorize([r[14 + i] for r in rows])
                              for i, name in enumerate(("version_label", "product_code"))})
        self._tags = _tag_positions([r[11] for r in rows])
        self._build_bm25(rows, document_field_terms)
        self._build_vectors([r[13] for r in rows], dimension)

    # -- building ---------------------------------------------------------------------------
    def _build_bm25(self, rows: list[tuple[Any, ...]], document_field_terms: Sequence[int]) -> None:
        lengths = np.fromiter((r[2] for r in rows), dtype=np.float32, count=self.size)
        pairs = np.frombuffer(b"".join(r[12] for r in rows), dtype="<u4").reshape(-1, 2)
        per_doc = np.fromiter((len(r[12]) // 8 for r in rows), dtype=np.int64, count=self.size)
        terms, docs, tf = _term_major(pairs, np.repeat(np.arange(self.size, dtype=np.uint32), per_doc))
        n_terms = int(terms[-1]) + 1 if terms.size else 1
        counts = np.bincount(terms, minlength=n_terms)  # one pair per (term, chunk): document frequency
        df = counts.astype(np.float32)
        # Lucene's idf is never negative, so a term in most chunks still counts a little.
        idf = np.log1p((self.size - df + 0.5) / (df + 0.5)).astype(np.float32)
        avg = float(lengths.mean()) if self.size and lengths.mean() > 0 else 1.0
        norm = (BM25_K1 * (1.0 - BM25_B + BM25_B * lengths / avg)).astype(np.float32)
        post_norm = norm[docs]
        if len(document_field_terms):
            # The document field is not length-normalised (b = 0): the same on every passage.
            field_ids = np.asarray(document_field_terms, dtype=np.int64)
            is_field = np.zeros(max(n_terms, int(field_ids.max()) + 1), dtype=np.bool_)
            is_field[field_ids] = True
            post_norm[is_field[terms]] = BM25_K1 * (1.0 - DOCUMENT_FIELD_B)
        self._post_docs = docs
        self._post_weights = (idf[terms] * tf / (tf + post_norm)).astype(np.float32)
        self._indptr = np.concatenate(([0], np.cumsum(counts)))

    def _build_vectors(self, blobs: list[bytes | None], dimension: int | None) -> None:
        self.dimension = dimension
        self.has_vector: BoolArray = np.fromiter((b is not None for b in blobs), dtype=np.bool_, count=self.size)
        self._codes = np.zeros((0, self.size), dtype=np.uint64)
        self._scales = np.ones(self.size, dtype=np.float32)
        self._int8 = np.zeros((self.size, 0), dtype=np.int8)
        if dimension is None or not self.has_vector.any():
            self._vectors = np.zeros((self.size, 0), dtype=np.float32)
            return
        zero = bytes(4 * dimension)
        # A bytearray, so the matrix is writable for ``add_vectors`` without another copy.
        self._vectors = np.frombuffer(bytearray().join(b if b is not None else zero for b in blobs),
                                      dtype="<f4").reshape(self.size, dimension)
        if not self._compressed():
            return  # always exact: the compressed copies below would never be read
        self._codes = _sign_codes(self._vectors)
        self._scales, self._int8 = _int8_rows(self._vectors)

    def _compressed(self) -> bool:
        return self.size > max(self.exact_dense_limit, self.rescore_pool)

    def add_vectors(self, row_ids: IntArray, blobs: Sequence[bytes], *, dimension: int, vectors: int) -> None:
        """Write vectors given to this snapshot's rows since it was loaded; ``vectors`` is the new counter.

        Called by one thread at a time (the index's rebuild lock) while others may be searching:
        every array a row's vector lives in is written before its ``has_vector`` flag turns
        on, and a search only scores rows whose flag it has already read as on.
        Rows not in this snapshot (not searchable) are skipped.
        """
        found = np.searchsorted(self.row_ids, row_ids)
        keep = found < self.size
        keep[keep] = self.row_ids[found[keep]] == row_ids[keep]
        positions = found[keep]
        if positions.size:
            matrix = np.frombuffer(b"".join(b for b, k in zip(blobs, keep, strict=True) if k),
                                   dtype="<f4").reshape(positions.size, dimension)
            if self._vectors.shape[1] != dimension:  # the first vectors of this snapshot
                self._allocate(dimension)
            self._vectors[positions] = matrix
            if self._compressed():
                self._codes[:, positions] = _sign_codes(matrix)
                self._scales[positions], self._int8[positions] = _int8_rows(matrix)
            self.dimension = dimension
            self.has_vector[positions] = True
        self.vectors = vectors

    def _allocate(self, dimension: int) -> None:
        """Zeroed vector arrays for a snapshot loaded before any of its rows had a vector."""
        vectors = np.zeros((self.size, dimension), dtype=np.float32)
        if self._compressed():
            self._codes = _sign_codes(vectors)
            self._int8 = np.zeros((self.size, dimension), dtype=np.int8)
        self._vectors = vectors

    # -- filtering --------------------------------------------------------------------------
    def mask(self, filters: SearchFilters) -> BoolArray:
        """Rows allowed by ``filters`` (sensitivity ceiling included)."""
        allowed: BoolArray = self.sensitivity <= int(filters.max_sensitivity)
        if not filters.space_ids:  # Gateway chunks only when their space is named (SearchFilters)
            allowed &= self._columns["space_id"][1] == -1
        for field_name, column in _FILTER_COLUMNS.items():
            wanted: tuple[str, ...] = getattr(filters, field_name)
            if wanted:
                table, codes = self._columns[column]
                keys = [table[v] for v in wanted if v in table]
                allowed &= np.isin(codes, np.array(keys, dtype=np.int32))
        if filters.tags_any:
            any_mask = np.zeros(self.size, dtype=np.bool_)
            for tag in filters.tags_any:
                any_mask[self._tags.get(tag, _EMPTY)] = True
            allowed &= any_mask
        for tag in filters.tags_all:
            all_mask = np.zeros(self.size, dtype=np.bool_)
            all_mask[self._tags.get(tag, _EMPTY)] = True
            allowed &= all_mask
        return allowed

    # -- the two legs -----------------------------------------------------------------------
    def bm25(self, term_ids: list[int], allowed: BoolArray, depth: int) -> Ranked:
        """BM25 over the allowed rows: the best ``depth`` positions with a positive score."""
        scores = np.zeros(self.size, dtype=np.float32)
        limit = len(self._indptr) - 1
        for term in term_ids:
            if term < limit:  # a term newer than this snapshot has no postings here
                lo, hi = self._indptr[term], self._indptr[term + 1]
                scores[self._post_docs[lo:hi]] += self._post_weights[lo:hi]
        candidates = np.flatnonzero(scores > 0)  # 8x faster than flatnonzero on floats
        # Filter the touched rows only (not all N): the mask is applied before top-k.
        return _top(candidates[allowed[candidates]], scores, depth)

    def dense(self, query: FloatArray, allowed: BoolArray, depth: int) -> Ranked:
        """Cosine similarity over the allowed rows that have a vector: the best ``depth``."""
        usable = allowed & self.has_vector
        count = int(usable.sum())
        if count == 0:
            return _top(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32), depth)
        if count <= self.exact_dense_limit or count <= self.rescore_pool:
            candidates = np.flatnonzero(usable) if count < self.size else None
        else:
            candidates = self._dense_pool(query, usable, depth)
        # einsum, not BLAS: OpenBLAS threads thrash on a busy 2-core host and its gemv was
        # slower here than numpy's own single-threaded SIMD loop for this shape.
        if candidates is None:
            return _top(None, np.einsum("ij,j->i", self._vectors, query), depth)
        scores = np.zeros(self.size, dtype=np.float32)
        # np.take, not fancy indexing: a quarter faster for row gathers here.
        scores[candidates] = np.einsum("ij,j->i", self._vectors.take(candidates, axis=0), query)
        return _top(candidates, scores, depth)

    def _dense_pool(self, query: FloatArray, usable: BoolArray, depth: int) -> IntArray:
        """Candidates for the exact score: sign-bit Hamming distance, then an int8 pass.

        Above ``exact_dense_limit`` rows, one float32 pass over the whole matrix is memory
        bound (150 MB at 100k x 384). One-bit codes are 32 times smaller: the
        ``rescore_pool`` closest codes are scored on int8 copies, and the best
        ``1.25 * depth`` of those go on to the exact float32 score (binary quantization
        with rescoring). The benchmark reports the recall this costs.
        """
        q_codes = _sign_codes(query[None, :])[:, 0]
        distance = np.zeros(self.size, dtype=np.uint16)
        scratch = np.empty(self.size, dtype=np.uint64)
        for word, q_word in zip(self._codes, q_codes, strict=True):
            np.bitwise_xor(word, q_word, out=scratch)
            distance += np.bitwise_count(scratch)
        excluded = 64 * len(q_codes) + 1  # farther than any real distance
        if not usable.all():
            distance[~usable] = excluded
        # The smallest distance whose cumulative count reaches the pool: no sort needed.
        cumulative = np.cumsum(np.bincount(distance, minlength=excluded + 1))
        cutoff = min(int(np.searchsorted(cumulative, self.rescore_pool)), excluded - 1)
        pool = np.flatnonzero(distance <= cutoff)
        # Second stage on int8 rows (4x less memory to gather than float32); only the best
        # few go on to the exact float32 score.
        approx = np.einsum("ij,j->i", self._int8.take(pool, axis=0).astype(np.float32), query) * self._scales[pool]
        keep = min(pool.size, depth + depth // 4)  # int8 error is ~1%: a small margin suffices
        return np.sort(pool[np.argpartition(-approx, keep - 1)[:keep]])


_EMPTY: Any = []


def _top(candidates: IntArray | None, scores: FloatArray, depth: int) -> Ranked:
    """The ``depth`` best candidates (all rows when None), best first, ties by position."""
    values = scores if candidates is None else scores[candidates]
    if candidates is None:
        candidates = np.arange(values.size)
    if values.size > depth:
        # partition on the values then a comparison: cheaper than argpartition over them
        kth = np.partition(values, values.size - depth)[values.size - depth]
        keep = np.flatnonzero(values >= kth)
        candidates, values = candidates[keep], values[keep]
    order = np.lexsort((candidates, -values))[:depth]
    return Ranked(candidates[order].astype(np.int64), values[order].astype(np.float32))


def _term_major(pairs: Any, docs: Any) -> tuple[Any, Any, Any]:
    """Postings sorted by term: (term ids, row positions, term frequencies).

    Sorting one packed uint64 key (term | row | tf) with np.sort is about twice as fast as
    argsort plus two gathers, which is most of a snapshot rebuild; the packing needs term
    ids and rows below 2**24, otherwise the plain argsort is used.
    """
    terms, tf = pairs[:, 0], np.minimum(pairs[:, 1], 0xFFFF)
    if terms.size and max(int(terms.max()), docs.size and int(docs.max())) < 1 << 24:
        key = np.sort((terms.astype(np.uint64) << 40) | (docs.astype(np.uint64) << 16) | tf)
        return ((key >> 40).astype(np.int64), ((key >> 16) & 0xFFFFFF).astype(np.int32),
                (key & 0xFFFF).astype(np.float32))
    order = np.argsort(terms)
    return terms[order].astype(np.int64), docs[order].astype(np.int32), tf[order].astype(np.float32)


def _factorize(values: list[str | None]) -> tuple[dict[str, int], Any]:
    table: dict[str, int] = {}
    codes = np.fromiter((-1 if v is None else table.setdefault(v, len(table)) for v in values),
                        dtype=np.int32, count=len(values))
    return table, codes


def _tag_positions(joined: list[str]) -> dict[str, Any]:
    positions: dict[str, list[int]] = {}
    for i, text in enumerate(joined):
        for tag in filter(None, text.split(TAG_SEPARATOR)):
            positions.setdefault(tag, []).append(i)
    return {tag: np.array(rows, dtype=np.int64) for tag, rows in positions.items()}


def _int8_rows(vectors: FloatArray) -> tuple[Any, Any]:
    """Per-row scales and int8 copies of unit vectors (the dense leg's second stage)."""
    peak = np.abs(vectors).max(axis=1)
    scales = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    return scales, np.rint(vectors / scales[:, None]).astype(np.int8)


def _sign_codes(vectors: FloatArray) -> Any:
    """One bit per dimension (>0), packed into uint64 words, stored word-major."""
    words = math.ceil(vectors.shape[1] / 64)
    bits = np.zeros((vectors.shape[0], words * 64), dtype=np.bool_)
    bits[:, : vectors.shape[1]] = vectors > 0
    packed = np.packbits(bits, axis=1).view(np.uint64)
    return np.ascontiguousarray(packed.T)
