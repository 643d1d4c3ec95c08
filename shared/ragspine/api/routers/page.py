"""The ask page at ``/``, its static files, the evidence view of one citation, and readers' feedback."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Query
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from ragspine.api.deps import ServicesDep
from ragspine.api.envelope import ErrorEnvelope
from ragspine.api.evidence_deps import evidence_library
from ragspine.api.page_files import content_security_policy
from ragspine.api.query_int import ASCII_DIGITS
from ragspine.api.routers import ask_stream
from ragspine.api.strict_json import StrictJsonRoute
from ragspine.errors import ConfigurationError
from ragspine.evidence.library import EvidenceLibrary
from ragspine.evidence.views import (
    CorpusDocument,
    DocumentFacts,
    EvidenceQuery,
    EvidenceResponse,
    FeedbackModel,
    FeedbackRequest,
    SourceFacts,
    corpus_documents,
    document_facts,
    evidence_view,
)
from ragspine.feedback.store import FeedbackStore

router = APIRouter(tags=["page"], route_class=StrictJsonRoute)
WEB_DIR = Path(str(resources.files("ragspine") / "web"))
# The page's own files only; every call it makes goes to the API routes, never elsewhere.
_CSP = content_security_policy()


@functools.cache
def _feedback(data_dir: Path) -> FeedbackStore:
    return FeedbackStore(data_dir / "feedback.db")


def feedback_store(services: ServicesDep) -> FeedbackStore:
    """The process's feedback store."""
    return _feedback(services.settings.data_dir)


LibraryDep = Annotated[EvidenceLibrary, Depends(evidence_library)]
FeedbackDep = Annotated[FeedbackStore, Depends(feedback_store)]


@router.get("/", include_in_schema=False)
def page() -> Response:
    """The ask page (plain ES modules; no build step)."""
    return FileResponse(WEB_DIR / "index.html", media_type="text/html; charset=utf-8",
                        headers={"Content-Security-Policy": _CSP, "Cache-Control": "no-cache"})


@router.get("/ui/config.json", include_in_schema=False)
def page_config() -> dict[str, bool | None]:
    """How the page signs in (locally it does not), whether it may stream answers (locally it may) and
    whether the documents page reaches the Knowledge Gateway on this origin (locally it does)."""
    return {"login": None, "stream": True, "gateway": True}


@router.get("/documents", include_in_schema=False)
def documents_page() -> Response:
    """The documents page: every call it makes goes through the Knowledge Gateway with its own identity."""
    return FileResponse(WEB_DIR / "documents.html", media_type="text/html; charset=utf-8",
                        headers={"Content-Security-Policy": _CSP, "Cache-Control": "no-cache"})


@router.get("/feedback", include_in_schema=False)
def feedback_page() -> Response:
    """The administrator's list of readers' feedback (local service only, like every page route)."""
    return FileResponse(WEB_DIR / "feedback.html", media_type="text/html; charset=utf-8",
                        headers={"Content-Security-Policy": _CSP, "Cache-Control": "no-cache"})


@router.get("/v1/evidence", response_model=EvidenceResponse, summary="Render the region one citation points at",
            responses={404: {"model": ErrorEnvelope,
                             "description": "No such document, or the locator names nothing in it"},
                       410: {"model": ErrorEnvelope, "description": "The cited version is no longer stored"}})
def evidence(
    library: LibraryDep,
    doc: Annotated[str, Query(min_length=1, max_length=1000, description="The cited document id.")],
    locator: Annotated[str, Query(min_length=1, max_length=2000, description="The citation's locator.")],
    version: Annotated[str | None, Query(max_length=200, description="sha256:<hex> the citation pinned.")] = None,
    find: Annotated[str | None, Query(max_length=200, description="Text to box on a PDF page (the figure).")] = None,
) -> EvidenceResponse:
    """The cells, slide table, paragraph or PDF page at ``locator``, rendered from the stored version.

    A RESTRICTED document, or one above the service's sensitivity ceiling, answers "withheld"
    without reading the file, exactly as the answer path would never show its text.
    """
    return evidence_view(library, EvidenceQuery(doc=doc, locator=locator, version=version, find=find))


@router.get("/v1/documents", response_model=list[CorpusDocument],
            summary="The documents the service answers from, with how many facts each states")
def corpus(library: LibraryDep, services: ServicesDep) -> list[CorpusDocument]:
    """The active version of every corpus document the page may name (never a RESTRICTED one)."""
    return corpus_documents(library, _source_facts(services))


@router.get("/v1/documents/facts", response_model=DocumentFacts, summary="The facts one document states",
            responses={404: {"model": ErrorEnvelope, "description": "No such document in the service's corpus"}})
def facts_of(library: LibraryDep, services: ServicesDep,
             doc: Annotated[str, Query(min_length=1, max_length=1000, description="The document id.")],
             ) -> DocumentFacts:
    """Each fact with its metric, entity, period, value, unit and locator; "withheld" for a RESTRICTED document."""
    return document_facts(library, _source_facts(services), doc)


def _source_facts(services: ServicesDep) -> SourceFacts:
    store = services.facts
    if not hasattr(store, "by_source"):
        raise ConfigurationError("this fact store cannot list a document's facts")
    return store  # type: ignore[return-value]


@router.post("/v1/feedback", response_model=FeedbackModel, status_code=201, summary="Feedback on an answer or a number")
def add_feedback(body: FeedbackRequest, store: FeedbackDep) -> FeedbackModel:
    """Keep the reader's feedback with the figure's locator, for an administrator to review."""
    item = store.add(**body.model_dump())
    return FeedbackModel.model_validate(item.as_dict())


@router.get("/v1/feedback", response_model=list[FeedbackModel], summary="Feedback for an administrator, newest first")
def list_feedback(store: FeedbackDep,
                  limit: Annotated[int, Query(ge=1, le=1000), ASCII_DIGITS] = 100) -> list[FeedbackModel]:
    """The latest feedback (local service only: the deployed API does not mount this router)."""
    return [FeedbackModel.model_validate(f.as_dict()) for f in store.list(limit=limit)]


def install(app: FastAPI) -> None:
    """Mount the page, its static files and the evidence and feedback routes on ``app``."""
    app.include_router(router)
    app.include_router(ask_stream.router)
    app.mount("/ui", StaticFiles(directory=WEB_DIR), name="ui")
