"""Minimal rule-based slot extraction for the structured route (no LLM)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import Glossary, Mention, Period, SlotKind, normalize_text
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyPattern
from ragspine.qa.activity_lines import with_activity_lines
from ragspine.qa.asked_rows import outside_brackets, rows_named_by_words
from ragspine.qa.column_rows import DIVIDES_BY, with_column_rows
from ragspine.qa.current_parts import with_current_parts
from ragspine.qa.dated_balance_rows import with_dated_balance_rows
from ragspine.qa.dated_periods import date_inside_a_year, may_name_a_date, rewrite_dates
from ragspine.qa.half_years import HALF_WORDS, half_quarters, sums_over_a_half
from ragspine.qa.kind_phrases import UnstatedKind, unstated_kind
from ragspine.qa.label_words import PART_OF_WHOLE, label_readings, label_words, total_row_named_beside
from ragspine.qa.longer_row_names import without_names_inside_rows
from ragspine.qa.month_periods import PeriodReading, may_name_months
from ragspine.qa.near_miss import NearMiss, Reading, near_misses, period_near_misses
from ragspine.qa.period_words import (
    HALF_STARTS,
    RANGE_WORDS,
    half_year,
    only_quarter_words,
    read_period_words,
    unread_half,
    with_quarters,
    with_ranges,
    year_as_whole,
)
from ragspine.qa.section_rows import with_section_rows
from ragspine.qa.section_totals import with_section_totals
from ragspine.qa.share_counts import (
    PerShareForCount,
    asks_share_count,
    counts_over_per_share,
    per_share_for_count,
    serving_words,
)
from ragspine.qa.shared_head_rows import with_shared_head_rows
from ragspine.qa.total_parts import part_of_the_total_read
from ragspine.qa.total_row_names import with_total_rows_read

_TOKEN = LazyPattern(r"[a-z0-9][a-z0-9_'\-.&]*|[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+", re.IGNORECASE)
# A period's plural ("both FYs", "the two Years"): the periods the question spans, never a company's name
_PERIOD_PLURALS = frozenset({"fys", "years", "quarters", "halves"})
# A scale written after a currency sign ("in terms of $M", "€bn", "£ thousand"): the unit asked, never a name
_CURRENCY_SCALE = LazyPattern(r"[$€£¥]\s?(?:mn|mm|m|bn|b|k|th|million|billion|thousand)(?![a-z])", re.IGNORECASE)
# A word written in capitals ("EBITDA", "PSUs"): an acronym, whose letters are never fuzzed into another's
_ACRONYM = LazyPattern(r"(?<![A-Za-z])[A-Z]{3,}(?=s?(?![A-Za-z]))")


@dataclass(frozen=True, slots=True)
class Assumption:
    """A slot the question left out and the value assumed for it (listed in the answer)."""

    slot: SlotKind
    value: str
    reason: str
    cue: str = ""  # the question's own words for a relative period (去年, last quarter), when it named one
    typed: str | None = None  # a misspelt name read as ``value`` (the words as typed)


@dataclass(frozen=True, slots=True)
class Unrecognized:
    """The first slot the question names in words the glossary does not know."""

    param: str
    raw: str


@dataclass(frozen=True, slots=True)
class Slots:
    """The normalised slots of a question; several values when the user enumerates them."""

    metrics: tuple[str, ...]
    entities: tuple[str, ...]
    periods: tuple[Period, ...]
    channels: tuple[str, ...]
    assumptions: tuple[Assumption, ...] = ()
    unrecognized: Unrecognized | None = None

    def as_dict(self) -> dict[str, list[str]]:
        """JSON form: code lists per slot (periods as FY2024 / 2024Q3)."""
        return {
            "metric": list(self.metrics),
            "entity": list(self.entities),
            "period": [p.label for p in self.periods],
            "channel": list(self.channels),
        }


def last_completed_fiscal_year(today: date, calendar: FiscalCalendar | None = None) -> Period:
    """The default period: the last fiscal year of the domain's calendar that has ended (calendar year by default)."""
    return Period.fiscal_year((calendar or FiscalCalendar()).last_completed_year(today))


