"""``clarify_scope``: the deliberate asymmetry of seed 001.

A missing metric is asked for (guessing a metric gives a materially wrong answer); a
missing entity or period is answered with explicit assumptions (the home group, the last
completed fiscal year) plus one-click refinements; a name nobody knows is reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.facts.open_vocabulary import is_open_code
from ragspine.lazy import LazyModule
from ragspine.qa.dated_periods import is_month_name
from ragspine.qa.intent_model import Channel, Intent
from ragspine.qa.kind_phrases import ask_for_kind
from ragspine.qa.language import Lang
from ragspine.qa.near_miss import NearMiss
from ragspine.qa.share_counts import ask_for_count
from ragspine.qa.slots import Assumption, ParsedSlots, Slots, Unrecognized, last_completed_fiscal_year

if TYPE_CHECKING:
    from rapidfuzz import fuzz, process

    from ragspine.qa import clarification, phrasing
    from ragspine.qa.analytics import compute as analytics
    from ragspine.qa.analytics import periods as relative_periods
    from ragspine.qa.clarification import Clarification, Option
else:
    # Loaded when a question names something the glossary does not know: a complete question never needs it.
    fuzz = LazyModule("rapidfuzz.fuzz")
    process = LazyModule("rapidfuzz.process")
    # Loaded when a question asks for an analysis (a ranking, a period relative to today) or is asked back:
    # a complete question for figures as stated needs neither.
    analytics = LazyModule("ragspine.qa.analytics.compute")
    relative_periods = LazyModule("ragspine.qa.analytics.periods")
    phrasing = LazyModule("ragspine.qa.phrasing")
    # Loaded when a question is asked back or offered other values: one naming what it asks builds neither.
    clarification = LazyModule("ragspine.qa.clarification")

MAX_METRIC_OPTIONS = 3
# Below this WRatio the unknown words are not a misspelt metric ("numbers", "見せて"): offer every metric.
MIN_METRIC_SIMILARITY = 65.0
_ASK_READING = {
    Lang.ZH: "“{typed}”是指哪一个？请选择：{options}",
    Lang.EN: "Which did you mean by '{typed}'? Choose one: {options}",
    Lang.JA: "「{typed}」はどれのことですか？次から選んでください：{options}",
}
_ASK_METRIC = {
    Lang.ZH: "您想查询哪个指标？请选择：{options}",
    Lang.EN: "Which figure do you mean? Choose one: {options}",
    Lang.JA: "どの指標をお調べですか？次から選んでください：{options}",
}


@dataclass(frozen=True, slots=True)
class Proceed:
    """Answer with these slots (assumptions filled in) and offer these refinements."""

    slots: Slots
    refinements: tuple[Option, ...] = ()


@dataclass(frozen=True, slots=True)
class AskBack:
    """Ask the user instead of answering; no channel runs."""

    clarification: Clarification
    slots: Slots


ScopeDecision = Proceed | AskBack


def clarify_scope(intent: Intent, *, glossary: Glossary, today: date, lang: Lang) -> ScopeDecision:
    """Decide whether the question can be answered as asked, with assumptions, or must be asked back."""
    parsed = intent.slots
    channels = parsed.channels or (glossary.default_channel,)
    unsure = next((miss for miss in parsed.near_misses if len(miss.readings) > 1), None)
    if unsure is not None:
        return AskBack(_ask_for_reading(unsure, lang=lang), _as_parsed(parsed, channels))
    if parsed.unstated_kind is not None:  # "the amortized cost" of a row whose table gives only its fair value
        return AskBack(ask_for_kind(parsed.unstated_kind, lang=lang),
                       _as_parsed(parsed, channels))
    if parsed.per_share_for_count is not None:  # "the number of shares used in basic EPS" read as the EPS row
        return AskBack(ask_for_count(parsed.per_share_for_count, lang=lang), _as_parsed(parsed, channels))
    if intent.needs_metric:
        return AskBack(_ask_for_metric(intent, glossary=glossary, today=today, lang=lang), _as_parsed(parsed, channels))
    if intent.channel is Channel.NARRATIVE:
        return Proceed(_as_parsed(parsed, channels))
    if parsed.one_phrase is not None and not (intent.arithmetic or intent.analysis or intent.comparison):
        # one figure asked: which one
        return AskBack(_ask_for_reading(parsed.one_phrase, lang=lang), _as_parsed(parsed, channels))
    if parsed.bad_period is not None:
        return Proceed(_as_parsed(parsed, channels, Unrecognized("period", parsed.bad_period)))
    if not parsed.entities and parsed.unknown_names:
        return Proceed(_as_parsed(parsed, channels, _unknown_name(parsed.unknown_names)))
    assumptions = [Assumption(miss.readings[0].kind, miss.readings[0].code,
                              f"read '{miss.raw}' as {miss.readings[0].name} ({miss.readings[0].code})",
                              typed=miss.raw)
                   for miss in parsed.near_misses]
    # 2024年度 read as the year starting in 2024, "April-June 2024" as a fiscal quarter: said, with its months
    assumptions += [Assumption(SlotKind.PERIOD, reading.said, "period words read on the fiscal calendar",
                               typed=reading.words) for reading in parsed.period_readings]
    entities, periods = parsed.entities, parsed.periods
    analysis = intent.analysis
    # two rows or more of the documents compared ("how much more from the Americas than from Asia Pacific")
    # are ranked against each other, not across the home group's parts, whose figures they are not
    rows_compared = len(parsed.metrics) > 1 and all(map(is_open_code, parsed.metrics))
    below = glossary.children(glossary.home_entity) if not entities and analysis.order and not rows_compared else []
    if below:  # "who had the highest revenue?": rank the parts of the home group, and say so
        entities = tuple(below)
        assumptions.append(Assumption(SlotKind.ENTITY, glossary.home_entity, "ranking: the home group's parts",
                                      cue="children"))
    if not entities:
        entities = (glossary.home_entity,)
        assumptions.append(Assumption(SlotKind.ENTITY, glossary.home_entity, "no entity named: the home group"))
    if not periods and analysis.relative is not None:
        periods = (relative_periods.resolve_relative(analysis.relative, today, glossary.fiscal_calendar),)
        assumptions.append(Assumption(SlotKind.PERIOD, periods[0].label, f"relative period: {analysis.relative}",
                                      cue=analysis.relative_raw))
    if not periods:
        periods = (last_completed_fiscal_year(today, glossary.fiscal_calendar),)
        assumptions.append(Assumption(SlotKind.PERIOD, periods[0].label,
                                      "no period named: the last completed fiscal year"))
    if analysis:
        entities, periods = analytics.expand_lookups(analysis, parsed.metrics, entities, periods, glossary)
        channels = analytics.share_channels(analysis, channels, glossary)
    slots = Slots(parsed.metrics, entities, periods, channels, tuple(assumptions))
    return Proceed(slots, _refinements(slots, glossary=glossary, today=today, lang=lang))


def _as_parsed(parsed: ParsedSlots, channels: tuple[str, ...], problem: Unrecognized | None = None) -> Slots:
    """The slots as parsed, no assumption filled in: built only for a question answered or asked back as it stands."""
    return Slots(parsed.metrics, parsed.entities, parsed.periods, channels, (), problem)


def _ask_for_reading(miss: NearMiss, *, lang: Lang) -> Clarification:
    """Two names equally near the typed words: offer each, as the question with the words corrected."""
    options = tuple(clarification.Option(reading.name, reading.question, reading.kind.value, reading.code)
                    for reading in miss.readings)
    listed = ", ".join(o.label for o in options) if lang is Lang.EN else "、".join(o.label for o in options)
    return clarification.Clarification(_ASK_READING[lang].format(typed=miss.raw, options=listed), options)


def _ask_for_metric(intent: Intent, *, glossary: Glossary, today: date, lang: Lang) -> Clarification:
    entity = (intent.slots.entities or (glossary.home_entity,))[0]
    period = (intent.slots.periods or (last_completed_fiscal_year(today, glossary.fiscal_calendar),))[0]
    channel = (intent.slots.channels or (glossary.default_channel,))[0]
    options = tuple(
        clarification.Option(glossary.term(SlotKind.METRIC, code).name(lang.value),
                             phrasing.render_question(lang=lang, glossary=glossary, metric=code, entity=entity,
                                                      period=period, channel=channel), "metric", code)
        for code in (list(intent.slots.asked_rows[:MAX_METRIC_OPTIONS])
                     or closest_metrics(intent.slots.unknown_names + intent.slots.row_words, glossary))
    )
    listed = "、".join(o.label for o in options) if lang is not Lang.EN else ", ".join(o.label for o in options)
    return clarification.Clarification(_ASK_METRIC[lang].format(options=listed), options)


def closest_metrics(words: tuple[str, ...], glossary: Glossary) -> list[str]:
    """Metric codes whose aliases look most like the unknown words (all metrics when none does)."""
    metrics = list(glossary.terms[SlotKind.METRIC])
    if not words:
        return metrics

    choices = {alias: code for alias, (kind, code) in glossary.aliases.items() if kind is SlotKind.METRIC}
    ranked: dict[str, None] = {}
    for alias, _score, _ in process.extract(" ".join(words).lower(), list(choices), scorer=fuzz.WRatio, limit=20,
                                            score_cutoff=MIN_METRIC_SIMILARITY):
        ranked.setdefault(choices[alias], None)
        if len(ranked) == MAX_METRIC_OPTIONS:
            break
    return list(ranked) or metrics


def _refinements(slots: Slots, *, glossary: Glossary, today: date, lang: Lang) -> tuple[Option, ...]:
    """For each assumed slot, the other values a user may have meant, as ready-made questions."""
    metric, channel = slots.metrics[0], slots.channels[0]
    options: list[Option] = []
    for assumption in slots.assumptions:
        if assumption.typed is not None:
            continue  # a misspelt name read: nothing else to offer (a close second would have been asked)
        if assumption.slot is SlotKind.ENTITY:
            for code, term in glossary.terms[SlotKind.ENTITY].items():
                if code != assumption.value:
                    question = phrasing.render_question(lang=lang, glossary=glossary, metric=metric, entity=code,
                                                        period=slots.periods[0], channel=channel)
                    options.append(clarification.Option(term.name(lang.value), question, "entity", code))
        else:
            last = last_completed_fiscal_year(today, glossary.fiscal_calendar)
            for back in (1, 2):
                period = Period.fiscal_year(int(last.period) - back)
                question = phrasing.render_question(lang=lang, glossary=glossary, metric=metric,
                                                    entity=slots.entities[0], period=period, channel=channel)
                options.append(clarification.Option(period.label, question, "period", period.label))
    return tuple(options)


def _unknown_name(names: tuple[str, ...]) -> Unrecognized:
    """The names no slot reads, asked back: a month's name ("between June 30 and December 31, 2019" where no
    table reads that day) as a period not recognised, every other word as the company it may be."""
    companies = [name for name in names if not all(is_month_name(word) for word in name.split())]
    if companies:
        return Unrecognized("entity", " ".join(companies))
    return Unrecognized("period", " ".join(names))
