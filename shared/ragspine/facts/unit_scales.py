"""Money units as currency and scale (``JPY_M`` is 10^6 yen, ``JPY_B`` 10^9): the arithmetic between scales.

Scales of one currency are reconciled by arithmetic (百万円 and 十億円 differ by 1000);
currencies are never converted into one another.
"""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from ragspine.lazy import LazyPattern

# Scale suffixes a money unit code may carry (the codes ingestion writes and domains declare).
SCALES: dict[str, Decimal] = {
    "": Decimal(1), "K": Decimal(10) ** 3, "TH": Decimal(10) ** 3, "10K": Decimal(10) ** 4,
    "M": Decimal(10) ** 6, "MN": Decimal(10) ** 6, "10M": Decimal(10) ** 7, "100M": Decimal(10) ** 8,
    "B": Decimal(10) ** 9, "BN": Decimal(10) ** 9, "T": Decimal(10) ** 12, "TN": Decimal(10) ** 12,
}
_MONEY = LazyPattern(r"^(?P<currency>[A-Z]{3})(?:_(?P<scale>[0-9A-Z]+))?$")
_NOT_CURRENCIES = frozenset({"PCT", "BPS"})
# A scale stated without a currency ("(in millions)"): money in a currency the document does not state.
_SCALE_ONLY = frozenset({"K", "10K", "M", "10M", "100M", "B", "T"})


class MoneyUnit(NamedTuple):
    """A currency and the power of ten one unit stands for."""

    currency: str
    factor: Decimal


def money_unit(code: str) -> MoneyUnit | None:
    """``JPY_M`` -> (JPY, 10^6); ``M`` (a scale, its currency not stated) -> ("", 10^6); None for units that are
    not money (PCT, COUNT, DAYS ...)."""
    if code in _SCALE_ONLY:
        return MoneyUnit("", SCALES[code])
    match = _MONEY.match(code)
    if match is None or match["currency"] in _NOT_CURRENCIES:
        return None
    scale = match["scale"] or ""
    if scale not in SCALES:
        return None
    return MoneyUnit(match["currency"], SCALES[scale])


def common_unit(units: list[str]) -> str | None:
    """The finest-scaled unit of several money units of one currency, or None when currencies differ."""
    money = [(u, money_unit(u)) for u in units]
    if any(m is None for _, m in money):
        return None
    currencies = {m.currency for _, m in money if m is not None}
    if len(currencies) != 1:
        return None
    return min(money, key=lambda pair: pair[1].factor if pair[1] is not None else Decimal(0))[0]


def rescale(value: Decimal, unit: str, target: str) -> Decimal:
    """``value`` in ``unit`` expressed in ``target`` (same currency): 1.2 JPY_B -> 1200 JPY_M."""
    source, dest = money_unit(unit), money_unit(target)
    assert source is not None and dest is not None and source.currency == dest.currency
    return value * source.factor / dest.factor