@dataclass(frozen=True, slots=True)
class ParsedSlots:
    """What a question names, before any default is applied (the clarify gate decides those)."""

    metrics: tuple[str, ...]
    entities: tuple[str, ...]
    periods: tuple[Period, ...]
    channels: tuple[str, ...]
    bad_period: str | None = None
    unknown_names: tuple[str, ...] = ()
    near_misses: tuple[NearMiss, ...] = ()  # misspelt names: one reading (taken) or several (asked)
    one_phrase: NearMiss | None = None  # metrics named in one phrase, not listed: one figure, which is asked
    # capitalised words of the documents' own rows ("Fees", "Workforce reduction"), none written only in
    # brackets (a unit): no company, but the words a metric asked back is offered by when no row was read
    row_words: tuple[str, ...] = ()
    # period words read on the fiscal calendar in a way the answer states (2024年度 as FY2025, a quarter's months)
    period_readings: tuple[PeriodReading, ...] = ()
    half_year_sum: bool = False  # a half year named, read as its two quarters: their sum is asked
    section_sum: bool = False  # "the sum of all <heading>" read as each row under that heading (``section_rows``)
    # a kind of figure named ("amortized cost") that no row read carries: asked back, never another kind's figure
    unstated_kind: UnstatedKind | None = None
    # a number of shares asked of rows that are amounts per share: asked back, never the per-share figure
    per_share_for_count: PerShareForCount | None = None
    # rows every word of whose label (outside brackets) the question writes: what a metric asked back offers first
    asked_rows: tuple[str, ...] = ()


