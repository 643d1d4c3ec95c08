"""``answer_question``: the question lifecycle of seed 000.

question → deterministic screening → clarification gate → FAQ short-circuit →
structured | narrative | composite → provenance check → answer + sources.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date

from ragspine.errors import FieldError, InvalidInputError
from ragspine.facts.glossary import Glossary
from ragspine.facts.model import format_number
from ragspine.facts.ports import FactStore
from ragspine.llm.ports import LLMProvider, Message
from ragspine.qa.clarify import AskBack, clarify_scope
from ragspine.qa.faq import FaqIndex
from ragspine.qa.intent_model import Channel
from ragspine.qa.language import Lang, detect_language
from ragspine.qa.narrative import run_narrative
from ragspine.qa.ports import Evidence, IntentParser, NarrativeRetriever
from ragspine.qa.provenance import check_provenance
from ragspine.qa.render import render_assumptions, render_unrecognized
from ragspine.qa.result import AnswerResult, AnswerStatus, Route
from ragspine.qa.screening import ScreeningPolicy
from ragspine.qa.slots import Slots
from ragspine.qa.structured import StructuredOutcome, run_structured
from ragspine.qa.trace import TraceRecorder
from ragspine.sensitivity import Sensitivity

DEFAULT_MAX_QUESTION_CHARS = 1000
COMPOSITE_SEPARATOR = "\n\n归因分析：\n"
_REJECTED = "回答中的数字无法溯源到事实或资料，已拒绝该回答。"


@dataclass(frozen=True)
class QAComponents:
    """Everything ``answer_question`` needs, wired by the composition root."""

    facts: FactStore
    glossary: Glossary
    screening: ScreeningPolicy
    intent: IntentParser
    llm: LLMProvider
    clock: Callable[[], date]
    faq: FaqIndex | None = None
    retriever: NarrativeRetriever | None = None
    max_chars: int = DEFAULT_MAX_QUESTION_CHARS
    max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL


def answer_question(question: str, *, qa: QAComponents, history: Sequence[Message] = ()) -> AnswerResult:
    """Answer a question with its sources; never a number without its document and locator.

    Args:
        question: the user's question, in Chinese, English or Japanese.
        qa: the wired components (fact store, glossary, policies, retriever, model, clock).
        history: prior turns; used only in the final generation messages.

    Returns:
        The answer, its sources and how it was reached (route, status, assumptions, options).

    Raises:
        InvalidInputError: the question is empty or too long.
    """
    text = validate_question(question, max_chars=qa.max_chars)
    trace = TraceRecorder.start(text)
    refusal = qa.screening.screen(text)
    trace.stage("screening")
    if refusal is not None:
        trace.decide(f"screening:{refusal.reason}")
        return _finish(trace, AnswerResult(refusal.reply, (), Route.REFUSED, AnswerStatus.REFUSED, _EMPTY,
                                           refusal_reason=refusal.reason.value))
    intent = qa.intent.parse(text)
    lang = detect_language(text)
    decision = clarify_scope(intent, glossary=qa.glossary, today=qa.clock(), lang=lang)
    trace.stage("intent_clarify")
    if isinstance(decision, AskBack):
        trace.decide("clarify:ask_metric")
        ask = decision.clarification
        return _finish(trace, AnswerResult(ask.question, (), Route.CLARIFICATION, AnswerStatus.NEEDS_CLARIFICATION,
                                           decision.slots, clarification=ask))
    hit = qa.faq.match(text) if qa.faq is not None else None
    trace.stage("faq")
    if hit is not None:
        trace.decide(f"faq:hit:{hit.entry.entry_id}")
        entry = hit.entry
        return _finish(trace, AnswerResult(f"{entry.answer}（来源：{entry.doc} · {entry.locator}）",
                                           ({"doc": entry.doc, "locator": entry.locator},), Route.FAQ,
                                           AnswerStatus.FOUND, decision.slots))
    slots = decision.slots
    channel = intent.channel
    if slots.unrecognized is not None:
        if channel is not Channel.COMPOSITE:
            return _finish(trace, AnswerResult(render_unrecognized(slots.unrecognized, qa.glossary, lang), (),
                                               Route.STRUCTURED, AnswerStatus.UNRECOGNIZED_PARAM, slots))
        # "What happened to the stores on Canton Road?": no figure to look up, but the why still has an answer.
        trace.decide(f"composite:narrative_only:{slots.unrecognized.param}")
        channel = Channel.NARRATIVE
    if channel is Channel.NARRATIVE:
        outcome = run_narrative(text, retriever=qa.retriever, llm=qa.llm, lang=lang, history=history,
                                max_sensitivity=qa.max_sensitivity)
        trace.stage("narrative")
        for item in outcome.decisions:
            trace.decide(item)
        return _finish(trace, AnswerResult(outcome.answer, outcome.sources, Route.NARRATIVE, outcome.status, slots,
                                           narrative_status=outcome.status), evidence_ids=outcome.evidence)
    structured = run_structured(slots, facts=qa.facts, glossary=qa.glossary, lang=lang,
                                max_sensitivity=qa.max_sensitivity)
    trace.stage("structured")
    answer = _structured_text(structured, slots, qa.glossary, lang)
    answer = _verified(answer, structured, slots, text, trace)
    result = AnswerResult(answer, structured.sources, Route.STRUCTURED, structured.status, slots,
                          structured.results, refinements=decision.refinements)
    if channel is Channel.STRUCTURED:
        return _finish(trace, result)
    outcome = run_narrative(text, retriever=qa.retriever, llm=qa.llm, lang=lang, history=history,
                            max_sensitivity=qa.max_sensitivity)
    trace.stage("narrative")
    for item in outcome.decisions:
        trace.decide(item)
    sources = tuple({(s["doc"], s["locator"]): s for s in (*structured.sources, *outcome.sources)}.values())
    merged = AnswerResult(f"{answer}{COMPOSITE_SEPARATOR}{outcome.answer}", sources, Route.COMPOSITE,
                          structured.status, slots, structured.results, refinements=decision.refinements,
                          narrative_status=outcome.status)
    return _finish(trace, merged, evidence_ids=outcome.evidence)


_EMPTY = Slots((), (), (), ())


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


def _structured_text(outcome: StructuredOutcome, slots: Slots, glossary: Glossary, lang: Lang) -> str:
    lines = list(outcome.lines)
    if slots.assumptions:
        lines.append(render_assumptions(slots.assumptions, glossary, lang))
    return "\n".join(lines)


def _verified(answer: str, outcome: StructuredOutcome, slots: Slots, question: str, trace: TraceRecorder) -> str:
    """The final provenance check on a structured answer: every number from a found fact,
    a computed difference, a period or the question; otherwise the answer is replaced."""
    evidence = [question, *(p.label for p in slots.periods), *(a.value for a in slots.assumptions)]
    evidence += [format_number(r.fact.value) for r in outcome.results if r.fact is not None]
    evidence += [n for d in outcome.differences for n in d.numbers]
    report = check_provenance(answer, evidence_texts=evidence)
    trace.decide("provenance:pass" if report.ok else "provenance:rejected")
    return answer if report.ok else _REJECTED


def _finish(trace: TraceRecorder, result: AnswerResult, *, evidence_ids: Sequence[Evidence] = ()) -> AnswerResult:
    fact_ids = ["/".join(r.fact.key) for r in result.results if r.fact is not None]
    emitted = trace.finish(route=result.route.value, status=result.status.value, slots=result.slots.as_dict(),
                           fact_ids=fact_ids, chunk_ids=[e.chunk_id for e in evidence_ids])
    return replace(result, trace=emitted)
