"""How far apart figures may be only because each was rounded where its document wrote it.

A total stated in yuan and its parts stated in 万元 to two decimals cannot match to the yuan: each
part may be off by half a unit of its last written digit. Added up over every figure compared,
those halves are the gap rounding alone can make; a check that finds a smaller gap says the
figures agree within rounding instead of calling them inconsistent.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from ragspine.facts.model import Fact, format_number
from ragspine.facts.unit_scales import money_unit, rescale


def written_places(fact: Fact) -> int:
    """Decimal places of the figure as stored (``598417.36`` -> 2, ``1200`` -> 0).

    A whole number kept as a float (``1200.0``) counts no places: its ``.0`` says nothing of how the
    document wrote it, and reading it as one place would shrink the allowance tenfold.
    """
    number = Decimal(format_number(fact.value))
    exponent = number.normalize().as_tuple().exponent if number == number.to_integral_value() else \
        number.as_tuple().exponent
    return max(-exponent, 0) if isinstance(exponent, int) else 0


def rounding_allowance(facts: Sequence[Fact], unit: str) -> Decimal:
    """Half a unit of each figure's last written digit, on ``unit`` (the scale the figures were compared on)."""
    total = Decimal(0)
    for fact in facts:
        half = Decimal(1).scaleb(-written_places(fact)) / 2
        moved = fact.unit and fact.unit != unit and money_unit(fact.unit) is not None and money_unit(unit) is not None
        total += rescale(half, fact.unit, unit) if moved else half
    return total


def within_rounding(gap: Decimal, facts: Sequence[Fact], unit: str) -> bool:
    """Whether a non-zero ``gap`` between sums of ``facts`` (on ``unit``) is no more than their rounding."""
    return gap != 0 and abs(gap) <= rounding_allowance(facts, unit)