def parse_slots(question: str, *, glossary: Glossary) -> ParsedSlots:
    """Find the metric, entity, period and channel mentions of a question (no LLM, no defaults).

    Misspelt period words are read first ("thrid quater 2024"). Words left over are examined
    for names when a metric or an entity is missing: when the other one is named, a bounded
    fuzzy match reads misspelt words as the missing kind (``near_miss``); when both are
    missing, only a pair read as one metric and one entity is taken. A misspelt channel is read
    when no channel is named but a metric or entity is. What remains is what the question
    named that the glossary does not know.
    """
    written = question
    question, readings = _with_period_words_read(question, glossary)  # 2025年3月期, "year ended June 30"
    question = with_dated_balance_rows(question, glossary)  # "investment at 31 December 2019": the "At 31 December" row
    question = _with_dates_read(question, glossary)  # "as at December 31, 2019": the fiscal year it closes
    question = with_shared_head_rows(question, glossary)  # "the domestic and international discount rates": two rows
    spliced = with_section_rows(question, glossary)  # "the sum of all tax credit carryforwards": each row under it
    section_sum, question = spliced != question, spliced
    question = with_section_totals(question, glossary)  # "the average of net revenues by region": its total row
    question = with_current_parts(question, glossary)  # "the total deferred revenue": its current and non-current rows
    # "for Balance payable, the difference between Workforce reduction and Facility costs": each column's row
    question = with_column_rows(question, glossary.scan(question), glossary)
    # "total sales" is the documents' "Total net sales" row, not the glossary's total channel of revenue
    mentions = with_total_rows_read(question, _items_of_sections_named(question, glossary.scan(question)), glossary)
    mentions = with_activity_lines(question, mentions, glossary)  # "cash used in investing activities": no balance
    mentions = without_names_inside_rows(question, mentions, glossary)  # "deferred revenue" is a row's, not revenue
    found: dict[SlotKind, dict[str, None]] = {SlotKind.METRIC: {}, SlotKind.ENTITY: {}, SlotKind.CHANNEL: {}}
    periods: dict[Period, None] = {}
    # months that are no fiscal quarter ("May-July 2024" for a March year): asked back, never read as the year
    bad_period: str | None = next((r.words for r in readings if r.period is None), None)
    for mention in mentions:  # one pass; dicts keep first-mention order without duplicates
        if mention.kind is SlotKind.PERIOD:
            if mention.period is None:
                bad_period = bad_period or mention.raw
            else:
                periods[mention.period] = None
        else:
            found[mention.kind][mention.code] = None  # type: ignore[index]
    norm = normalize_text(question)
    periods = with_ranges(norm, mentions, periods)  # "2019 to 2021": every year between
    periods, unread_quarter = _with_quarters_read(question, norm, periods)  # "the second quarter in fiscal 2019"
    bad_period = bad_period or unread_quarter
    half = half_year(question) if not bad_period and _HALF_START.search(norm) else None
    if half:  # facts are kept by year and quarter: a half year is its two quarters added up, or asked back
        bad_period = half_year(question, written)
    elif not bad_period and _HALF_START.search(norm):  # "the first half": part of a year, never the year
        bad_period = unread_half(question)
    if not bad_period:  # "as of June 30, 2024" under a December year: no fiscal year, never the year's balance
        bad_period = date_inside_a_year(question, glossary)
    unnamed = glossary.leftover(question, mentions)
    misses: list[NearMiss] = period_near_misses(norm, unnamed, glossary, periods)
    if misses:  # every reading carries the same corrected question: its periods replace the typed ones
        corrected = [m for m in glossary.scan(misses[0].readings[0].question) if m.kind is SlotKind.PERIOD]
        periods = {m.period: None for m in corrected if m.period is not None}
        bad_period = next((m.raw for m in corrected if m.period is None), None)

    # misses only grow: the blanked question is rebuilt only when one was added (none yet: the mentions' own)
    left: dict[int, str] = {} if misses else {0: unnamed}

    def blanked() -> str:
        if len(misses) not in left:
            left[len(misses)] = glossary.leftover(question, [
                *mentions, *(Mention(SlotKind.METRIC, None, m.raw, m.start, m.end) for m in misses)])
        return left[len(misses)]

    names: tuple[str, ...] = ()
    row_words: tuple[str, ...] = ()
    asked_rows: tuple[str, ...] = ()
    missing = [kind for kind in (SlotKind.METRIC, SlotKind.ENTITY) if not found[kind]]
    if missing:
        named = near_misses(norm, blanked(), glossary, missing, _acronyms(question))
        kinds = {reading.kind for miss in named for reading in miss.readings}
        # A misspelt name is read beside a well-spelt one of the other kind, or two misspelt
        # names together when one reads as a metric and the other as an entity.
        if len(missing) == 1 or kinds == set(missing):
            misses += named
        for miss in named:
            if miss in misses and len(miss.readings) == 1:
                found[miss.readings[0].kind][miss.readings[0].code] = None
        if not found[SlotKind.METRIC]:  # a document's row label named in other words ("effective tax rate")
            total_named = any(m.kind is SlotKind.CHANNEL and label_words(m.raw) == {"total"} for m in mentions)
            labelled = label_readings(norm, blanked(), glossary, total_named=total_named,
                                      written=normalize_text(written), years_compared=len(periods) >= 2)
            misses += labelled
            for miss in labelled:
                if len(miss.readings) == 1:
                    found[SlotKind.METRIC][miss.readings[0].code] = None
        else:
            specific = _label_beside_metric(question, norm, mentions, misses, glossary, tuple(found[SlotKind.METRIC]))
            if specific:
                misses += specific
                found[SlotKind.METRIC] = {row.readings[0].code: None for row in specific}
            elif any(m.kind is SlotKind.CHANNEL and label_words(m.raw) == {"total"} for m in mentions):
                total = total_row_named_beside(norm, blanked(), glossary, tuple(found[SlotKind.METRIC]))
                if total is not None:  # "X among the total cost": the documents' one total row beside X
                    misses.append(total)
                    found[SlotKind.METRIC][total.readings[0].code] = None
            else:
                beside = (_row_named_beside_metric(norm, blanked(), glossary, tuple(found[SlotKind.METRIC]))
                          or part_of_the_total_read(norm, blanked(), glossary, tuple(found[SlotKind.METRIC])))
                if beside is not None:  # "the percentage of sales represented by net other income": both are named
                    misses.append(beside)
                    found[SlotKind.METRIC][beside.readings[0].code] = None
            whole = _whole_named_after_part(norm, blanked(), glossary, mentions, tuple(found[SlotKind.METRIC]))
            if whole is not None:  # "shares vested as a percentage of the total non-vested shares": the whole too
                misses.append(whole)
                found[SlotKind.METRIC][whole.readings[0].code] = None
        leftover = blanked()
        if any(not found[kind] for kind in missing):
            said = set().union(*(label_words(label_of(code)) for code in found[SlotKind.METRIC]
                                 if code.startswith(METRIC_PREFIX)))
            # a row's section named beside it ("basic *weighted-average* shares") is no unknown name
            names = tuple(n for n in unknown_names(question, leftover, glossary)
                          if n not in RANGE_WORDS and not (label_words(n) and label_words(n) <= said))
            row_words = _naming_a_row(names, glossary)
            # a quarter the glossary's patterns leave (2024年第三季度和*第二季度*) was read by with_quarters
            names = tuple(n for n in names if n not in row_words and not only_quarter_words(n))
            row_words = outside_brackets(row_words, question)
            if not found[SlotKind.METRIC]:
                asked_rows = rows_named_by_words(leftover, glossary)
    if not found[SlotKind.CHANNEL] and (found[SlotKind.METRIC] or found[SlotKind.ENTITY]):
        channel_misses = near_misses(norm, blanked(), glossary, [SlotKind.CHANNEL])
        misses += channel_misses
        for miss in channel_misses:
            if len(miss.readings) == 1:
                found[SlotKind.CHANNEL][miss.readings[0].code] = None
    metrics = tuple(found[SlotKind.METRIC])
    if any(code.startswith(METRIC_PREFIX) for code in metrics):  # only a document's row can have a section
        asked = label_words(question)
        metrics = _longer_rows_named(_rows_over_their_sections(metrics, mentions, asked, norm), glossary, asked,
                                     _named_also_as_total(mentions) | _named_as_the_whole(norm, mentions))
        metrics = _rows_qualified_in_one_phrase(question, mentions, metrics, _wholes_of_parts(norm, mentions, metrics))
        metrics = counts_over_per_share(written, metrics, glossary)  # "the number of shares used in basic EPS"
        if asks_share_count(written):  # "基本每股收益所用的股数": its 所用 says which figure the count serves, no name
            names = tuple(n for n in names if not serving_words(n))
    entities = tuple(found[SlotKind.ENTITY])
    halves = half_quarters(half, glossary) if half and bad_period and sums_over_a_half(metrics, glossary) else None
    if halves is not None:  # "H1 2024 revenue": 2024Q1 + 2024Q2, said with their months
        year = glossary.normalize_period(HALF_WORDS.sub(" ", normalize_text(half)).strip())
        periods = {**{p: None for p in periods if p != year}, **{r.period: None for r in halves if r.period}}
        readings, bad_period = (*readings, *halves), None
        names = tuple(n for n in names if HALF_WORDS.sub(" ", normalize_text(n)).strip())  # 上半年 is no name
    return ParsedSlots(metrics, entities, tuple(periods), tuple(found[SlotKind.CHANNEL]), bad_period, names,
                       tuple(sorted(misses, key=lambda m: m.start)) if misses else (),
                       _metrics_in_one_phrase(question, mentions, metrics), row_words,
                       tuple(r for r in readings if r.period is not None and r.period in periods),
                       half_year_sum=halves is not None, section_sum=section_sum,
                       unstated_kind=unstated_kind(written, metrics, glossary), asked_rows=asked_rows,
                       per_share_for_count=per_share_for_count(written, metrics, glossary))


