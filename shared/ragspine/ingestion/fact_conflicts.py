"""Figures that disagree with the kept fact of their key: kept beside it, so answers show both.

``primary_facts`` keeps one fact per key (a report owns its year). Another document or table
that states a different value or unit for the same metric, entity, channel and period is not
dropped silently: its figure is recorded with ``FactStore.put_conflicts`` and the answer
gives both with their sources. A newer version of the same document is not a conflict: only
active versions are merged.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING

from ragspine.facts.glossary import SlotKind
from ragspine.facts.model import Fact, FactKey
from ragspine.facts.unit_scales import money_unit
from ragspine.numbers.units import SCALES

if TYPE_CHECKING:
    from ragspine.facts.glossary import Glossary


def differing_facts(stated: Iterable[Iterable[Fact]], kept: Iterable[Fact]) -> list[Fact]:
    """Every stated fact whose key has a kept fact with another value or unit, once per document and locator.

    Args:
        stated: the facts of each active document version.
        kept: the merged facts (one per key); only their keys are compared.
    """
    chosen: dict[FactKey, Fact] = {fact.key: fact for fact in kept}
    found: dict[tuple[FactKey, str, str], Fact] = {}
    for facts in stated:
        for fact in facts:
            primary = chosen.get(fact.key)
            if primary is None or not differs(primary, fact):
                continue
            found.setdefault((fact.key, fact.source_doc_id, fact.source_locator), fact)
    return list(found.values())


def differs(kept: Fact, other: Fact) -> bool:
    """Whether ``other`` states a figure ``kept`` does not (1320 and 1320.0 are the same figure).

    The same number written once without a unit (""), or with its scale but not its currency
    (``M`` beside ``JPY_M``), is the same figure, not a second one.
    """
    if same_amount_rescaled(kept, other):
        return False
    return other.value != kept.value or (other.unit != kept.unit and not _says_less(other.unit, kept.unit))


def same_amount_rescaled(kept: Fact, other: Fact) -> bool:
    """Whether two facts state one amount of one currency at two scales (8,652,347,215.36 元 and 865,234.72 万元).

    The finer figure must round to the coarser one at the coarser one's written decimals: half a
    unit of its last written decimal apart at most, as a rounding of the same amount is.
    """
    units = money_unit(kept.unit), money_unit(other.unit)
    if units[0] is None or units[1] is None or not units[0].currency or units[0].currency != units[1].currency:
        return False
    if units[0].factor == units[1].factor:
        return False
    amounts = [(Decimal(str(f.value)), u.factor) for f, u in ((kept, units[0]), (other, units[1]))]
    coarse, fine = sorted(amounts, key=lambda pair: pair[1], reverse=True)
    exponent = coarse[0].as_tuple().exponent
    step = Decimal(10) ** exponent if isinstance(exponent, int) else Decimal(1)
    return abs(coarse[0] * coarse[1] - fine[0] * fine[1]) <= step * coarse[1] / 2


def same_figure_stating_unit(kept: Fact, other: Fact) -> bool:
    """Whether ``other`` is ``kept``'s number with more of the unit stated (``JPY_M`` for ``M``): kept instead."""
    return other.value == kept.value and other.unit != kept.unit and _says_less(kept.unit, other.unit)


def _says_less(unit: str, fuller: str) -> bool:
    """Whether ``unit`` states part of ``fuller``: nothing, or its scale without its currency (``M``, ``JPY_M``)."""
    return unit == "" or (unit in SCALES and fuller.endswith(f"_{unit}") and len(fuller) == len(unit) + 4)


def balances(glossary: Glossary | None) -> frozenset[str]:
    """The metrics that are balances of money (not additive: total assets, cash, inventories), which are
    stated at their size: written with a minus sign they are being deducted (cash in a net-debt
    reconciliation), not negative."""
    if glossary is None:
        return frozenset()
    return frozenset(code for code, term in glossary.terms[SlotKind.METRIC].items()
                     if not term.additive and term.unit and money_unit(term.unit) is not None
                     and code not in glossary.formulas)  # a computed one (working capital) may be below zero


def written_as_deduction(fact: Fact, other: Fact, balances: frozenset[str]) -> bool:
    """Whether ``fact`` is a balance's amount that ``other`` states at its size (positive): ``fact`` is that
    amount written with a minus sign, the way a reconciliation deducts it, and ``other`` is the statement's."""
    if fact.metric_code not in balances or not fact.value < 0 < other.value:
        return False
    return not differs(other, replace(fact, value=-fact.value))
