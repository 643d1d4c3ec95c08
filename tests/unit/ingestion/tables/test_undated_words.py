"""What counts as a table stating a period (and so never undated), in any case and spelling."""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from ragspine.ingestion.table_undated import date_of, lone_date, names_a_period, states_no_period

MONTHS = ["January", "Feb", "March", "Apr.", "May", "June", "Jul", "August", "Sept", "October", "Nov", "December"]
PERIOD_WORDS = ["Year", "years", "Fiscal", "FY19", "F19", "Q3", "quarter", "Months", "weeks", "YTD", "half", "年度",
                "2024年3月期", "上半期", "Period"]
PLAIN = ["Current", "Fair value amount", "As reported", "Gross carrying amount", "1–90 days past due", "Total",
         "Useful life (in years)", "Loss allowance", "Customer relationships", "Trademarks", "金額", "項目",
         "Annual report excerpt", "More than 60 days past due"]


def _cased(text: str, upper: bool) -> str:
    return text.upper() if upper else text


@given(st.sampled_from(MONTHS), st.integers(1, 28), st.integers(1950, 2049), st.booleans(), st.booleans())
def test_a_whole_date_is_a_period_and_the_one_date_over_a_table(month: str, day: int, year: int, day_first: bool,
                                                                 upper: bool) -> None:
    written = _cased(f"{day} {month} {year}" if day_first else f"{month} {day}, {year}", upper)
    assert names_a_period(written)
    found = lone_date(["", written, "Current"])
    assert found and str(year) in found
    assert date_of(found) == date(year, MONTHS.index(month) + 1, day)  # the day carried on the table's undated facts
    assert states_no_period([written, "Current"], ["Gross carrying amount"], [], besides=found)
    assert lone_date([written, f"{month} {day}, {year - 1}"]) == ""  # two dates: none is the table's


@given(st.sampled_from(PERIOD_WORDS), st.sampled_from(PLAIN), st.booleans())
def test_a_period_word_anywhere_keeps_a_table_dated(word: str, plain: str, upper: bool) -> None:
    text = _cased(f"{plain} {word}", upper)
    assert names_a_period(text)
    assert not states_no_period([plain], [text], [])
    assert not states_no_period([plain], [plain], [text])


@given(st.lists(st.sampled_from(PLAIN), min_size=1, max_size=6), st.booleans())
def test_labels_naming_no_period_state_none(labels: list[str], upper: bool) -> None:
    texts = [_cased(label, upper) for label in labels]
    assert not any(names_a_period(text) for text in texts)
    assert states_no_period(texts, texts, texts)
    assert lone_date(texts) == ""


def test_a_date_no_calendar_holds_is_no_date() -> None:
    assert date_of("February 30, 2019") is None
    assert date_of("30 Februar 2019") is None