# Words that list figures ("revenue and net income", "营收、净利润", "売上高と営業利益"); names with none
# between them make one phrase ("current trade receivables", "net sales from Malaysia").
_LIST_WORD = LazyPattern(r"\b(?:and|or|vs|versus|plus|as well as)\b|[,，、;；&/+・]|和|与|與|及|と|や", re.I)


def _metrics_in_one_phrase(question: str, mentions: list[Mention], metrics: tuple[str, ...]) -> NearMiss | None:
    """Two glossary metrics the question names with no list word between them, as one reading each; else None.

    "The current trade receivables" names ``Current`` and ``Trade receivables`` but asks one
    figure: the trade receivables of the current section. The glossary cannot tell which name
    qualifies the other, so answering both (or the first) would give a figure not asked for.
    """
    if len(metrics) < 2:  # a pair needs two codes (most questions name one metric)
        return None
    # a document's own rows (open codes) keep their section in their label: parse_slots already chose among them
    named = sorted((m for m in mentions if m.kind is SlotKind.METRIC and m.code in metrics
                    and not m.code.startswith(METRIC_PREFIX)), key=lambda m: m.start)
    for first, second in zip(named, named[1:], strict=False):
        if first.code != second.code and not _LIST_WORD.search(question[first.end:second.start]):
            raw = question[first.start:second.end]
            norm = normalize_text(question)
            readings = tuple(Reading(SlotKind.METRIC, m.code or "", m.raw, norm.replace(normalize_text(raw), m.raw, 1))
                             for m in (first, second))  # each in the question's own words
            return NearMiss(raw, readings, first.start, second.end)
    return None


