"""The plain lookup's short path held to the full path: an answer as the caller sees it, and the full path's.

``plain_answer`` and ``plain_intent`` answer a plain lookup without the full parse; their tests compare
each result with the one the full path gives (the plain path switched off), everything but timings.
"""

from __future__ import annotations

from unittest import mock

from ragspine.qa import answer as answer_module
from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.result import AnswerResult


def seen(result: AnswerResult) -> dict[str, object]:
    """Everything the caller gets but the trace's timings: the stages' names and the decisions stay."""
    trace = dict(result.trace)
    timings = result.trace["timings_ms"]
    assert isinstance(timings, dict)
    trace["timings_ms"] = sorted(timings)
    return {"answer": result.answer, "sources": result.sources, "route": result.route, "status": result.status,
            "slots": result.slots, "results": result.results, "refinements": result.refinements,
            "clarification": result.clarification, "refusal": result.refusal_reason, "trace": trace}


def full_path_answer(question: str, qa: QAComponents) -> AnswerResult:
    """``answer_question`` with the plain path switched off: every question parsed in full."""
    with mock.patch.object(answer_module, "plain_parse", return_value=None):
        return answer_question(question, qa=qa)
