"""Request and response models of the Q&A routes (pydantic only at the edge)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ragspine.qa.result import AnswerResult, AnswerStatus, Route

HARD_MAX_QUESTION_CHARS = 20000  # schema ceiling; the configured limit (RAGSPINE_MAX_QUESTION_CHARS) is lower


class AskRequest(BaseModel):
    """A question in Chinese, English or Japanese."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"question": "2024年日本的毛利率是多少"}, {"question": "中国内地FY2024的REVENUE是多少"}]})

    question: str = Field(min_length=1, max_length=HARD_MAX_QUESTION_CHARS,
                          description="The question; its length is limited by RAGSPINE_MAX_QUESTION_CHARS.")


class SourceModel(BaseModel):
    """Where a number or snippet comes from: document id and locator inside it."""

    doc: str
    locator: str


class SlotsModel(BaseModel):
    """The normalised slots: codes per slot (several when the question enumerates them)."""

    metric: list[str]
    entity: list[str]
    period: list[str]
    channel: list[str]


class AssumptionModel(BaseModel):
    """A slot the question left out and the value assumed for it."""

    slot: str
    value: str
    reason: str


class AskResponse(BaseModel):
    """The answer with its sources, unchanged from the engine's result."""

    answer: str
    sources: list[SourceModel]
    route: Route
    status: AnswerStatus
    slots: SlotsModel
    assumptions: list[AssumptionModel]
    results: list[dict[str, Any]] = Field(description="The tri-state query_metric result of each lookup.")

    @classmethod
    def from_result(cls, result: AnswerResult) -> AskResponse:
        """Map the engine result field by field (sources pass through untouched)."""
        return cls(
            answer=result.answer,
            sources=[SourceModel(**s) for s in result.sources],
            route=result.route,
            status=result.status,
            slots=SlotsModel(**result.slots.as_dict()),
            assumptions=[AssumptionModel(slot=a.slot.value, value=a.value, reason=a.reason)
                         for a in result.slots.assumptions],
            results=[r.to_dict() for r in result.results],
        )


class HealthResponse(BaseModel):
    """Liveness and what the service is wired to."""

    status: str
    backend: str
    version: str