_WORD = LazyPattern(r"[^\W_]+")


def _rows_qualified_in_one_phrase(question: str, mentions: list[Mention], metrics: tuple[str, ...],
                                  wholes: set[str]) -> tuple[str, ...]:
    """The metrics less a document's row that only qualifies the next one the question names.

    "The number of nonvested shares granted" names the rows "Number of shares: nonvested" and
    "Number of shares: granted" with only their section's word between them: one figure is asked,
    the one named last ("granted", of the nonvested shares' roll-forward), never the balance row's
    too. Rows joined by a list word ("nonvested and granted shares") are each asked, and a word of
    arithmetic between ("the ratio of nonvested to granted shares") joins two figures. A row named again as the
    whole of a part (``wholes``: "granted as a percentage of the nonvested shares") is asked.
    """
    named = sorted((m for m in mentions if m.kind is SlotKind.METRIC and m.code in metrics
                    and m.code.startswith(METRIC_PREFIX)), key=lambda m: m.start)
    qualifying = set()
    for first, second in zip(named, named[1:], strict=False):
        if first.code == second.code:
            continue
        common = label_words(label_of(first.code or "")) & label_words(label_of(second.code or ""))
        between = question[first.end:second.start]
        words = _WORD.findall(between)
        # a word of their common section joins them, between or in either name ("issued notes redeemed");
        # "basic net income" names rows of two sections, none of whose words is common
        joined = common & (label_words(between) | label_words(first.raw) | label_words(second.raw))
        only_section = all(label_words(w) and label_words(w) <= common for w in words)
        if joined and only_section and not _LIST_WORD.search(between):
            qualifying.add(first.code)
    qualifying -= wholes
    return tuple(code for code in metrics if code not in qualifying) if qualifying else metrics


def _with_period_words_read(question: str, glossary: Glossary) -> tuple[str, tuple[PeriodReading, ...]]:
    """``read_period_words``, skipped (NFKC only) for a question with none of 期, 年度, "end", "/" and a
    month wording in it."""
    norm = normalize_text(question)
    # 2025年3月期, 2024年度, "year ended", 2018/19, "April-June 2024": each wording holds one
    if "期" in norm or "年度" in norm or "end" in norm or "/" in norm or may_name_months(norm):
        return read_period_words(question, glossary.fiscal_calendar)
    return unicodedata.normalize("NFKC", question), ()


_HALF_START = LazyPattern("|".join(HALF_STARTS))


# Every quarter wording holds one of these (Q3, the second quarter, 第二季度, 第4四半期; NFKC, lower case).
_QUARTER_START = LazyPattern("q|季|四半期")


def _with_quarters_read(question: str, norm: str, periods: dict[Period, None]) -> tuple[dict[Period, None], str | None]:
    """``with_quarters``, skipped for a question whose normalised text ``norm`` names no quarter (most questions);
    a quarter's own year kept beside it where the question divides by the year (``year_as_whole``)."""
    if not _QUARTER_START.search(norm):
        return periods, None
    read, unread = with_quarters(question, periods)
    return (read, unread) if unread else (year_as_whole(question, read), None)


def _with_dates_read(question: str, glossary: Glossary) -> str:
    """``rewrite_dates``, skipped for a question naming no month beside a day (most: nothing to rewrite)."""
    return rewrite_dates(question, glossary) if may_name_a_date(normalize_text(question)) else question


def _items_of_sections_named(question: str, mentions: list[Mention]) -> list[Mention]:
    """The mentions, less a row of a section read by its item's words alone where the question names
    none of the section's words but another metric.

    "Revenues of Teekay LNG" names the item "Teekay LNG" of the row ``Income (loss) from vessel
    operations: Teekay LNG`` and, by "revenues", another metric: the question asks Teekay LNG's
    revenues, not that row (which would answer with another figure). "Net sales from Malaysia"
    keeps ``Net sales: Malaysia`` (its section is named), and so does "Malaysia" alone.
    """
    metrics = [m for m in mentions if m.kind is SlotKind.METRIC and m.code]
    if len(metrics) < 2:
        return mentions
    asked = label_words(question)

    def by_item_alone(mention: Mention) -> bool:  # a row of a section whose section the question does not name
        section, _, item = label_of(mention.code or "").rpartition(": ")
        if not mention.code or not mention.code.startswith(METRIC_PREFIX) or not section:
            return False
        words = label_words(mention.raw)
        return bool(words) and words <= label_words(item) and not label_words(section) & asked

    alone = [m for m in metrics if by_item_alone(m)]
    others = [m for m in metrics if m not in alone]
    # an item holding the other metric's own words is a line item of its own ("cost of revenue as a percentage
    # of revenue"), not a part of that metric: the other metric is another operand, and the row stays read
    alone = [a for a in alone if not any(label_words(m.raw) <= label_words(label_of(a.code or "").rpartition(": ")[2])
                                         for m in others if m.code != a.code)]
    if not alone or not any(m.code != a.code for m in others for a in alone):
        return mentions
    return [m for m in mentions if m not in alone]


