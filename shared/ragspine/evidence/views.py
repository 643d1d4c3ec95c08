"""What the page's evidence, documents and feedback routes answer, shared by the local app and the page Lambda.

No web framework here: the local service wraps these in FastAPI routes, the page Lambda calls them
from its own small router, so both answer the same bodies under the same sensitivity rules.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Literal, Protocol

from pydantic import BaseModel, Field

from ragspine.errors import NotFoundError
from ragspine.evidence.languages import text_language
from ragspine.evidence.regions import render_region
from ragspine.facts.model import format_number
from ragspine.feedback.store import FeedbackReason
from ragspine.qa.parts import fact_id

if TYPE_CHECKING:
    from ragspine.evidence.library import EvidenceLibrary
    from ragspine.facts.model import Fact


class EvidenceResponse(BaseModel):
    """The rendered region one citation points at (or "withheld", never its text)."""

    status: Literal["shown", "withheld"]
    doc: str
    locator: str
    version: str | None = Field(description="sha256:<hex> of the version rendered (null when withheld).")
    version_id: str | None = None
    current: bool = Field(description="Whether the rendered version is the document's active version.")
    format: Literal["table", "text", "image", "none"]
    title: str = ""
    rows: list[list[str]] = Field(default_factory=list, description="Table cells, header rows and columns first.")
    highlight: list[int] | None = Field(default=None, description="[row, column] of the cited cell in rows.")
    header_rows: int = 0
    header_cols: int = 0
    text: str = ""
    image: str = Field(default="", description="data: URL of the rendered PDF page (PNG).")
    box: list[float] | None = Field(default=None, description="Highlighted box in image pixels [x0, y0, x1, y1].")
    lang: str | None = Field(default=None, description="Language of the source text, when known.")


class EvidenceQuery(BaseModel):
    """The evidence route's query (the page Lambda validates with it; FastAPI states the same bounds)."""

    doc: str = Field(min_length=1, max_length=1000)
    locator: str = Field(min_length=1, max_length=2000)
    version: str | None = Field(default=None, max_length=200)
    find: str | None = Field(default=None, max_length=200)


class FeedbackRequest(BaseModel):
    """Feedback on an answer, or on one number of it (with that number's source)."""

    reason: FeedbackReason
    question: str = Field(max_length=20000)
    answer: str = Field(max_length=100000)
    comment: str = Field(default="", max_length=4000)
    value: str | None = Field(default=None, max_length=200)
    fact_id: str | None = Field(default=None, max_length=500)
    doc: str | None = Field(default=None, max_length=1000)
    locator: str | None = Field(default=None, max_length=2000)
    version: str | None = Field(default=None, max_length=200)


class FeedbackModel(FeedbackRequest):
    """Stored feedback."""

    id: str
    created_at: str


class CorpusDocument(BaseModel):
    """One document of the service's corpus (what ``/v1/ask`` answers from) and how many facts it states."""

    doc: str
    version: str = Field(description="sha256:<hex> of the active version's file.")
    version_id: str
    sensitivity: str = Field(description="PUBLIC, INTERNAL or CONFIDENTIAL (RESTRICTED documents are never listed).")
    facts: int = Field(description="Facts of the fact table whose source is this document.")
    pages: int = 0
    ingested_at: str | None = None


class DocumentFact(BaseModel):
    """One fact a document states, with the locator of the cell or passage it was read from."""

    id: str = Field(description="metric/entity/channel/period, as a number part's id.")
    metric: str
    entity: str
    channel: str
    period: str
    value: str = Field(description="The value as the source wrote it.")
    unit: str
    locator: str
    version: str | None = Field(description="sha256:<hex> of the file the fact was read from.")


class DocumentVersion(BaseModel):
    """One stored version of a document."""

    version: str
    version_id: str
    active: bool
    ingested_at: str | None = None


