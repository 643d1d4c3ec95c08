"""``POST /v1/ask``: answer a question with its sources."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from fastapi import APIRouter

from ragspine.api.deps import ServicesDep
from ragspine.api.schemas import AskRequest, AskResponse
from ragspine.api.strict_json import StrictJsonRoute
from ragspine.settings import Backend

if TYPE_CHECKING:
    from ragspine.bootstrap import Services
    from ragspine.qa.answer import QAComponents

logger = logging.getLogger(__name__)
router = APIRouter(prefix="/v1", tags=["ask"], route_class=StrictJsonRoute)


@router.post("/ask", response_model=AskResponse, summary="Answer a question with its sources")
def ask(body: AskRequest, services: ServicesDep) -> AskResponse:
    """Run the question through the engine; every number carries its document and locator."""
    return answer(body, services)


def answer(body: AskRequest, services: Services, qa: QAComponents | None = None) -> AskResponse:
    """The response of ``POST /v1/ask`` (``qa``: the services' own components unless given)."""
    from ragspine.qa.answer import answer_question  # the engine loads on the first request

    result = answer_question(body.question, qa=qa or services.qa, history=body.messages())
    # Codes and counts only: the question and the values may be sensitive.
    logger.info("question answered", extra={"route": result.route.value, "status": result.status.value,
                                            "sources": len(result.sources), "question_chars": len(body.question)})
    response = AskResponse.from_result(result, question=body.question)
    if services.settings.backend is Backend.EMBEDDED:
        # Embedded only: the operation store is local. On AWS, passage citations carry no version yet.
        from ragspine.api.evidence_deps import evidence_library
        from ragspine.evidence.pinning import pin_versions

        response = pin_versions(response, evidence_library(services))
    return response
