"""Counting a total's rows: "How many expense segments in 2019 were above $50 million?", "How many
categories are there under total stock-based compensation expense?".

The question counts rows ("segments", "components", "items", "categories", "types" …) named by
the words of one total row of the documents ("expenses" of "Total other operating expenses").
The rows counted are that total's parts: the other rows of its table and section, none of them a
total, read for the one period the question names (with no threshold and no period, for every
fiscal year the total is stated, which must all have the same rows). They are counted only where
their figures add up to the total's in each period (within each part's rounding), so a table
holding rows of another kind, a row filed from another table or a row not read leaves nothing
counted: the question is answered as before. The answer is the count, the rows counted (those
meeting the threshold, with their figures) and every figure compared cited, the total's too.

Strictly more or strictly less, the threshold read as ``count_asks`` reads it (its scale word
applied against the figures' unit). Only English questions are read so.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType

from ragspine.citation import Source, numbered_table, source_dicts
from ragspine.facts.glossary import Glossary, Period, SlotKind, normalize_text
from ragspine.facts.model import Fact, format_number
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.facts.ports import FactStore
from ragspine.lazy import LazyPattern
from ragspine.qa.count_asks import threshold_asked
from ragspine.qa.counting import CountAsk, threshold_in
from ragspine.qa.label_words import label_words
from ragspine.qa.language import Lang
from ragspine.qa.render import label
from ragspine.qa.result import AnswerStatus
from ragspine.qa.slots import Assumption, ParsedSlots, Slots
from ragspine.qa.structured import StructuredOutcome
from ragspine.qa.total_rows import is_a_total
from ragspine.sensitivity import Sensitivity

_HOW_MANY = LazyPattern(r"(?<![a-z])how many\s+(?:of\s+the\s+)?")
# The words saying rows are counted, in matching form (``label_words``: singular, lower case).
_ROW_WORDS = frozenset({"segment", "component", "item", "category", "type", "kind", "line", "row", "part"})
# A count of rows with no threshold names its rows first: "how many (major) categories are there under …"
_ROWS_FIRST = LazyPattern(r"(?:(?:different|major|main|separate|distinct)\s+)?"
                          r"(?:segments?|components?|items?|categor(?:y|ies)|types?|kinds?|lines?|rows?|parts?)(?![a-z])")
# The rows placed under what they make up ("… are there under", "… of", "… make up"), never a verb of their own:
# "how many items were sold" asks a quantity, not a count of rows
_PLACED = LazyPattern(r"\s+(?:(?:are|were)\s+there\s+)?(?:under|in|of|within|(?:that\s+)?make\s+up|making\s+up)"
                      r"(?![a-z])")
# A row deducted from those above it ("Less valuation allowance"), not one of the rows it is deducted from
_DEDUCTED = LazyPattern(r"(?:less|deduct|minus)(?![a-z])")

_TEXT = MappingProxyType({
    Lang.EN: MappingProxyType({
        "count": "{who} rows of {total} {op} {threshold} in {period}: {n} ({met}; {compared} rows compared, "
                 "adding up to the total {sum})",
        "rows": "{who} rows of {total}: {n} ({rows}; adding up to the total in {periods})",
        "columns": "{who} rows of {total}: {n} ({rows}; the same rows in each column, {columns}, each adding up "
                   "to its total in {periods})",
        "above": "above", "below": "below", "none_met": "none", "join": ", ",
    }),
    Lang.ZH: MappingProxyType({
        "count": "{who}{total}的各行中 {period} {op} {threshold} 的行数：{n}（{met}；共比较 {compared} 行，"
                 "合计为总额 {sum}）",
        "rows": "{who}{total}的组成行数：{n}（{rows}；{periods} 合计为总额）",
        "columns": "{who}{total}的组成行数：{n}（{rows}；{columns} 各列的行相同，{periods} 各列合计为其总额）",
        "above": "超过", "below": "低于", "none_met": "无", "join": "、",
    }),
    Lang.JA: MappingProxyType({
        "count": "{who}{total}の内訳のうち {period} に {threshold} {op}行の数：{n}（{met}；比較した行 {compared}、"
                 "合計は総額 {sum}）",
        "rows": "{who}{total}の内訳の行数：{n}（{rows}；{periods} の合計は総額に一致）",
        "columns": "{who}{total}の内訳の行数：{n}（{rows}；{columns} の各列で同じ行、"
                   "{periods} の各列の合計はその総額に一致）",
        "above": "を超えた", "below": "を下回った", "none_met": "なし", "join": "、",
    }),
})


@dataclass(frozen=True, slots=True)
class RowCountAsk:
    """A count of a total's rows the question asks: the words naming the total, and the threshold."""

    named: frozenset[str]  # the total's words the question names ("expense"), in ``label_words`` form
    threshold: CountAsk | None  # None: every row is counted


