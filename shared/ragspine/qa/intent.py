"""``RuleIntentParser``: config-driven slots and route, no LLM (seed 001)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ragspine.domain.files import INTENT, default_domain_dir, read_file
from ragspine.errors import ConfigurationError
from ragspine.facts.glossary import Glossary, SlotKind, normalize_text
from ragspine.facts.matching import alias_pattern
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.facts.unit_scales import money_unit
from ragspine.lazy import LazyPattern
from ragspine.qa.analytics.cues import Analysis, AnalyticsCues
from ragspine.qa.arithmetic_cues import (
    GROWTH,
    NO_ARITHMETIC,
    Arithmetic,
    read_arithmetic,
    with_cagr_start,
    without_cues,
)
from ragspine.qa.company_spelling import with_company_names
from ragspine.qa.derived_asks import opening_year_only, read_derived, without_formula_inputs
from ragspine.qa.intent_model import Channel, Intent
from ragspine.qa.parent_shares import asks_parent_share, without_share_reading
from ragspine.qa.per_unit_asks import metric_per
from ragspine.qa.period_totals import totals_named_periods
from ragspine.qa.share_wholes import channel_is_part
from ragspine.qa.slots import ParsedSlots, parse_slots
from ragspine.qa.statement_names import without_statement_names


class RuleIntentParser:
    """Slots from the glossary; route from the slots and cue words (why / 为什么 / なぜ …).

    A metric with a causal cue is composite, a metric alone structured, anything else
    narrative; the clarify gate then decides whether a missing metric must be asked for.
    """

    def __init__(self, glossary: Glossary, cues: Mapping[str, Iterable[str]],
                 units: Mapping[str, Iterable[str]] | None = None) -> None:
        try:
            self._cues = {name: LazyPattern(alias_pattern(normalize_text(w) for w in cues[name]))
                          for name in ("causal", "quantity", "comparison")}
        except (KeyError, TypeError, re.error) as exc:
            raise ConfigurationError(f"intent cues are malformed: {exc!r}") from exc
        self._glossary = glossary
        try:
            words = {normalize_text(str(word)): str(code) for code, names in (units or {}).items() for word in names}
        except (AttributeError, TypeError) as exc:
            raise ConfigurationError(f"intent cues 'requested_units' are malformed: {exc!r}") from exc
        self._units = words
        self._unit_pattern = LazyPattern(alias_pattern(words)) if words else None
        top = glossary.terms[SlotKind.ENTITY].get(glossary.home_entity)
        named_levels = {name: code for code, term in glossary.levels.items()
                        if top is None or code != top.level for name in term.names.values()}
        self._analytics = AnalyticsCues(cues, glossary.level_aliases, named_levels)
        # What ``cues`` needs to read anything but the quantity cue: each pattern matches one of its words as
        # written, so a text holding none of them has no analysis, cause, comparison or unit (None: not shown)
        analytics_words = self._analytics.trigger_words
        cue_words = (*words, *(normalize_text(w) for name in ("causal", "comparison") for w in cues[name]))
        self.cue_words = None if analytics_words is None or "" in cue_words else (*analytics_words, *cue_words)

    @classmethod
    def from_file(cls, glossary: Glossary, path: Path | None = None) -> RuleIntentParser:
        """Load cues from ``path`` (default the shipped demo domain's ``intent.yaml``), validated against its schema."""
        raw: dict[str, Any] = read_file(path or default_domain_dir() / INTENT, INTENT)
        return cls(glossary, raw, raw.get("requested_units"))

    def parse(self, question: str) -> Intent:
        """Parse slots and choose the channel."""
        question = with_company_names(question, self._glossary)  # "Boeing" for "The Boeing Company"
        question = without_statement_names(question)  # "the cash flow statement" asks no cash balance
        slots = _with_display_names(parse_slots(question, glossary=self._glossary), self._glossary)
        if slots.metrics:  # "operating income % margin" asks the margin, not the operating income
            slots = _with_metrics(slots, read_derived(question, slots.metrics, self._glossary))
        text = normalize_text(question)
        analysis, causal, quantity, comparison, unit = self.cues(text)
        if analysis:  # a cue word may be a document row's own ("amounts falling due after more than one year")
            analysis = self._analytics.read(_rows_blanked(question, text, slots, self._glossary))
        if analysis.order is not None and _WHICH_QUARTER.search(text) is not None:
            analysis = replace(analysis, of_quarters=True)  # "which quarter of 2024 had the highest revenue"
        elif analysis.order is not None and analysis.prior is None and GROWTH.search(text) is not None:
            analysis = replace(analysis, prior="year", by_growth=True)  # "which region grew fastest": rank the growth
        if analysis.prior is None and _counts_a_change(text, slots, self._glossary):
            # "how many stores did Japan open in 2025": the tables state the count at each year end, so the
            # answer is the year's net change beside both counts, never the year-end count alone
            analysis = replace(analysis, prior="year")
        if analysis:
            slots = self._with_analysis(slots, analysis)
        channel = Channel.NARRATIVE
        if slots.metrics:
            channel = Channel.COMPOSITE if causal else Channel.STRUCTURED
        per = metric_per(question, slots.metrics, self._glossary)
        if per is not None:  # "revenue per store": the count named in the singular is a metric too
            slots = _with_metrics(slots, (*slots.metrics, per))
        arithmetic = _read_arithmetic(question, slots, self._glossary) if slots.metrics else None
        if arithmetic is not None and per is not None:
            arithmetic = replace(arithmetic, ratio=True, denominator=per)
        if arithmetic is not None and slots.half_year_sum:  # "H1 2024": its two quarters added up
            arithmetic = replace(arithmetic, period_sum=max(arithmetic.period_sum, 1),
                                 sum_words=max(arithmetic.sum_words, 1))
        if arithmetic is not None and totals_named_periods(question, arithmetic, slots):  # "total X in 2019 and 2018"
            arithmetic = replace(arithmetic, period_sum=max(arithmetic.period_sum, 1), periods_totalled=True)
        if arithmetic is not None and asks_parent_share(arithmetic, slots, self._glossary):
            # "売上収益に占める欧州の割合", "what share of group revenue came from Japan": Europe's share of the group's
            analysis = replace(analysis, share=True)
            arithmetic = without_share_reading(arithmetic)
        if arithmetic is not None and (analysis.share or arithmetic.ratio or arithmetic.percent) \
                and channel_is_part(question, self._glossary):  # "what percentage of Hong Kong revenue was online"
            analysis = replace(analysis, share=True, channel_share=True)
            arithmetic = without_share_reading(arithmetic)
        if arithmetic is not None and analysis.order is None and _compares_two(text, slots, arithmetic, self._glossary):
            # "compare Hong Kong and Japan net profit": which is higher and by how much (their growth, if asked)
            analysis = replace(analysis, order="high")
            if GROWTH.search(text) is not None:
                analysis = replace(analysis, prior="year", by_growth=True)
        if arithmetic is not None and arithmetic.explicit:  # "ROA(経常利益/総資産)": the question's own formula
            slots = replace(slots, metrics=arithmetic.explicit)
        if arithmetic is not None and arithmetic.by_formula:  # "ROEをDuPont分解(…×…×…)で": that formula first
            slots = replace(slots, metrics=arithmetic.by_formula)
        if arithmetic is None or not (arithmetic.by_formula or arithmetic.explicit or arithmetic.ratio
                                      or arithmetic.subtract or arithmetic.add or arithmetic.consistency
                                      or arithmetic.entity_gap):
            slots = _with_metrics(slots, without_formula_inputs(question, slots.metrics, self._glossary))
        closing = opening_year_only(slots.metrics, slots.periods, self._glossary) \
            if arithmetic is not None and arithmetic.average else None
        if arithmetic is not None and closing is not None:  # "average PP&E between FY2018 and FY2019": one FY2019
            slots = replace(slots, periods=closing)
            arithmetic = replace(arithmetic, average=False)
        if arithmetic is not None and arithmetic.cagr_years:  # "3-year CAGR to FY2024" starts in FY2021
            slots = with_cagr_start(slots, arithmetic.cagr_years)
        if arithmetic is not None and slots.unknown_names:
            slots = without_cues(slots, question)
        return Intent(slots, channel, causal, quantity, comparison, analysis=analysis, requested_unit=unit,
                      arithmetic=NO_ARITHMETIC if arithmetic is None else arithmetic)

    @property
    def glossary(self) -> Glossary:
        """The glossary the slots are read with."""
        return self._glossary

    def cues(self, text: str) -> tuple[Analysis, bool, bool, bool, str | None]:
        """The cues read from the whole normalised question, before its names change anything: the analysis
        asked, whether it asks why, how much and a comparison, and the unit asked (or None)."""
        unit = self._unit_pattern.search(text) if self._unit_pattern is not None else None
        return (self._analytics.read(text), bool(self._cues["causal"].search(text)),
                bool(self._cues["quantity"].search(text)), bool(self._cues["comparison"].search(text)),
                self._units[unit.group()] if unit else None)

    def asks_quantity(self, text: str) -> bool:
        """The quantity cue of ``cues`` alone (``text`` normalised)."""
        return bool(self._cues["quantity"].search(text))

    def _with_analysis(self, slots: ParsedSlots, analysis: Analysis) -> ParsedSlots:
        """Enumerated levels expanded to their entities; analytics words no longer count as unknown names.

        A level expands only when the question names none of its entities (香港地区 is Hong Kong).
        """
        glossary = self._glossary
        entities = list(slots.entities)
        for level in analysis.levels:
            if not any(glossary.term(SlotKind.ENTITY, e).level == level for e in entities):
                entities += [e for e in glossary.entities_at(level) if e not in entities]
        names: list[str] = []
        for name in slots.unknown_names:
            word = normalize_text(name)
            left = self._analytics.strip(word)
            if left == word:  # no analytics word in it: the name as the question wrote it
                names.append(name)
            else:
                names += [part for part in left.split() if len(part) >= 2 and part not in glossary.fillers]
        return ParsedSlots(slots.metrics, tuple(entities), slots.periods, slots.channels, slots.bad_period,
                           tuple(names), row_words=slots.row_words, section_sum=slots.section_sum,
                           unstated_kind=slots.unstated_kind, asked_rows=slots.asked_rows,
                           per_share_for_count=slots.per_share_for_count)


# A ranking of a year's quarters, not of entities: "which quarter of 2024", 哪个季度, どの四半期
_WHICH_QUARTER = LazyPattern(
    r"(?<![a-z])(?:which|what)\s+(?:fiscal\s+)?quarter(?![a-z])|哪(?:个|一个|一)?季度|どの四半期")
# Words that ask how many things were added or removed over a period, not how many there were
_COUNT_CHANGED = LazyPattern(r"(?<![a-z])(?:open(?:ed)?|add(?:ed)?|new|close[ds]?|closed|shut)(?![a-z])")


def _counts_a_change(text: str, slots: ParsedSlots, glossary: Glossary) -> bool:
    """Whether the question asks a count's change over its one period ("how many stores did Japan open"): one
    metric counted in a unit that is neither money nor a percentage, and a word of things opened, added or closed
    outside every name (a row "stores opened" is itself the flow)."""
    if len(slots.metrics) != 1 or len(slots.periods) > 1 or slots.metrics[0] not in glossary.terms[SlotKind.METRIC]:
        return False
    unit = glossary.term(SlotKind.METRIC, slots.metrics[0]).unit
    if not unit or unit == "PCT" or money_unit(unit) is not None:
        return False
    names = [(m.start, m.end) for m in glossary.scan(text)]
    return any(not any(start <= word.start() < end for start, end in names) for word in _COUNT_CHANGED.finditer(text))


# Words that ask two figures compared, beyond showing both: "compare", "versus", 比较, 比較
_COMPARE = LazyPattern(r"(?<![a-z])(?:compare[ds]?|comparing|versus|vs\.?)(?![a-z])|比较|对比|比較|対比")


def _compares_two(text: str, slots: ParsedSlots, arithmetic: Arithmetic, glossary: Glossary) -> bool:
    """Whether the question asks two entities' one figure compared ("compare A and B"), nothing computed else,
    neither entity a part of the other."""
    if arithmetic.computes or len(slots.metrics) != 1 or len(slots.periods) > 1 or len(slots.entities) != 2:
        return False
    terms = glossary.terms[SlotKind.ENTITY]
    first, second = slots.entities
    if first not in terms or second not in terms or terms[first].parent == second or terms[second].parent == first:
        return False
    return _COMPARE.search(text) is not None


def _with_display_names(slots: ParsedSlots, glossary: Glossary) -> ParsedSlots:
    """``slots`` with each unknown name that is an entity's own display name (``names:`` in any language, not
    listed under ``aliases``: デジタル・サービス) read as that entity; a name two entities share stays unknown."""
    if not slots.unknown_names:
        return slots
    owners: dict[str, set[str]] = {}
    for code, term in glossary.terms[SlotKind.ENTITY].items():
        for name in term.names.values():
            owners.setdefault(normalize_text(name).strip(), set()).add(code)
    read = {raw: next(iter(codes)) for raw in slots.unknown_names
            if len(codes := owners.get(normalize_text(raw).strip(), set())) == 1}
    if not read:
        return slots
    entities = tuple(dict.fromkeys((*slots.entities, *read.values())))
    return replace(slots, entities=entities, unknown_names=tuple(n for n in slots.unknown_names if n not in read))


def _rows_blanked(question: str, text: str, slots: ParsedSlots, glossary: Glossary) -> str:
    """``text`` (the normalised ``question``) with the document rows it names blanked: a row's own words
    are no analytics cue. Rows only (``label:…``): a glossary metric's name may hold a cue it means, but
    not an amount per unit's ("dividends per share" asks no share)."""
    spans = [(m.start, m.end) for m in glossary.scan(question)
             if m.kind is SlotKind.METRIC and m.code and (m.code.startswith(METRIC_PREFIX) or " per " in m.raw)]
    return _blanked(text, [*spans, *_read_row_spans(slots), *_row_parts_written(text, slots.metrics)])


def _read_row_spans(slots: ParsedSlots) -> list[tuple[int, int]]:
    """Where the question's words were read as a document row in other words (``label_words``)."""
    return [(miss.start, miss.end) for miss in slots.near_misses
            if any(r.kind is SlotKind.METRIC and r.code.startswith(METRIC_PREFIX) for r in miss.readings)]


def _read_arithmetic(question: str, slots: ParsedSlots, glossary: Glossary) -> Arithmetic:
    """The arithmetic asked; a gap between rows only where the question's own words ask it, not the words
    of a row it names in other words: the glossary scan blanks the names it finds before reading cues, and
    a row read loosely ("falling due after more than one" for "Amounts falling due after more than one
    year") is a name too, so its "more than" asks no gap. The other cues stay read from the whole
    question: where a row's words ask ("cash dividend *per* share"), what is read of them is said
    (``derived_asks``), and "average" in a row's name leaves a mean open, said too."""
    whole = read_arithmetic(question, glossary)
    if not whole.entity_gap:
        return whole
    text = normalize_text(question)
    spans = [*_read_row_spans(slots), *_row_parts_written(text, slots.metrics)]
    if not spans:
        return whole
    blanked = read_arithmetic(_blanked(text, spans), glossary)
    return replace(whole, entity_gap=blanked.entity_gap)


def _row_parts_written(text: str, metrics: tuple[str, ...]) -> list[tuple[int, int]]:
    """Where ``text`` (the normalised question) writes a part of a row read as the row's label writes it: the column
    qualifying a cell ("more than 5 years" of ``more than 5 years: operating leases``) is the row's word, no cue."""
    spans: list[tuple[int, int]] = []
    for code in metrics:
        if not code.startswith(METRIC_PREFIX):
            continue
        for part in label_of(code).split(": "):
            written = normalize_text(part).strip()
            at = text.find(written) if len(written) > 2 else -1
            while at >= 0:
                spans.append((at, at + len(written)))
                at = text.find(written, at + len(written))
    return spans


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _with_metrics(slots: ParsedSlots, metrics: tuple[str, ...]) -> ParsedSlots:
    """``slots`` with these metrics; the same object when they are the ones it holds (most questions)."""
    return slots if metrics == slots.metrics else replace(slots, metrics=metrics)
