"""knowledge_search: authorised hybrid search over the caller's spaces, within seed 003's evidence budgets.

ACL before retrieval: only ACTIVE spaces where the caller holds KNOWLEDGE_SEARCH within its
security domains, and only their searchable documents (ACTIVE, active version READY) that pass
the metadata filter, go into the index query as space, document and active-version filters
(with the metadata filter and the caller's sensitivity ceiling), so nothing else can be ranked.
Disabling a document or retiring a version takes it out of the allowlist at once.
ACL after retrieval: every hit is re-read from the store (document, version, space, metadata)
before it is returned. Then at most 4 hits per document, each hit's text at most 2,500 code
points and all of them together at most 16,000, cut between grapheme clusters.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from ragspine.errors import ProviderUnavailableError
from ragspine.knowledge.documents import searchable
from ragspine.knowledge.evidence import MAX_LIMIT, PER_DOCUMENT
from ragspine.knowledge.evidence_text import clip
from ragspine.knowledge.gateway import Gateway
from ragspine.knowledge.model import Action, Document, Principal, Space, SpaceStatus
from ragspine.knowledge.operations import finalize
from ragspine.knowledge.search_filter import MetadataFilter, parse_filter
from ragspine.retrieval.model import Chunk, ScoredChunk, SearchFilters

logger = logging.getLogger(__name__)

NO_EVIDENCE = "NO_AUTHORIZED_RELEVANT_EVIDENCE"
DEFAULT_LIMIT = 5
HIT_TEXT_MAX = 2500
TOTAL_TEXT_MAX = 16000
CHAPTER_DEPTH, CHAPTER_TITLE_MAX = 8, 200


@dataclass(frozen=True, slots=True)
class Hit:
    """One authorised passage, carrying the citation handle knowledge_source_read takes."""

    space_id: str
    document_id: str
    version_id: str
    citation_id: str
    document_name: str
    page: int | None
    chapter_path: tuple[str, ...]
    text: str
    score: float
    truncated: bool

    def to_json(self) -> dict[str, Any]:
        """The contract's ``KnowledgeSearchHit`` (``chapterPath`` omitted when the passage has no heading)."""
        body: dict[str, Any] = {"knowledgeSpaceId": self.space_id, "documentId": self.document_id,
                                "versionId": self.version_id, "citationId": self.citation_id,
                                "documentName": self.document_name, "page": self.page, "text": self.text,
                                "score": self.score, "truncated": self.truncated}
        if self.chapter_path:
            body["chapterPath"] = list(self.chapter_path)
        return body


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The hits, or none and the seed's reason."""

    hits: tuple[Hit, ...]

    def to_json(self) -> dict[str, Any]:
        """``{hits}``, or ``{hits: [], reason: NO_AUTHORIZED_RELEVANT_EVIDENCE}``."""
        if not self.hits:
            return {"hits": [], "reason": NO_EVIDENCE}
        return {"hits": [hit.to_json() for hit in self.hits]}


@dataclass(frozen=True, slots=True)
class _Allowed:
    """What the caller may search: spaces and their searchable documents, by id."""

    spaces: dict[str, Space]
    documents: dict[str, Document]


def search(gateway: Gateway, principal: Principal, body: dict[str, Any]) -> SearchResult:
    """Run knowledge_search for ``principal`` (``body`` already matches the contract's closed schema).

    Raises:
        MetadataFilterFieldNotAllowedError, MetadataValueInvalidError, MetadataTooLargeError: a bad filter.
        ProviderUnavailableError: no chunk index, or it cannot be read.
    """
    wanted = parse_filter(body["metadataFilter"]) if "metadataFilter" in body else MetadataFilter()
    limit = int(body.get("limit", DEFAULT_LIMIT))
    allowed = _allowed(gateway, principal, wanted, spaces=tuple(body.get("knowledgeSpaceIds") or ()),
                       documents=tuple(body.get("documentIds") or ()))
    if not allowed.documents:
        return SearchResult(())
    if gateway.evidence is None:
        raise ProviderUnavailableError("no chunk index is configured, so the knowledge cannot be searched")
    space_ids = tuple(sorted({d.space_id for d in allowed.documents.values()}))
    filters = SearchFilters(
        libraries=space_ids, space_ids=space_ids, document_ids=tuple(sorted(allowed.documents)),
        version_ids=tuple(sorted(d.active_version_id or "" for d in allowed.documents.values())),
        categories=wanted.categories, tags_any=wanted.tags_any, tags_all=wanted.tags_all,
        version_labels=wanted.version_labels, product_codes=wanted.product_codes,
        max_sensitivity=max(gateway.config.domains[s.security_domain] for s in allowed.spaces.values()))
    ranked = gateway.evidence.search(body["query"], filters=filters, limit=MAX_LIMIT)
    return SearchResult(_budgeted(_rechecked(gateway, principal, ranked, allowed, wanted), limit))