def read_row_count(question: str) -> RowCountAsk | None:
    """The count of rows ``question`` asks for, over a threshold or not, or None (no row word, no total words)."""
    text = normalize_text(question).lower()
    asked = _HOW_MANY.search(text)
    if asked is None:
        return None
    found = threshold_asked(text, asked.end())
    if found is None:  # "How many categories are there under total stock-based compensation expense?"
        rows = _ROWS_FIRST.match(text, asked.end())
        placed = _PLACED.match(text, rows.end()) if rows is not None else None
        named = label_words(text[placed.end():]) - _ROW_WORDS if placed is not None else set()
        return RowCountAsk(frozenset(named), None) if named else None
    below, value, scale, written, start = found
    words = label_words(text[asked.end():start])
    named = words - _ROW_WORDS
    if not words & _ROW_WORDS or not named:
        return None
    return RowCountAsk(frozenset(named), CountAsk(quarters=False, below=below, threshold=value, scale=scale,
                                                 written=written))


def count_rows(ask: RowCountAsk, parsed: ParsedSlots, *, facts: FactStore, glossary: Glossary, lang: Lang,
               max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL) -> tuple[StructuredOutcome, Slots] | None:
    """The count and the slots it stands on, or None where the words name no one total, the question names two
    entities, channels or periods (or none for a threshold), or the rows read do not add up to the total in a
    period counted (the question is then answered as it was). No entity named is the home group, as everywhere;
    a count with no threshold and no period is of the rows every fiscal year stated adds up the same way."""
    if len(parsed.entities) > 1 or len(parsed.channels) > 1 or len(parsed.periods) > 1:
        return None
    if ask.threshold is not None and not parsed.periods:
        return None
    entity = parsed.entities[0] if parsed.entities else glossary.home_entity
    channel = parsed.channels[0] if parsed.channels else glossary.default_channel
    totals = [code for code in glossary.terms[SlotKind.METRIC]
              if code.startswith(METRIC_PREFIX) and is_a_total(code) and ask.named <= _item_words(code)]
    found = _total_named(totals, list(parsed.periods), entity, channel, facts, max_sensitivity) or _heading_named(
        ask.named, list(parsed.periods), entity, channel, facts, max_sensitivity)
    if found is None:
        return None
    periods, counted = found
    if len({frozenset(map(_item_of, parts)) for _, parts in counted}) != 1:
        return None  # a row stated in one year only: which rows the total has is not one answer
    columns = list(dict.fromkeys(_section_of(total) for total, _ in counted))
    if len(columns) > 1 and ask.threshold is not None:
        return None  # the same rows under several columns: whose figures meet the threshold is not one answer
    total, parts = counted[0]
    text = _TEXT[lang]
    who = label(glossary.term(SlotKind.ENTITY, entity), lang)
    if len(columns) > 1:  # a heading repeated under each column: its rows named once, every column said
        line = text["columns"].format(who=who, total=_item_of(total), n=len(parts),
                                      rows=text["join"].join(map(_item_of, parts)),
                                      columns=text["join"].join(columns),
                                      periods=text["join"].join(p.label for p in periods))
        numbers: tuple[str, ...] = (str(len(parts)), *(p.period[:4] for p in periods))
    elif ask.threshold is None:
        line = text["rows"].format(who=who, total=label_of(total.metric_code), n=len(parts),
                                   rows=text["join"].join(label_of(f.metric_code) for f in parts),
                                   periods=text["join"].join(p.label for p in periods))
        numbers = (str(len(parts)), *(p.period[:4] for p in periods))
    else:
        bound = threshold_in(ask.threshold, {total.unit})
        if bound is None:
            return None
        met = [f for f in parts if (_value(f) < bound if ask.threshold.below else _value(f) > bound)]
        line = text["count"].format(
            who=who, total=label_of(total.metric_code), op=text["below" if ask.threshold.below else "above"],
            threshold=ask.threshold.written, period=periods[0].label, n=len(met), compared=len(parts),
            sum=format_number(total.value),
            met=text["join"].join(f"{label_of(f.metric_code)} {format_number(f.value)}" for f in met)
            or text["none_met"])
        numbers = (str(len(met)), str(len(parts)), format_number(total.value),
                   *(format_number(f.value) for f in met), periods[0].period[:4])
    cited = [f for total_read, parts_read in counted for f in [*parts_read, total_read]]
    sources = source_dicts(Source(f.source_doc_id, f.source_locator) for f in cited)
    cites = "；".join(f"{f.source_doc_id} · {f.source_locator}" for f in cited)
    assumptions = () if parsed.entities else (Assumption(SlotKind.ENTITY, entity, "no entity named: the home group"),)
    slots = Slots((total.metric_code,), (entity,), tuple(periods), (channel,), assumptions)
    return StructuredOutcome((f"{line}（计算自：{cites}）",), sources, AnswerStatus.FOUND, (), (),
                             computed=numbers), slots


