"""Request and response models of the Q&A routes (pydantic only at the edge)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ragspine.lazy import LazyModule
from ragspine.llm.ports import Role
from ragspine.qa.language import detect_language
from ragspine.qa.parts import AnswerPart, answer_parts
from ragspine.qa.result import AnswerResult, AnswerStatus, NarrativeKind, Route

if TYPE_CHECKING:
    from ragspine.llm import chat
    from ragspine.llm.chat import Message
    from ragspine.qa.clarification import Option
    from ragspine.qa.narrative_detail import NarrativeDetail
else:
    chat = LazyModule("ragspine.llm.chat")  # loaded by a request with history: a first question has none

HARD_MAX_QUESTION_CHARS = 20000  # schema ceiling; the configured limit (RAGSPINE_MAX_QUESTION_CHARS) is lower


MAX_HISTORY_TURNS = 20


def _empty_list() -> list[Any]:
    """A new empty list, a list field's default. Given ``list`` itself, pydantic reads the builtin's signature
    from its text, tokenizing it, for each such field at every cold start."""
    return []


class HistoryTurn(BaseModel):
    """A prior turn of the conversation (used only in the final generation messages)."""

    model_config = ConfigDict(extra="forbid")

    role: Literal["user", "assistant"]
    content: str = Field(max_length=HARD_MAX_QUESTION_CHARS)


class AskRequest(BaseModel):
    """A question in Chinese, English or Japanese, with optional conversation history."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"question": "2024年日本的毛利率是多少"}, {"question": "中国内地FY2024的REVENUE是多少"},
                     {"question": "Why did Hong Kong revenue fall in 2024?"}]})

    question: str = Field(min_length=1, max_length=HARD_MAX_QUESTION_CHARS,
                          description="The question; its length is limited by RAGSPINE_MAX_QUESTION_CHARS.")
    history: list[HistoryTurn] = Field(
        default_factory=_empty_list, max_length=MAX_HISTORY_TURNS,
        description="Earlier turns. They never change screening, routing, retrieval or evidence.")

    def messages(self) -> list[Message]:
        """History as engine messages."""
        return [chat.Message(Role(turn.role), turn.content) for turn in self.history]


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


class OptionModel(BaseModel):
    """A one-click choice; send ``question`` back as a new question to pick it."""

    label: str
    question: str
    slot: str
    value: str


class ClarificationModel(BaseModel):
    """The question asked back instead of an answer, with options."""

    question: str
    options: list[OptionModel]


class PartSourceModel(BaseModel):
    """Where a number or a citation points: document, version (its file hash, when known), locator."""

    doc: str
    locator: str
    version: str | None = Field(default=None, description="sha256:<hex> of the cited document version, if known.")


class AnswerPartModel(BaseModel):
    """One piece of the answer; the parts' ``text`` joined in order is exactly ``answer``."""

    type: Literal["text", "number", "citation"]
    text: str
    kind: Literal["fact", "computed", "quoted", "unverified", "source"] | None = Field(
        default=None, description="number: fact, computed, quoted or unverified; citation: source or computed.")
    id: str | None = Field(default=None, description="Fact id (metric/entity/channel/period) or computation id.")
    value: str | None = Field(default=None, description="The figure exactly as written in the answer.")
    unit: str | None = None
    period: str | None = None
    sources: list[PartSourceModel] = Field(default_factory=_empty_list,
                                           description="The fact's source, a computation's inputs, or the passage.")