def _rows_over_their_sections(metrics: tuple[str, ...], mentions: list[Mention],
                              asked: set[str], norm: str) -> tuple[str, ...]:
    """The metrics named, a section's own name left out where a row of that section is named too.

    "net sales from Malaysia" names the row ``Net sales: Malaysia`` and, by "net sales", the
    section's total: the question asks for the row. A name written after "as a percentage of"
    (``norm``, the normalised question) with a row named before it is the whole the row is a
    part of, not the row's section: "the non-vested units awarded as a percentage of the total
    non-vested units" asks both.
    """
    sections = [label_of(code).rpartition(": ")[0] for code in metrics
                if code.startswith(METRIC_PREFIX) and ": " in label_of(code)]
    if not sections:
        return metrics
    said = {m.code: label_words(m.raw) for m in mentions if m.kind is SlotKind.METRIC and m.code}
    wholes = _wholes_of_parts(norm, mentions, metrics)

    def heads(code: str) -> bool:  # the section is what this metric's words name, or begins with them
        words = said.get(code) or set()
        return bool(words) and ": " not in label_of(code) and code not in wholes and any(
            words <= label_words(s) and (label_words(s) <= asked or _leading_words(s, len(words)) == words)
            for s in sections)

    return tuple(code for code in metrics if not heads(code))


def _wholes_of_parts(norm: str, mentions: list[Mention], metrics: tuple[str, ...]) -> set[str]:
    """The metrics named after "as a percentage of" (``norm``, the normalised question) where another row is named
    before it: the whole that row is a part of, though its name is the row's section or qualifies it."""
    join = PART_OF_WHOLE.search(norm)
    if join is None:
        return set()
    named = [m for m in mentions if m.kind is SlotKind.METRIC and m.code in metrics]
    before = [m.code for m in named if m.end <= join.start()]
    after = {m.code for m in named if m.start >= join.end() and m.code}
    # the part is the row named last before the words; named again after them ("awarded in 2019 as a percentage
    # of those awarded in 2018") it is one row of two periods, not a part and its whole
    return after if before and before[-1] not in after else set()


def _named_also_as_total(mentions: list[Mention]) -> set[str]:
    """The open rows named twice, once right after the word "total" and once not: "the operating leases of more
    than 5 years in the total operating leases" names a column's cell of the row, then the row's own whole."""
    named: dict[str, set[bool]] = {}
    for before, mention in zip([None, *mentions], mentions, strict=False):
        if mention.kind is SlotKind.METRIC and mention.code and mention.code.startswith(METRIC_PREFIX):
            after_total = (before is not None and before.kind is SlotKind.CHANNEL and before.end + 1 == mention.start
                           and label_words(before.raw) == {"total"})
            named.setdefault(mention.code, set()).add(after_total)
    return {code for code, how in named.items() if how == {True, False}}


def _named_as_the_whole(norm: str, mentions: list[Mention]) -> set[str]:
    """The open rows named twice, the second time right after the words a share divides by and without the word
    "total": "the operating leases of more than 5 years as a percentage of operating leases". The row's own
    figure is then the whole, and the longer row its first mention reads (a column's cell of it) the part."""
    rows = [m for m in mentions if m.kind is SlotKind.METRIC and m.code and m.code.startswith(METRIC_PREFIX)]
    return {str(m.code) for m in rows
            if [r for r in rows if r.code == m.code][1:] == [m] and DIVIDES_BY.search(norm[:m.start].lower())}


