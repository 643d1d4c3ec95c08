"""What ``answer_question`` returns."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ragspine.facts.query_metric import QueryResult
from ragspine.qa.slots import Slots


class Route(enum.StrEnum):
    """Which channel answered (seed 000 lifecycle)."""

    STRUCTURED = "structured"
    NARRATIVE = "narrative"
    COMPOSITE = "composite"


class AnswerStatus(enum.StrEnum):
    """Overall outcome: every lookup found, some found, none found, or a slot not understood."""

    FOUND = "found"
    PARTIAL = "partial"
    NOT_FOUND = "not_found"
    UNRECOGNIZED_PARAM = "unrecognized_param"


@dataclass(frozen=True, slots=True)
class AnswerResult:
    """An answer with its sources (``{doc, locator}`` dicts, in citation order)."""

    answer: str
    sources: tuple[dict[str, str], ...]
    route: Route
    status: AnswerStatus
    slots: Slots
    results: tuple[QueryResult, ...] = ()
