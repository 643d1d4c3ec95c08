"""``POST /v1/ask``: answer a question with its sources."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request

from ragspine.api.blocking import run_blocking
from ragspine.api.deps import ServicesDep
from ragspine.api.schemas import AskRequest, AskResponse
from ragspine.api.strict_json import StrictJsonRoute
from ragspine.lazy import LazyModule
from ragspine.settings import Backend

if TYPE_CHECKING:
    from ragspine.api import evidence_deps
    from ragspine.bootstrap import Services
    from ragspine.evidence import pinning
    from ragspine.qa import answer as qa_answer
    from ragspine.qa.answer import QAComponents
else:
    # Loaded on first use, not at import: a Lambda importing this module does not pay for them at cold start.
    evidence_deps = LazyModule("ragspine.api.evidence_deps")
    pinning = LazyModule("ragspine.evidence.pinning")
    qa_answer = LazyModule("ragspine.qa.answer")

logger = logging.getLogger(__name__)
router = APIRouter(prefix="/v1", tags=["ask"], route_class=StrictJsonRoute)


@router.post("/ask", response_model=AskResponse, summary="Answer a question with its sources")
async def ask(body: AskRequest, services: ServicesDep, request: Request) -> AskResponse:
    """Run the question through the engine; every number carries its document and locator."""
    return await run_blocking(request, answer, body, services)


def answer(body: AskRequest, services: Services, qa: QAComponents | None = None) -> AskResponse:
    """The response of ``POST /v1/ask`` (``qa``: the services' own components unless given)."""
    result = qa_answer.answer_question(body.question, qa=qa or services.qa, history=body.messages())
    # Codes and counts only: the question and the values may be sensitive.
    logger.info("question answered", extra={"route": result.route.value, "status": result.status.value,
                                            "sources": len(result.sources), "question_chars": len(body.question)})
    response = AskResponse.from_result(result, question=body.question)
    if services.settings.backend is Backend.EMBEDDED:
        # Embedded only: the operation store is local. On AWS, passage citations carry no version yet.
        response = pinning.pin_versions(response, evidence_deps.evidence_library(services))
    return response
