"""knowledge_source_read: a cited passage read back from its version's normalised text, with context.

The caller is authorised again on every read (a grant removed since the search means the read
is refused exactly as a missing document is). Counts are Unicode code points of the version's
normalised text (``retrieval.version_text``): context before and after default to 1,000 and
may be at most 5,000 each; the passage itself is at most 2,500, so a read returns at most
12,500 code points. Every cut falls on a grapheme boundary (``knowledge.graphemes``).
A retired version's citations read from its own text for as long as the version exists.
"""

from __future__ import annotations

from dataclasses import dataclass

from ragspine.errors import NotFoundError
from ragspine.knowledge.documents import visible_document
from ragspine.knowledge.gateway import Gateway
from ragspine.knowledge.graphemes import backward_start, forward_end
from ragspine.knowledge.model import Action, DocumentStatus, Principal, VersionStatus
from ragspine.knowledge.operations import version_status

DEFAULT_CONTEXT = 1000
MAX_CONTEXT = 5000
MAX_MATCHED = 2500
MAX_TOTAL = MAX_CONTEXT + MAX_MATCHED + MAX_CONTEXT  # 12,500: seed 003's total budget
MAX_CHAPTER_ITEMS = 8
MAX_CHAPTER_CHARS = 200
_READABLE = (VersionStatus.READY, VersionStatus.RETIRED)


@dataclass(frozen=True, slots=True)
class CitationRead:
    """One read: the three parts, the counts and where the passage is."""

    space_id: str
    document_id: str
    version_id: str
    citation_id: str
    before: str
    matched: str
    after: str
    before_requested: int
    after_requested: int
    before_truncated: bool
    matched_truncated: bool
    after_truncated: bool
    page_start: int | None
    page_end: int | None
    chapter_path: tuple[str, ...]
    exact: bool
    start: int
    end: int


def read_citation(gateway: Gateway, principal: Principal, document_id: str, citation_id: str, *, version_id: str,
                  context_before: int = DEFAULT_CONTEXT, context_after: int = DEFAULT_CONTEXT) -> CitationRead:
    """Read a citation of a version the caller may view.

    Raises:
        HiddenResourceError: the document is missing, deleted or not viewable (grants read now).
        NotFoundError: the version is not the document's, not READY or RETIRED, or has no such citation.
    """
    document = visible_document(gateway, principal, document_id, Action.DOCUMENT_VIEW)
    missing = NotFoundError(f"no citation {citation_id} in version {version_id} of this document: use the "
                            "documentId, versionId and citationId of a knowledge_search hit")
    if document.status is DocumentStatus.DELETING:
        raise missing
    version = gateway.store.version(version_id)
    if version is None or version.document_id != document.id or version_status(gateway, version) not in _READABLE:
        raise missing
    record = gateway.texts.get(version_id)
    passage = record.passages.get(citation_id) if record is not None else None
    if record is None or passage is None:
        raise missing
    text = record.text
    matched_end = forward_end(text, passage.start, MAX_MATCHED, passage.end)
    before_start = backward_start(text, passage.start, context_before)
    after_end = forward_end(text, passage.end, context_after)
    return CitationRead(
        space_id=document.space_id, document_id=document.id, version_id=version.id, citation_id=citation_id,
        before=text[before_start:passage.start], matched=text[passage.start:matched_end],
        after=text[passage.end:after_end], before_requested=context_before, after_requested=context_after,
        # Less than asked although the document goes on: a grapheme boundary (or the budget) cut it.
        before_truncated=passage.start - before_start < min(context_before, passage.start),
        matched_truncated=matched_end < passage.end,
        after_truncated=after_end - passage.end < min(context_after, len(text) - passage.end),
        page_start=passage.page_start, page_end=passage.page_end,
        chapter_path=tuple(h[:forward_end(h, 0, MAX_CHAPTER_CHARS)] for h in passage.heading_path[-MAX_CHAPTER_ITEMS:]),
        exact=passage.exact, start=passage.start, end=passage.end)