class NarrativeDetailModel(BaseModel):
    """What became of the model's reply in the narrative part (docs/narrative-model.md)."""

    kind: NarrativeKind = Field(description="model_answer, provenance_rejected, off_question, unsupported_subject, "
                                            "unsupported_sentence, model_timeout, model_error, model_declined or "
                                            "premise_contradicted (the figures show the opposite of the change "
                                            "asked about; no model asked)")
    unsupported: list[str] = Field(default_factory=_empty_list, description=(
        "Values the passages do not support; for unsupported_subject, what was asked (entity code, name, year) "
        "that no cited passage names; for unsupported_sentence, each sentence no passage supports, numbered from 1 "
        "('2: …')."))
    reason: str | None = Field(default=None, description="The provider's LLM_* code on a timeout or error; "
                                                         "RESTATED_QUESTION or OTHER_ENTITY for off_question.")
    retryable: bool | None = None
    hint: str | None = Field(default=None, description="What to do next, in the question's language.")
    language_kept: bool | None = Field(default=None, description="The reply is in the question's language.")
    asked_again: bool = Field(default=False, description="The model was asked once more for the language.")
    asked_for_answer: bool = Field(default=False, description="The model was asked once more after its reply "
                                                              "only repeated the question.")
    structured_output: bool | None = Field(
        default=None, description="The endpoint replied with the requested JSON (null: not requested).")


class AskResponse(BaseModel):
    """The answer with its sources, unchanged from the engine's result."""

    answer: str
    sources: list[SourceModel]
    route: Route = Field(description="structured, narrative, composite, clarification, refused or faq")
    status: AnswerStatus
    slots: SlotsModel
    assumptions: list[AssumptionModel]
    refinements: list[OptionModel] = Field(description="Other values for assumed slots, as ready questions.")
    clarification: ClarificationModel | None = Field(description="Set when route is clarification.")
    refusal_reason: str | None = Field(description="Reason code when route is refused.")
    narrative_status: AnswerStatus | None = Field(description="Outcome of the narrative part (narrative, composite).")
    results: list[dict[str, Any]] = Field(description="The tri-state query_metric result of each lookup.")
    language: Literal["zh", "en", "ja"] | None = Field(default=None, description=(
        "The language the answer is written in: the question's (zh, en or ja)."))
    parts: list[AnswerPartModel] = Field(default_factory=_empty_list, description=(
        "The answer split into text, citations and numbers (each with its kind and source); "
        "joined in order they give back `answer` exactly."))
    narrative_detail: NarrativeDetailModel | None = Field(
        default=None, description="How the narrative part was reached: the model's answer, a rejection, a "
                                  "timeout or error with a retry hint, or the model declining.")

    @classmethod
    def from_result(cls, result: AnswerResult, *, question: str | None = None) -> AskResponse:
        """Map the engine result field by field (sources pass through untouched).

        ``question`` gives ``language``: the engine answers in the question's language.
        """
        clarification = result.clarification
        return cls(
            language=detect_language(question).value if question else None,
            answer=result.answer,
            sources=[SourceModel(**s) for s in result.sources],
            route=result.route,
            status=result.status,
            slots=SlotsModel(**result.slots.as_dict()),
            assumptions=[AssumptionModel(slot=a.slot.value, value=a.value, reason=a.reason)
                         for a in result.slots.assumptions],
            refinements=[_option(o) for o in result.refinements],
            clarification=ClarificationModel(question=clarification.question,
                                             options=[_option(o) for o in clarification.options])
            if clarification else None,
            refusal_reason=result.refusal_reason,
            narrative_status=result.narrative_status,
            results=[r.to_dict() for r in result.results],
            parts=[_part(p) for p in answer_parts(result)],
            narrative_detail=_narrative_detail(result.narrative_detail),
        )


def _part(part: AnswerPart) -> AnswerPartModel:
    return AnswerPartModel.model_validate({
        "type": part.type, "text": part.text, "kind": part.kind, "id": part.id, "value": part.value,
        "unit": part.unit, "period": part.period, "sources": [s.as_dict() for s in part.sources]})


def _narrative_detail(detail: NarrativeDetail | None) -> NarrativeDetailModel | None:
    if detail is None:
        return None
    return NarrativeDetailModel(kind=detail.kind, unsupported=list(detail.unsupported), reason=detail.reason,
                                retryable=detail.retryable, hint=detail.hint, language_kept=detail.language_kept,
                                asked_again=detail.asked_again, asked_for_answer=detail.asked_for_answer,
                                structured_output=detail.structured_output)


def _option(option: Option) -> OptionModel:
    return OptionModel(label=option.label, question=option.question, slot=option.slot, value=option.value)


class HealthResponse(BaseModel):
    """Liveness and what the service is wired to."""

    status: str
    backend: str
    version: str