class DocumentFacts(BaseModel):
    """A document's stored versions and the facts it states (or "withheld", naming nothing of it)."""

    status: Literal["shown", "withheld"]
    doc: str
    count: int
    facts: list[DocumentFact] = Field(default_factory=list)
    versions: list[DocumentVersion] = Field(default_factory=list)


class SourceFacts(Protocol):
    """The part of a fact store the documents page reads (SQLite locally, DynamoDB on AWS)."""

    def by_source(self, source_doc_id: str) -> list[Fact]:
        """The facts one document states."""
        ...


def evidence_view(library: EvidenceLibrary, query: EvidenceQuery) -> EvidenceResponse:
    """The cells, slide table, paragraph or PDF page a citation points at, from the version it cited.

    A RESTRICTED document, one above the service's ceiling, or one disabled in its knowledge space
    answers "withheld" without reading the file.

    Raises:
        NotFoundError: no such document, or the locator names nothing in it.
        VersionGoneError: the cited version is no longer stored.
    """
    stored = library.find(query.doc, query.version)
    if library.withheld(stored):
        return EvidenceResponse(status="withheld", doc=query.doc, locator=query.locator, version=None,
                                current=stored.active, format="none")
    region = render_region(library.read(stored), stored.suffix, query.locator, find=query.find)
    return EvidenceResponse(
        status="shown", doc=query.doc, locator=query.locator, version=stored.version,
        version_id=stored.version_id, current=stored.active, format=region.format, title=region.title,
        rows=[list(r) for r in region.rows], highlight=list(region.highlight) if region.highlight else None,
        header_rows=region.header_rows, header_cols=region.header_cols, text=region.text, image=region.image,
        box=list(region.box) if region.box else None,
        lang=text_language(region.text or " ".join(" ".join(r) for r in region.rows)))


def corpus_documents(library: EvidenceLibrary, facts: SourceFacts) -> list[CorpusDocument]:
    """Every document of the service's corpus the page may name, with its active version and fact count."""
    return [CorpusDocument(doc=s.doc_id, version=s.version, version_id=s.version_id,
                           sensitivity=s.sensitivity.name, facts=len(_shown_facts(library, facts, s.doc_id)),
                           pages=s.operation.pages_count, ingested_at=_time(s.operation.finished_at))
            for s in library.corpus()]


def document_facts(library: EvidenceLibrary, facts: SourceFacts, doc: str) -> DocumentFacts:
    """The stored versions of ``doc`` and the facts it states, each with the locator the evidence view opens.

    Raises:
        NotFoundError: no such document in the service's corpus (a knowledge space's documents
            publish no facts; their Gateway details say so).
    """
    stored = library.find(doc)
    if stored.operation.space is not None:
        raise NotFoundError(f"{doc!r} belongs to a knowledge space, whose documents publish no facts; "
                            "see its details on the Knowledge Gateway")
    if library.withheld(stored):
        return DocumentFacts(status="withheld", doc=doc, count=0)
    shown = _shown_facts(library, facts, doc)
    return DocumentFacts(
        status="shown", doc=doc, count=len(shown),
        facts=[DocumentFact(id=fact_id(f), metric=f.metric_code, entity=f.entity, channel=f.channel,
                            period=f"{f.period_type}{f.period}", value=format_number(f.value), unit=f.unit,
                            locator=f.source_locator, version=f.source_file_hash) for f in shown],
        versions=[DocumentVersion(version=op.file_hash, version_id=op.version_id,
                                  active=op.version_id == stored.version_id, ingested_at=_time(op.finished_at))
                  for op in library.versions(doc)])


def _shown_facts(library: EvidenceLibrary, facts: SourceFacts, doc: str) -> list[Fact]:
    """The document's facts an answer may quote (a RESTRICTED figure is never counted or listed)."""
    return [f for f in facts.by_source(doc) if library.shows(f.sensitivity)]


def _time(moment: object) -> str | None:
    return moment.isoformat(timespec="seconds") if isinstance(moment, datetime) else None
