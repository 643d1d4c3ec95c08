"""``HybridRetriever``: the narrative retrieval stages composed as plain typed calls.

validate query -> route libraries, find the documents the question names -> search every
library, each routed one again and the named documents again (one query vector shared; the
lexical query with the glossary codes of the entities it names and analyst vocabulary added;
each search fuses its own BM25 and dense legs inside the index, ``fusion.fuse_legs``) -> RRF of
those rankings (``fusion.fuse``) -> post-process -> optional rerank -> parent/window expansion.

Routing boosts, it never hides: without a library filter from the caller, one ranking covers
every library the caller may see (the sensitivity ceiling applies inside the index), and each
library the question points at adds its own ranking, so its passages rank higher while a
user's own documents in any other library stay findable. Likewise a question naming a
company and a fiscal year that a document's context carries ("Amazon FY2017 DPO") adds a
ranking over that document's passages with a weight that puts them first, and lifts the
per-document cap for it; when it has no matching passage, the other rankings answer alone.
A question naming a financial statement ("per the balance sheet") adds a ranking of the
passages under that statement's title (tagged ``statement:<kind>`` at chunking): within the
named documents with their weight when there are any, else with the weight of a routed library.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ragspine.errors import ConfigurationError, FieldError, InvalidInputError, ProviderUnavailableError
from ragspine.facts.statements import TAG_PREFIX as STATEMENT_TAG
from ragspine.llm.ports import Embedder, LLMProvider
from ragspine.retrieval.expansion import MAX_WINDOW, ExpandedHit, ExpansionMode, expand
from ragspine.retrieval.fusion import RRF_K, fuse
from ragspine.retrieval.model import ScoredChunk, SearchFilters
from ragspine.retrieval.ports import ChunkIndex
from ragspine.retrieval.postprocess import postprocess
from ragspine.retrieval.query_terms import QueryExpander, default_expander
from ragspine.retrieval.rerank import RERANK_SOURCE, rerank
from ragspine.retrieval.routing import LibraryRouter, SlotDetector, default_library_router
from ragspine.retrieval.targeting import DocumentCatalog, named_documents
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from ragspine.retrieval.entity_codes import EntityCodes

logger = logging.getLogger(__name__)

MAX_TOP_K = 100  # a caller asking for more wants an export, not a search


@dataclass(frozen=True, slots=True)
class RetrievalConfig:
    """Knobs of the narrative retriever, checked when built (a bad value fails at start-up)."""

    top_k: int = 5
    per_library_k: int = 20
    per_doc_cap: int = 2
    score_floor: float = 0.0  # on the fused RRF scale: 1/(60+r) for rank r in a single library
    rerank: bool = False
    rerank_candidates: int = 20
    max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL
    rrf_k: int = RRF_K
    routed_weight: float = 2.0  # RRF weight of each routed library's ranking (the every-library one weighs 1)
    # RRF weight of the named documents' ranking: above 1 + routed_weight, so its rank 20
    # still outscores another document's first place in every other ranking.
    named_weight: float = 4.0
    expand_queries: bool = True  # analyst vocabulary added to the lexical query (config/analyst_terms.yaml)
    expansion: ExpansionMode = ExpansionMode.PARENT_OR_WINDOW
    window: int = 1
    max_query_chars: int = 1000
    # Only the Knowledge Gateway sets this: its ACL names every space and document searched, and
    # each call's ``filters.max_sensitivity`` is the caller's own security-domain ceiling.
    allow_restricted: bool = False

    def __post_init__(self) -> None:
        problems = [message for failed, message in (
            (not 1 <= self.top_k <= MAX_TOP_K, f"top_k must be between 1 and {MAX_TOP_K}"),
            (self.per_library_k < self.top_k, "per_library_k must be at least top_k"),
            (self.per_doc_cap < 1, "per_doc_cap must be at least 1"),
            (not math.isfinite(self.score_floor) or self.score_floor < 0, "score_floor must be finite and >= 0"),
            (self.rerank_candidates < self.top_k, "rerank_candidates must be at least top_k"),
            (self.max_sensitivity >= Sensitivity.RESTRICTED and not self.allow_restricted,
             "max_sensitivity must be below RESTRICTED"),
            (self.rrf_k < 0, "rrf_k must be >= 0"),
            (not math.isfinite(self.routed_weight) or self.routed_weight < 0, "routed_weight must be finite and >= 0"),
            (not math.isfinite(self.named_weight) or self.named_weight < 0, "named_weight must be finite and >= 0"),
            (not 0 <= self.window <= MAX_WINDOW, f"window must be between 0 and {MAX_WINDOW}"),
            (self.max_query_chars < 1, "max_query_chars must be at least 1"),
            (self.allow_restricted and self.expansion is not ExpansionMode.NONE,
             "allow_restricted needs expansion none (expansion never reads above CONFIDENTIAL)"),
        ) if failed]
        if problems:
            raise ConfigurationError("invalid retrieval configuration: " + "; ".join(problems))


@dataclass(frozen=True, slots=True)
class RetrievalResult:
    """What retrieval found: hits (child citation + expanded context), where it looked, how long it took."""

    query: str
    hits: tuple[ExpandedHit, ...]
    libraries: tuple[str, ...]  # the caller's filter, or the libraries routing boosted
    routed: bool  # False when the caller's filters named the libraries
    reranked: bool
    dense: bool  # a query vector was used (an embedder is configured and answered)
    timings_ms: dict[str, float] = field(default_factory=dict)
    documents: tuple[str, ...] = ()  # the documents the question named, ranked first

    @property
    def all_libraries(self) -> bool:
        """Every library the caller may see was searched (no library filter was given)."""
        return self.routed


class HybridRetriever:
    """Narrative retrieval over a ``ChunkIndex``: routing, per-library hybrid search, RRF, rerank, expansion."""

    def __init__(self, index: ChunkIndex, *, embedder: Embedder | None = None, llm: LLMProvider | None = None,
                 config: RetrievalConfig | None = None, router: LibraryRouter | None = None,
                 slot_detector: SlotDetector | None = None, expander: QueryExpander | None = None,
                 entity_codes: EntityCodes | None = None) -> None:
        """Wire the stages; the routing YAML is loaded here, once, when no router is given.

        ``entity_codes`` gives the glossary codes of the entities a question names
        (``retrieval.entity_codes``); they are added to the lexical query.

        Raises:
            ConfigurationError: reranking is enabled without an LLM provider.
        """
        self._config = config or RetrievalConfig()
        if self._config.rerank and llm is None:
            raise ConfigurationError("reranking is enabled but no LLM provider was given")
        self._index = index
        self._embedder = embedder
        self._llm = llm
        self._router = router or default_library_router()
        self._slot_detector = slot_detector
        self._expander = expander or (default_expander() if self._config.expand_queries else None)
        self._entity_codes = entity_codes

    @property
    def config(self) -> RetrievalConfig:
        """The configuration in force."""
        return self._config

    def retrieve(self, query: str, *, filters: SearchFilters | None = None,
                 slots: Collection[str] | None = None, top_k: int | None = None) -> RetrievalResult:
        """Find cited passages for a narrative question.

        Args:
            query: the question, in Chinese, English or Japanese.
            filters: metadata constraints; ``libraries`` skips routing, and
                ``max_sensitivity`` may lower (never raise) the configured ceiling.
            slots: slot names already parsed from the question (``metric``, ``entity``...);
                detected with the slot detector when omitted.
            top_k: hits wanted for this call (1 to ``MAX_TOP_K``); the configured ``top_k``
                when omitted. Each library is then searched for at least this many.

        Returns:
            At most ``top_k`` hits within the sensitivity ceiling, best first.

        Raises:
            InvalidInputError: the query is empty or too long, ``top_k`` is out of range, or a
                filter is unknown.
            ProviderUnavailableError: the index cannot be read or reached.
        """
        clock = _Stopwatch()
        text = self._validate(query)
        wanted = self._checked_top_k(top_k)
        filters = filters or SearchFilters()
        ceiling = min(filters.max_sensitivity, self._config.max_sensitivity)
        libraries, routed = self._libraries(text, filters, slots)
        named = self._named_documents(text, filters)
        clock.lap("route")
        vector = self._query_vector(text)
        clock.lap("embed")
        lexical = self._lexical_query(text)
        per_library = max(wanted, self._config.per_library_k)
        # Routed: one ranking over every library (not one per library: fusing those would
        # interleave them and promote the best of an unrelated one), then one per routed library,
        # which boosts its passages. Named by the caller: one ranking per named library.
        scopes = [(), *((library,) for library in libraries)] if routed else [(lib,) for lib in libraries]
        searches = [replace(filters, libraries=scope, max_sensitivity=ceiling) for scope in scopes]
        weights = [1.0] + [self._config.routed_weight] * len(libraries) if routed else [1.0] * len(scopes)
        targeted = replace(filters, libraries=() if routed else libraries, max_sensitivity=ceiling)
        if named:  # within the caller's libraries (all when routed)
            searches.append(replace(targeted, doc_ids=named))
            weights.append(self._config.named_weight)
        # (not when the caller filters on tags itself: any-of with its tags would widen its filter)
        statements = self._expander.statements(text) if self._expander and not filters.tags_any else ()
        if statements:
            tags = tuple(f"{STATEMENT_TAG}{kind}" for kind in statements)
            searches.append(replace(targeted, doc_ids=named or filters.doc_ids, tags_any=tags))
            # Within named documents this ranking is the intersection of two pointers (the document
            # and its statement), so it weighs both: a statement page the question's words rank
            # low ("gross margin": the page says "cost of products") still comes first.
            weights.append(self._config.routed_weight + (self._config.named_weight if named else 0.0))
        rankings = [self._search(lexical, scope_filters, vector, top_k=per_library) for scope_filters in searches]
        clock.lap("search")
        fused = fuse(rankings, k=self._config.rrf_k, weights=weights)
        clock.lap("fuse")
        kept = postprocess(fused, per_doc_cap=self._config.per_doc_cap, score_floor=self._config.score_floor,
                           uncapped=named)
        clock.lap("postprocess")
        top = self._rerank(text, kept, top_k=wanted)
        clock.lap("rerank")
        if self._config.allow_restricted:  # the Gateway: no context fetched, the ceiling already held in the index
            hits = [ExpandedHit(hit, hit.chunk.text, (hit.chunk.chunk_id,)) for hit in top]
        else:
            hits = expand(top, index=self._index, mode=self._config.expansion, window=self._config.window,
                          max_sensitivity=ceiling)
        clock.lap("expand")
        logger.info("narrative retrieval done", extra={"libraries": list(libraries), "hits": len(hits)})
        reranked = bool(top) and top[0].source == RERANK_SOURCE
        return RetrievalResult(text, tuple(hits), libraries, routed, reranked, vector is not None, clock.finish(),
                               documents=named)

    def _validate(self, query: str) -> str:
        text = query.strip() if isinstance(query, str) else ""
        if not text:
            raise InvalidInputError("the query is empty: ask a question",
                                    field_errors=(FieldError("query", "must not be empty"),))
        limit = self._config.max_query_chars
        if len(text) > limit:
            raise InvalidInputError(f"the query has {len(text)} characters; the limit is {limit}: shorten it",
                                    field_errors=(FieldError("query", f"at most {limit} characters"),))
        return text

    def _checked_top_k(self, top_k: int | None) -> int:
        if top_k is None:
            return self._config.top_k
        if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= MAX_TOP_K:
            raise InvalidInputError(f"top_k must be between 1 and {MAX_TOP_K}, got {top_k!r}",
                                    field_errors=(FieldError("top_k", f"between 1 and {MAX_TOP_K}"),))
        return top_k

    def _libraries(self, text: str, filters: SearchFilters,
                   slots: Collection[str] | None) -> tuple[tuple[str, ...], bool]:
        if filters.libraries:
            return tuple(dict.fromkeys(filters.libraries)), False
        if slots is None:
            slots = self._slot_detector(text) if self._slot_detector else ()
        return self._router.route(text, slots=slots), True

    def _named_documents(self, text: str, filters: SearchFilters) -> tuple[str, ...]:
        """The documents the question names by company and year; none when the caller chose documents."""
        if filters.doc_ids or not isinstance(self._index, DocumentCatalog):
            return ()
        try:
            documents = self._index.documents()
        except ProviderUnavailableError as exc:
            # Targeting only reorders: the search itself reports an unreachable index.
            logger.warning("document list unavailable: no document targeting", extra={"error_code": exc.code})
            return ()
        return named_documents(text, documents)

    def _lexical_query(self, text: str) -> str:
        """The question, then its entities' codes and analyst vocabulary, each added only within the query limit."""
        query = text
        codes = self._entity_codes(text) if self._entity_codes is not None else ()
        if codes and len(text) + 1 + len(" ".join(codes)) <= self._config.max_query_chars:
            query = "\n".join((text, " ".join(codes)))
        if self._expander is None:
            return query
        added = self._expander.expand(text)[len(text):]  # the vocabulary's words, after a line break
        return query + added if len(query) + len(added) <= self._config.max_query_chars else query

    def _query_vector(self, text: str) -> list[float] | None:
        if self._embedder is None:
            return None
        try:
            vectors = self._embedder.embed([text])
        except ProviderUnavailableError as exc:
            # Lexical search alone still answers; a dead embedder must not take search down.
            logger.warning("query embedding failed: lexical search only",
                           extra={"embedder": self._embedder.name, "error_code": exc.code})
            return None
        return vectors[0] if len(vectors) == 1 else None

    def _search(self, text: str, filters: SearchFilters, vector: Sequence[float] | None, *,
                top_k: int) -> list[ScoredChunk]:
        try:
            hits = self._index.search(text, top_k=top_k, filters=filters, query_vector=vector)
        except ProviderUnavailableError:
            logger.warning("index search failed", extra={"libraries": list(filters.libraries)})
            raise
        # Second exit for sensitivity: an adapter bug must not leak a chunk above the ceiling.
        leaked = [hit.chunk.chunk_id for hit in hits if hit.chunk.sensitivity > filters.max_sensitivity]
        if leaked:
            logger.error("index returned chunks above the sensitivity ceiling", extra={"chunk_ids": leaked})
        return [hit for hit in hits if hit.chunk.sensitivity <= filters.max_sensitivity]

    def _rerank(self, text: str, hits: list[ScoredChunk], *, top_k: int) -> list[ScoredChunk]:
        if not self._config.rerank or self._llm is None:
            return hits[:top_k]
        candidates = hits[:max(top_k, self._config.rerank_candidates)]
        return rerank(text, candidates, top_k=top_k, llm=self._llm)


class _Stopwatch:
    """Milliseconds per stage, each measured from the end of the previous one."""

    def __init__(self) -> None:
        self._start = self._last = time.perf_counter()
        self._timings: dict[str, float] = {}

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self._timings[stage] = round((now - self._last) * 1000.0, 3)
        self._last = now

    def finish(self) -> dict[str, float]:
        self._timings["total"] = round((time.perf_counter() - self._start) * 1000.0, 3)
        return self._timings