def _longer_rows_named(metrics: tuple[str, ...], glossary: Glossary, asked: set[str],
                       totals: set[str]) -> tuple[str, ...]:
    """Each open row read whose words lie inside one longer row the question names word for word: that row.

    "the net cost of land, property, and equipment" holds the row ``Land`` as written and every
    word of ``Land, property and equipment, net``: the question asks the longer row. A longer row
    already read stays beside the shorter one (both are named); two longer rows equally long keep
    the row read. A row named again as a total (``totals``: "… in the total operating leases") is
    kept beside the longer row its other mention reads: the whole, and its part.
    """
    if not any(code.startswith(METRIC_PREFIX) for code in metrics):
        return metrics
    words = {code: label_words(label_of(code)) for code in glossary.terms[SlotKind.METRIC]
             if code.startswith(METRIC_PREFIX)}
    chosen: list[str] = []
    for code in metrics:
        own = words.get(code)
        longer = [other for other, theirs in words.items() if own and own < theirs <= asked] if own else []
        if longer and not any(other in metrics for other in longer):
            top = max(len(words[other]) for other in longer)
            best = [other for other in longer if len(words[other]) == top]
            if len(best) == 1 and code in totals:
                chosen.append(best[0])  # the part, then the whole named "total"
            code = best[0] if len(best) == 1 and code not in totals else code
        chosen.append(code)
    return tuple(dict.fromkeys(chosen))


def _label_beside_metric(question: str, norm: str, mentions: list[Mention], misses: list[NearMiss],
                         glossary: Glossary, metrics: tuple[str, ...]) -> list[NearMiss]:
    """The document's row that a glossary metric's words and the words beside them name together, or two rows of
    one section so named ("cloud and license revenues from the Americas as compared to Asia Pacific"); else [].

    "net sales from Malaysia" names the row ``Net sales: Malaysia`` of a table of sales by
    country, and "service revenue" the row ``Revenue: Service``: the row is taken over the
    glossary's metric only when one label holds every word the metric was named by and the
    question's other words, so a row of costs is never read for a question about revenue.
    """
    said = [m for m in mentions if m.kind is SlotKind.METRIC]
    if len(metrics) != 1 or metrics[0].startswith(METRIC_PREFIX) or len(said) != 1:
        return []
    others = [m for m in mentions if m.kind is not SlotKind.METRIC]
    leftover = glossary.leftover(question, [*others, *(Mention(SlotKind.METRIC, None, m.raw, m.start, m.end)
                                                       for m in misses)])
    readings = label_readings(norm, leftover, glossary)
    if not 1 <= len(readings) <= 2 or any(len(r.readings) != 1 for r in readings):
        return []
    named_by = label_words(said[0].raw)
    asked = label_words(question)
    if len(readings) == 2 and len({label_of(r.readings[0].code).rpartition(": ")[0] for r in readings}) != 1:
        return []  # two rows beside the metric are the items of one section it names ("from A as compared to B")

    def beside(reading: NearMiss) -> bool:
        label = label_of(reading.readings[0].code)
        own = label_words(label)
        section, _, item = label.rpartition(": ")
        # the row says all the question does, or it is a part of what its section heads with the metric's
        # words ("Revenue from external customers by country: UK"): "hosting revenue" is never the row
        # "Cost of revenue: Hosting"
        heads = bool(section) and _leading_words(section, len(named_by)) == named_by and label_words(item) <= asked
        return bool(named_by) and named_by < own and (own <= asked or heads)

    return readings if all(map(beside, readings)) else []


def _row_named_beside_metric(norm: str, leftover: str, glossary: Glossary,
                             metrics: tuple[str, ...]) -> NearMiss | None:
    """The one document row the words beside a lone glossary metric name in other words, or None.

    "The percentage of sales represented by net other income" names the glossary's revenue by
    "sales" and the row ``Other income (expense), net`` by "net other income". Both are read, as a
    row named as written is: which one answers is decided with the facts (``metric_rows``: the row
    only where the metric has no figure and the row's document says its table is of the metric).
    Two rows named equally, or none clearly, add nothing; nor does a row of a section the question
    names no word of: "Revenues of Teekay LNG" is not the row ``Income (loss) from vessel
    operations: Teekay LNG`` (another figure of the same name).
    """
    if len(metrics) != 1 or metrics[0].startswith(METRIC_PREFIX):
        return None
    readings = label_readings(norm, leftover, glossary)
    if len(readings) != 1 or len(readings[0].readings) != 1:
        return None
    section = label_of(readings[0].readings[0].code).rpartition(": ")[0]
    if section and not label_words(section) & label_words(norm):
        return None
    return readings[0]


