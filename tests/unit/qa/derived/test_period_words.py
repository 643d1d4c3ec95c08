"""Periods in people's words, read on the domain's fiscal calendar (a March and a June year, and the calendar year)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import Period
from ragspine.qa.period_words import half_year, rewrite_period_words
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary

MARCH = FiscalCalendar(3)
JUNE = FiscalCalendar(6)
MARCH_BY_START = FiscalCalendar(3, "start")


@pytest.mark.parametrize(("words", "fiscal", "expected"), [
    ("2025年3月期の売上高", MARCH, "2025年度"),
    ("2025年3月期の売上高", MARCH_BY_START, "2024年度"),
    ("2025年3月期第3四半期の売上高", MARCH, "2025年度第3四半期"),
    ("2025年3月期の第三四半期", MARCH, "2025年度第3四半期"),
    ("revenue for the year ended June 30, 2024", JUNE, "FY2024"),
    ("revenue for the fiscal year ending December 31, 2023", FiscalCalendar(), "FY2023"),
    ("revenue for the year ended March 31, 2024", MARCH, "FY2024"),
])
def test_fiscal_year_end_wording_is_read_on_the_calendar(words: str, fiscal: FiscalCalendar, expected: str) -> None:
    rewritten = rewrite_period_words(words, fiscal)
    assert expected in rewritten
    assert len(rewritten) == len(words)  # every other span of the question keeps its place


@given(st.text(max_size=60))
def test_rewriting_never_changes_the_length(text: str) -> None:
    import unicodedata

    assert len(rewrite_period_words(text, MARCH)) == len(unicodedata.normalize("NFKC", text))


@pytest.mark.parametrize("words", ["2024财年上半年的营业收入", "H1 2024 revenue", "revenue in the first half of 2024",
                                   "2024年度上期の売上高"])
def test_half_years_are_named(words: str) -> None:
    assert half_year(words)


def _periods(question: str) -> list[str]:
    return [p.label for p in parse_slots(question, glossary=default_glossary()).periods]


@pytest.mark.parametrize(("question", "expected"), [
    ("revenue 2019 to 2021", ["FY2019", "FY2020", "FY2021"]),
    ("average revenue from FY2021–FY2024", ["FY2021", "FY2022", "FY2023", "FY2024"]),
    ("中国内地2021年至2023年的营业收入", ["FY2021", "FY2022", "FY2023"]),
    ("日本の2021年から2023年までの売上高", ["FY2021", "FY2022", "FY2023"]),
    ("revenue in 2021 and 2023", ["FY2021", "FY2023"]),  # an enumeration is not a range
    ("FY24 revenue", ["FY2024"]),
    ("revenue in fiscal 2023", ["FY2023"]),
])
def test_ranges_and_short_forms(question: str, expected: list[str]) -> None:
    assert _periods(question) == expected


def test_a_half_year_is_an_unreadable_period_not_a_name() -> None:
    parsed = parse_slots("香港2024财年上半年的营业收入", glossary=default_glossary())
    assert parsed.bad_period == "2024财年上半年" and parsed.unknown_names == ()


def test_japanese_fiscal_year_end_on_the_demo_calendar() -> None:
    parsed = parse_slots("日本の2024年3月期の売上高", glossary=default_glossary())
    assert parsed.periods == (Period.fiscal_year(2024),) and parsed.unknown_names == ()
