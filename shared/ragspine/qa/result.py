"""What ``answer_question`` returns."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ragspine.facts.query_metric import QueryResult
from ragspine.qa.slots import Slots

if TYPE_CHECKING:
    # Built only by the routes that need them, which load them: a figure read from the facts never creates
    # their classes (a question asked back and its options; the narrative channel's account of the reply).
    from ragspine.qa.clarification import Clarification, Option
    from ragspine.qa.narrative_detail import NarrativeDetail


class Route(enum.StrEnum):
    """Which path answered (seed 000 lifecycle)."""

    STRUCTURED = "structured"
    NARRATIVE = "narrative"
    COMPOSITE = "composite"
    CLARIFICATION = "clarification"
    REFUSED = "refused"
    FAQ = "faq"


class AnswerStatus(enum.StrEnum):
    """Outcome of the route that answered."""

    FOUND = "found"  # every lookup found (structured, composite) or a FAQ entry matched
    PARTIAL = "partial"  # some lookups found
    NOT_FOUND = "not_found"
    UNRECOGNIZED_PARAM = "unrecognized_param"
    ANSWERED = "answered"  # narrative answer from cited evidence
    NO_EVIDENCE = "no_evidence"  # searched, nothing relevant and authorised
    RETRIEVAL_UNAVAILABLE = "retrieval_unavailable"  # no retriever wired, or it failed
    PROVENANCE_REJECTED = "provenance_rejected"  # narrative: the model's text was rejected, passages quoted
    MODEL_UNAVAILABLE = "model_unavailable"  # narrative: the model timed out or failed, passages quoted
    UNSUPPORTED = "unsupported"  # narrative: no passage the answer cites speaks of what was asked, passages quoted
    NEEDS_CLARIFICATION = "needs_clarification"
    REFUSED = "refused"


class NarrativeKind(enum.StrEnum):
    """What became of the model's reply in the narrative part."""

    MODEL_ANSWER = "model_answer"  # the model's own text, cited and checked
    PROVENANCE_REJECTED = "provenance_rejected"  # a number (or its period) no passage supports: passages quoted
    MODEL_TIMEOUT = "model_timeout"  # no reply within the timeout: passages quoted
    MODEL_ERROR = "model_error"  # the provider failed or refused: passages quoted
    MODEL_DECLINED = "model_declined"  # the model said the passages do not answer
    OFF_QUESTION = "off_question"  # sourced, but restating the question or about another entity: passages quoted
    UNSUPPORTED_SUBJECT = "unsupported_subject"  # no cited passage names the entity, project or year asked about
    UNSUPPORTED_SENTENCE = "unsupported_sentence"  # a sentence its cited passage (or any one passage) does not say
    PREMISE_CONTRADICTED = "premise_contradicted"  # the rise or fall asked about is the facts' opposite: said, cited


@dataclass(frozen=True, slots=True)
class AnswerResult:
    """An answer with its sources (``{doc, locator}`` dicts, in citation order)."""

    answer: str
    sources: tuple[dict[str, str], ...]
    route: Route
    status: AnswerStatus
    slots: Slots
    results: tuple[QueryResult, ...] = ()
    refinements: tuple[Option, ...] = ()
    clarification: Clarification | None = None
    refusal_reason: str | None = None
    narrative_status: AnswerStatus | None = None
    trace: dict[str, object] = field(default_factory=dict)
    narrative_detail: NarrativeDetail | None = None

    def with_trace(self, trace: dict[str, object]) -> AnswerResult:
        """This result carrying ``trace``.

        A positional copy rather than ``dataclasses.replace``, which introspects every field on
        each call: this runs once per answer on the hot path. A test keeps it in step with the fields.
        """
        return AnswerResult(self.answer, self.sources, self.route, self.status, self.slots, self.results,
                            self.refinements, self.clarification, self.refusal_reason, self.narrative_status, trace,
                            self.narrative_detail)