def _whole_named_after_part(norm: str, leftover: str, glossary: Glossary, mentions: list[Mention],
                            metrics: tuple[str, ...]) -> NearMiss | None:
    """The document row named in other words after "as a percentage of" (``PART_OF_WHOLE``), where the one row
    read before those words is a document row named as written; else None.

    "The non-vested shares vested as a percentage of the total non-vested shares" names the row
    ``Shares: Vested`` as written and the year-end balance ``Shares: Non-vested`` in other words: the
    part and its whole are both asked, each read by the words on its own side. A whole read as the
    part's own row, or not clearly one row, adds nothing.
    """
    if len(metrics) != 1 or not metrics[0].startswith(METRIC_PREFIX):
        return None
    join = PART_OF_WHOLE.search(leftover)
    parts = [m for m in mentions if m.kind is SlotKind.METRIC and m.code == metrics[0]]
    if join is None or not parts or any(m.end > join.start() for m in parts):
        return None
    total_named = any(m.kind is SlotKind.CHANNEL and label_words(m.raw) == {"total"} and m.start >= join.end()
                      for m in mentions)
    readings = label_readings(norm, " " * join.end() + leftover[join.end():], glossary, total_named=total_named)
    if len(readings) != 1 or len(readings[0].readings) != 1 or readings[0].readings[0].code == metrics[0]:
        return None
    return readings[0]


def _naming_a_row(names: tuple[str, ...], glossary: Glossary) -> tuple[str, ...]:
    """The unknown names whose words are words of the documents' own rows.

    "Deferred Revenue", "Workforce reduction", "Apple" and "Network Software & Systems" are
    capitalised because the question quotes a row label or a column (a segment) of the table;
    they name the document's rows, not a company the domain does not know (nor does 国内事业 where
    a row is ``国内事业: 收入``). A word no row holds stays unknown: "Globex" is asked back. A month
    name has no label words (dates are periods), so it stays unknown even where a row holds it:
    "as of September 30, 2018" inside a fiscal year is asked back rather than read as the year.
    """
    if not names:
        return names
    labels = [normalize_text(label_of(code)) for code in glossary.terms[SlotKind.METRIC]
              if code.startswith(METRIC_PREFIX)]
    rows: set[str] = set().union(*(label_words(label) for label in labels))

    def names_a_row(name: str) -> bool:
        if name.isascii():
            return bool(label_words(name)) and label_words(name) <= rows
        return any(normalize_text(name) in label for label in labels)  # CJK has no word breaks: held as written

    return tuple(n for n in names if names_a_row(n))


def _acronyms(question: str) -> frozenset[str]:
    """The words ``question`` writes in capitals, lower-cased; none when it is all capitals (no word stands out)."""
    if not any(char.islower() for char in question):
        return frozenset()
    return frozenset(match.group().lower() for match in _ACRONYM.finditer(question))


def _leading_words(text: str, count: int) -> set[str]:
    """The first ``count`` content words of a text."""
    words = [w for w in re.findall(r"[^\W_]+", text.lower()) if label_words(w)]
    return {next(iter(label_words(w))) for w in words[:count]}


def unknown_names(question: str, leftover: str, glossary: Glossary) -> list[str]:
    """Words left after removing slots and fillers that look like names.

    CJK runs of two or more characters count; Latin words count only when capitalised in
    the question (a proper noun such as "Globex"), so ordinary English filler never does, nor
    a period's plural ("both FYs"), nor a scale after a currency sign ("in terms of $M").
    """
    original = unicodedata.normalize("NFKC", question)
    aligned = len(original) == len(leftover)
    scales = {at for match in _CURRENCY_SCALE.finditer(original) for at in range(match.start(), match.end())}
    names: list[str] = []
    for token in _TOKEN.finditer(leftover):
        word = token.group(0).strip("'.-").removesuffix("'s")
        if not word:
            continue
        if word.isascii():
            capitalised = aligned and original[token.start()].isupper() and token.start() not in scales
            if word not in glossary.fillers and word.lower() not in _PERIOD_PLURALS and capitalised:
                names.append(original[token.start():token.start() + len(word)])
            continue
        for filler in glossary.fillers:
            word = word.replace(filler, " ")
        names.extend(part for part in word.split() if len(part) >= 2)
    return names
