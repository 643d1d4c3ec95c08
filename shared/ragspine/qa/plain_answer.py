"""The structured answer of a plain lookup, built directly from its parse: one store read, one line, its source.

A plain lookup (``qa/plain_lookup.py``) names one glossary metric, one fiscal year or quarter and at
most one entity and one channel, and asks nothing else: every step the full path takes after the
parse finds nothing to do for it (no document's row or stated share to read, no unknown name, no
count, span or stated year, no derived figure, undated or falling-due figure, change line or sum of
parts) as long as its figure is found as asked and the structured asks are shown to be nothing.
Then the answer is the fact's line, the assumptions the clarify gate made (an entity not named),
the fact's source and the gate's refinements, exactly as the full path renders them. A figure not
found, an FAQ hit, a unit asked, or a question the asks gate cannot clear goes to the full path
unchanged (nothing is recorded in the trace before this returns None).

The property tests hold the results to the full path's (``tests/unit/qa/test_plain_answer.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragspine.facts.model import format_number
from ragspine.facts.query_metric import MetricQuery, QueryStatus, run_query
from ragspine.frozen_records import record_builder
from ragspine.qa.analytics.cues import NO_ANALYSIS
from ragspine.qa.arithmetic_cues import NO_ARITHMETIC
from ragspine.qa.clarify import Proceed
from ragspine.qa.glossary_memo import GlossaryMemo
from ragspine.qa.intent_model import Channel
from ragspine.qa.plain_asks import asks_nothing_more
from ragspine.qa.provenance import figure_values, line_claims
from ragspine.qa.render import render_assumptions, render_result
from ragspine.qa.result import AnswerResult, AnswerStatus, Route
from ragspine.qa.structured import outcome_sources

if TYPE_CHECKING:
    from ragspine.facts.glossary import Glossary
    from ragspine.facts.model import Fact
    from ragspine.facts.query_metric import QueryResult
    from ragspine.qa.answer import QAComponents
    from ragspine.qa.language import Lang
    from ragspine.qa.parse_cache import ParsedQuestion
    from ragspine.qa.slots import Slots
    from ragspine.qa.trace import TraceRecorder

PROVENANCE_PASS = "provenance:pass"
_STRUCTURED, _FOUND = str(Route.STRUCTURED), str(AnswerStatus.FOUND)  # the trace's plain strings
# The enum members read on every ask, read once: on Python 3.11 a member read off its class goes through the
# enum metaclass's ``__getattr__`` hook, a slow class look-up each time.
_STRUCTURED_CHANNEL, _QUERY_FOUND = Channel.STRUCTURED, QueryStatus.FOUND
_STRUCTURED_ROUTE, _FOUND_STATUS = Route.STRUCTURED, AnswerStatus.FOUND
# The answer text of the last figures answered, by everything it is made of: questions worded anew keep asking
# for the same few figures, and a figure's line, its assumptions' sentence and their provenance verdict are a
# function of the figure's key, value as written, unit and source, the assumptions and the language (each entry
# keeps the glossary it was rendered with: another glossary renders afresh). Figures other sources state
# differently are rendered each time.
_TEXTS: GlossaryMemo[str | None] = GlossaryMemo(256)
# built on every ask: their slots set directly, not through the frozen __init__ (ragspine/frozen_records.py)
_NEW_QUERY, _NEW_ANSWER = record_builder(MetricQuery), record_builder(AnswerResult)


def plain_answer(shape: ParsedQuestion, text: str, qa: QAComponents, trace: TraceRecorder) -> AnswerResult | None:
    """The result, its trace emitted, that the full path gives a plain lookup whose figure is found; else None."""
    intent, decision = shape.intent, shape.decision
    if (intent is None or shape.faq is not None or not isinstance(decision, Proceed)
            or intent.channel is not _STRUCTURED_CHANNEL or intent.requested_unit is not None
            or intent.arithmetic is not NO_ARITHMETIC or (intent.analysis is not NO_ANALYSIS and intent.analysis)):
        return None  # a curated answer, a question asked back, a unit to note or anything computed: the full path's
    slots = decision.slots
    if (len(slots.metrics) != 1 or len(slots.periods) != 1 or slots.unrecognized is not None
            or slots.metrics[0] in qa.glossary.formulas or not asks_nothing_more(text, intent, slots, qa.glossary)):
        return None
    query = _NEW_QUERY(slots.metrics[0], slots.entities[0], slots.periods[0], slots.channels[0])
    result = run_query(query, facts=qa.facts, max_sensitivity=qa.max_sensitivity)
    fact = result.fact
    if result.status is not _QUERY_FOUND or fact is None:
        return None  # a figure not found as asked may fall due in the year named: the full path reads the schedule
    answer = _memoised_answer_text(result, fact, slots, qa.glossary, shape.lang)
    if answer is None:
        return None
    trace.stage("structured")
    trace.decide(PROVENANCE_PASS)
    # the trace as ``answer._finish`` emits it for a structured answer: one fact, no passage
    # (the fact's key is the query's: the store matched it column by column)
    # (the slots as ``Slots.as_dict`` writes them, from the one metric and period checked above)
    emitted = trace.finish(route=_STRUCTURED, status=_FOUND, slots={
        "metric": [query.metric_code], "entity": list(slots.entities), "period": [query.period.label],
        "channel": list(slots.channels)}, fact_ids=["/".join(query.key)], chunk_ids=[])
    # one figure and none differing: its document and locator are the answer's one source
    sources = outcome_sources((result,)) if result.conflicts else (
        {"doc": fact.source_doc_id, "locator": fact.source_locator},)
    return _NEW_ANSWER(answer, sources, _STRUCTURED_ROUTE, _FOUND_STATUS, slots, (result,),
                       decision.refinements, None, None, None, emitted)


def _memoised_answer_text(result: QueryResult, fact: Fact, slots: Slots, glossary: Glossary,
                          lang: Lang) -> str | None:
    """``_answer_text``, kept for the last figures answered without differing figures."""
    query = result.query
    if result.conflicts or query is None:
        return _answer_text(result, fact, slots, glossary, lang)
    # the value as written, not the value: 1320 and 1320.0 are equal keys but render differently
    key = (query.key, format_number(fact.value), fact.unit, fact.source_doc_id, fact.source_locator,
           slots.assumptions, lang)
    return _TEXTS.recall(key, glossary, lambda: _answer_text(result, fact, slots, glossary, lang))


def _answer_text(result: QueryResult, fact: Fact, slots: Slots, glossary: Glossary, lang: Lang) -> str | None:
    """The fact's line and the assumptions' sentence, when every number they show is one the answer may show.

    The line's number is the fact's value, formatted by ``format_number`` from the very fact it cites (and
    any differing figure from its own fact); the only other numbers are the period's, written by its label.
    So the provenance check passes by construction as long as no name or unit of the glossary reads as a
    number: each line's claims (read once per process, as the full check reads them) are held to those
    values, and a line claiming anything else is left to the full path's check and its verdict.
    """
    lines = [render_result(result, glossary, lang)]
    if slots.assumptions:
        lines.append(render_assumptions(slots.assumptions, glossary, lang))
    shown = [figure_values(format_number(fact.value)), figure_values(slots.periods[0].label),
             *[figure_values(format_number(other.value)) for other in result.conflicts]]
    for line in lines:
        for claim in line_claims(line):
            if not any(claim.readings & values for values in shown):
                return None
    return "\n".join(lines)
