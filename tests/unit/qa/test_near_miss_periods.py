"""Misspelt period words and look-alike years read as the period they name, and only then."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary

GLOSSARY = default_glossary()
ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth"}


def _one_deletion(word: str, at: int) -> str:
    index = 1 + at % (len(word) - 1)  # keep the first letter, as typists do
    return word[:index] + word[index + 1:]


@given(year=st.integers(2000, 2099), quarter=st.integers(1, 4), at=st.integers(0, 20))
def test_a_quarter_word_missing_one_letter_reads_as_that_quarter(year: int, quarter: int, at: int) -> None:
    typed = _one_deletion(ORDINALS[quarter], at)
    slots = parse_slots(f"japan revenue {typed} quarter {year}", glossary=GLOSSARY)
    assert [p.label for p in slots.periods] == [f"{year}Q{quarter}"]
    assert [m.readings[0].code for m in slots.near_misses] == [f"{year}Q{quarter}"]


@given(year=st.integers(2000, 2099), quarter=st.integers(1, 4))
def test_a_well_spelt_period_is_never_re_read(year: int, quarter: int) -> None:
    for question in (f"japan revenue {ORDINALS[quarter]} quarter {year}", f"japan revenue fy{year}",
                     f"japan revenue q{quarter} {year}", f"日本{year}年第{quarter}季度的营业收入"):
        assert parse_slots(question, glossary=GLOSSARY).near_misses == ()


def test_a_year_with_a_letter_o_reads_as_the_year_and_clears_the_bad_period() -> None:
    slots = parse_slots("japan revenue fy2o25", glossary=GLOSSARY)
    assert [p.label for p in slots.periods] == ["FY2025"] and slots.bad_period is None
    assert slots.near_misses[0].raw == "fy2o25"


def test_a_word_near_a_period_word_with_no_year_beside_it_is_left_alone() -> None:
    slots = parse_slots("japan revenue for the secnd time in 2024", glossary=GLOSSARY)
    assert [p.label for p in slots.periods] == ["FY2024"] and slots.near_misses == ()
