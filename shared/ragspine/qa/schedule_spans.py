"""A schedule's span of years a question writes (``2020 - 2024``): its kinds added up, two of them set against each
other, or one kind's two spans compared.

Rows of spans of years one after another (``2020 – 2024 | 2025 – 2029``) say when a schedule's figures
expire or fall due, never which fiscal year they are of: each cell is stored undated as its column's
kind qualified by the span as written (``label:2020 – 2024: ground leases``, ``ingestion/table_facts.py``).
A question writing such a span (any dash, spaces or none) and naming kinds of the table asks for those
cells, though it reads the span's years as periods: two or more kinds of one span added up ("the total
number of ground leases and building leases expiring from 2025 - 2029"), the difference between two
kinds of one span (its size and which kind is the larger, as the gap between two rows of one year is
said: which is taken from which the words leave open), or one kind of two spans compared ("the
difference of ground leases between 2020 - 2024 and 2025 - 2029": the later span's minus the
earlier's, with its percentage). Every cell is cited and said to be of its span.

Only cells of one table of one document, in one unit, stated once and none negative; anything else
asked (a ratio, an average, a percentage difference, a kind or span the schedule lacks) stays asked back.
"""

from __future__ import annotations

from decimal import Decimal
from types import MappingProxyType
from typing import TYPE_CHECKING

from ragspine.facts.glossary import Glossary, Period, SlotKind, normalize_text
from ragspine.facts.model import Fact, format_number
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.facts.ports import FactStore
from ragspine.facts.query_metric import QueryResult
from ragspine.lazy import LazyModule, LazyPattern
from ragspine.qa.arithmetic_cues import Arithmetic
from ragspine.qa.cell_lines import (
    HOME_ASSUMED,
    asks_other_arithmetic,
    cells_read,
    change_line,
    cited,
    one_schedule,
    rows_written,
    sum_or_change,
)
from ragspine.qa.due_years import due_line
from ragspine.qa.language import Lang
from ragspine.qa.render import label
from ragspine.qa.result import AnswerStatus
from ragspine.qa.slots import Assumption, ParsedSlots, Slots
from ragspine.qa.structured import StructuredOutcome, format_decimal, outcome_sources
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from ragspine.qa import difference as change_of
else:
    # Loaded when two spans are compared: most questions are answered without it.
    change_of = LazyModule("ragspine.qa.difference")

# A span of years as written: "2020 - 2024", "2020–2024", "2025-29".
SPAN_OF_YEARS = LazyPattern(r"(?<!\d)((?:19|20)\d{2})\s*[-–—]\s*((?:19|20)?\d{2})(?!\d)")
_TEXT = MappingProxyType({
    Lang.ZH: MappingProxyType({
        "sum": "{who}{rows}（{span}）合计：{value}{unit}（{n} 个数值之和）",
        "change": "{who}{row}：{later} 较 {earlier} {direction} {amount}{percent}",
        "gap": "{who}{a}与{b}（{span}）之差：{value}{unit}（{side}）",
        "more": "{a}高于{b}", "less": "{a}低于{b}", "same": "{a}与{b}持平",
        "join": "、",
    }),
    Lang.EN: MappingProxyType({
        "sum": "{who} {rows} in {span}, sum: {value}{unit} (sum of {n} figures)",
        "change": "{who} {row}: {later} vs {earlier} {direction} {amount}{percent}",
        "gap": "{who} difference between {a} and {b} in {span}: {value}{unit} ({side})",
        "more": "{a} above {b}", "less": "{a} below {b}", "same": "{a} level with {b}",
        "join": " and ",
    }),
    Lang.JA: MappingProxyType({
        "sum": "{who}{rows}（{span}）の合計：{value}{unit}（{n} 個の数値の合計）",
        "change": "{who}{row}：{later} は {earlier} 比 {direction} {amount}{percent}",
        "gap": "{who}{a}と{b}（{span}）の差：{value}{unit}（{side}）",
        "more": "{a}は{b}より多い", "less": "{a}は{b}より少ない", "same": "{a}と{b}は同じ",
        "join": "、",
    }),
})


def span_years(text: str) -> tuple[int, int] | None:
    """The first and last year a span of years writes (``2025-29``: 2025, 2029), else None."""
    match = SPAN_OF_YEARS.fullmatch(text.strip())
    if match is None:
        return None
    first, last = int(match[1]), int(match[2])
    last = first - first % 100 + last if last < 100 else last
    return (first, last) if first < last else None


