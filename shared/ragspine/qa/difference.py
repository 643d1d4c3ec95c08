"""The change between two found facts of one series: built only for a question over two periods."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from ragspine.facts.model import Fact, format_number


@dataclass(frozen=True, slots=True)
class Difference:
    """The change between two found facts of the same series, computed deterministically."""

    earlier: Fact
    later: Fact
    absolute: Decimal
    percent: Decimal | None  # None when the earlier value is zero

    @property
    def numbers(self) -> tuple[str, ...]:
        """The numbers this difference puts in an answer (for the provenance check), without exponents."""
        shown = [format(abs(self.absolute), "f")]
        if self.percent is not None:
            shown.append(format(abs(self.percent), "f"))
        return tuple(shown)


def difference(earlier: Fact, later: Fact) -> Difference:
    """``later - earlier`` in the inputs' precision, and the percent change to two decimals (as growth rates are)."""
    a, b = Decimal(format_number(earlier.value)), Decimal(format_number(later.value))
    places = max(-a.as_tuple().exponent, -b.as_tuple().exponent, 0)  # type: ignore[operator]
    absolute = (b - a).quantize(Decimal(1).scaleb(-places))
    percent = ((b - a) / a * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) if a != 0 else None
    return Difference(earlier, later, absolute, percent)
