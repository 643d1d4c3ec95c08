"""One amount stated in whole yuan in one table and in 万元 in another is one figure, not two that differ."""

from __future__ import annotations

from ragspine.facts.model import Fact
from ragspine.ingestion.fact_conflicts import differing_facts


def _fact(value: float, unit: str, locator: str) -> Fact:
    return Fact("REVENUE", "HUACHEN_GROUP", "", "TOTAL", "FY", "2024", value, unit, "report.xlsx", locator)


def test_the_same_amount_at_two_scales_of_one_currency_is_no_conflict() -> None:
    kept = _fact(8652347215.36, "CNY", "sheet=主要会计数据,cell=B5")
    other = _fact(865234.72, "CNY_10K", "sheet=分产品分地区,cell=B9")
    assert differing_facts([[kept, other]], [kept]) == []


def test_amounts_that_do_not_round_to_each_other_still_differ() -> None:
    kept = _fact(8652347215.36, "CNY", "sheet=主要会计数据,cell=B5")
    other = _fact(865234.82, "CNY_10K", "sheet=分产品分地区,cell=B9")
    assert differing_facts([[kept, other]], [kept]) == [other]


def test_the_same_number_in_two_currencies_differs() -> None:
    kept = _fact(865234.72, "CNY_10K", "sheet=a,cell=B9")
    other = _fact(8652347.2, "USD_K", "sheet=b,cell=B9")
    assert differing_facts([[kept, other]], [kept]) == [other]
