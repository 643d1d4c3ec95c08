"""The date readers run only on a question that may name a date, and find every date they found before.

The question's dates ("as at December 31, 2019", "30 June 2019") are read by one pattern
(``dated_periods.DATE``) in the slot reader and the table-date reader. It is not run over a
question that holds a month's letters only inside other words ("gross margin", "decrease"):
the guard (``may_name_a_date``, on the normalised question) asks for a month beside a day's
digit. The property holds the guard to the pattern on text built from month spellings, day and
year numbers, their suffixes, other widths, cases and spaces, and words that hold a month's letters.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.glossary import normalize_text
from ragspine.qa.dated_periods import DATE, may_name_a_date, rewrite_dates
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary

_GLOSSARY = default_glossary()
_PIECES = ["December", "dec", "Dec.", "DECEMBER", "ｄｅｃｅｍｂｅｒ", "Sept", "sept.", "September", "ſeptember", "march",
           "Mar", "May", "June", "jun", "31", "30", "1", "3", "31st", "2nd", "ＳＴ", "2019", "２０１９", "1999", "20",
           " ", "  ", "\u00a0", "\u3000", "\t", ",", ".", "-", "fiscal year ended ", "year ending on ", "as at ",
           "gross margin", "decrease", "market", "summary", "FY", "Q3 ", "年", "的", "?"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=10).map("".join))
def test_a_question_with_a_date_is_never_ruled_out(text: str) -> None:
    if DATE.search(text) is not None:
        assert may_name_a_date(normalize_text(text)), text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=10).map("".join))
def test_a_question_ruled_out_is_left_as_written_by_the_date_reader(text: str) -> None:
    if not may_name_a_date(normalize_text(text)):
        assert rewrite_dates(text, _GLOSSARY) == text


def test_a_month_inside_a_word_is_no_date_and_a_month_beside_a_day_is() -> None:
    assert not may_name_a_date("what was the gross margin of mainland china in fy2023?")
    assert not may_name_a_date("why did revenue decrease in 2024?")
    assert may_name_a_date("total debt as at december 31, 2019")
    assert may_name_a_date("total debt at 30 june 2019")
    assert may_name_a_date("total debt at sept. 30 2019")


def test_a_date_at_the_fiscal_year_end_is_still_read_as_that_year() -> None:
    slots = parse_slots("What was Japan revenue as at December 31, 2023?", glossary=_GLOSSARY)
    assert [p.label for p in slots.periods] == ["FY2023"]
