"""A payment schedule's figures falling due in the years a question names: compared, added up or averaged.

A schedule of future payments (``| Operating Leases | Finance Leases`` over rows ``2021 … 2025,
Thereafter``) is stored undated, each cell under its column qualified by the row's year
(``label:2021: operating leases``, see ``due_years``), so "operating leases" alone is one of
several rows and is asked back. A question naming that row and two or more of its years ("the
change in operating leases between 2021 and 2022", "the sum of finance leases from 2020 to 2024",
"the average operating leases in 2021 and 2022") names the cells: each year's cell is read and
the change (the later year's minus the earlier's, with its percentage), the sum or the mean is
computed from them, every cell cited and said to fall due in its year, not to be a fiscal year's.

Only when every year named has a cell of the one row, all of one table of one document, in one
unit, stated once (no other source's figure beside it) and none negative; a question asking for
anything else (a ratio, a share, a growth rate) or naming another metric or entity stays asked
back.

A span no column is headed with ("the purchase obligations due within 5 years" over ``Up to 1 year |
1 to 3 years | 3 to 5 years | More than 5 years``) is the sum of the columns that together cover it
exactly, from the first up to its end, each cited; a span they do not tile ("within 4 years") is
computed from nothing.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from types import MappingProxyType
from typing import TYPE_CHECKING

from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.facts.model import Fact, format_number
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.facts.ports import FactStore
from ragspine.facts.query_metric import MetricQuery, QueryStatus, run_query
from ragspine.lazy import LazyModule
from ragspine.qa.arithmetic_cues import Arithmetic
from ragspine.qa.cell_lines import HOME_ASSUMED, cells_read, change_line, cited, one_schedule
from ragspine.qa.due_years import HEADING, due_line, due_span, heading_years, schedule_year
from ragspine.qa.language import Lang
from ragspine.qa.render import label
from ragspine.qa.result import AnswerStatus
from ragspine.qa.slots import Assumption, ParsedSlots, Slots
from ragspine.qa.structured import StructuredOutcome, format_decimal, outcome_sources
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from ragspine.qa import difference as change_of
    from ragspine.qa.difference import Difference
else:
    # Loaded when a schedule's years are compared: most questions are answered without it.
    change_of = LazyModule("ragspine.qa.difference")

_TEXT = MappingProxyType({
    Lang.ZH: MappingProxyType({
        "change": "{who}{row}：{later}年到期 较 {earlier}年到期 {direction} {amount}{percent}",
        "sum": "{who}{row}（{years}年到期）合计：{value}{unit}（{n} 个数值之和）",
        "average": "{who}{row}（{years}年到期）平均值：{value}{unit}（{n} 个数值的平均）",
        "join": "、",
    }),
    Lang.EN: MappingProxyType({
        "change": "{who} {row}: falling due in {later} vs {earlier} {direction} {amount}{percent}",
        "sum": "{who} {row} falling due in {years}, sum: {value}{unit} (sum of {n} figures)",
        "average": "{who} {row} falling due in {years}, average: {value}{unit} (mean of {n} figures)",
        "join": ", ",
    }),
    Lang.JA: MappingProxyType({
        "change": "{who}{row}：{later}年期日 は {earlier}年期日 比 {direction} {amount}{percent}",
        "sum": "{who}{row}（{years}年期日）の合計：{value}{unit}（{n} 個の数値の合計）",
        "average": "{who}{row}（{years}年期日）の平均：{value}{unit}（{n} 個の数値の平均）",
        "join": "、",
    }),
})
_WITHIN = MappingProxyType({
    Lang.ZH: "{who}{row}（{years}年内到期：{spans}）合计：{value}{unit}（{n} 个数值之和）",
    Lang.EN: "{who} {row} falling due within {years} years ({spans}), sum: {value}{unit} (sum of {n} figures)",
    Lang.JA: "{who}{row}（{years}年以内に期日到来：{spans}）の合計：{value}{unit}（{n} 個の数値の合計）",
})


def due_year_outcome(parsed: ParsedSlots, arithmetic: Arithmetic, *, facts: FactStore, glossary: Glossary,
                     lang: Lang, max_sensitivity: Sensitivity) -> tuple[StructuredOutcome, Slots] | None:
    """The cells of one schedule row for the years ``parsed`` names, and the change, sum or mean asked of them.

    ``parsed``: the slots of a question asked back because its row words read as several rows (a
    ``near_misses`` entry with more than one reading); ``arithmetic``: what its words ask. None
    when the rows offered are not one schedule row by year, or what is asked is not computed here.
    """
    named = _cells_named(parsed)
    if named is None:
        return None
    return _cells_computed([(str(year), code) for year, code in named], parsed, arithmetic, facts=facts,
                           glossary=glossary, lang=lang, max_sensitivity=max_sensitivity)


def headed_columns_outcome(parsed: ParsedSlots, arithmetic: Arithmetic, text: str, *, facts: FactStore,
                           glossary: Glossary, lang: Lang,
                           max_sensitivity: Sensitivity) -> tuple[StructuredOutcome, Slots] | None:
    """The cells of one schedule row under the columns the question names as the table heads them, and the
    change, sum or mean asked of them.

    A schedule may head a column with a span of years (``| 2020 | 2021-2022 | 2023-2024 |``): "the change in
    operating leases from 2020 to 2021-2022" names two of its columns, which no fiscal year is ("operating
    leases in 2021-2022", asking nothing computed, names that one column's cell). Only for a
    question naming one row (whose own cells are the schedule's), at least one such span of years and
    nothing but columns of that row; none of its single years stated as the row's fiscal-year figure (then
    the year would be that fiscal year's). A span the table does not head ("2022-2023") reads nothing.
    """
    if (len(parsed.metrics) != 1 or not parsed.metrics[0].startswith(METRIC_PREFIX) or parsed.unknown_names
            or len(parsed.entities) > 1 or len(parsed.channels) > 1 or ": " in label_of(parsed.metrics[0])):
        return None
    named = [years for years in (heading_years(m.group(0)) for m in HEADING.finditer(text)) if years is not None]
    if not named or len(set(named)) != len(named) or all(first == last for first, last in named):
        return None  # no span of years written (most questions): no column of the glossary's to look through
    row = label_of(parsed.metrics[0])
    columns = {years: code for code in glossary.terms[SlotKind.METRIC]
               if code.startswith(METRIC_PREFIX) and code.endswith(f": {row}")
               and (years := heading_years(_column_of(code, row))) is not None}
    if any(years not in columns for years in named):
        return None
    entity = parsed.entities[0] if parsed.entities else glossary.home_entity
    channel = parsed.channels[0] if parsed.channels else glossary.default_channel
    for first, last in named:  # a year stated as the row's fiscal-year figure is that year's, not a column's
        if first == last and run_query(MetricQuery(parsed.metrics[0], entity, Period("FY", str(first)), channel),
                                       facts=facts, max_sensitivity=max_sensitivity).status is QueryStatus.FOUND:
            return None
    cells = [(_column_of(columns[years], row), columns[years]) for years in sorted(named)]
    if len(cells) == 1:  # "operating leases in 2021-2022": that column's cell, asked for nothing computed
        return _cell_alone(cells[0][1], parsed, arithmetic, facts=facts, glossary=glossary, lang=lang,
                           max_sensitivity=max_sensitivity)
    # the spans of years written are the columns themselves, no stretch of fiscal years to average over
    return _cells_computed(cells, parsed, replace(arithmetic, spans=()), facts=facts, glossary=glossary, lang=lang,
                           max_sensitivity=max_sensitivity)


def _cell_alone(code: str, parsed: ParsedSlots, arithmetic: Arithmetic, *, facts: FactStore, glossary: Glossary,
                lang: Lang, max_sensitivity: Sensitivity) -> tuple[StructuredOutcome, Slots] | None:
    """The one schedule cell ``code`` names, said to fall due in its column's years; None when anything is computed
    of it or it is not stated once."""
    if arithmetic.computes or arithmetic.change or arithmetic.growth or arithmetic.share_of or arithmetic.percent:
        return None
    entity = parsed.entities[0] if parsed.entities else glossary.home_entity
    channel = parsed.channels[0] if parsed.channels else glossary.default_channel
    result = run_query(MetricQuery(code, entity, Period.none_stated(), channel), facts=facts,
                       max_sensitivity=max_sensitivity)
    if result.status is not QueryStatus.FOUND or result.conflicts or result.fact is None:
        return None
    assumptions = () if parsed.entities else (Assumption(SlotKind.ENTITY, entity, HOME_ASSUMED),)
    slots = Slots((code,), (entity,), (Period.none_stated(),), (channel,), assumptions)
    return StructuredOutcome((due_line(result, glossary, lang),), outcome_sources((result,)), AnswerStatus.FOUND,
                             (result,), (), ()), slots


def _cells_computed(cells: list[tuple[str, str]], parsed: ParsedSlots, arithmetic: Arithmetic, *,
                    facts: FactStore, glossary: Glossary, lang: Lang,
                    max_sensitivity: Sensitivity) -> tuple[StructuredOutcome, Slots] | None:
    """``(column, code)`` cells of one schedule row, earliest first, read and computed as ``arithmetic`` asks."""
    operation = _operation(arithmetic, len(cells))
    if operation is None:
        return None
    entity = parsed.entities[0] if parsed.entities else glossary.home_entity
    channel = parsed.channels[0] if parsed.channels else glossary.default_channel
    read = cells_read([code for _, code in cells], entity, channel, facts=facts, max_sensitivity=max_sensitivity)
    if read is None or not one_schedule(read[1]):
        return None
    results, inputs = read
    years = [year for year, _ in cells]
    who = label(glossary.term(SlotKind.ENTITY, entity), lang)
    row = _row_of(cells[0][1])
    lines = [due_line(result, glossary, lang) for result in results]
    differences: tuple[Difference, ...] = ()
    computed: tuple[str, ...] = ()
    text = _TEXT[lang]
    if operation == "change":
        change = change_of.difference(inputs[0], inputs[1])
        differences = (change,)
        lines.append(change_line(text["change"], change, who=who, row=row, earlier=years[0], later=years[1],
                                 lang=lang))
    else:
        total = sum((_dec(f) for f in inputs), Decimal(0))
        places = max(_places(f) for f in inputs)
        value = total if operation == "sum" else total / len(inputs)
        shown = _rounded(value, arithmetic.places if arithmetic.places is not None
                         else places if operation == "sum" else places + 2)
        if operation == "average" and arithmetic.places is None:
            shown = _trimmed(shown)
        unit = f" {inputs[0].unit}" if inputs[0].unit else ""
        line = text[operation].format(who=who, row=row, years=_years_said(years, lang), value=shown, unit=unit,
                                      n=len(inputs))
        lines.append(f"{line}{cited(inputs)}")
        computed = (shown, str(len(inputs)))
    assumptions = () if parsed.entities else (Assumption(SlotKind.ENTITY, entity, HOME_ASSUMED),)
    slots = Slots(tuple(code for _, code in cells), (entity,), (Period.none_stated(),), (channel,), assumptions)
    outcome = StructuredOutcome(tuple(lines), outcome_sources(results), AnswerStatus.FOUND, results, differences,
                                computed)
    return outcome, slots


def within_span_outcome(parsed: ParsedSlots, arithmetic: Arithmetic, text: str, *, facts: FactStore,
                        glossary: Glossary, lang: Lang,
                        max_sensitivity: Sensitivity) -> tuple[StructuredOutcome, Slots] | None:
    """The sum of one schedule row's span columns that tile the span "within N years" the question names.

    Only for a question naming one row of the documents and no period, asking nothing but the amount
    (or its total); None when no such columns cover the span exactly.
    """
    span = due_span(text)
    others = arithmetic.computes and not (arithmetic.period_sum and not arithmetic.average and not arithmetic.ratio)
    if (span is None or span[0] != "below" or parsed.periods or len(parsed.metrics) != 1 or others
            or len(parsed.entities) > 1 or len(parsed.channels) > 1 or parsed.unknown_names
            or not parsed.metrics[0].startswith(METRIC_PREFIX)):
        return None
    row = label_of(parsed.metrics[0])
    codes = _tiling([code for code in glossary.terms[SlotKind.METRIC]
                     if code.startswith(METRIC_PREFIX) and code.endswith(f": {row}")], row, span[1])
    if codes is None:
        return None
    entity = parsed.entities[0] if parsed.entities else glossary.home_entity
    channel = parsed.channels[0] if parsed.channels else glossary.default_channel
    read = cells_read(codes, entity, channel, facts=facts, max_sensitivity=max_sensitivity)
    if read is None or not one_schedule(read[1]):
        return None
    results, inputs = read
    total = sum((_dec(f) for f in inputs), Decimal(0))
    shown = _rounded(total, arithmetic.places if arithmetic.places is not None else max(_places(f) for f in inputs))
    who = label(glossary.term(SlotKind.ENTITY, entity), lang)
    spans = " + ".join(label_of(code)[:-len(row) - 2] for code in codes)
    unit = f" {inputs[0].unit}" if inputs[0].unit else ""
    line = _WITHIN[lang].format(who=who, row=row, years=span[1], spans=spans, value=shown, unit=unit, n=len(inputs))
    lines = (*[due_line(result, glossary, lang) for result in results], f"{line}{cited(inputs)}")
    assumptions = () if parsed.entities else (Assumption(SlotKind.ENTITY, entity, HOME_ASSUMED),)
    slots = Slots(codes, (entity,), (Period.none_stated(),), (channel,), assumptions)
    return StructuredOutcome(lines, outcome_sources(results), AnswerStatus.FOUND, results, (),
                             (shown, str(len(inputs)))), slots


def _tiling(codes: list[str], row: str, end: int) -> tuple[str, ...] | None:
    """The span columns of ``row`` running from the first (below some years) to ``end`` years, each
    starting where the last ends; None when they do not reach ``end`` exactly or one column already is
    the span."""
    by_start: dict[int, tuple[int, str]] = {}
    for code in codes:
        span = due_span(label_of(code)[:-len(row) - 2])
        if span is None:
            continue
        kind, low, high = span
        if kind == "below" and low == end:
            return None  # the span is a column of its own: read as it stands
        start, stop = (0, low) if kind == "below" else (low, high) if kind == "from" else (-1, -1)
        if start in by_start and by_start[start][0] != stop:
            return None  # two columns from the same year: which covers the span is not clear
        if start >= 0:
            by_start[start] = (stop, code)
    tiled: list[str] = []
    at = 0
    while at < end and at in by_start:
        at, code = by_start[at]
        tiled.append(code)
    return tuple(tiled) if at == end and len(tiled) >= 2 else None


def _cells_named(parsed: ParsedSlots) -> list[tuple[int, str]] | None:
    """``(year, code)`` of one schedule row's cell for each year named, earliest first; None if any is missing."""
    unsure = [miss for miss in parsed.near_misses if len(miss.readings) > 1]
    if (len(unsure) != 1 or parsed.metrics or parsed.unknown_names or parsed.one_phrase is not None
            or len(parsed.entities) > 1 or len(parsed.channels) > 1):
        return None
    by_year: dict[int, str] = {}
    rows: set[str] = set()
    for reading in unsure[0].readings:
        if reading.kind is not SlotKind.METRIC or not reading.code.startswith(METRIC_PREFIX):
            return None
        year = schedule_year(reading.code)
        if year is not None:
            by_year[year] = reading.code
            rows.add(_row_of(reading.code))
    periods = parsed.periods
    if len(rows) != 1 or len(periods) < 2 or any(p.period_type != "FY" or not p.period.isdigit() for p in periods):
        return None
    years = sorted({int(p.period) for p in periods})
    if len(years) != len(periods) or any(year not in by_year for year in years):
        return None
    return [(year, by_year[year]) for year in years]


def _operation(arithmetic: Arithmetic, years: int) -> str | None:
    """``average``, ``sum`` or ``change`` (two years, nothing else asked); None for anything else.

    "Sum" is also an addition's word: with one row named it adds that row's years up."""
    others = (arithmetic.ratio or arithmetic.cagr or arithmetic.subtract or arithmetic.share_of
              or (arithmetic.add and not arithmetic.period_sum) or arithmetic.consistency or len(arithmetic.spans) > 1
              or arithmetic.parts_whole or arithmetic.parts_over or arithmetic.plus_group or arithmetic.by_formula
              or arithmetic.explicit is not None)
    if others or (arithmetic.average and (arithmetic.period_sum or arithmetic.change)):
        return None
    if arithmetic.average:
        return "average"
    if arithmetic.period_sum:
        return "sum"
    return "change" if years == 2 else None


def _column_of(code: str, row: str) -> str:
    """``2021-2022`` of ``label:2021-2022: operating leases``."""
    return label_of(code)[:-len(row) - 2]


def _row_of(code: str) -> str:
    """``operating leases`` of ``label:2021: operating leases``."""
    return code[len(METRIC_PREFIX):].partition(": ")[2]


def _years_said(years: list[str], lang: Lang) -> str:
    """``2020–2024`` for consecutive single years, else each column listed as headed."""
    if all(year.isdigit() for year in years):
        numbers = [int(year) for year in years]
        if numbers == list(range(numbers[0], numbers[-1] + 1)):
            return f"{years[0]}–{years[-1]}"
    return _TEXT[lang]["join"].join(years)


def _dec(fact: Fact) -> Decimal:
    return Decimal(format_number(fact.value))


def _places(fact: Fact) -> int:
    exponent = _dec(fact).as_tuple().exponent
    return max(-exponent, 0) if isinstance(exponent, int) else 0


def _rounded(value: Decimal, places: int) -> str:
    return format_decimal(value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def _trimmed(shown: str) -> str:
    """``136.50`` -> ``136.5``: a mean shown without needless zeros."""
    return format_decimal(Decimal(shown).normalize()) if "." in shown else shown
