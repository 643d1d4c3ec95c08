"""``OpenSearchChunkIndex``: chunks in Amazon OpenSearch Service or Serverless, hybrid search.

A search runs two legs with one filter list (``opensearch_queries.build_filter_clauses``):
BM25 over CJK bigrams plus standard tokens, and k-NN (faiss HNSW, inner product on unit
vectors, i.e. cosine) with the filter inside the ``knn`` clause. Both go in one ``_msearch``
round trip and are fused here by ``ragspine.retrieval.fusion.fuse_legs``, the function and the
mode (``fusion``, min-max by default) the embedded index uses.

Why fusion client side and not a search pipeline with the ``hybrid`` query: that needs the
neural-search plugin on a recent OpenSearch (score normalisation from 2.10, an RRF processor
only from 2.19); Serverless collections and older domains do not offer it; osmem-server, the
test server, has neither, so that path could never be exercised here. Client side there is
one code path for domains, Serverless and tests, the fusion is the same pure function the
embedded index uses, and it costs only two short candidate lists. (Min-max scales each leg over
its own candidates, so the k-NN scores' transform in OpenSearch, monotonic in the inner
product, does not change the order it gives.)

Serverless (``service="aoss"``, or ``aoss_compatible=True``) differs in three ways:
vector collections refuse a caller-chosen ``_id``, there is no ``_delete_by_query`` and
no ``refresh`` parameter. In that mode the server assigns ``_id`` and the ``chunk_id``
keyword is the identity: re-adding a chunk deletes its old copy first; ``get`` is a
``terms`` search; deletes find ids page by page (``search_after``) and bulk-delete them.
New chunks become searchable after the collection's refresh interval.

The k-NN leg fails on a server without it (osmem-server). By default that is an error;
``knn_fallback="lexical"`` makes the adapter log one warning and search lexically from then on.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ragspine.aws.opensearch_client import SERVICES, Auth, Service, build_client
from ragspine.aws.opensearch_errors import (
    OpenSearchRequestError,
    OpenSearchUnsupportedQueryError,
    from_exception,
    from_response_error,
)
from ragspine.aws.opensearch_queries import (
    VECTOR_FIELD,
    build_knn_query,
    build_lexical_query,
    build_version_filter,
    check_dimension,
    checked_query,
    chunk_to_document,
    document_to_chunk,
)
from ragspine.errors import ConfigurationError, FieldError, InvalidInputError
from ragspine.lazy import LazyModule
from ragspine.retrieval.fusion import HybridFusion, fuse_legs
from ragspine.retrieval.model import Chunk, ChunkLabels, ScoredChunk, SearchFilters
from ragspine.retrieval.targeting import DocumentRef

if TYPE_CHECKING:
    from opensearchpy import OpenSearch
    from opensearchpy import exceptions as opensearch_exceptions
    from opensearchpy import helpers as opensearch_helpers
else:
    # opensearch-py loads with the client, on first use, not at import (cold start).
    opensearch_exceptions = LazyModule("opensearchpy.exceptions")
    opensearch_helpers = LazyModule("opensearchpy.helpers")

logger = logging.getLogger(__name__)

Refresh = bool | Literal["wait_for"]
KnnFallback = Literal["raise", "lexical"]
# Package data beside this module, so the built layer carries the mapping it creates the index from.
DEFAULT_INDEX_BODY = Path(__file__).resolve().with_name("chunks-index.json")
MAX_TOP_K = 100
_CANDIDATES_PER_HIT, _MIN_CANDIDATES, _MAX_CANDIDATES = 4, 40, 200
_PAGE = 1000
_BULK_DOCS, _BULK_BYTES = 200, 5 * 1024 * 1024  # under the 10 MiB request limit of small domains
# The document list (``documents``) is one aggregation, kept this long: a warm function reuses
# it across questions, and a document ingested meanwhile is targeted a minute later at worst.
_DOCUMENTS_TTL_S = 60.0
_MAX_DOCUMENTS = 10_000


class OpenSearchChunkIndex:
    """The ``ChunkIndex`` port on OpenSearch: bulk writes, filtered hybrid search fused client side."""

    def __init__(self, endpoint: str, index_name: str, *, client: OpenSearch | None = None,
                 region: str | None = None, service: Service = "es", dimension: int = 384,
                 auth: Auth = "sigv4", refresh: Refresh = False, aoss_compatible: bool | None = None,
                 knn_fallback: KnnFallback = "raise", index_body_path: Path | None = None,
                 timeout: float = 10.0, max_query_chars: int = 1000,
                 fusion: HybridFusion | str = HybridFusion.MIN_MAX) -> None:
        if service not in SERVICES:
            raise ConfigurationError(f"OpenSearch service must be one of {SERVICES}, got {service!r}")
        self._aoss = service == "aoss" if aoss_compatible is None else aoss_compatible
        if self._aoss and refresh is not False:
            raise ConfigurationError("OpenSearch Serverless has no refresh parameter: use refresh=False")
        if dimension < 1 or max_query_chars < 1 or knn_fallback not in ("raise", "lexical"):
            raise ConfigurationError("dimension, max_query_chars > 0 and knn_fallback 'raise' or 'lexical' required")
        if fusion not in set(HybridFusion):
            raise ConfigurationError(f"unknown fusion {fusion!r}; use one of {', '.join(HybridFusion)}")
        self._endpoint, self._index, self._client = endpoint, index_name, client
        self._region, self._service, self._auth, self._timeout = region, service, auth, timeout
        self._dimension, self._refresh, self._knn_fallback = dimension, refresh, knn_fallback
        self._index_body_path = index_body_path or DEFAULT_INDEX_BODY
        self._max_query_chars, self._fusion = max_query_chars, HybridFusion(fusion)
        self._knn_available = True
        self._documents: tuple[float, list[DocumentRef]] | None = None  # (monotonic time, refs)

    @property
    def client(self) -> OpenSearch:
        """The opensearch-py client, built (and SigV4-signed) on first use."""
        if self._client is None:
            self._client = build_client(self._endpoint, service=self._service, auth=self._auth,
                                        region=self._region, timeout=self._timeout)
        return self._client

    def index_body(self) -> dict[str, Any]:
        """The settings and mappings of ``chunks-index.json`` (package data), at this dimension.

        Raises:
            ConfigurationError: the file is missing or is not a JSON index body.
        """
        try:
            body: dict[str, Any] = json.loads(self._index_body_path.read_text(encoding="utf-8"))
            body["mappings"]["properties"][VECTOR_FIELD]["dimension"] = self._dimension
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ConfigurationError(f"cannot read the OpenSearch index body {self._index_body_path}: {exc}") from exc
        return body

    def ensure_index(self) -> bool:
        """Create the index from the mapping file unless it exists; True when it was created."""
        if self._call("check the chunk index", self.client.indices.exists, index=self._index):
            return False
        try:
            self._call("create the chunk index", self.client.indices.create, index=self._index, body=self.index_body())
        except OpenSearchRequestError as exc:
            if exc.error_type != "resource_already_exists_exception":  # lost a race with another writer: fine
                raise
            return False
        logger.info("created OpenSearch index", extra={"index": self._index})
        return True

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]] | None = None) -> int:
        """Index chunks in bulk (``chunk_id`` is the identity); vectors are stored normalised."""
        if vectors is not None and len(vectors) != len(chunks):
            raise InvalidInputError(f"{len(vectors)} vectors for {len(chunks)} chunks: give one vector per chunk")
        for vector in vectors or ():
            check_dimension(vector, self._dimension, name="vectors")
        documents = [chunk_to_document(chunk, vectors[i] if vectors is not None else None)
                     for i, chunk in enumerate(chunks)]
        if not documents:
            return 0
        if self._aoss:
            self._delete_ids(self._ids_where([{"terms": {"chunk_id": sorted({d["chunk_id"] for d in documents})}}]))
        self._documents = None  # this process wrote: list the documents again
        actions = [{"_op_type": "index", "_index": self._index, "_source": document,
                    **({} if self._aoss else {"_id": document["chunk_id"]})} for document in documents]
        self._bulk(actions, action="index chunks")
        return len(documents)

    def search(self, query: str, *, top_k: int, filters: SearchFilters,
               query_vector: Sequence[float] | None = None) -> list[ScoredChunk]:
        """The best ``top_k`` chunks: BM25 alone, or BM25 and k-NN fused (``fuse_legs``, this index's mode)."""
        text = checked_query(query, max_chars=self._max_query_chars)
        if not 1 <= top_k <= MAX_TOP_K:
            raise InvalidInputError(f"top_k must be between 1 and {MAX_TOP_K}, got {top_k}",
                                    field_errors=(FieldError("top_k", "out of range"),))
        size = min(max(top_k * _CANDIDATES_PER_HIT, _MIN_CANDIDATES), _MAX_CANDIDATES)
        lexical = build_lexical_query(text, filters, size=size)
        if query_vector is None or not self._knn_available:
            response = self._call("search chunks", self.client.search, index=self._index, body=lexical)
            return _hits(response, "bm25")[:top_k]
        check_dimension(query_vector, self._dimension, name="query_vector")
        knn = build_knn_query(query_vector, size, filters)
        responses = self._call("search chunks", self.client.msearch, index=self._index,
                               body=[{}, lexical, {}, knn])["responses"]
        lexical_hits = _leg(responses[0], "bm25", action="lexical search")
        try:
            dense_hits = _leg(responses[1], "dense", action="k-NN search")
        except OpenSearchUnsupportedQueryError as exc:
            if self._knn_fallback != "lexical":
                raise
            self._knn_available = False
            logger.warning("k-NN query unsupported; searching lexically from now on (knn_fallback=lexical): %s",
                           exc.message, extra={"index": self._index})
            return lexical_hits[:top_k]
        first_seen: dict[str, ScoredChunk] = {}
        legs: list[tuple[list[str], list[float]]] = []
        for hits in (lexical_hits, dense_hits):
            best: dict[str, ScoredChunk] = {}  # a chunk twice in one leg (a Serverless copy): its best rank
            for hit in hits:
                best.setdefault(hit.chunk.chunk_id, hit)
                first_seen.setdefault(hit.chunk.chunk_id, hit)
            legs.append((list(best), [hit.score for hit in best.values()]))
        fused = fuse_legs(legs, mode=self._fusion, top_k=top_k)
        return [replace(first_seen[chunk_id], score=score, source="hybrid") for chunk_id, score in fused]

    def get(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """Chunks by id, in the order asked, each once; unknown ids are skipped."""
        wanted = list(dict.fromkeys(chunk_ids))
        if not wanted:
            return []
        if self._aoss:
            body = {"size": len(wanted), "_source": {"excludes": [VECTOR_FIELD]},
                    "query": {"bool": {"filter": [{"terms": {"chunk_id": wanted}}]}}}
            hits = self._call("get chunks", self.client.search, index=self._index, body=body)["hits"]["hits"]
            sources = [hit["_source"] for hit in hits]
        else:
            docs = self._call("get chunks", self.client.mget, index=self._index, body={"ids": wanted},
                              params={"_source_excludes": VECTOR_FIELD})["docs"]
            sources = [doc["_source"] for doc in docs if doc.get("found")]
        found = {source["chunk_id"]: document_to_chunk(source) for source in sources}
        return [found[chunk_id] for chunk_id in wanted if chunk_id in found]

    def delete(self, *, doc_id: str, version_id: str | None = None) -> int:
        """Remove a document's chunks, or those of one version; return how many were removed."""
        clauses = build_version_filter(doc_id, version_id)
        self._documents = None
        if self._aoss:
            ids = self._ids_where(clauses)
            self._delete_ids(ids)
            return len(ids)
        params = {"conflicts": "proceed", **({"refresh": "true"} if self._refresh else {})}
        response = self._call("delete chunks", self.client.delete_by_query, index=self._index,
                              body={"query": {"bool": {"filter": clauses}}}, params=params)
        return int(response.get("deleted", 0))

    def update_metadata(self, document_id: str, labels: ChunkLabels) -> int:
        """Stamp a Gateway document's metadata on its chunks: their ids, then one partial bulk update."""
        ids = self._ids_where([{"term": {"document_id": document_id}}])
        doc = {"category": labels.category, "tags": list(labels.tags), "version_label": labels.version_label,
               "product_code": labels.product_code}
        if ids:
            self._bulk([{"_op_type": "update", "_index": self._index, "_id": i, "doc": doc} for i in ids],
                       action="update chunk metadata")
        return len(ids)

    def documents(self) -> list[DocumentRef]:
        """Every searchable document's context (``DocumentCatalog``): one ``terms`` aggregation, cached."""
        cached = self._documents
        now = time.monotonic()
        if cached is not None and now - cached[0] < _DOCUMENTS_TTL_S:
            return cached[1]
        body = {"size": 0, "query": {"bool": {"filter": [{"term": {"is_parent": False}}]}},
                "aggs": {"docs": {"terms": {"field": "doc_id", "size": _MAX_DOCUMENTS},
                                  "aggs": {"context": {"top_hits": {"size": 1,
                                                                    "_source": ["company", "doc_period"]}}}}}}
        response = self._call("list documents", self.client.search, index=self._index, body=body)
        refs = []
        for bucket in response.get("aggregations", {}).get("docs", {}).get("buckets", []):
            hits = bucket["context"]["hits"]["hits"]
            source = hits[0].get("_source", {}) if hits else {}
            refs.append(DocumentRef(str(bucket["key"]), source.get("company"), source.get("doc_period")))
        self._documents = (now, refs)
        return refs

    def count(self) -> int:
        """Number of chunks indexed."""
        return int(self._call("count chunks", self.client.count, index=self._index)["count"])

    def _ids_where(self, clauses: list[dict[str, Any]]) -> list[str]:
        """Every ``_id`` matching the clauses, paged with ``search_after`` on ``chunk_id``."""
        ids: list[str] = []
        after: list[Any] | None = None
        while True:
            body: dict[str, Any] = {"size": _PAGE, "_source": False, "sort": [{"chunk_id": "asc"}],
                                    "query": {"bool": {"filter": clauses}}}
            if after is not None:
                body["search_after"] = after
            hits = self._call("find chunks", self.client.search, index=self._index, body=body)["hits"]["hits"]
            ids.extend(hit["_id"] for hit in hits)
            if len(hits) < _PAGE:
                return ids
            after = hits[-1]["sort"]

    def _delete_ids(self, ids: Sequence[str]) -> None:
        if ids:
            self._bulk([{"_op_type": "delete", "_index": self._index, "_id": i} for i in ids], action="delete chunks")

    def _bulk(self, actions: list[dict[str, Any]], *, action: str) -> None:
        refresh = {} if self._refresh is False else {"refresh": self._refresh}
        _, errors = self._call(action, opensearch_helpers.bulk, self.client, actions, raise_on_error=False,
                               chunk_size=_BULK_DOCS, max_chunk_bytes=_BULK_BYTES, max_retries=2, initial_backoff=1,
                               **refresh)
        failures = [item for error in errors for op, item in error.items()
                    if not (op == "delete" and item.get("status") == 404)]  # already gone: the goal
        if failures:
            first = failures[0]
            raise from_response_error(first.get("status"), first.get("error"),
                                      action=f"{action}: {len(failures)} failed, first {first.get('_id')}")

    def _call(self, action: str, method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except opensearch_exceptions.OpenSearchException as exc:
            raise from_exception(exc, action=action) from exc


def _hits(response: dict[str, Any], source: str) -> list[ScoredChunk]:
    return [ScoredChunk(document_to_chunk(hit["_source"]), float(hit.get("_score") or 0.0), source)
            for hit in response["hits"]["hits"]]


def _leg(response: dict[str, Any], source: str, *, action: str) -> list[ScoredChunk]:
    if "error" in response:
        raise from_response_error(response.get("status"), response["error"], action=action)
    return _hits(response, source)
