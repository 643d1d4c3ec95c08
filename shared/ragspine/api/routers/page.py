"""The ask page at ``/``, its static files, the evidence view of one citation, and readers' feedback."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, FastAPI, Query
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from ragspine.api.deps import ServicesDep
from ragspine.api.envelope import ErrorEnvelope
from ragspine.api.evidence_deps import evidence_library
from ragspine.api.page_files import content_security_policy
from ragspine.evidence.library import EvidenceLibrary
from ragspine.feedback.store import FeedbackReason, FeedbackStore

router = APIRouter(tags=["page"])
WEB_DIR = Path(str(resources.files("ragspine") / "web"))
# The page's own files only; every call it makes goes to the API routes, never elsewhere.
_CSP = content_security_policy()


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
    """How the page signs in (locally it does not) and whether it may stream answers (locally it may)."""
    return {"login": None, "stream": True}


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
    from ragspine.evidence.languages import text_language
    from ragspine.evidence.regions import render_region

    stored = library.find(doc, version)
    if library.withheld(stored):
        return EvidenceResponse(status="withheld", doc=doc, locator=locator, version=None, current=stored.active,
                                format="none")
    region = render_region(library.read(stored), stored.suffix, locator, find=find)
    return EvidenceResponse(
        status="shown", doc=doc, locator=locator, version=stored.version, version_id=stored.version_id,
        current=stored.active, format=region.format, title=region.title, rows=[list(r) for r in region.rows],
        highlight=list(region.highlight) if region.highlight else None, header_rows=region.header_rows,
        header_cols=region.header_cols, text=region.text, image=region.image,
        box=list(region.box) if region.box else None,
        lang=text_language(region.text or " ".join(" ".join(r) for r in region.rows)))


@router.post("/v1/feedback", response_model=FeedbackModel, status_code=201, summary="Feedback on an answer or a number")
def add_feedback(body: FeedbackRequest, store: FeedbackDep) -> FeedbackModel:
    """Keep the reader's feedback with the figure's locator, for an administrator to review."""
    item = store.add(**body.model_dump())
    return FeedbackModel.model_validate(item.as_dict())


@router.get("/v1/feedback", response_model=list[FeedbackModel], summary="Feedback for an administrator, newest first")
def list_feedback(store: FeedbackDep,
                  limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> list[FeedbackModel]:
    """The latest feedback (local service only: the deployed API does not mount this router)."""
    return [FeedbackModel.model_validate(f.as_dict()) for f in store.list(limit=limit)]


def install(app: FastAPI) -> None:
    """Mount the page, its static files and the evidence and feedback routes on ``app``."""
    from ragspine.api.routers import ask_stream

    app.include_router(router)
    app.include_router(ask_stream.router)
    app.mount("/ui", StaticFiles(directory=WEB_DIR), name="ui")