_Counted = tuple[list[Period], list[tuple[Fact, list[Fact]]]]


def _total_named(totals: list[str], asked: list[Period], entity: str, channel: str, facts: FactStore,
                 max_sensitivity: Sensitivity) -> _Counted | None:
    """The periods counted and, in each, the one total the question names with the rows adding up to it."""
    if len(totals) != 1:
        return None
    stated = facts.find(metric_code=totals[0], entity=entity)
    periods = asked or _fiscal_years(stated)
    checked = [_added_up(_one_fact(stated, period, channel, max_sensitivity), facts, max_sensitivity)
               for period in periods]
    if not checked or any(c is None for c in checked):
        return None
    return periods, [c for c in checked if c is not None]


def _heading_named(named: frozenset[str], asked: list[Period], entity: str, channel: str, facts: FactStore,
                   max_sensitivity: Sensitivity) -> _Counted | None:
    """The periods counted and, in each, the rows under the one section heading the question names ("how many
    components are there under deferred tax assets"), with the row of the same table they add up to.

    A row written "Less …" under the heading (a valuation allowance) is deducted from the rows, not one of
    them. Counted only where every other row under the heading states the period and together they add up
    to a row of the same table outside the section whose words hold the heading's ("Gross deferred tax
    assets"): a row read outside its heading, or rows of another kind, leave the sum short and nothing counted.

    Where no heading is named by exactly those words, a heading a table repeats under each of its columns
    ("Gross carrying amount", "Net" over "Finite-lived intangible assets") is one heading: its rows are
    counted under each column, each column's adding up to that column's total, and only where every column
    lists the same rows in one table (then how many there are is one answer whichever column is read).
    """
    codes = [code for code, owner in facts.open_codes() if owner == entity and code.startswith(METRIC_PREFIX)]
    sections = {section for code in codes if (section := _section_of(code))}
    headings = sorted(heading for heading in sections if label_words(heading) == named) or sorted(
        heading for heading in sections if label_words(heading.rpartition(": ")[2]) == named)  # under columns
    if len(headings) > 1 and any(": " not in heading for heading in headings):
        return None  # a heading named twice, not under columns: which one is asked is not said
    read = [_rows_under(heading, named, codes, asked, entity, channel, facts, max_sensitivity) for heading in headings]
    if not read or any(found is None for found in read):
        return None
    counted = [found for found in read if found is not None]
    periods = counted[0][0]
    if any(found[0] != periods for found in counted):
        return None  # a column stating other years: which rows the heading has is not one answer
    pairs = [pair for _, checked in counted for pair in checked]
    if len({(f.source_doc_id, _table_of(f)) for total, parts in pairs for f in [total, *parts]}) != 1:
        return None  # headings of two tables, not one table's columns
    return periods, pairs


