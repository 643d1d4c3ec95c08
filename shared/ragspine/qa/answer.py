"""``answer_question``: the question lifecycle of seed 000.

question → deterministic screening → clarification gate → FAQ short-circuit →
structured | narrative | composite → provenance check → answer + sources.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING

from ragspine.citation import Source, merged_sources
from ragspine.errors import FieldError, InvalidInputError
from ragspine.facts.glossary import Glossary, SlotKind, normalize_text
from ragspine.facts.model import format_number
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.facts.ports import FactStore
from ragspine.facts.query_metric import QueryResult
from ragspine.lazy import LazyModule, LazyPattern
from ragspine.llm.ports import LLMProvider
from ragspine.qa.arithmetic_cues import read_arithmetic
from ragspine.qa.change_asks import with_change_read
from ragspine.qa.clarify import AskBack, Proceed, ScopeDecision, clarify_scope
from ragspine.qa.dated_periods import holds_month_start
from ragspine.qa.described_tables import rows_of_described_table
from ragspine.qa.due_year_sums import due_year_outcome, headed_columns_outcome, within_span_outcome
from ragspine.qa.due_years import due_span, notice_words, span_of_a_cell_read, with_due_figures
from ragspine.qa.faq import FaqEntry, FaqIndex
from ragspine.qa.faq_check import CitedPassages, states_numbers, unsupported_numbers
from ragspine.qa.intent_model import Channel, Intent
from ragspine.qa.language import Lang, detect_language
from ragspine.qa.lead_in_subjects import answered_from, lead_in_subject
from ragspine.qa.metric_rows import row_for_metric
from ragspine.qa.metric_total_parts import row_under_metric_total
from ragspine.qa.named_parts import with_named_parts_sum
from ragspine.qa.other_languages import other_language, render_other_language
from ragspine.qa.parse_cache import (
    DEFAULT_PARSE_CACHE_SIZE,
    ParseCache,
    ParsedQuestion,
    ParseKey,
    Rendered,
    implied_numbers,
    question_numbers,
)
from ragspine.qa.plain_answer import plain_answer
from ragspine.qa.plain_asks import asks_nothing_more
from ragspine.qa.plain_lookup import plain_parse
from ragspine.qa.ports import IntentParser, NarrativeRetriever
from ragspine.qa.prompt import SYSTEM_PROMPT
from ragspine.qa.provenance import check_rendered, figure_values, numbers_in
from ragspine.qa.render import render_assumptions, render_unit_note, render_unrecognized
from ragspine.qa.result import AnswerResult, AnswerStatus, Route
from ragspine.qa.scope import (
    covered_by_knowledge,
    names_a_standard_metric,
    names_misspelt_domain_terms,
    names_the_documents_rows,
)
from ragspine.qa.screening import RefusalReason, ScreeningPolicy
from ragspine.qa.section_rows import from_other_tables
from ragspine.qa.slots import Assumption, Slots, Unrecognized
from ragspine.qa.stated_names import StatedNames, metric_names, names_stated, ties_every_figure
from ragspine.qa.stated_shares import stated_shares
from ragspine.qa.stated_years import (
    every_stated_year,
    only_stated_year,
    range_ends,
    with_year_before,
    year_before_named,
)
from ragspine.qa.structured import Lookup, StructuredOutcome, look_up, plan_lookups, run_structured
from ragspine.qa.structured_asks import NOTHING_MORE, StructuredAsks, read_structured_asks
from ragspine.qa.table_dates import with_table_dates_read, writes_no_date
from ragspine.qa.trace import TraceRecorder, question_digest
from ragspine.qa.undated import (
    names_a_stated_total,
    names_no_period,
    notice_dates,
    reads_stated_totals,
    with_undated,
)
from ragspine.qa.undated_rows import compares_rows, from_one_table
from ragspine.qa.week_after_year_ends import with_assumption, year_read_as_dated_end
from ragspine.qa.year_end_dates import with_year_ends_said
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from ragspine.llm.chat import Message
    from ragspine.qa import (
        arithmetic,
        counting,
        dated_cells,
        derived,
        narrative,
        premise,
        row_counts,
        rows_with_figures,
        schedule_spans,
        year_changes,
    )
    from ragspine.qa.analytics import compute as analytics
    from ragspine.qa.evidence import Evidence
    from ragspine.qa.narrative import NarrativeOutcome
    from ragspine.qa.refusal import Refusal

    # The reading of cells a question names by a table's own column headings: its slots asked back, answered.
    CellsOutcome = Callable[..., tuple[StructuredOutcome, Slots] | None]
else:
    # Loaded on the first question the narrative channel answers: a structured or FAQ answer never needs
    # the prompt, citation and reply checks behind it.
    narrative = LazyModule("ragspine.qa.narrative")
    premise = LazyModule("ragspine.qa.premise")
    # Loaded on the first question that asks for a count of periods over a threshold.
    counting = LazyModule("ragspine.qa.counting")
    # Loaded on the first question that computes a figure (a derived ratio, an analysis, a sum or an
    # average): a figure read from the facts as stated needs none of them.
    analytics = LazyModule("ragspine.qa.analytics.compute")
    arithmetic = LazyModule("ragspine.qa.arithmetic")
    derived = LazyModule("ragspine.qa.derived")
    # Loaded when a question is asked back which of several rows it means: one naming its row never needs it.
    rows_with_figures = LazyModule("ragspine.qa.rows_with_figures")
    # Loaded when a question asked back counts rows over a threshold ("how many expense segments were above …").
    row_counts = LazyModule("ragspine.qa.row_counts")
    # Loaded when a question is asked back: a span of years it writes ("2020 - 2024") may be a schedule's.
    schedule_spans = LazyModule("ragspine.qa.schedule_spans")
    # Loaded when a question asked back may name a table's changes between two years.
    year_changes = LazyModule("ragspine.qa.year_changes")
    # Loaded when a question asked back may name dates a table heads its own columns with.
    dated_cells = LazyModule("ragspine.qa.dated_cells")

# A month's name: a question writing none names no date a table's columns may be headed with. Case-blind, the
# branch is tried at every position (each character case-folded, slowest on CJK text): the lookahead on the
# months' first letters (case-blind too, as the branch is) rules out most positions in one test. It runs only where
# the normalised question holds a month's first letters (``holds_month_start``, already asked by the date guard):
# NFKC and lower-casing keep every letter it matches case-blind as that letter (ſ as s), never joining a mark to it
# (its match ends in a digit).
_MONTH_WORD = LazyPattern(r"(?=[adfjmnos])(?<![a-z])(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*\d",
                          re.I)
DEFAULT_MAX_QUESTION_CHARS = 1000
COMPOSITE_SEPARATOR = "\n\n归因分析：\n"
# A structured answer holding a number no fact, computation or question gives: withheld, in the question's language
REJECTED = MappingProxyType({
    Lang.ZH: "回答中的数字无法溯源到事实或资料，已拒绝该回答。",
    Lang.EN: "A number in the answer could not be traced to a fact or document, so the answer was withheld.",
    Lang.JA: "回答中の数値を事実または資料までたどれないため、回答を取り下げました。",
})


@dataclass(frozen=True)
class QAComponents:
    """Everything ``answer_question`` needs, wired by the composition root.

    ``parse_cache`` keeps the parse of recent questions (``parse_cache_size`` of them, 0 for
    none). It belongs to this instance, whose glossary, policies and parsers never change, so a
    new configuration starts with an empty cache. Facts are never cached.
    """

    facts: FactStore
    glossary: Glossary
    screening: ScreeningPolicy
    intent: IntentParser
    llm: LLMProvider
    clock: Callable[[], date]
    faq: FaqIndex | None = None
    faq_sources: CitedPassages | None = None  # where an FAQ answer's cited passage is read back
    retriever: NarrativeRetriever | None = None
    max_chars: int = DEFAULT_MAX_QUESTION_CHARS
    max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL
    parse_cache_size: int = DEFAULT_PARSE_CACHE_SIZE
    system_prompt: str = SYSTEM_PROMPT
    system_prompts: Mapping[str, str] = field(default_factory=dict)  # per question language; else system_prompt
    llm_timeout_s: float | None = None  # named in the notice when the model times out
    narrative_passages: int = 0  # passages the model's first prompt gives, on the question's topic first; 0: all
    parse_cache: ParseCache = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parse_cache", ParseCache(self.parse_cache_size))  # frozen: set once, here


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
    result = _answered(text, qa, history)
    # a year with no figures whose one dated year end closes the year before (a 52/53-week year): asked by that date
    reread = year_read_as_dated_end(result, text, facts=qa.facts, glossary=qa.glossary,
                                    max_sensitivity=qa.max_sensitivity)
    if reread is not None:
        again = _answered(reread[0], qa, history)
        if again.status is AnswerStatus.FOUND:
            said = render_assumptions((reread[1],), qa.glossary, detect_language(text))
            result = with_assumption(again, reread[1], said)
    # a January or February year end a cited column was read as the year of: said with the answer
    return with_year_ends_said(result, text, facts=qa.facts, glossary=qa.glossary,
                               max_sensitivity=qa.max_sensitivity)


def _answered(text: str, qa: QAComponents, history: Sequence[Message]) -> AnswerResult:
    """``answer_question`` of a validated question."""
    asked, today = text, qa.clock()
    # a question asked before whose words were found to write no date: neither reading below looks for one again
    dateless = _seen_writing_no_date(qa, (text, today))
    # "as at September 30, 2019" where the row's own table heads FY2019 with that date: read as that year
    if not dateless:
        text = with_table_dates_read(text, facts=qa.facts, glossary=qa.glossary, max_sensitivity=qa.max_sensitivity)
    cache = _QuestionCache(qa, text, today)
    shape, trace = cache.parse()
    # "the change in revenue between the quarters ended July 27 and April 27 in 2019": dates a table heads its own
    # columns with, none of the glossary's periods, read as written before any is taken for a fiscal year
    dated = _cells_named_computed(dated_cells.dated_cells_outcome, shape, asked, qa, trace) \
        if not dateless and holds_month_start(normalize_text(asked)) and _MONTH_WORD.search(asked) else None
    if dated is not None:
        return _finish(trace, dated)
    plain = plain_answer(shape, text, qa, trace) if cache.plain else None
    if plain is not None:  # a plain lookup whose figure is found: answered by its own short path
        return plain
    early = _refused_clarified_or_curated(shape, text, qa, trace)
    if early is not None and early.status is AnswerStatus.NEEDS_CLARIFICATION:
        # "Brantwell's dividend per share" of rows "(p)" and "(€)": the one row with the company's figures
        filed = _row_with_figures_answered(shape, qa, history, trace)
        if filed is not None:
            return filed
        # "the change in operating leases between 2021 and 2022": a schedule's cells of those years, computed
        early = _schedule_years_computed(shape, text, qa, trace) or early
        # "the total ground leases and building leases expiring in 2025 - 2029": a schedule's span of years
        early = _cells_named_computed(schedule_spans.span_cells_outcome, shape, text, qa, trace) or early
        # "the total change in G&A from 2017 to 2019": a table's changes between two years, chained
        early = _cells_named_computed(year_changes.year_changes_outcome, shape, text, qa, trace) or early
        # "how many expense segments in 2019 were above $50 million": the rows of the one total so named, counted
        early = _total_rows_counted(shape, text, qa, trace) or early
    if early is not None:
        finished = _finish(trace, early)
        # "the balance of total gross unrecognized tax benefits at the end of period": the table's subject named
        again = _without_lead_in_subject(finished, text, qa, history, shape.lang)
        return again if again is not None else finished
    intent, decision = shape.parsed()
    assert isinstance(decision, Proceed)  # a question back was answered above
    slots = decision.slots
    channel = intent.channel
    structured = channel is Channel.STRUCTURED  # read once: each read of an enum's member is a class look-up
    unknown = slots.unrecognized
    read = _names_read_as_document_words(intent, decision, text, qa, shape.lang) \
        if structured and unknown is not None else None
    named_in: StatedNames | None = None
    if read is not None:  # "the total liabilities of IMFT", where a document says what IMFT is
        named_in, intent, decision = read
        slots = decision.slots
        cache.reread(intent, decision)
        trace.decide("clarify:names_stated_in_documents")
    by_row = row_for_metric(intent, decision, text, facts=qa.facts, glossary=qa.glossary, retriever=qa.retriever,
                            max_sensitivity=qa.max_sensitivity, lang=shape.lang) \
        if isinstance(decision, Proceed) and structured else None
    if by_row is not None:  # "external revenues from Canada", where the document says its table is of revenues
        decision = by_row
        slots = decision.slots
        cache.reread(intent, decision)
        trace.decide("structured:row_for_metric")
    part = row_under_metric_total(intent, decision, text, facts=qa.facts, glossary=qa.glossary,
                                  max_sensitivity=qa.max_sensitivity, lang=shape.lang) \
        if isinstance(decision, Proceed) and structured and by_row is None else None
    if part is not None:  # "revenue from software maintenance", where revenue has no figure and the row's table
        decision = by_row = part  # totals revenue in the row's section
        slots = decision.slots
        cache.reread(intent, decision)
        trace.decide("structured:row_under_metric_total")
    topic = rows_of_described_table(decision, text, facts=qa.facts, glossary=qa.glossary, retriever=qa.retriever,
                                    max_sensitivity=qa.max_sensitivity) \
        if isinstance(decision, Proceed) and structured and by_row is None else None
    if topic is not None:  # "the high and low prices of the common stock", where the document says its table is of them
        decision = topic
        slots = decision.slots
        cache.reread(intent, decision)
        trace.decide("structured:rows_of_described_table")
    shares = stated_shares(intent, decision, text, facts=qa.facts, glossary=qa.glossary,
                           max_sensitivity=qa.max_sensitivity) \
        if isinstance(decision, Proceed) and structured and slots.unrecognized is None else None
    if shares is not None:  # "the percentage of revenue from Apple", where Apple's row is stated in percent
        intent, decision = shares
        slots = decision.slots
        cache.reread(intent, decision)
        trace.decide("structured:stated_shares")
    if slots.unrecognized is not None:
        if channel is not Channel.COMPOSITE:
            return _finish(trace, AnswerResult(_unrecognized_text(slots.unrecognized, text, qa, shape.lang, trace), (),
                                               Route.STRUCTURED, AnswerStatus.UNRECOGNIZED_PARAM, slots))
        # "What happened to the stores on Canton Road?": no figure to look up, but the why still has an answer.
        trace.decide(f"composite:narrative_only:{slots.unrecognized.param}")
        channel = Channel.NARRATIVE
    if channel is Channel.NARRATIVE:
        outcome = _narrative(text, qa, shape.lang, history, trace, slots)
        return _finish(trace, AnswerResult(outcome.answer, outcome.sources, Route.NARRATIVE, outcome.status, slots,
                                           narrative_status=outcome.status, narrative_detail=outcome.detail),
                       evidence_ids=outcome.evidence)
    asks = cache.asks(intent, slots, channel)
    kept_back = partial(_only_from, named_in, unknown, qa, shape.lang, trace) if named_in is not None else None
    if asks.unmet is not None:  # a margin, ratio or growth nothing computes: never answered with one of its inputs
        trace.decide("structured:derived_figure_not_computable")
        unmet = AnswerResult(asks.unmet, (), Route.STRUCTURED, AnswerStatus.NOT_FOUND, slots)
        return _finish(trace, kept_back(unmet) if kept_back else unmet)
    rows_counted = _total_rows_counted(shape, text, qa, trace) if structured else None
    if rows_counted is not None:  # "how many categories are there under total stock-based compensation expense"
        return _finish(trace, rows_counted)
    if asks.count is not None:
        counted = counting.count_over_periods(asks.count, slots, facts=qa.facts, glossary=qa.glossary,
                                              lang=shape.lang, max_sensitivity=qa.max_sensitivity)
        if counted is not None:  # "how many years did X exceed Y": over every period stated, each one cited
            trace.stage("structured")
            count, slots = counted
            answer, verdict = _verified(_structured_text(count, slots, qa.glossary, shape.lang), count,
                                        partial(question_numbers, text, decision), shape.lang,
                                        implied=implied_numbers(decision))
            trace.decide(verdict)
            counted_result = AnswerResult(answer, count.sources, Route.STRUCTURED, count.status, slots)
            return _finish(trace, kept_back(counted_result) if kept_back else counted_result)
    spanned = within_span_outcome(intent.slots, intent.arithmetic, text, facts=qa.facts, glossary=qa.glossary,
                                  lang=shape.lang, max_sensitivity=qa.max_sensitivity) \
        if structured and not intent.slots.periods else None
    if spanned is not None:  # "due within 5 years": the schedule's columns that cover the span, added up
        return _finish(trace, _schedule_answer(spanned, text, qa, shape.lang, trace))
    headed = headed_columns_outcome(intent.slots, intent.arithmetic, text, facts=qa.facts, glossary=qa.glossary,
                                    lang=shape.lang, max_sensitivity=qa.max_sensitivity) \
        if structured and len(intent.slots.periods) > 1 else None
    if headed is not None:  # "from 2020 to 2021-2022": the schedule's columns so headed, compared
        return _finish(trace, _schedule_answer(headed, text, qa, shape.lang, trace))
    # an average, sum or change with no period named: over every year stated for the row
    stated = every_stated_year(asks.every_year, slots, facts=qa.facts, max_sensitivity=qa.max_sensitivity) \
        if asks.every_year is not None else None
    if stated is None and asks.year_before:  # one year named for a change or its average: with the year before
        stated = year_before_named(slots, facts=qa.facts, max_sensitivity=qa.max_sensitivity)
        # every growth averaged, or a formula metric's (computed each year, not stated), looked up: the missing said
        # (two years' averages: every year looked up, so the line names only the years not stated)
        if stated is None and (intent.arithmetic.growth or all(m in qa.glossary.formulas for m in slots.metrics)
                               or len(slots.periods) == 2):
            stated = with_year_before(slots)
        if stated is None and asks.unmet_alone is not None:  # a growth with no year before it stated
            trace.decide("structured:derived_figure_not_computable")
            unmet = AnswerResult(asks.unmet_alone, (), Route.STRUCTURED, AnswerStatus.NOT_FOUND, slots)
            return _finish(trace, kept_back(unmet) if kept_back else unmet)
    if stated is None and asks.range_ends:  # a change "from 2017 to 2019": between the range's ends
        stated = range_ends(slots)
    if stated is None:  # no period named, and the rows asked are stated for one fiscal year only: that year
        stated = only_stated_year(slots, facts=qa.facts, max_sensitivity=qa.max_sensitivity)
    result = _structured(text, qa, cache, channel, trace, stated)
    if structured:
        return _finish(trace, kept_back(result) if kept_back else result)
    outcome = _narrative(text, qa, shape.lang, history, trace, slots)
    merged = AnswerResult(f"{result.answer}{COMPOSITE_SEPARATOR}{outcome.answer}",
                          merged_sources(result.sources, outcome.sources), Route.COMPOSITE,
                          result.status, slots, result.results, refinements=decision.refinements,
                          narrative_status=outcome.status, narrative_detail=outcome.detail)
    return _finish(trace, merged, evidence_ids=outcome.evidence)


def _unrecognized_text(problem: Unrecognized, text: str, qa: QAComponents, lang: Lang, trace: TraceRecorder) -> str:
    """What was not understood; for a question in a language the service does not read ("Wie hoch waren die
    Umsatzerlöse …"), that language, never its first words as an unknown company."""
    other = other_language(text)
    if other is None:
        return render_unrecognized(problem, qa.glossary, lang)
    trace.decide("clarify:language_not_read")
    return render_other_language(*other)


def _schedule_years_computed(shape: ParsedQuestion, text: str, qa: QAComponents,
                             trace: TraceRecorder) -> AnswerResult | None:
    """A row asked back as one of a payment schedule's years, answered from the cells of the years named."""
    intent, _ = shape.parsed()
    if intent.causal:  # why a schedule's amounts change is asked of the passages
        return None
    computed = due_year_outcome(intent.slots, read_arithmetic(text, qa.glossary), facts=qa.facts,
                                glossary=qa.glossary, lang=shape.lang, max_sensitivity=qa.max_sensitivity)
    return _schedule_answer(computed, text, qa, shape.lang, trace) if computed is not None else None


def _cells_named_computed(outcome_of: CellsOutcome, shape: ParsedQuestion, text: str, qa: QAComponents,
                          trace: TraceRecorder) -> AnswerResult | None:
    """A question naming cells of a table's own columns (a schedule's span of years, a change between two years,
    a company's own date) as written, answered from those cells by ``outcome_of``."""
    if shape.intent is None:
        return None  # refused before it was read
    intent, _ = shape.parsed()
    if intent.causal:  # why the figures change is asked of the passages
        return None
    computed = outcome_of(text, intent.slots, read_arithmetic(text, qa.glossary), facts=qa.facts,
                          glossary=qa.glossary, lang=shape.lang, max_sensitivity=qa.max_sensitivity)
    return _schedule_answer(computed, text, qa, shape.lang, trace) if computed is not None else None


def _total_rows_counted(shape: ParsedQuestion, text: str, qa: QAComponents,
                        trace: TraceRecorder) -> AnswerResult | None:
    """A question asked back that counts a total's rows over a threshold, answered with the count."""
    if shape.lang is not Lang.EN or "how many" not in text.lower():
        return None
    ask = row_counts.read_row_count(text)
    intent, _ = shape.parsed()
    counted = row_counts.count_rows(ask, intent.slots, facts=qa.facts, glossary=qa.glossary, lang=shape.lang,
                                    max_sensitivity=qa.max_sensitivity) if ask is not None else None
    if counted is None:
        return None
    return _schedule_answer(counted, text, qa, shape.lang, trace, decided="structured:rows_counted")


def _schedule_answer(computed: tuple[StructuredOutcome, Slots], text: str, qa: QAComponents, lang: Lang,
                     trace: TraceRecorder, *, decided: str = "structured:schedule_cells") -> AnswerResult:
    """A payment schedule's cells (or another table's rows) and what was computed from them, checked as every
    structured answer is."""
    outcome, slots = computed
    trace.stage("structured")
    trace.decide(decided)
    answer, verdict = _verified(_structured_text(outcome, slots, qa.glossary, lang), outcome,
                                partial(question_numbers, text, Proceed(slots)), lang)
    trace.decide(verdict)
    return AnswerResult(answer, outcome.sources, Route.STRUCTURED, outcome.status, slots, outcome.results)

_SUBJECT_READ = MappingProxyType({
    Lang.EN: "(Read '{words}' as what the table is of, as the sentence leading into it in {doc} says.)",
    Lang.ZH: "（按{doc}中表格前的说明，将“{words}”理解为该表格的主题。）",
    Lang.JA: "（{doc}の表の前の文に従い、「{words}」を表の主題と解釈しました。）",
})


_ROW_READ = MappingProxyType({
    Lang.EN: "(Read '{typed}' as the row '{row}', the only one with figures for {entities}.)",
    Lang.ZH: "（将“{typed}”理解为“{row}”一行：只有该行有{entities}的数据。）",
    Lang.JA: "（「{typed}」を「{row}」の行と解釈しました：{entities}の数値があるのはこの行だけです。）",
})


def _row_with_figures_answered(shape: ParsedQuestion, qa: QAComponents, history: Sequence[Message],
                               trace: TraceRecorder) -> AnswerResult | None:
    """The answer to a question asked back which of several alike rows it means, when only one of them has
    figures for the company and periods asked: answered as if it named that row, and the reading said.

    Its trace is the question's own (the one asked, its timings), with the reading and the decisions of the
    question as rewritten added: the rewritten question is a step of answering it, not the question traced.
    """
    intent, _ = shape.parsed()
    filed = rows_with_figures.row_with_figures(intent, facts=qa.facts, glossary=qa.glossary,
                                               max_sensitivity=qa.max_sensitivity)
    if filed is None:
        return None
    result = answer_question(filed.question, qa=qa, history=history)
    if result.status is AnswerStatus.NEEDS_CLARIFICATION:
        return None
    lang = shape.lang
    joiner = ", " if lang is Lang.EN else "、"
    names = joiner.join(qa.glossary.term(SlotKind.ENTITY, code).name(lang.value) for code in filed.entities)
    notes = "\n".join(_ROW_READ[lang].format(typed=typed, row=row, entities=names) for typed, row in filed.rows)
    trace.decide("structured:row_with_figures")
    inner = result.trace.get("decisions")
    for decision in inner if isinstance(inner, list) else ():
        trace.decide(str(decision))
    chunk_ids = result.trace.get("chunk_ids")
    emitted = trace.finish(route=str(result.route), status=str(result.status), slots=result.slots.as_dict(),
                           fact_ids=["/".join(r.fact.key) for r in result.results if r.fact is not None],
                           chunk_ids=[str(c) for c in chunk_ids] if isinstance(chunk_ids, list) else [])
    return replace(result, answer=f"{result.answer}\n{notes}", trace=emitted)


def _without_lead_in_subject(asked_back: AnswerResult, text: str, qa: QAComponents, history: Sequence[Message],
                             lang: Lang) -> AnswerResult | None:
    """The answer without the words naming a table's subject, when the question was asked back which figure and
    every figure of that answer comes from the document whose sentence leading into a table states them."""
    if asked_back.status is not AnswerStatus.NEEDS_CLARIFICATION or asked_back.slots.metrics:
        return None
    subject = lead_in_subject(text, glossary=qa.glossary, retriever=qa.retriever, max_sensitivity=qa.max_sensitivity)
    if subject is None:
        return None
    result = answer_question(subject.question, qa=qa, history=history)
    if result.status is not AnswerStatus.FOUND or not answered_from(subject, result.results):
        return None
    note = _SUBJECT_READ[lang].format(words=subject.words, doc=subject.doc)
    return replace(result, answer=f"{result.answer}\n{note}")


def _names_read_as_document_words(intent: Intent, decision: ScopeDecision, text: str, qa: QAComponents,
                                  lang: Lang) -> tuple[StatedNames, Intent, Proceed] | None:
    """An unknown name the visible documents state, read as their words: the documents and the new parse.

    Only for a figure question (a composite one answers its why from the passages anyway). The
    name is read as the home entity's, said in the answer; ``_only_from`` then keeps the figures
    only when the passages stating the name state their rows too (qa/stated_names.py).
    """
    if not isinstance(decision, Proceed) or intent.channel is not Channel.STRUCTURED:
        return None
    problem = decision.slots.unrecognized
    names = intent.slots.unknown_names
    if problem is None or problem.param != "entity" or not names:
        return None
    rows = [name for code in intent.slots.metrics for name in metric_names(code, qa.glossary)]
    stated = names_stated(names, text, retriever=qa.retriever, max_sensitivity=qa.max_sensitivity, rows=rows)
    if stated is None:
        return None
    home = qa.glossary.home_entity
    read = replace(intent, slots=replace(intent.slots, unknown_names=(), entities=(home,)))
    again = clarify_scope(read, glossary=qa.glossary, today=qa.clock(), lang=lang)
    if not isinstance(again, Proceed) or again.slots.unrecognized is not None:
        return None
    # a capitalised common word of the documents' phrase ("Committed global credit facilities") names no one
    named = tuple(Assumption(SlotKind.ENTITY, home, "a name the documents state", typed=name) for name in names
                  if name not in stated.common_words)
    return stated, read, replace(again, slots=replace(again.slots, assumptions=(*named, *again.slots.assumptions)))


def _only_from(stated: StatedNames, unknown: Unrecognized | None, qa: QAComponents, lang: Lang,
               trace: TraceRecorder, result: AnswerResult) -> AnswerResult:
    """``result`` when each of its figures comes from a passage stating the names; else the name asked back."""
    if result.status is AnswerStatus.FOUND and ties_every_figure(stated, result.results, qa.glossary):
        return result
    trace.decide("clarify:names_stated_elsewhere")
    problem = unknown or Unrecognized("entity", "")
    return AnswerResult(render_unrecognized(problem, qa.glossary, lang), (), Route.STRUCTURED,
                        AnswerStatus.UNRECOGNIZED_PARAM, replace(result.slots, unrecognized=problem))


class _QuestionCache:
    """The parse cache as one question meets it: the parse (kept, or made and kept), the lookup plan
    made on the parse's first reuse, and the last structured answer with the facts it came from."""

    def __init__(self, qa: QAComponents, text: str, today: date) -> None:
        self._qa, self._text = qa, text
        self._key = (text, today)
        self.cached = False
        self.plain = False  # parsed just now as a plain lookup (qa/plain_lookup.py)
        self.shape: ParsedQuestion | None = None

    def parse(self) -> tuple[ParsedQuestion, TraceRecorder]:
        """The question's parse and the trace it starts (a hit says so and skips the stages it saved)."""
        started = time.perf_counter()
        shape = self._qa.parse_cache.get(self._key)
        self.cached = shape is not None
        if shape is None:
            trace = TraceRecorder.begin(len(self._text), question_digest(self._text), started)
            # a plain lookup's intent is read from the glossary's scan; every other question is parsed in full
            plain = plain_parse(self._text, self._qa, today=self._key[1], trace=trace)
            self.plain = plain is not None
            shape = plain or _parse(self._text, self._qa, today=self._key[1], trace=trace)
            if not _depends_on_documents(shape, self._qa):
                self._qa.parse_cache.put(self._key, shape)
        else:
            trace = TraceRecorder.begin(len(self._text), shape.question_sha256, started)
            trace.decide("parse_cache:hit")
            trace.skip(shape.stages)
            if shape.writes_no_date is None:  # its first reuse: whether its words write a date, kept for the next
                shape = shape.with_date_verdict(_writes_no_date(self._text))
                self._qa.parse_cache.put(self._key, shape)
        self.shape = shape
        return shape, trace

    def reread(self, intent: Intent, decision: ScopeDecision) -> None:
        """The parse with unknown names read as the documents' words: it depends on the index, so it is
        neither kept nor planned from the cache."""
        # what the cached parse planned, asked and rendered was for its own slots: none of it holds here
        self.shape = replace(self._shape(), intent=intent, decision=decision, question_numbers=frozenset(), plan=None,
                             asks=None, rendered=None)
        self.cached = False

    def plan(self, slots: Slots, decision: ScopeDecision) -> tuple[tuple[Lookup, ...] | None,
                                                                  Callable[[], frozenset[str]]]:
        """The lookup plan (made and kept on the parse's first reuse) and the question's numbers, read when asked."""
        shape = self._shape()
        plan = shape.plan
        if plan is None and self.cached:  # the first reuse of this parse: plan its lookups once, for every later ask
            plan = plan_lookups(slots, glossary=self._qa.glossary, lang=shape.lang)
            shape = self.shape = shape.planned(plan, question_numbers(self._text, decision))
            self._qa.parse_cache.put(self._key, shape)
        planned = shape.question_numbers
        asked = partial(question_numbers, self._text, decision) if plan is None else lambda: planned
        return plan, asked

    def asks(self, intent: Intent, slots: Slots, channel: Channel) -> StructuredAsks:
        """What the structured question asks beyond its lookups (read from the text; kept from the parse's
        first reuse on)."""
        shape = self._shape()
        asks = shape.asks
        if asks is None:
            glossary = self._qa.glossary
            asks = NOTHING_MORE if asks_nothing_more(self._text, intent, slots, glossary) else \
                read_structured_asks(self._text, intent, slots, channel=channel, glossary=glossary, lang=shape.lang)
            if self.cached:  # as the plan: a question asked once pays nothing to keep it
                self.shape = shape.with_asks(asks)
                self._qa.parse_cache.put(self._key, self.shape)
        return asks

    def rendered(self, looked_up: tuple[QueryResult, ...] | None) -> Rendered | None:
        """The last structured answer of this parse, when it came from the same facts."""
        memo = self._shape().rendered
        return memo if memo is not None and looked_up is not None and memo.results == looked_up else None

    def keep(self, rendered: Rendered) -> None:
        """Keep a structured answer with the facts it came from, for the next ask of the same question."""
        self._qa.parse_cache.put(self._key, self._shape().with_rendered(rendered))

    def _shape(self) -> ParsedQuestion:
        assert self.shape is not None, "parse() first"
        return self.shape


def _writes_no_date(question: str) -> bool:
    """True when neither the table-dates reading nor the dated cells have a date to read in ``question``: both
    look for one first and read nothing without it."""
    return _MONTH_WORD.search(question) is None and writes_no_date(question)


def _seen_writing_no_date(qa: QAComponents, key: ParseKey) -> bool:
    """Whether the question of ``key`` is kept parsed and was found to write no date (``_writes_no_date``).

    The verdict is read from the words a parse is kept under, so it is about these very words. A peek: the
    parse's own look-up counts the hit or miss.
    """
    kept = qa.parse_cache.peek(key)
    return kept is not None and kept.writes_no_date is True


def _refused_clarified_or_curated(shape: ParsedQuestion, text: str, qa: QAComponents,
                                  trace: TraceRecorder) -> AnswerResult | None:
    """The answer decided before any channel runs: a refusal, a question back, or a curated FAQ answer."""
    refusal = shape.refusal
    if refusal is not None:
        trace.decide(f"screening:{refusal.reason}")
        other = other_language(text) if refusal.reason is RefusalReason.OUT_OF_SCOPE else None
        if other is not None:  # no domain word read because the question is in German or French, not off topic
            trace.decide("clarify:language_not_read")
        reply = render_other_language(*other) if other is not None else refusal.reply
        return AnswerResult(reply, (), Route.REFUSED, AnswerStatus.REFUSED, _EMPTY, refusal_reason=refusal.reason.value)
    _, decision = shape.parsed()
    if isinstance(decision, AskBack):
        trace.decide("clarify:ask_metric")
        ask = decision.clarification
        return AnswerResult(ask.question, (), Route.CLARIFICATION, AnswerStatus.NEEDS_CLARIFICATION,
                            decision.slots, clarification=ask)
    hit = shape.faq
    if hit is None:
        return None
    trace.decide(f"faq:hit:{hit.entry.entry_id}")
    entry = hit.entry
    unchecked = _faq_unsupported(entry, text, qa)
    if unchecked is not None:
        trace.decide(unchecked)  # a curated number its source does not state: answer from the documents instead
        return None
    source = Source(entry.doc, entry.locator)
    return AnswerResult(f"{entry.answer}{source.cited()}", (source.as_dict(),), Route.FAQ, AnswerStatus.FOUND,
                        decision.slots)


def _narrative(text: str, qa: QAComponents, lang: Lang, history: Sequence[Message],
               trace: TraceRecorder, slots: Slots) -> NarrativeOutcome:
    """The narrative channel: passages retrieved, the model's answer, its citations and checks.

    A why-question assuming a rise or fall the fact table contradicts gets that said, with both
    figures cited, and no passage or model: the cause of what did not happen is no answer.
    """
    corrected = premise.contradicted_premise(text, slots, facts=qa.facts, glossary=qa.glossary, lang=lang,
                                             max_sensitivity=qa.max_sensitivity)
    if corrected is not None:
        outcome = narrative.premise_outcome(corrected)
    else:
        outcome = narrative.run_narrative(text, retriever=qa.retriever, llm=qa.llm, lang=lang, history=history,
                                          max_sensitivity=qa.max_sensitivity,
                                          system_prompt=qa.system_prompts.get(lang, qa.system_prompt),
                                          timeout_s=qa.llm_timeout_s, glossary=qa.glossary,
                                          shown_passages=qa.narrative_passages)
    trace.stage("narrative")
    for item in outcome.decisions:
        trace.decide(item)
    return outcome


def _structured(text: str, qa: QAComponents, cache: _QuestionCache, channel: Channel,
                trace: TraceRecorder, stated: Slots | None = None) -> AnswerResult:
    """The structured channel: the facts looked up, derived, analysed and computed, rendered and checked.

    The same facts as the last ask of the same question give the answer already checked (a
    question naming a formula metric reads inputs beyond the plan, so it is never served so).
    ``stated``: the slots over the years the documents state, which replace the parse's (they
    depend on the facts, so they are neither planned once nor kept).
    """
    shape = cache.shape
    assert shape is not None
    intent, decision = shape.parsed()
    assert isinstance(decision, Proceed)
    slots, lang = decision.slots, shape.lang
    plan: tuple[Lookup, ...] | None = None
    asked: Callable[[], frozenset[str]]
    if stated is not None:
        slots, decision = stated, replace(decision, slots=stated)
        asked = partial(question_numbers, text, decision)
    else:
        plan, asked = cache.plan(slots, decision)
    looked_up = look_up(plan, facts=qa.facts, max_sensitivity=qa.max_sensitivity) if plan is not None else None
    memo = cache.rendered(looked_up)
    if memo is not None:  # kept below only from a structured answer with no formula metric: so is this one
        trace.stage("structured")
        trace.decide(memo.verdict)
        return memo.result
    derives = _derives(slots, qa.glossary)
    structured = run_structured(slots, facts=qa.facts, glossary=qa.glossary, lang=lang,
                                max_sensitivity=qa.max_sensitivity, plan=plan, results=looked_up)
    # no period named and nothing computed: a figure the documents state for no period answers it, said so;
    # rows of one undated table compared with each other are of one period too, so they may be computed
    undated = (stated is None and names_no_period(intent.slots.periods, slots) and not derives
               # "due within 4 years" is no Total column's figure; "X of more than 5 years" is that span's own cell
               and not intent.analysis
               and ((span := due_span(text)) is None or span_of_a_cell_read(span, slots.metrics))
               and (not intent.arithmetic.computes or compares_rows(intent.arithmetic, len(slots.metrics))
                    or names_a_stated_total(intent.arithmetic)))
    arith = intent.arithmetic  # what is computed: a stated total read undated computes nothing
    refinements = decision.refinements
    due = (with_due_figures(structured, slots, text, intent.slots.periods, facts=qa.facts, glossary=qa.glossary,
                            lang=lang, max_sensitivity=qa.max_sensitivity)
           if not derives and not intent.analysis and not intent.arithmetic.computes and not intent.arithmetic.change
           else (structured, slots))
    if due[0] is not structured:
        # a year or due span named and no fiscal figure for it: a payment schedule's figure falling due then, said
        # so; read beyond the plan (never kept), and options naming a fiscal year are no choice to offer
        (structured, slots), undated, refinements = due, True, ()
    elif undated:
        dated, dated_slots = structured, slots
        structured, slots = with_undated(structured, slots, facts=qa.facts, glossary=qa.glossary, lang=lang,
                                         max_sensitivity=qa.max_sensitivity)
        if structured is not dated and names_a_stated_total(intent.arithmetic):
            if reads_stated_totals(structured, text):
                arith = replace(intent.arithmetic, period_sum=0, sum_words=0)
            else:  # "the total B" is no other column's figure: the question stays a sum, as asked
                structured, slots = dated, dated_slots
        if arith.computes and not from_one_table(structured, text):
            structured, slots = dated, dated_slots  # undated figures of two tables: nothing says one period
        if structured is not dated:  # other years of a figure stated for none are no choice to offer
            refinements = tuple(option for option in refinements if option.slot != "period")
    if arith.add and intent.slots.section_sum and from_other_tables(structured.results):
        arith = replace(arith, add=False, period_sum=0, sum_words=0)  # one heading's rows of two tables: no sum
    structured = with_change_read(structured, text, lang=lang)  # a change line that answers another question
    structured = with_named_parts_sum(structured, text, arith, glossary=qa.glossary, lang=lang)
    if derives:
        structured = derived.with_derived(structured, facts=qa.facts, glossary=qa.glossary, lang=lang,
                                  max_sensitivity=qa.max_sensitivity, places=intent.arithmetic.places,
                                  percent=intent.arithmetic.percent, average=intent.arithmetic.average)
    if intent.analysis:
        structured = analytics.with_analysis(structured, intent.analysis, glossary=qa.glossary, lang=lang)
    if arith.computes:
        structured = arithmetic.with_arithmetic(structured, arith, glossary=qa.glossary, lang=lang)
    trace.stage("structured")
    answer = _structured_text(structured, slots, qa.glossary, lang, asked_unit=intent.requested_unit)
    answer, verdict = _verified(answer, structured, asked, lang, implied=implied_numbers(decision))
    trace.decide(verdict)
    result = AnswerResult(answer, structured.sources, Route.STRUCTURED, structured.status, slots,
                          structured.results, refinements=refinements)
    if channel is Channel.STRUCTURED and looked_up is not None and not derives and not undated:
        cache.keep(Rendered(looked_up, result, verdict))  # undated figures are read beyond the plan: never kept
    return result


def _derives(slots: Slots, glossary: Glossary) -> bool:
    """Whether the question names a formula metric (computed from inputs the plan does not list)."""
    return bool(glossary.formulas) and any(m in glossary.formulas for m in slots.metrics)


def screen_question(text: str, qa: QAComponents) -> tuple[Refusal | None, str | None]:
    """The screening verdict on a question, and the decision that lifted an out-of-scope refusal (if one did).

    Outside the domain's words is not outside the business: a curated question, misspelt
    names that read as the domain's, the words of the documents' own rows, a standard statement
    line (cost of goods sold), or what the ingested documents state, is in scope
    (qa/scope.py). The screening evaluation measures false refusals through this function.
    """
    refusal = qa.screening.screen(text)
    if refusal is None or refusal.reason is not RefusalReason.OUT_OF_SCOPE:
        return refusal, None
    if qa.faq is not None and qa.faq.match(text) is not None:
        return None, "screening:faq_question"
    if names_misspelt_domain_terms(refusal, text, glossary=qa.glossary):
        return None, "screening:misspelt_domain_terms"
    if names_the_documents_rows(refusal, text, glossary=qa.glossary):
        return None, "screening:documents_rows"
    if names_a_standard_metric(refusal, text, glossary=qa.glossary):
        return None, "screening:standard_metric"
    if covered_by_knowledge(refusal, text, retriever=qa.retriever, glossary=qa.glossary,
                            max_sensitivity=qa.max_sensitivity):
        return None, "screening:in_ingested_documents"
    return refusal, None


def _parse(text: str, qa: QAComponents, *, today: date, trace: TraceRecorder) -> ParsedQuestion:
    """Screening, intent, clarify gate and FAQ: everything decided from the text alone.

    The lookup plan and the question's numbers are left for the first reuse (see ``ParsedQuestion``)."""
    digest = trace.question_sha256
    lang = detect_language(text)
    refusal, why = screen_question(text, qa)
    if why is not None:
        trace.decide(why)
    trace.stage("screening")
    if refusal is not None:
        return ParsedQuestion(digest, lang, refusal)
    intent = qa.intent.parse(text)
    decision = clarify_scope(intent, glossary=qa.glossary, today=today, lang=lang)
    trace.stage("intent_clarify")
    if isinstance(decision, AskBack):
        return ParsedQuestion(digest, lang, None, intent, decision)
    # By meaning only for questions with no metric: a figure question never pays for the embedder.
    hit = qa.faq.match(text, by_meaning=intent.channel is Channel.NARRATIVE) if qa.faq is not None else None
    trace.stage("faq")
    if hit is not None:
        return ParsedQuestion(digest, lang, None, intent, decision, hit)
    return ParsedQuestion(digest, lang, None, intent, decision)


_EMPTY = Slots((), (), (), ())


def _depends_on_documents(shape: ParsedQuestion, qa: QAComponents) -> bool:
    """An out-of-scope verdict weighed against the index is not kept: the next ingestion may change it."""
    refusal = shape.refusal
    return refusal is not None and refusal.reason is RefusalReason.OUT_OF_SCOPE and qa.retriever is not None


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


def _structured_text(outcome: StructuredOutcome, slots: Slots, glossary: Glossary, lang: Lang, *,
                     asked_unit: str | None = None) -> str:
    lines = list(outcome.lines)
    found_units = [r.fact.unit for r in outcome.results if r.fact is not None]
    note = render_unit_note(asked_unit, found_units, lang) if asked_unit and found_units else None
    if note:
        lines.append(note)  # asked "in yen", the facts are in USD_M: say so, never convert
    if slots.assumptions:
        lines.append(render_assumptions(slots.assumptions, glossary, lang))
    return "\n".join(lines)


def _faq_unsupported(entry: FaqEntry, question: str, qa: QAComponents) -> str | None:
    """Why a curated answer may not be served as is (its cited passage does not state its numbers), or None.

    An answer without numbers, or whose source document is not ingested, is served as written.
    """
    if qa.faq_sources is None or not states_numbers(entry.answer):
        return None
    texts = qa.faq_sources.passages(entry.doc, entry.locator, hint=entry.answer)
    if texts is None:
        return None
    missing = unsupported_numbers(entry.answer, texts, asked=numbers_in(question))
    return f"faq:unsupported_numbers:{entry.entry_id}" if missing else None


def _verified(answer: str, outcome: StructuredOutcome, asked: Callable[[], frozenset[str]],
              lang: Lang, *, implied: frozenset[str] = frozenset()) -> tuple[str, str]:
    """The final provenance check on a structured answer: every number from a found fact,
    a computed difference, a period or the question (``asked``, read only for a number the
    figures and ``implied`` do not account for); otherwise the answer is replaced.

    ``implied`` (``implied_numbers``) is a part of what ``asked`` gives, so allowing it first
    changes no verdict: it only spares reading the question's numbers for a quarter's year.

    Returns:
        The answer (or the rejection) and the decision to record in the trace.
    """
    # Each sourced figure is read on its own (a line break ends a number as a text end does, so
    # this equals reading them joined) and remembered: the same facts answer many questions.
    shown = [format_number(f.value) for r in outcome.results if r.fact is not None for f in (r.fact, *r.conflicts)]
    if outcome.differences:
        shown += [n for d in outcome.differences for n in d.numbers]
    shown += outcome.computed  # rank gaps, shares and sums (qa/analytics/compute.py)
    shown += [day for r in outcome.results if r.fact is not None for day in notice_dates(r.fact)]  # qa/undated.py
    shown += [due for r in outcome.results if r.fact is not None for due in notice_words(r.fact)]  # qa/due_years.py
    # a row's own name may write a number ("USD denominated RMB’Million: Monetary assets"): the document's words
    named = numbers_in("\n".join({label_of(f.metric_code) for r in outcome.results if (f := r.fact) is not None
                                  and f.metric_code.startswith(METRIC_PREFIX)}))
    report = check_rendered(answer, allowed=frozenset().union(implied, named, *map(figure_values, shown)),
                            also_allowed=asked)
    return (answer, "provenance:pass") if report.ok else (REJECTED[lang], "provenance:rejected")


def _finish(trace: TraceRecorder, result: AnswerResult, *, evidence_ids: Sequence[Evidence] = ()) -> AnswerResult:
    fact_ids = ["/".join(r.fact.key) for r in result.results if r.fact is not None]
    # ``str`` of a string enum is its value as a plain string, without the Python code ``.value`` runs
    emitted = trace.finish(route=str(result.route), status=str(result.status), slots=result.slots.as_dict(),
                           fact_ids=fact_ids, chunk_ids=[e.chunk_id for e in evidence_ids])
    return result.with_trace(emitted)
