"""``answer_question``: the entry point of Q&A (structured route of seed 001/002)."""

from __future__ import annotations

import itertools
from datetime import date

from ragspine.errors import FieldError, InvalidInputError
from ragspine.facts.glossary import Glossary
from ragspine.facts.ports import FactStore
from ragspine.facts.query_metric import MetricQuery, QueryResult, QueryStatus, run_query
from ragspine.qa.render import render_assumptions, render_result, render_unrecognized
from ragspine.qa.result import AnswerResult, AnswerStatus, Route
from ragspine.qa.slots import extract_slots

DEFAULT_MAX_QUESTION_CHARS = 1000
MAX_LOOKUPS = 48  # metrics x entities x periods x channels a single question may enumerate


def answer_question(question: str, *, facts: FactStore, glossary: Glossary, today: date,
                    max_chars: int = DEFAULT_MAX_QUESTION_CHARS) -> AnswerResult:
    """Answer a "what is the number?" question from the fact table.

    Args:
        question: the user's question, in Chinese, English or Japanese.
        facts: where facts are looked up.
        glossary: normalises metric, entity, period and channel words.
        today: the clock, for the default period (the last completed fiscal year).
        max_chars: questions longer than this are refused.

    Returns:
        The answer and its sources. Every number in it comes from a found fact with its
        document and locator; with no found fact the answer says so and gives no number.

    Raises:
        InvalidInputError: the question is empty or too long.
    """
    text = validate_question(question, max_chars=max_chars)
    slots = extract_slots(text, glossary=glossary, today=today)
    if slots.unrecognized is not None:
        return AnswerResult(render_unrecognized(slots.unrecognized, glossary), (), Route.STRUCTURED,
                            AnswerStatus.UNRECOGNIZED_PARAM, slots)
    combinations = list(itertools.product(slots.metrics, slots.entities, slots.periods, slots.channels))
    if len(combinations) > MAX_LOOKUPS:
        raise InvalidInputError(
            f"the question asks for {len(combinations)} figures; at most {MAX_LOOKUPS} per question: split it",
            field_errors=(FieldError("question", f"at most {MAX_LOOKUPS} metric/entity/period/channel combinations"),))
    results = tuple(run_query(MetricQuery(*combination), facts=facts) for combination in combinations)
    lines = [render_result(r, glossary) for r in results]
    if slots.assumptions:
        lines.append(render_assumptions(slots.assumptions, glossary))
    return AnswerResult("\n".join(lines), _sources(results), Route.STRUCTURED, _status(results), slots, results)


def validate_question(question: str, *, max_chars: int) -> str:
    """Strip a question and refuse it when empty or longer than ``max_chars``."""
    text = question.strip() if isinstance(question, str) else ""
    if not text:
        raise InvalidInputError("the question is empty: ask about a metric, e.g. 2024年日本的毛利率是多少",
                                field_errors=(FieldError("question", "must not be empty"),))
    if len(text) > max_chars:
        raise InvalidInputError(
            f"the question has {len(text)} characters; the limit is {max_chars}: shorten it",
            field_errors=(FieldError("question", f"at most {max_chars} characters"),))
    return text


def _sources(results: tuple[QueryResult, ...]) -> tuple[dict[str, str], ...]:
    seen: dict[tuple[str, str], dict[str, str]] = {}
    for result in results:
        if result.fact is not None:
            key = (result.fact.source_doc_id, result.fact.source_locator)
            seen.setdefault(key, {"doc": key[0], "locator": key[1]})
    return tuple(seen.values())


def _status(results: tuple[QueryResult, ...]) -> AnswerStatus:
    found = [r.status for r in results].count(QueryStatus.FOUND)
    if found == len(results):
        return AnswerStatus.FOUND
    return AnswerStatus.PARTIAL if found else AnswerStatus.NOT_FOUND
