"""Figures of a table's own dates (``July 27, 2019 | April 27, 2019``) a question names by those dates.

Columns each headed by a date inside a year (a company's quarter-ends) are stored undated, each cell
named by its date and row (``label:july 27, 2019: revenue``, ``ingestion/table_column_dates.py``): such
a date is none of the glossary's fiscal years or quarters. A question naming one row and one of those
dates gets its figure; one naming one row and two of them ("the change in revenue between the quarters
ended July 27 and April 27 in 2019") gets the later date's figure against the earlier's, with its
percentage; one naming two rows or more and one date, and asking their total, gets their sum. A date
written without its year takes the year the question writes next ("July 27 and April 27 in 2019": both
2019). Every cell is cited under its date. A column of a day inside a year beside a year end's
("Estimated at June 30, 2019 | Final as of December 31, 2019") is read the same way, the year end's cell
being the row's figure of the year it closes, filed under that year and cited under the column its date heads.

Only cells of one table in one unit, each stated once; a date no column states, two rows compared, or
anything else asked stays asked back.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from types import MappingProxyType
from typing import TYPE_CHECKING

from ragspine.facts.fiscal_dates import MONTH_NUMBERS, fiscal_year_closed_on
from ragspine.facts.glossary import Glossary, Period, SlotKind, normalize_text
from ragspine.facts.model import UNDATED, format_number
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.facts.ports import FactStore
from ragspine.lazy import LazyModule, LazyPattern
from ragspine.qa.arithmetic_cues import Arithmetic
from ragspine.qa.cell_lines import (
    HOME_ASSUMED,
    asks_other_arithmetic,
    cells_read,
    change_line,
    cited,
    one_table,
    rows_written,
    sum_or_change,
    undated_line,
)
from ragspine.qa.dated_periods import YEAR
from ragspine.qa.language import Lang
from ragspine.qa.render import label, render_result
from ragspine.qa.result import AnswerStatus
from ragspine.qa.slots import Assumption, ParsedSlots, Slots
from ragspine.qa.structured import StructuredOutcome, format_decimal, outcome_sources
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from ragspine.facts.model import Fact
    from ragspine.qa import difference as change_of
else:
    change_of = LazyModule("ragspine.qa.difference")

_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# "July 27, 2019", "July 27" (its year written later), "27 July 2019"; a year alone is read apart.
_WRITTEN_DATE = LazyPattern(rf"(?<![a-z])(?:(?P<m1>{_MONTHS})\s+(?P<d1>\d{{1,2}})(?!\d)|(?<!\d)(?P<d2>\d{{1,2}})\s+"
                            rf"(?P<m2>{_MONTHS})(?![a-z]))(?:,?\s*(?P<y>(?:19|20)\d{{2}})(?!\d))?")
# The length of time a figure covers, as a question or a column header writes it: "twelve months ended",
# "nine months", "52 weeks", "quarter ended", "fiscal year", "full year", "year ended", "year-to-date"
_SPAN = LazyPattern(r"(?<![a-z])(?:(?P<n>\d{1,2}|three|six|nine|twelve|thirteen|sixteen|twenty-four|fifty-two)"
                    r"[\s-]+(?P<unit>months?|weeks?)|(?P<quarter>quarters?)|(?P<half>half|six-month)"
                    r"|(?P<year>fiscal\s+year|full\s+year|year\s+ended|years\s+ended|year-to-date|ytd|annual))(?![a-z])")
_SPAN_NUMBERS = MappingProxyType({"three": 3, "six": 6, "nine": 9, "twelve": 12, "thirteen": 13, "sixteen": 16,
                                  "twenty-four": 24, "fifty-two": 52})
_QUARTER_SPANS = frozenset({(3, "month"), (12, "week"), (13, "week")})  # what a column of quarter-ends covers
_STATED = re.compile(r"(january|february|march|april|may|june|july|august|september|october|november|december)"
                     r" (\d{1,2}), ((?:19|20)\d{2})")
_TEXT = MappingProxyType({
    Lang.ZH: MappingProxyType({"change": "{who}{row}：{later} 较 {earlier} {direction} {amount}{percent}",
                               "sum": "{who}{rows}（{day}）合计：{value}{unit}（{n} 个数值之和）", "join": "、"}),
    Lang.EN: MappingProxyType({"change": "{who} {row}: {later} vs {earlier} {direction} {amount}{percent}",
                               "sum": "{who} {rows} at {day}, sum: {value}{unit} (sum of {n} figures)",
                               "join": " and "}),
    Lang.JA: MappingProxyType({"change": "{who}{row}：{later} は {earlier} 比 {direction} {amount}{percent}",
                               "sum": "{who}{rows}（{day}）の合計：{value}{unit}（{n} 個の数値の合計）", "join": "、"}),
})


def dated_cells_outcome(text: str, parsed: ParsedSlots, arithmetic: Arithmetic, *, facts: FactStore,
                        glossary: Glossary, lang: Lang,
                        max_sensitivity: Sensitivity) -> tuple[StructuredOutcome, Slots] | None:
    """The cells of the dates ``text`` writes and the rows it names, compared or added up; else None."""
    if len(parsed.entities) > 1 or len(parsed.channels) > 1:
        return None
    norm = normalize_text(text)
    days = _dates_written(norm)
    if not days:
        return None
    cells = _dated_cells(glossary)
    rows = rows_written(norm, {row for _, row in cells})
    operation = _operation(arithmetic, len(days), len(rows))
    if operation is None:
        return None
    entity = parsed.entities[0] if parsed.entities else glossary.home_entity
    channel = parsed.channels[0] if parsed.channels else glossary.default_channel
    wanted = sorted((day, row) for day in days for row in rows) if operation == "change" else \
        [(days[0], row) for row in rows]
    # a date closing a fiscal year, beside a column of a date of its own: that year's cell of the row
    located = [(cells[cell], Period.none_stated()) if cell in cells else _year_end_cell(cell, glossary)
               for cell in wanted]
    if not any(cell in cells for cell in wanted):
        return None
    known = [each for each in located if each is not None]
    if len(known) != len(located):
        return None
    codes, periods = tuple(code for code, _ in known), tuple(period for _, period in known)
    read = cells_read(codes, entity, channel, facts=facts, max_sensitivity=max_sensitivity, periods=periods)
    if read is None or not one_table(read[1]) or not _same_span(norm, read[1]) \
            or not all(_heads_its_column(fact, day) for fact, (day, _) in zip(read[1], wanted, strict=True)):
        return None
    results, inputs = read
    who = label(glossary.term(SlotKind.ENTITY, entity), lang)
    lines = [undated_line(r, glossary, lang) if r.query.period.undated else render_result(r, glossary, lang)
             for r in results if r.query is not None]
    computed: tuple[str, ...] = ()
    differences: tuple[change_of.Difference, ...] = ()
    if operation == "value":
        pass  # the cell's own line, under its date
    elif operation == "change":
        change = change_of.difference(inputs[0], inputs[1])
        differences = (change,)
        lines.append(change_line(_TEXT[lang]["change"], change, who=who, row=rows[0],
                                 earlier=wanted[0][0].isoformat(), later=wanted[1][0].isoformat(), lang=lang))
        computed = (wanted[0][0].isoformat(), wanted[1][0].isoformat())  # the dates as the change line writes them
    else:
        total = sum((Decimal(format_number(f.value)) for f in inputs), Decimal(0))
        shown = format_decimal(total)
        unit = f" {inputs[0].unit}" if inputs[0].unit else ""
        line = _TEXT[lang]["sum"].format(who=who, rows=_TEXT[lang]["join"].join(rows), day=days[0].isoformat(),
                                         value=shown, unit=unit, n=len(inputs))
        lines.append(f"{line}{cited(inputs)}")
        computed = (shown, str(len(inputs)), days[0].isoformat())
    assumptions = () if parsed.entities else (Assumption(SlotKind.ENTITY, entity, HOME_ASSUMED),)
    slots = Slots(codes, (entity,), tuple(dict.fromkeys(periods)), (channel,), assumptions)
    return StructuredOutcome(tuple(lines), outcome_sources(results), AnswerStatus.FOUND, results, differences,
                             computed), slots


def _dates_written(norm: str) -> list[dt.date]:
    """The whole dates a question writes, in order, distinct; a date without its year takes the next year written
    after it. [] when a date has no year after it or is no day at all."""
    found: list[dt.date] = []
    for match in _WRITTEN_DATE.finditer(norm):
        year = match["y"] or next(iter(YEAR.findall(norm, match.end())), None)
        if year is None:
            return []
        try:
            day = dt.date(int(year), MONTH_NUMBERS[(match["m1"] or match["m2"])[:3]], int(match["d1"] or match["d2"]))
        except (KeyError, ValueError):
            return []
        if day not in found:
            found.append(day)
    return found


def _dated_cells(glossary: Glossary) -> dict[tuple[dt.date, str], str]:
    """``(date, row) -> code`` of every cell a table states under a date of its own."""
    cells = {}
    for code in glossary.terms[SlotKind.METRIC]:
        if not code.startswith(METRIC_PREFIX):
            continue
        qualifier, _, row = label_of(code).partition(": ")
        match = _STATED.fullmatch(qualifier) if row else None
        if match is not None:
            day = dt.date(int(match[3]), MONTH_NUMBERS[match[1][:3]], int(match[2]))
            cells[(day, row)] = code
    return cells


def _year_end_cell(cell: tuple[dt.date, str], glossary: Glossary) -> tuple[str, Period] | None:
    """The row's code and the fiscal year its date closes ("December 31, 2019": FY2019); None for a date inside a
    year, or a row the glossary does not hold."""
    day, row = cell
    closed = fiscal_year_closed_on(glossary.fiscal_calendar, day.year, day.month, day.day)
    code = f"{METRIC_PREFIX}{row}"
    if closed is None or code not in glossary.terms[SlotKind.METRIC]:
        return None
    return code, Period.fiscal_year(closed)


def _heads_its_column(fact: Fact, day: dt.date) -> bool:
    """Whether ``fact``'s column is headed by ``day`` as written: a year's cell is cited only under its own date
    (an undated cell's code names its date already)."""
    if fact.period_type == UNDATED:
        return True
    header = normalize_text(fact.source_locator.partition(",col=")[2])
    return any(day == written for written in _dates_written(header))


def _operation(arithmetic: Arithmetic, days: int, rows: int) -> str | None:
    """``value`` (one row's figure at one date), ``change`` (one row, two dates) or ``sum`` (rows of one date
    added up); None for anything else."""
    if days == 1 and rows == 1:
        return None if arithmetic.computes or asks_other_arithmetic(arithmetic) else "value"
    return sum_or_change(arithmetic, days, rows)


def _spans(text: str) -> set[tuple[int, str]]:
    """The lengths of time ``text`` writes, as (number, "month" or "week"); a year is twelve months."""
    found: set[tuple[int, str]] = set()
    for match in _SPAN.finditer(text):
        if match["n"]:
            number = int(match["n"]) if match["n"].isdigit() else _SPAN_NUMBERS[match["n"]]
            found.add((number, match["unit"].rstrip("s")))
        else:
            found.add((3, "month") if match["quarter"] else (6, "month") if match["half"] else (12, "month"))
    return found


def _same_span(norm: str, inputs: list[Fact]) -> bool:
    """Whether the length of time the question asks of ("the twelve months ended July 27, 2019") is what the cells
    cover: their columns' own words, or a quarter where the columns are bare dates (a company's quarter-ends)."""
    asked = _spans(norm)
    if not asked:
        return True
    for fact in inputs:
        headed = _spans(normalize_text(fact.source_locator.partition("col=")[2]))
        if not (asked <= headed if headed else asked <= _QUARTER_SPANS):
            return False
    return True