def _allowed(gateway: Gateway, principal: Principal, wanted: MetadataFilter, *, spaces: tuple[str, ...],
             documents: tuple[str, ...]) -> _Allowed:
    chosen_spaces = set(spaces)
    chosen_documents = set(documents)
    found_spaces: dict[str, Space] = {}
    found_documents: dict[str, Document] = {}
    for space in gateway.store.spaces():
        if chosen_spaces and space.id not in chosen_spaces or not _may_search(gateway, principal, space):
            continue
        found_spaces[space.id] = space
        for document in gateway.store.documents(space.id):
            if chosen_documents and document.id not in chosen_documents:
                continue
            document = finalize(gateway, document)
            if (document.security_domain in principal.security_domains and wanted.admits(document.metadata)
                    and searchable(gateway, document)):
                found_documents[document.id] = document
    return _Allowed(found_spaces, found_documents)


def _may_search(gateway: Gateway, principal: Principal, space: Space) -> bool:
    if space.status is not SpaceStatus.ACTIVE or space.security_domain not in gateway.config.domains:
        return False
    return gateway.access(principal, space.id).holds(Action.KNOWLEDGE_SEARCH, domain=space.security_domain)


def _rechecked(gateway: Gateway, principal: Principal, ranked: list[ScoredChunk], allowed: _Allowed,
               wanted: MetadataFilter) -> list[tuple[ScoredChunk, Document]]:
    """Each hit again, against the store as it is now; one per passage, at most 4 per document."""
    kept: list[tuple[ScoredChunk, Document]] = []
    seen: set[str] = set()
    per_document: dict[str, int] = {}
    for hit in ranked:
        chunk = hit.chunk
        document = gateway.store.document(chunk.document_id or "")
        if document is None or not _still_allowed(gateway, principal, chunk, document, allowed, wanted):
            logger.warning("knowledge_search dropped a hit the ACL re-check refused",
                           extra={"chunk_id": chunk.chunk_id})
            continue
        if chunk.chunk_id in seen or per_document.get(document.id, 0) >= PER_DOCUMENT:
            continue
        seen.add(chunk.chunk_id)
        per_document[document.id] = per_document.get(document.id, 0) + 1
        kept.append((hit, document))
    return kept


def _still_allowed(gateway: Gateway, principal: Principal, chunk: Chunk, document: Document, allowed: _Allowed,
                   wanted: MetadataFilter) -> bool:
    space = gateway.store.space(document.space_id)
    return (document.id in allowed.documents and space is not None and chunk.space_id == space.id
            and _may_search(gateway, principal, space) and document.security_domain in principal.security_domains
            and chunk.version_id == document.active_version_id and wanted.admits(document.metadata)
            and searchable(gateway, document))


def _budgeted(kept: list[tuple[ScoredChunk, Document]], limit: int) -> tuple[Hit, ...]:
    hits: list[Hit] = []
    remaining = TOTAL_TEXT_MAX
    for hit, document in kept[:limit]:
        text, cut = clip(hit.chunk.text, min(HIT_TEXT_MAX, remaining))
        if not text:
            break  # the evidence budget is spent
        remaining -= len(text)
        hits.append(Hit(space_id=document.space_id, document_id=document.id,
                        version_id=hit.chunk.version_id or "", citation_id=hit.chunk.chunk_id,
                        document_name=document.name, page=page_of(hit.chunk.source_locator),
                        chapter_path=chapter_path(hit.chunk.heading_path), text=text, score=round(hit.score, 6),
                        truncated=cut))
    return tuple(hits)


def page_of(locator: str) -> int | None:
    """The 1-based first page of a locator such as ``page=3,para=2`` or ``page=3-4``; None without pages."""
    for part in locator.split(","):
        key, _, value = part.partition("=")
        if key.strip() == "page":
            first = value.split("-", 1)[0].strip()
            return int(first) if first.isdigit() and int(first) >= 1 else None
    return None


def chapter_path(headings: tuple[str, ...]) -> tuple[str, ...]:
    """The heading trail, bounded: at most 8 headings (the innermost), each at most 200 code points."""
    trail = [clip(h.strip(), CHAPTER_TITLE_MAX)[0] for h in headings if h.strip()]
    return tuple(t for t in trail[-CHAPTER_DEPTH:] if t)
