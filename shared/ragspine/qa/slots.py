"""Minimal rule-based slot extraction for the structured route (no LLM)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import Glossary, Mention, Period, SlotKind, normalize_text
from ragspine.qa.dated_periods import rewrite_dates
from ragspine.qa.label_words import label_readings
from ragspine.qa.near_miss import NearMiss, near_misses, period_near_misses
from ragspine.qa.period_words import RANGE_WORDS, half_year, rewrite_period_words, with_ranges

_TOKEN = re.compile(r"[a-z0-9][a-z0-9_'\-.&]*|[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+", re.IGNORECASE)


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


def parse_slots(question: str, *, glossary: Glossary) -> ParsedSlots:
    """Find the metric, entity, period and channel mentions of a question (no LLM, no defaults).

    Misspelt period words are read first ("thrid quater 2024"). Words left over are examined
    for names when a metric or an entity is missing: when the other one is named, a bounded
    fuzzy match reads misspelt words as the missing kind (``near_miss``); when both are
    missing, only a pair read as one metric and one entity is taken. A misspelt channel is read
    when no channel is named but a metric or entity is. What remains is what the question
    named that the glossary does not know.
    """
    question = rewrite_period_words(question, glossary.fiscal_calendar)  # 2025年3月期, "year ended June 30"
    question = rewrite_dates(question, glossary)  # "as at December 31, 2019": the fiscal year it closes
    mentions = glossary.scan(question)
    found: dict[SlotKind, dict[str, None]] = {SlotKind.METRIC: {}, SlotKind.ENTITY: {}, SlotKind.CHANNEL: {}}
    periods: dict[Period, None] = {}
    bad_period: str | None = None
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
    bad_period = bad_period or half_year(question)  # facts are kept by year and quarter, never by half
    misses: list[NearMiss] = period_near_misses(norm, glossary.leftover(question, mentions), glossary, periods)
    if misses:  # every reading carries the same corrected question: its periods replace the typed ones
        corrected = [m for m in glossary.scan(misses[0].readings[0].question) if m.kind is SlotKind.PERIOD]
        periods = {m.period: None for m in corrected if m.period is not None}
        bad_period = next((m.raw for m in corrected if m.period is None), None)

    def blanked() -> str:
        return glossary.leftover(question, [*mentions, *(Mention(SlotKind.METRIC, None, m.raw, m.start, m.end)
                                                         for m in misses)])

    names: tuple[str, ...] = ()
    missing = [kind for kind in (SlotKind.METRIC, SlotKind.ENTITY) if not found[kind]]
    if missing:
        named = near_misses(norm, blanked(), glossary, missing)
        kinds = {reading.kind for miss in named for reading in miss.readings}
        # A misspelt name is read beside a well-spelt one of the other kind, or two misspelt
        # names together when one reads as a metric and the other as an entity.
        if len(missing) == 1 or kinds == set(missing):
            misses += named
        for miss in named:
            if miss in misses and len(miss.readings) == 1:
                found[miss.readings[0].kind][miss.readings[0].code] = None
        if not found[SlotKind.METRIC]:  # a document's row label named in other words ("effective tax rate")
            labelled = label_readings(norm, blanked(), glossary)
            misses += labelled
            for miss in labelled:
                if len(miss.readings) == 1:
                    found[SlotKind.METRIC][miss.readings[0].code] = None
        leftover = blanked()
        if any(not found[kind] for kind in missing):
            names = tuple(n for n in unknown_names(question, leftover, glossary) if n not in RANGE_WORDS)
    if not found[SlotKind.CHANNEL] and (found[SlotKind.METRIC] or found[SlotKind.ENTITY]):
        channel_misses = near_misses(norm, blanked(), glossary, [SlotKind.CHANNEL])
        misses += channel_misses
        for miss in channel_misses:
            if len(miss.readings) == 1:
                found[SlotKind.CHANNEL][miss.readings[0].code] = None
    metrics, entities = tuple(found[SlotKind.METRIC]), tuple(found[SlotKind.ENTITY])
    return ParsedSlots(metrics, entities, tuple(periods), tuple(found[SlotKind.CHANNEL]), bad_period, names,
                       tuple(sorted(misses, key=lambda m: m.start)))


def unknown_names(question: str, leftover: str, glossary: Glossary) -> list[str]:
    """Words left after removing slots and fillers that look like names.

    CJK runs of two or more characters count; Latin words count only when capitalised in
    the question (a proper noun such as "Globex"), so ordinary English filler never does.
    """
    original = unicodedata.normalize("NFKC", question)
    aligned = len(original) == len(leftover)
    names: list[str] = []
    for token in _TOKEN.finditer(leftover):
        word = token.group(0).strip("'.-").removesuffix("'s")
        if not word:
            continue
        if word.isascii():
            capitalised = aligned and original[token.start()].isupper()
            if word not in glossary.fillers and capitalised:
                names.append(original[token.start():token.start() + len(word)])
            continue
        for filler in glossary.fillers:
            word = word.replace(filler, " ")
        names.extend(part for part in word.split() if len(part) >= 2)
    return names
