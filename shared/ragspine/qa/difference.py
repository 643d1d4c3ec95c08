"""The change between two found facts of one series: built only for a question over two periods."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from ragspine.facts.model import Fact, format_number
from ragspine.facts.unit_scales import common_unit, rescale


@dataclass(frozen=True, slots=True)
class Difference:
    """The change between two found facts of the same series, computed deterministically."""

    earlier: Fact
    later: Fact
    absolute: Decimal
    percent: Decimal | None  # None when the earlier value is zero
    unit: str = ""  # the unit of ``absolute``: the facts' own, or the finer of two scales of one currency
    rescaled: tuple[str, ...] = ()  # the units put on the scale of ``unit``
    unstated: tuple[Fact, ...] = ()  # the figures stating no unit, read in ``unit``

    @property
    def numbers(self) -> tuple[str, ...]:
        """The numbers this difference puts in an answer (for the provenance check), without exponents."""
        shown = [format(abs(self.absolute), "f")]
        if self.percent is not None:
            shown.append(format(abs(self.percent), "f"))
        return tuple(shown)


def change_unit(earlier: Fact, later: Fact) -> str | None:
    """The unit a change between two figures is in, or None when they are in units no arithmetic joins.

    The same unit is that unit; a figure stating no unit is read in the other's (the answer says so:
    the same series, stated once without its unit); two scales of one currency (EUR_B and EUR_M) are
    put on the finer. Two currencies, or money and a percentage, are never subtracted.
    """
    if earlier.unit == later.unit or not earlier.unit or not later.unit:
        return later.unit or earlier.unit
    return common_unit([earlier.unit, later.unit])


def difference(earlier: Fact, later: Fact) -> Difference:
    """``later - earlier`` in the inputs' precision, and the percent change to two decimals (as growth rates are).

    Raises:
        ValueError: the figures are in units no arithmetic joins (callers check ``change_unit`` first).
    """
    unit = change_unit(earlier, later)
    if unit is None:
        raise ValueError(f"no change between {earlier.unit or 'no unit'} and {later.unit or 'no unit'}")
    a, b = (_on(fact, unit) for fact in (earlier, later))
    places = max(-a.as_tuple().exponent, -b.as_tuple().exponent, 0)  # type: ignore[operator]
    absolute = (b - a).quantize(Decimal(1).scaleb(-places))
    percent = ((b - a) / a * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) if a != 0 else None
    moved = tuple(sorted({f.unit for f in (earlier, later) if f.unit and f.unit != unit}))
    unstated = tuple(f for f in (earlier, later) if not f.unit) if unit else ()
    return Difference(earlier, later, absolute, percent, unit, moved, unstated)


def _on(fact: Fact, unit: str) -> Decimal:
    """The figure as written, or on the finer scale of its currency (1.2 EUR_B as 1200 EUR_M)."""
    value = Decimal(format_number(fact.value))
    if not fact.unit or fact.unit == unit:
        return value
    return rescale(value, fact.unit, unit).normalize()
