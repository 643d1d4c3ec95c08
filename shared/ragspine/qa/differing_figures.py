"""Which of the figures other documents state for a fact disagree with it in amount.

The fact table keeps every other source's figure for a key as a conflict, whatever its unit. For
arithmetic only a different amount is a side to choose: the same amount on another scale of the
currency (214.3 JPY_B beside 214,300 JPY_M), with its scale but no currency stated (214,300 M), or
rounded more coarsely (25.2 JPY_B beside 25,230 JPY_M; 6437 beside 6437.2 EUR_M) is the same
figure, and a computation over it takes no side. Nor is a second figure of the same document (a
document states an amount once: its other figure under the key is another table's quantity, a
segment's or a pro forma one), nor a
figure far from the kept one (more than a tenth apart): two documents' statements of one amount (a
preliminary release and the final report, a restatement) differ by little, while a figure several
times another is a different quantity a table filed under the same name. Nor is a figure the kept
figure's own document also states under the key (a filing's net sales kept, its total revenues in another
table, a later filing stating those total revenues for the year): the two documents agree on both
figures, which are two quantities filed under one name. The figure the fact table keeps then stands for
arithmetic, and the stated answer still lists the other beside it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal

from ragspine.facts.model import Fact, format_number
from ragspine.facts.unit_scales import money_unit

# Two documents' statements of one amount differ by at most this share of the larger one.
_COMPETING_SHARE = Decimal("0.1")


def differing(stated: Fact, others: Iterable[Fact]) -> tuple[Fact, ...]:
    """The figures of ``others`` that state another amount than ``stated`` for the same quantity."""
    others = tuple(others)
    also_kept_document = [other for other in others if other.source_doc_id == stated.source_doc_id]
    return tuple(other for other in others if not same_amount(stated, other) and _competing(stated, other)
                 and not any(same_amount(mine, other) for mine in also_kept_document))


def other_figure_kind(stated: Fact, other: Fact) -> str:
    """How the stated line gives another figure of the key: ``same_amount`` (on another scale or rounding),
    ``opposite_sign`` (its size written with the other sign: an outflow as ``(12,900)`` or ``△12,900`` beside
    ``12,900``, a convention, not a second amount) or ``conflict``."""
    if same_amount(stated, other):
        return "same_amount"
    if stated.value != 0 and same_amount(stated, replace(other, value=-other.value)):
        return "opposite_sign"
    return "conflict"


def _competing(first: Fact, second: Fact) -> bool:
    """Whether two different figures are two statements of one amount: from two documents (one document
    states an amount once; its second figure under the key is another table's quantity) and close."""
    return first.source_doc_id != second.source_doc_id and _close(first, second)


def _close(first: Fact, second: Fact) -> bool:
    """Whether two different figures are close enough to be two statements of one amount (else the
    other is a different quantity filed under the same key); figures in two currencies always are."""
    a, b = Decimal(format_number(first.value)), Decimal(format_number(second.value))
    if first.unit and second.unit and first.unit != second.unit:
        unit_a, unit_b = money_unit(first.unit), money_unit(second.unit)
        if unit_a is None or unit_b is None or (unit_a.currency and unit_b.currency
                                                and unit_a.currency != unit_b.currency):
            return True
        a, b = a * unit_a.factor, b * unit_b.factor
    larger = max(abs(a), abs(b))
    return larger == 0 or abs(a - b) <= _COMPETING_SHARE * larger


def same_amount(first: Fact, second: Fact) -> bool:
    """Whether two figures of one key state one amount (on any scale of one currency, to the coarser rounding)."""
    a, b = Decimal(format_number(first.value)), Decimal(format_number(second.value))
    if first.unit == second.unit or not first.unit or not second.unit:  # no unit stated: the number decides
        return a == b or _rounded_alike(a, b)
    unit_a, unit_b = money_unit(first.unit), money_unit(second.unit)
    if unit_a is None or unit_b is None:
        return False
    if unit_a.currency and unit_b.currency and unit_a.currency != unit_b.currency:
        return False
    if unit_a.factor > unit_b.factor:  # ``a`` is the coarser figure: compare the finer one on its scale
        a, b, unit_a, unit_b = b, a, unit_b, unit_a
    places = max(-b.normalize().as_tuple().exponent, 0)  # type: ignore[operator]  # "2.0" is stated as 2
    finer_on_coarse = (a * unit_a.factor / unit_b.factor).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return finer_on_coarse == b


def _rounded_alike(a: Decimal, b: Decimal) -> bool:
    """Whether one figure is the other rounded to fewer decimals (6437 beside 6437.2 in one unit: a summary
    rounding to the million what the statement gives to a decimal). The coarser figure must keep three
    significant digits: 2 beside 2.4 may as well be two amounts."""
    places_a, places_b = (max(-x.normalize().as_tuple().exponent, 0) for x in (a, b))  # type: ignore[operator]
    if places_a == places_b:
        return False
    coarse, fine, places = (a, b, places_a) if places_a < places_b else (b, a, places_b)
    if coarse == 0 or coarse.adjusted() + 1 + places < 3:  # the significant digits the coarser figure writes
        return False
    return fine.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP) == coarse
