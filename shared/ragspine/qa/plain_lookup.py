"""The parse of a plain lookup, read from the glossary's one scan instead of every slot and cue reader.

A plain lookup names one glossary metric, at most one entity and one channel, and one fiscal
year or quarter, in the question's own names and a few question words ("what was … in", 是多少,
はいくらですか) and nothing else. Every slot reader of ``parse_slots`` and every cue reader of the
intent finds something only in words such a question does not hold (a misspelt or unknown name,
a range, a half year, a date, a document's row, a change, a ratio, a rank …): its intent is the
scan's four slots with the cues the intent reads from the whole question. Any other word, a
second name of a kind, a document's row, a formula metric or a period written with a month or a
fiscal-year wording sends the question to the full parse. Screening, the clarify gate and the
FAQ look-up are the full path's own; so is everything after the parse. The cue readers, the
arithmetic reader and the month, half-year and statement readers run only when the question holds
one of their words, which one Aho-Corasick pass over every reader's words decides (``word_lists``);
a question holding none of the cue words gets their empty verdicts (the quantity cue read alone).

The property tests hold the intent built here to ``RuleIntentParser.parse`` of the same question,
and the answers to the full path's (``tests/unit/qa/test_plain_lookup.py``).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from functools import lru_cache
from typing import TYPE_CHECKING

from ragspine.facts.glossary import Glossary, Mention, SlotKind, normalize_text
from ragspine.facts.matching import script_split_pattern
from ragspine.facts.open_vocabulary import METRIC_PREFIX
from ragspine.frozen_records import record_builder
from ragspine.lazy import LazyPattern
from ragspine.qa.analytics.cues import NO_ANALYSIS
from ragspine.qa.arithmetic_cues import (
    NO_ARITHMETIC,
    ONE_METRIC_WORDS,
    SPACED_CUE_WORDS,
    SPACED_CUES_ANYWHERE,
    read_arithmetic,
)
from ragspine.qa.clarify import ScopeDecision, clarify_scope
from ragspine.qa.company_spelling import with_company_names
from ragspine.qa.dated_periods import MONTH_STARTS, may_name_a_date
from ragspine.qa.glossary_memo import GlossaryMemo
from ragspine.qa.intent import RuleIntentParser
from ragspine.qa.intent_model import Channel, Intent
from ragspine.qa.language import Lang, detect_language
from ragspine.qa.month_periods import may_name_months
from ragspine.qa.parse_cache import ParsedQuestion
from ragspine.qa.period_words import HALF_STARTS, half_year, read_period_words, unread_half
from ragspine.qa.slots import ParsedSlots
from ragspine.qa.statement_names import STATEMENT_WORDS, without_statement_names
from ragspine.qa.word_lists import WordLists

if TYPE_CHECKING:
    from ragspine.qa.answer import QAComponents
    from ragspine.qa.trace import TraceRecorder

# What a plain lookup may hold besides its names (the question with its names blanked, normalised).
# Each is a word no slot or cue reader reads: a question word, a particle, a space or a question mark.
# A run of spaces (a blanked name) is taken whole, possessively: no word starts with a space or a mark, so
# no match needs the run cut short, and the loop steps once a run rather than once a character.
_PLAIN_WORDS = LazyPattern(
    r"(?:[\s?？。]++|(?<![a-z0-9])(?:what|was|is|the|of|in|for|how much|how many|did|have)(?![a-z0-9])"
    r"|是多少|的|の|は|を|いくら|ですか|でしたか|教えて|ください)*")
# Four names and a few question words: a question longer than this goes to the full parse unread.
_MAX_PLAIN_CHARS = 100
# Every month wording the months reader reads holds 月, "end" (which ``_may_read_period_words`` looks for) or a
# month's first three letters (``holds_month_start``) with a range word after them ("April-June", "Oct. to Dec.";
# its "until" and "through" begin "unt" and "thr"); in the normalised question no other character matches these
# letters case-blind. Its case-blind pattern, tried at every position, runs only on such a question ("gross
# margin" holds no range word).
_RANGE_WORDS = LazyPattern(r"[-–—~〜～ー至到]|to|thr|unt|から")
# enum members read once: on Python 3.11 each read off the class goes through the enum metaclass's attribute hook
_METRIC, _ENTITY, _PERIOD, _CHANNEL = SlotKind.METRIC, SlotKind.ENTITY, SlotKind.PERIOD, SlotKind.CHANNEL
_STRUCTURED = Channel.STRUCTURED
# built on every plain ask: their slots set directly, not through the frozen __init__ (ragspine/frozen_records.py)
_NEW_INTENT, _NEW_SLOTS = record_builder(Intent), record_builder(ParsedSlots)


def plain_intent(text: str, parser: RuleIntentParser) -> Intent | None:
    """The intent ``parser.parse(text)`` gives a plain lookup, from its glossary's scan; None for any other question."""
    glossary = parser.glossary
    if len(text) > _MAX_PLAIN_CHARS:  # a long question is never plain: it pays nothing here
        return None
    # the scan and its blanked question first: the full parse reads both again from the glossary's memo
    mentions = glossary.scan(text)
    slots = _plain_slots(mentions, glossary)
    if slots is None or _PLAIN_WORDS.fullmatch(glossary.leftover(text, mentions)) is None:
        return None
    norm = normalize_text(text)
    held = _reader_words(parser).held(norm)  # which readers' words it holds, every reader's in one pass
    if not _periods_as_written(text, norm, glossary, held):
        return None
    # a company written in another form, or a statement's name, is rewritten before the slots are read
    if with_company_names(text, glossary) is not text \
            or (held & _STATEMENT and without_statement_names(text) is not text):
        return None
    if (held & _CUE or "total" in text.lower()) and _may_hold_cues(text, norm, parser):
        analysis, causal, quantity, comparison, unit = parser.cues(norm)
        # a channel's name may be a cue word (合計, total): the arithmetic reader's own verdict, fast with no cue
        if analysis or causal or read_arithmetic(text, glossary) is not NO_ARITHMETIC:
            return None
    else:  # no cue word anywhere: the quantity cue is the only one to read, and one metric asks no arithmetic
        analysis, causal, quantity, comparison, unit = NO_ANALYSIS, False, parser.asks_quantity(norm), False, None
    return _NEW_INTENT(slots, _STRUCTURED, causal, quantity, comparison, analysis=analysis,
                       requested_unit=unit, arithmetic=NO_ARITHMETIC)