def _rows_under(heading: str, named: frozenset[str], codes: list[str], asked: list[Period], entity: str,
                channel: str, facts: FactStore, max_sensitivity: Sensitivity) -> _Counted | None:
    """The periods counted and, in each, the rows under ``heading`` with the row of the same table (and column,
    where the heading is a column's) they add up to, or None."""
    column = heading.rpartition(": ")[0]
    rows = [code for code in codes if _section_of(code) == heading and not is_a_total(code)
            and not _DEDUCTED.match(_item_of(code))]
    sums = [code for code in codes if _section_of(code) != heading and named <= _item_words(code)
            and (not column or _section_of(code) == column)]
    stated = {code: facts.find(metric_code=code, entity=entity) for code in [*rows, *sums]}
    periods = asked or _fiscal_years([f for code in rows for f in stated[code]])
    checked: list[tuple[Fact, list[Fact]]] = []
    for period in periods:
        parts = [_one_fact(stated[code], period, channel, max_sensitivity) for code in rows]
        read = [f for f in parts if f is not None]
        if len(read) < 2 or len(read) != len(parts) or len({(f.source_doc_id, _table_of(f), f.unit)
                                                                for f in read}) != 1:
            return None
        total = next((f for code in sums if (f := _one_fact(stated[code], period, channel, max_sensitivity))
                      is not None and (f.source_doc_id, _table_of(f), f.unit) == (read[0].source_doc_id,
                                                                                  _table_of(read[0]), read[0].unit)
                      and _adds_up(read, f)), None)
        if total is None:
            return None
        checked.append((total, read))
    return (periods, checked) if checked else None


def _fiscal_years(stated: list[Fact]) -> list[Period]:
    """The fiscal years the figures state, the latest first."""
    return sorted({Period(f.period_type, f.period) for f in stated if f.period_type == "FY"},
                  key=lambda p: p.period, reverse=True)


def _table_of(fact: Fact) -> str | None:
    """The document's numbered table a figure stands in (``table=1``, ``page=3,table=1``), or None: no total's
    rows are sought outside one."""
    return numbered_table(fact.source_locator)


def _added_up(total: Fact | None, facts: FactStore, max_sensitivity: Sensitivity) -> tuple[Fact, list[Fact]] | None:
    """The total and its parts where two rows or more of one unit add up to it, else None."""
    if total is None:
        return None
    parts = _parts_of(total, facts=facts, max_sensitivity=max_sensitivity)
    if len(parts) < 2 or len({f.unit for f in [total, *parts]}) != 1 or not _adds_up(parts, total):
        return None
    return total, parts


def _item_words(code: str) -> set[str]:
    """The words of a row's own line item, its section aside ("total other operating expenses")."""
    return label_words(_item_of(code))


def _item_of(row: Fact | str) -> str:
    """A row's own line item as its label writes it, its section aside ("customer relationships")."""
    return label_of(row.metric_code if isinstance(row, Fact) else row).rpartition(": ")[2]


def _section_of(row: Fact | str) -> str:
    """The sections a row's label writes before its own line item ("gross carrying amount: intangible assets")."""
    return label_of(row.metric_code if isinstance(row, Fact) else row).rpartition(": ")[0]


def _one_fact(found: list[Fact], period: Period, channel: str, max_sensitivity: Sensitivity) -> Fact | None:
    """The one figure of ``period`` and ``channel`` among ``found``, or None."""
    facts = [f for f in found if f.period_type == period.period_type and f.period == period.period
             and f.channel == channel and f.sensitivity <= max_sensitivity]
    return facts[0] if len(facts) == 1 else None


def _parts_of(total: Fact, *, facts: FactStore, max_sensitivity: Sensitivity) -> list[Fact]:
    """The rows of the total's table and section in its period, none of them a total, in the store's order."""
    table = _table_of(total)
    if table is None:
        return []
    section = label_of(total.metric_code).rpartition(": ")[0]
    period = Period(total.period_type, total.period)
    parts: list[Fact] = []
    for code, owner in facts.open_codes():
        if owner != total.entity or code == total.metric_code or is_a_total(code) or not code.startswith(METRIC_PREFIX):
            continue
        if label_of(code).rpartition(": ")[0] != section:
            continue
        fact = _one_fact(facts.find(metric_code=code, entity=owner), period, total.channel, max_sensitivity)
        if fact is not None and fact.source_doc_id == total.source_doc_id and _table_of(fact) == table:
            parts.append(fact)
    return parts


def _value(fact: Fact) -> Decimal:
    return Decimal(format_number(fact.value))


def _adds_up(parts: list[Fact], total: Fact) -> bool:
    """Whether the parts add up to the total within half a unit of each part's last written digit."""
    values = [_value(f) for f in parts]
    stated = _value(total)
    places = max(-min(int(v.as_tuple().exponent) for v in [*values, stated]), 0)
    return abs(sum(values) - stated) <= Decimal(len(values)) * Decimal(5) / Decimal(10) ** (places + 1)
