"""What the readings of a table's own columns share: the rows a question writes, the check that its cells are
of one table, and the lines that say a change or cite every cell a figure is computed from.

Payment schedules by year (``due_year_sums``) or by span of years (``schedule_spans``), columns of a
company's own dates (``dated_cells``) and tables of changes between years (``year_changes``) each answer
from a few cells they name; they say their results alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from ragspine.facts.glossary import Glossary, Period
from ragspine.facts.model import Fact
from ragspine.facts.ports import FactStore
from ragspine.facts.query_metric import MetricQuery, QueryResult, QueryStatus, run_query
from ragspine.lazy import LazyPattern
from ragspine.qa.arithmetic_cues import Arithmetic
from ragspine.qa.language import Lang
from ragspine.qa.render import describe, render_result
from ragspine.qa.structured import format_decimal
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from ragspine.qa.difference import Difference

DIRECTIONS = MappingProxyType({Lang.ZH: ("增加", "减少", "持平"), Lang.EN: ("up", "down", "unchanged"),
                               Lang.JA: ("増加", "減少", "横ばい")})
HOME_ASSUMED = "no entity named: the home group"
_SPACES = LazyPattern(r"  +")


def rows_written(norm: str, rows: set[str]) -> list[str]:
    """The rows the question writes whole, in its order; one written inside another's words is not."""
    found = [(m.start(), m.end(), row) for row in rows
             for m in re.finditer(rf"(?<![a-z0-9]){re.escape(row)}(?![a-z0-9])", norm)]
    kept = [f for f in found if not any(o != f and o[0] <= f[0] and f[1] <= o[1] for o in found)]
    return list(dict.fromkeys(row for _, _, row in sorted(kept)))


def asks_other_arithmetic(arithmetic: Arithmetic) -> bool:
    """Whether the question asks what no sum or change of a few cells gives: a ratio, a growth rate, a share, an
    average, a check or a formula."""
    return bool(arithmetic.ratio or arithmetic.cagr or arithmetic.share_of or arithmetic.average
                or arithmetic.consistency or arithmetic.parts_whole or arithmetic.parts_over or arithmetic.plus_group
                or arithmetic.by_formula or arithmetic.explicit is not None or arithmetic.relative_difference)


def sum_or_change(arithmetic: Arithmetic, columns: int, rows: int) -> str | None:
    """``sum`` (rows of one column added up) or ``change`` (one row of two columns); None for anything else."""
    if asks_other_arithmetic(arithmetic):
        return None
    compares = arithmetic.difference or arithmetic.change or arithmetic.subtract
    if columns == 1 and rows >= 2 and (arithmetic.period_sum or arithmetic.add) and not compares:
        return "sum"
    if columns == 2 and rows == 1 and compares and not (arithmetic.period_sum or arithmetic.add):
        return "change"
    return None


def cells_read(codes: Sequence[str], entity: str, channel: str, *, facts: FactStore,
               max_sensitivity: Sensitivity, periods: Sequence[Period] = (),
               ) -> tuple[tuple[QueryResult, ...], list[Fact]] | None:
    """Each cell's result, stated of no period (or of ``periods``, one a code, where given), and its figures;
    None unless every cell is stated once."""
    read_as = periods or [Period.none_stated()] * len(codes)
    results = tuple(run_query(MetricQuery(code, entity, period, channel), facts=facts,
                              max_sensitivity=max_sensitivity) for code, period in zip(codes, read_as, strict=True))
    inputs = [r.fact for r in results if r.status is QueryStatus.FOUND and not r.conflicts and r.fact is not None]
    return (results, inputs) if len(inputs) == len(results) else None


def undated_line(result: QueryResult, glossary: Glossary, lang: Lang) -> str:
    """A cell's own line, named by its label alone: no period word, and no gap where one would be."""
    assert result.query is not None
    return render_result(result, glossary, lang, what=_SPACES.sub(" ", describe(result.query, glossary, lang)).strip())


def one_table(inputs: Sequence[Fact]) -> bool:
    """All of one table of one document, in one unit."""
    tables = {(f.source_doc_id, f.source_locator.split(",", 1)[0]) for f in inputs}
    return len(tables) == 1 and len({f.unit for f in inputs}) == 1


def one_schedule(inputs: Sequence[Fact]) -> bool:
    """All of one table in one unit, none negative (a count or a payment falling due, never a credit)."""
    return one_table(inputs) and all(f.value >= 0 for f in inputs)


def change_line(template: str, change: Difference, *, who: str, row: str, earlier: str, later: str,
                lang: Lang) -> str:
    """``template`` filled with the change's direction, size and percentage, both figures cited."""
    up, down, level = DIRECTIONS[lang]
    direction = up if change.absolute > 0 else down if change.absolute < 0 else level
    unit = f" {change.later.unit}" if change.later.unit else ""
    percent = ""
    if change.percent is not None:
        sign = "+" if change.percent > 0 else "−" if change.percent < 0 else "±"
        percent = f"（{sign}{format_decimal(abs(change.percent))}%）"
    line = template.format(who=who, row=row, later=later, earlier=earlier, direction=direction,
                           amount=f"{format_decimal(abs(change.absolute))}{unit}", percent=percent)
    return f"{line}{cited([change.earlier, change.later])}"


def cited(inputs: Sequence[Fact]) -> str:
    """``（计算自：doc · locator；…）`` naming every input in order."""
    return "（计算自：" + "；".join(f"{f.source_doc_id} · {f.source_locator}" for f in inputs) + "）"