def _may_hold_cues(text: str, norm: str, parser: RuleIntentParser) -> bool:
    """Whether the intent's cues but the quantity cue, or the arithmetic reader, may find anything in a question
    naming one metric and no formula metric: False only when it holds none of the words each needs."""
    words = _cue_words(parser)
    return words is None or words.search(norm) is not None or SPACED_CUES_ANYWHERE.search(norm) is not None \
        or "total" in text.lower()


# The bits of ``_reader_words``'s lists: a reader whose list the question holds no word of reads nothing in it.
_CUE, _MONTH, _HALF, _STATEMENT = 1, 2, 4, 8


@lru_cache(maxsize=8)
def _reader_words(parser: RuleIntentParser) -> WordLists:
    """The words each guarded reader of a plain lookup needs, as lists: ``_may_hold_cues``'s (each spaced cue word
    by one of its pieces, which every match of it holds as written), the months' first letters
    (``holds_month_start``), the half years' (``HALF_STARTS``) and the statements' names
    (``without_statement_names``)."""
    cue_words = parser.cue_words
    cues = [""] if cue_words is None else [*cue_words, *ONE_METRIC_WORDS, *(_piece(word) for word in SPACED_CUE_WORDS)]
    return WordLists(cues, MONTH_STARTS, HALF_STARTS, STATEMENT_WORDS)


def _piece(spaced: str) -> str:
    """One part of a spaced cue word that every match of it holds: "%" where it has one (a cue word of its own), else
    its longest part between spaces."""
    return "%" if "%" in spaced else max(spaced.split(" "), key=len)


@lru_cache(maxsize=8)
def _cue_words(parser: RuleIntentParser) -> re.Pattern[str] | None:
    """One prefix tree of every word the intent's cues (the quantity cue aside) and the arithmetic reader of a
    one-metric question read, built once per parser; None when a cue of the parser needs no word."""
    words = parser.cue_words
    return None if words is None else re.compile(script_split_pattern((*words, *ONE_METRIC_WORDS)))


def _periods_as_written(text: str, norm: str, glossary: Glossary, held: int) -> bool:
    """Whether the slot reading takes the question's periods as the scan reads them: no period wording it reads
    on the fiscal calendar, no date, no half year (each checked by its own reader where its words occur: ``held``,
    the bits of ``_reader_words`` the question holds)."""
    calendar = glossary.fiscal_calendar
    months = bool(held & _MONTH)  # ``holds_month_start(norm)``, read in the same pass
    if _may_read_period_words(norm, calendar.end_month) or _may_name_months(norm, months=months):
        read, readings = read_period_words(text, calendar)
        if readings or read != unicodedata.normalize("NFKC", text):
            return False
    if months and may_name_a_date(norm):
        return False
    return not held & _HALF or (half_year(text) is None and unread_half(text) is None)


