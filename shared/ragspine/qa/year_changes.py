"""A table's changes between two years (``2019 and 2018 | 2018 and 2017`` under "Change") a question chains or compares.

Such a table's cells are stored undated as the row qualified by its change (``label:change from 2018 to
2019: facilities``, ``ingestion/table_year_changes.py``): a change's figure is never either year's. A
question naming the row and two years its stated changes chain between ("the total change in G&A from
fiscal year 2017 to 2019") asks for the change over that span: the sum of the changes from one year to
the next that run from the first year to the last, or with "average", their mean (the average annual
change). One naming two of the stated changes by their years ("the increase in 2019 and 2018 as compared
to 2018 and 2017") and asking a difference gets the later change minus the earlier. Every change is
cited. Only cells of one table in one unit, each stated once; anything else asked stays asked back.
"""

from __future__ import annotations

import re
from decimal import Decimal
from types import MappingProxyType

from ragspine.facts.glossary import Glossary, Period, SlotKind, normalize_text
from ragspine.facts.model import format_number
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.facts.ports import FactStore
from ragspine.qa.arithmetic_cues import Arithmetic
from ragspine.qa.cell_lines import DIRECTIONS, HOME_ASSUMED, cells_read, cited, one_table, rows_written, undated_line
from ragspine.qa.dated_periods import YEAR
from ragspine.qa.language import Lang
from ragspine.qa.render import label
from ragspine.qa.result import AnswerStatus
from ragspine.qa.slots import Assumption, ParsedSlots, Slots
from ragspine.qa.structured import StructuredOutcome, format_decimal, outcome_sources
from ragspine.sensitivity import Sensitivity

_CHANGE = re.compile(r"change from ((?:19|20)\d{2}) to ((?:19|20)\d{2})")
_TEXT = MappingProxyType({
    Lang.ZH: MappingProxyType({
        "sum": "{who}{row}（{first}年至{last}年：{steps}）合计：{value}{unit}（{n} 个数值之和）",
        "average": "{who}{row}（{first}年至{last}年：{steps}）年均变动：{value}{unit}（{n} 个数值的平均）",
        "compare": "{who}{row}：{later}年的变动 较 {earlier}年的变动 {direction} {amount}",
    }),
    Lang.EN: MappingProxyType({
        "sum": "{who} {row} from {first} to {last} ({steps}), sum: {value}{unit} (sum of {n} figures)",
        "average": "{who} {row} from {first} to {last} ({steps}), average annual change: {value}{unit} "
                   "(mean of {n} figures)",
        "compare": "{who} {row}: change over {later} vs {earlier} {direction} {amount}",
    }),
    Lang.JA: MappingProxyType({
        "sum": "{who}{row}（{first}年から{last}年：{steps}）の合計：{value}{unit}（{n} 個の数値の合計）",
        "average": "{who}{row}（{first}年から{last}年：{steps}）の年平均変動：{value}{unit}（{n} 個の数値の平均）",
        "compare": "{who}{row}：{later}年の変動 は {earlier}年の変動 比 {direction} {amount}",
    }),
})


