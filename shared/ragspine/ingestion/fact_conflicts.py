"""Figures that disagree with the kept fact of their key: kept beside it, so answers show both.

``primary_facts`` keeps one fact per key (a report owns its year). Another document or table
that states a different value or unit for the same metric, entity, channel and period is not
dropped silently: its figure is recorded with ``FactStore.put_conflicts`` and the answer
gives both with their sources. A newer version of the same document is not a conflict: only
active versions are merged.
"""

from __future__ import annotations

from collections.abc import Iterable

from ragspine.facts.model import Fact, FactKey
from ragspine.numbers.units import SCALES


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
    return other.value != kept.value or (other.unit != kept.unit and not _says_less(other.unit, kept.unit))


def same_figure_stating_unit(kept: Fact, other: Fact) -> bool:
    """Whether ``other`` is ``kept``'s number with more of the unit stated (``JPY_M`` for ``M``): kept instead."""
    return other.value == kept.value and other.unit != kept.unit and _says_less(kept.unit, other.unit)


def _says_less(unit: str, fuller: str) -> bool:
    """Whether ``unit`` states part of ``fuller``: nothing, or its scale without its currency (``M``, ``JPY_M``)."""
    return unit == "" or (unit in SCALES and fuller.endswith(f"_{unit}") and len(fuller) == len(unit) + 4)