def _may_read_period_words(norm: str, end_month: int) -> bool:
    """Whether ``read_period_words`` may rewrite or read a period word of the question besides its months.

    Its readers each need their own words: a Japanese fiscal year's end 月 and 期 (2025年3月期), "end" ("year
    ended June 30, 2024", "2018 year end"), "/" (2018/19), and 年度 only on a calendar whose year ends in January
    to March (2024年度 named by its start). So 2025年度 or 第4四半期 on a December calendar is read by the scan alone.
    """
    return "end" in norm or "/" in norm or ("期" in norm and "月" in norm) or ("年度" in norm and end_month <= 3)


def _may_name_months(norm: str, *, months: bool) -> bool:
    """``may_name_months(norm)``, read only where a month wording without "end" may stand (``months``: the question
    holds a month's first three letters)."""
    return ("月" in norm or (months and _RANGE_WORDS.search(norm) is not None)) and may_name_months(norm)


def _plain_slots(mentions: list[Mention], glossary: Glossary) -> ParsedSlots | None:
    """One glossary metric (no document row, no formula), one year or quarter, at most one entity and channel."""
    if not 2 <= len(mentions) <= 4:
        return None
    # by kind, each at most once (a plain loop: no dictionary of kinds built and hashed per question)
    metric = entity = period = channel = None
    for mention in mentions:
        kind = mention.kind
        if mention.code is None:
            return None
        if kind is _METRIC and metric is None:
            metric = mention
        elif kind is _PERIOD and period is None:
            period = mention
        elif kind is _ENTITY and entity is None:
            entity = mention
        elif kind is _CHANNEL and channel is None:
            channel = mention
        else:  # a second name of a kind
            return None
    if metric is None or period is None or period.period is None or period.period.period_type not in ("FY", "Q"):
        return None
    code = metric.code
    if code is None or code.startswith(METRIC_PREFIX) or code in glossary.formulas:
        return None
    return _NEW_SLOTS((code,), (entity.code,) if entity is not None and entity.code else (), (period.period,),
                       (channel.code,) if channel is not None and channel.code else ())


def plain_parse(text: str, qa: QAComponents, *, today: date, trace: TraceRecorder) -> ParsedQuestion | None:
    """The parse ``answer._parse`` gives a plain lookup, with its intent read from the scan; None otherwise
    (nothing recorded in ``trace`` then, so the full parse starts as it would have)."""
    parser = qa.intent
    if not isinstance(parser, RuleIntentParser):
        return None
    intent = plain_intent(text, parser)
    if intent is None:
        return None
    # the names of a plain lookup are the glossary's own: screening's out-of-scope verdict, which the
    # documents may lift, is never met; any other refusal is left to the full parse
    if qa.screening.screen(text) is not None:
        return None
    trace.stage("screening")
    lang = detect_language(text)
    decision = _plain_scope(intent, qa.glossary, today, lang)
    trace.stage("intent_clarify")
    hit = qa.faq.match(text, by_meaning=False) if qa.faq is not None else None
    trace.stage("faq")
    return ParsedQuestion(trace.question_sha256, lang, None, intent, decision, hit)


# The clarify gate's decision on the last plain lookups. A plain intent holds one metric, one period, at most one
# entity and channel and nothing else the gate reads (no misspelt, unknown or one-phrase name, no bad period, no
# analysis or arithmetic), so the decision is a function of those slots, the day and the language; each entry
# keeps the glossary it was made with (another glossary decides afresh). Decisions are immutable, so one is shared.
_DECISIONS: GlossaryMemo[ScopeDecision] = GlossaryMemo(256)


def _plain_scope(intent: Intent, glossary: Glossary, today: date, lang: Lang) -> ScopeDecision:
    """``clarify_scope`` of a plain intent, kept for the last plain lookups' slots."""
    slots = intent.slots
    period = slots.periods[0]
    key = (slots.metrics, slots.entities, period.period_type, period.period, slots.channels, today, lang)
    return _DECISIONS.recall(key, glossary, lambda: clarify_scope(intent, glossary=glossary, today=today, lang=lang))