def year_changes_outcome(text: str, parsed: ParsedSlots, arithmetic: Arithmetic, *, facts: FactStore,
                         glossary: Glossary, lang: Lang,
                         max_sensitivity: Sensitivity) -> tuple[StructuredOutcome, Slots] | None:
    """The stated changes of the row ``text`` names over the years it writes, chained or compared; else None."""
    if len(parsed.entities) > 1 or len(parsed.channels) > 1 or parsed.unknown_names:
        return None
    changes = _stated_changes(glossary)
    rows = rows_written(normalize_text(text), set(changes))
    if len(rows) != 1:
        return None
    stated = changes[rows[0]]
    years = [int(y) for y in YEAR.findall(text)]
    operation, steps = _asked(arithmetic, years, stated)
    if operation is None:
        return None
    entity = parsed.entities[0] if parsed.entities else glossary.home_entity
    channel = parsed.channels[0] if parsed.channels else glossary.default_channel
    read = cells_read([stated[step] for step in steps], entity, channel, facts=facts,
                      max_sensitivity=max_sensitivity)
    if read is None or not one_table(read[1]):
        return None
    results, inputs = read
    who = label(glossary.term(SlotKind.ENTITY, entity), lang)
    lines = [undated_line(r, glossary, lang) for r in results if r.query is not None]
    values = [Decimal(format_number(f.value)) for f in inputs]
    unit = f" {inputs[0].unit}" if inputs[0].unit else ""
    text_of = _TEXT[lang]
    if operation == "compare":
        gap = values[1] - values[0]
        up, down, level = DIRECTIONS[lang]
        direction = up if gap > 0 else down if gap < 0 else level
        shown = format_decimal(abs(gap))
        line = text_of["compare"].format(who=who, row=rows[0], later=_said(steps[1]), earlier=_said(steps[0]),
                                         direction=direction, amount=f"{shown}{unit}")
    else:
        total = sum(values, Decimal(0))
        value = total if operation == "sum" else total / len(values)
        shown = format_decimal(value.normalize() if operation == "average" else value)
        line = text_of[operation].format(who=who, row=rows[0], first=steps[0][0], last=steps[-1][1],
                                         steps=" + ".join(_said(step) for step in steps), value=shown, unit=unit,
                                         n=len(inputs))
    lines.append(f"{line}{cited(inputs)}")
    assumptions = () if parsed.entities else (Assumption(SlotKind.ENTITY, entity, HOME_ASSUMED),)
    slots = Slots(tuple(stated[step] for step in steps), (entity,), (Period.none_stated(),), (channel,), assumptions)
    return StructuredOutcome(tuple(lines), outcome_sources(results), AnswerStatus.FOUND, results, (),
                             (shown, str(len(inputs)))), slots


def _stated_changes(glossary: Glossary) -> dict[str, dict[tuple[int, int], str]]:
    """``row -> {(earlier, later): code}`` of every change between two years a table states."""
    found: dict[str, dict[tuple[int, int], str]] = {}
    for code in glossary.terms[SlotKind.METRIC]:
        if not code.startswith(METRIC_PREFIX):
            continue
        qualifier, _, row = label_of(code).partition(": ")
        match = _CHANGE.fullmatch(qualifier) if row else None
        if match is not None:
            found.setdefault(row, {})[(int(match[1]), int(match[2]))] = code
    return found


def _asked(arithmetic: Arithmetic, years: list[int],
           stated: dict[tuple[int, int], str]) -> tuple[str | None, list[tuple[int, int]]]:
    """What is asked of the stated changes and which, in order: ``sum`` or ``average`` of the changes chaining
    the two years written, or ``compare`` of two changes each named by its two years."""
    others = (arithmetic.ratio or arithmetic.cagr or arithmetic.share_of or arithmetic.consistency
              or arithmetic.parts_whole or arithmetic.parts_over or arithmetic.plus_group or arithmetic.by_formula
              or arithmetic.explicit is not None or arithmetic.relative_difference or arithmetic.percent)
    if others:
        return None, []
    compares = arithmetic.difference or arithmetic.subtract
    if len(years) == 2 and len(set(years)) == 2 and not compares:
        chain = _chain(min(years), max(years), stated)
        if len(chain) >= 2:
            return ("average" if arithmetic.average else "sum"), chain
    if len(years) == 4 and compares and not arithmetic.average:
        pairs = [tuple(sorted(years[i:i + 2])) for i in (0, 2)]
        named = [(a, b) for a, b in pairs if (a, b) in stated]
        if len(named) == 2 and named[0] != named[1]:
            return "compare", sorted(named)
    return None, []


def _chain(first: int, last: int, stated: dict[tuple[int, int], str]) -> list[tuple[int, int]]:
    """The stated changes running from ``first`` to ``last``, each starting where the last ended; [] if none do."""
    by_start: dict[int, list[int]] = {}
    for earlier, later in stated:
        by_start.setdefault(earlier, []).append(later)
    chain: list[tuple[int, int]] = []
    at = first
    while at < last:
        ends = by_start.get(at, [])
        if len(ends) != 1:
            return []  # no change from this year, or two: which chains on is not clear
        chain.append((at, ends[0]))
        at = ends[0]
    return chain if at == last else []


def _said(step: tuple[int, int]) -> str:
    return f"{step[0]}–{step[1]}"