def span_cells_outcome(text: str, parsed: ParsedSlots, arithmetic: Arithmetic, *, facts: FactStore,
                       glossary: Glossary, lang: Lang,
                       max_sensitivity: Sensitivity) -> tuple[StructuredOutcome, Slots] | None:
    """The cells of the spans ``text`` writes and the kinds it names, added up or compared; None otherwise.

    ``parsed``: the slots of a question asked back (its entity, if it names one, is kept).
    """
    if len(parsed.entities) > 1 or len(parsed.channels) > 1 or parsed.unknown_names:
        return None
    written = list(dict.fromkeys(years for m in SPAN_OF_YEARS.finditer(text) if (years := span_years(m[0]))))
    if not written:
        return None
    cells = _schedule_cells(glossary, written)
    rows = rows_written(normalize_text(text), {row for _, row in cells})
    operation = sum_or_change(arithmetic, len(written), len(rows)) or _gap(arithmetic, len(written), len(rows))
    if operation is None:
        return None
    wanted = [(span, row) for span in written for row in rows]
    if any(cell not in cells for cell in wanted):
        return None
    entity = parsed.entities[0] if parsed.entities else glossary.home_entity
    channel = parsed.channels[0] if parsed.channels else glossary.default_channel
    codes = tuple(cells[cell] for cell in wanted)
    read = cells_read(codes, entity, channel, facts=facts, max_sensitivity=max_sensitivity)
    if read is None or not one_schedule(read[1]):
        return None
    results, inputs = read
    who = label(glossary.term(SlotKind.ENTITY, entity), lang)
    lines = [due_line(result, glossary, lang) for result in results]
    computed: tuple[str, ...] = ()
    differences: tuple[change_of.Difference, ...] = ()
    if operation == "sum":
        total = sum((_value(f) for f in inputs), Decimal(0))
        shown = format_decimal(total)
        unit = f" {inputs[0].unit}" if inputs[0].unit else ""
        line = _TEXT[lang]["sum"].format(who=who, rows=_TEXT[lang]["join"].join(rows), span=_span_said(results[0]),
                                         value=shown, unit=unit, n=len(inputs))
        lines.append(f"{line}{cited(inputs)}")
        computed = (shown, str(len(inputs)))
    elif operation == "gap":
        lines.append(_gap_line(inputs, rows, who=who, span=_span_said(results[0]), lang=lang))
        computed = (format_decimal(abs(_value(inputs[0]) - _value(inputs[1]))),)
    else:
        earlier, later = sorted(zip(written, results, strict=True))
        assert earlier[1].fact is not None and later[1].fact is not None
        change = change_of.difference(earlier[1].fact, later[1].fact)
        differences = (change,)
        lines.append(change_line(_TEXT[lang]["change"], change, who=who, row=rows[0],
                                 earlier=_span_said(earlier[1]), later=_span_said(later[1]), lang=lang))
    assumptions = () if parsed.entities else (Assumption(SlotKind.ENTITY, entity, HOME_ASSUMED),)
    slots = Slots(codes, (entity,), (Period.none_stated(),), (channel,), assumptions)
    return StructuredOutcome(tuple(lines), outcome_sources(results), AnswerStatus.FOUND, results, differences,
                             computed), slots


def _gap(arithmetic: Arithmetic, spans: int, rows: int) -> str | None:
    """``gap`` when "difference" is said of two kinds of one span and nothing else is asked; else None."""
    if asks_other_arithmetic(arithmetic) or arithmetic.percent or arithmetic.period_sum or arithmetic.add:
        return None
    return "gap" if spans == 1 and rows == 2 and arithmetic.difference else None


def _gap_line(inputs: list[Fact], rows: list[str], *, who: str, span: str, lang: Lang) -> str:
    """The size of the gap between the two kinds' cells, which is the larger, and both cells cited."""
    text = _TEXT[lang]
    a, b = rows
    gap = _value(inputs[0]) - _value(inputs[1])
    side = text["more" if gap > 0 else "less" if gap < 0 else "same"].format(a=a, b=b)
    unit = f" {inputs[0].unit}" if inputs[0].unit else ""
    line = text["gap"].format(who=who, a=a, b=b, span=span, value=format_decimal(abs(gap)), unit=unit, side=side)
    return f"{line}{cited(inputs)}"


def _value(fact: Fact) -> Decimal:
    return Decimal(format_number(fact.value))


def _schedule_cells(glossary: Glossary, written: list[tuple[int, int]]) -> dict[tuple[tuple[int, int], str], str]:
    """``(span, row) -> code`` of every schedule cell qualified by one of the spans written."""
    cells = {}
    for code in glossary.terms[SlotKind.METRIC]:
        if not code.startswith(METRIC_PREFIX):
            continue
        qualifier, _, row = label_of(code).partition(": ")
        span = span_years(qualifier) if row else None
        if span in written:
            cells[(span, row)] = code
    return cells


def _span_said(result: QueryResult) -> str:
    """The span as the schedule writes it, its dash kept and its spaces dropped (``2020–2024``)."""
    assert result.fact is not None
    return "".join(label_of(result.fact.metric_code).partition(": ")[0].split())
