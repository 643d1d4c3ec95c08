"""Periods in people's words, read on the domain's fiscal calendar (a March and a June year, and the calendar year)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import Period
from ragspine.facts.nendo import nendo_period
from ragspine.ingestion.table_stated_years import split_year_end
from ragspine.qa.period_words import half_year, read_period_words
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary

MARCH = FiscalCalendar(3)
JUNE = FiscalCalendar(6)
MARCH_BY_START = FiscalCalendar(3, "start")


@pytest.mark.parametrize(("words", "fiscal", "expected"), [
    ("2025年3月期の売上高", MARCH, "FY2025"),
    ("2025年3月期の売上高", MARCH_BY_START, "FY2024"),
    ("2025年3月期第3四半期の売上高", MARCH, "2025Q3"),
    ("2025年3月期の第三四半期", MARCH, "2025Q3"),
    ("revenue for the year ended June 30, 2024", JUNE, "FY2024"),
    ("revenue for the fiscal year ending December 31, 2023", FiscalCalendar(), "FY2023"),
    ("revenue for the year ended March 31, 2024", MARCH, "FY2024"),
])
def test_fiscal_year_end_wording_is_read_on_the_calendar(words: str, fiscal: FiscalCalendar, expected: str) -> None:
    rewritten = read_period_words(words, fiscal)[0]
    assert expected in rewritten
    assert len(rewritten) == len(words)  # every other span of the question keeps its place


@pytest.mark.parametrize(("words", "fiscal", "expected"), [
    ("EBIT in 2018/2019 from 2017/2018", FiscalCalendar(), "EBIT in FY2019    from FY2018   "),
    ("EBIT in 2018/19", MARCH, "EBIT in FY2019 "),
    ("2018/19年度の売上高", MARCH_BY_START, "FY2018 年度の売上高"),  # a year named by its start
    ("2019/2020财年的营业收入", JUNE, "FY2020   财年的营业收入"),
    ("revenue in 2017/2019", FiscalCalendar(), "revenue in 2017/2019"),  # two years apart: no one year
    ("revenue on 12/2019", FiscalCalendar(), "revenue on 12/2019"),
    ("ratio 2019/2018 of revenue", FiscalCalendar(), "ratio 2019/2018 of revenue"),  # not a year's split
])
def test_a_split_year_is_the_fiscal_year_ending_in_its_second_year(words: str, fiscal: FiscalCalendar,
                                                                   expected: str) -> None:
    assert read_period_words(words, fiscal)[0] == expected


@given(st.integers(1990, 2098).filter(lambda year: year % 100 != 99), st.booleans())  # 1999/00: no split year
def test_a_split_year_reads_as_the_table_reading_dates_its_column(start: int, short: bool) -> None:
    written = f"{start}/{(start + 1) % 100:02d}" if short else f"{start}/{start + 1}"
    assert _periods(f"revenue in {written}") == [f"FY{split_year_end(written)}"]


@given(st.text(max_size=60))
def test_rewriting_never_changes_the_length(text: str) -> None:
    import unicodedata

    assert len(read_period_words(text, MARCH)[0]) == len(unicodedata.normalize("NFKC", text))


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


def test_a_half_year_of_a_ratio_is_an_unreadable_period_not_a_name() -> None:
    parsed = parse_slots("香港2024财年上半年的毛利率", glossary=default_glossary())  # no sum of quarters
    assert parsed.bad_period == "2024财年上半年" and parsed.unknown_names == ()


@pytest.mark.parametrize(("question", "quarters"), [
    ("香港2024财年上半年的营业收入", ["2024Q1", "2024Q2"]), ("Hong Kong revenue in H1 2024", ["2024Q1", "2024Q2"]),
    ("Hong Kong revenue in the second half of 2024", ["2024Q3", "2024Q4"]), ("香港の2024年度下期の売上高", ["2024Q3", "2024Q4"]),
])
def test_a_half_year_of_a_sum_is_its_two_quarters_added_up(question: str, quarters: list[str]) -> None:
    parsed = parse_slots(question, glossary=default_glossary())
    assert [p.label for p in parsed.periods] == quarters and parsed.half_year_sum
    assert parsed.bad_period is None and parsed.unknown_names == ()


def test_japanese_fiscal_year_end_on_the_demo_calendar() -> None:
    parsed = parse_slots("日本の2024年3月期の売上高", glossary=default_glossary())
    assert parsed.periods == (Period.fiscal_year(2024),) and parsed.unknown_names == ()


@pytest.mark.parametrize(("question", "expected"), [
    ("What was the change in revenues between the second and first quarter in the fiscal year 2031?",
     ["2031Q2", "2031Q1"]),
    ("revenue in the third quarter of fiscal 2031", ["2031Q3"]),
    ("revenue in the fourth quarter of fiscal 2031 and 2030", ["2031Q4", "2030Q4"]),
    ("revenue in Q2 and Q1 2031", ["2031Q2", "2031Q1"]),
    ("2031年第二季度和第一季度的营业收入变化", ["2031Q2", "2031Q1"]),
    ("2031年第三季度和第二季度的营业收入", ["2031Q3", "2031Q2"]),
    ("2031年度の第2四半期と第1四半期の売上高の変化", ["2031Q2", "2031Q1"]),
    ("revenue in the second quarter of 2031", ["2031Q2"]),  # read by the glossary already: unchanged
])
def test_quarters_named_are_read_into_the_year_never_the_year_alone(question: str, expected: list[str]) -> None:
    parsed = parse_slots(question, glossary=default_glossary())
    assert [p.label for p in parsed.periods] == expected and parsed.bad_period is None
    assert not [n for n in parsed.unknown_names if "季度" in n or "四半期" in n]  # no quarter left as a name


@pytest.mark.parametrize(("question", "words"), [
    ("revenue in the third quarter", "third quarter"),  # no year: never the default year's figure
    ("revenue from the first to the third quarter of 2031", "third quarter"),  # a range, not two quarters
    ("第三季度的营业收入", "第三季度"),
    ("第3四半期の売上高", "第3四半期"),
    ("revenue in Q4 2031 and fiscal 2030", "Q4"),  # a year written apart: which quarter of 2030 is not said
    ("2031年第四季度和2030年的营业收入", "第四季度"),  # the quarter said after one year only
])
def test_quarters_that_cannot_be_read_are_an_unreadable_period(question: str, words: str) -> None:
    parsed = parse_slots(question, glossary=default_glossary())
    assert parsed.bad_period == words  # the period the answer says it cannot read: no year's figure is given


@given(st.integers(2000, 2099), st.lists(st.sampled_from(["first", "second", "third", "fourth"]),
                                         min_size=1, max_size=4, unique=True),
       st.sampled_from(["in the fiscal year {}", "in fiscal {}", "of {}"]))
def test_every_quarter_named_is_read_in_the_question_order(year: int, ordinals: list[str], tail: str) -> None:
    question = f"revenue in the {' and '.join(ordinals)} quarter {tail.format(year)}"
    numbers = {"first": 1, "second": 2, "third": 3, "fourth": 4}
    assert _periods(question) == [f"{year}Q{numbers[o]}" for o in ordinals]


@pytest.mark.parametrize(("question", "expected"), [
    ("What is the sum of the operating revenues in Q4 2031 and 2030?", ["2031Q4", "2030Q4"]),
    ("revenue in the fourth quarter of 2031 and 2030", ["2031Q4", "2030Q4"]),
    ("revenue for Q4 2031, 2030 and 2029", ["2031Q4", "2030Q4", "2029Q4"]),
    ("2031年和2030年第四季度的营业收入", ["2031Q4", "2030Q4"]),
    ("2031年と2030年の第4四半期の売上高", ["2031Q4", "2030Q4"]),
])
def test_one_quarter_written_before_a_list_of_years_is_that_quarter_of_each(question: str,
                                                                           expected: list[str]) -> None:
    parsed = parse_slots(question, glossary=default_glossary())
    assert [p.label for p in parsed.periods] == expected and parsed.bad_period is None


@given(st.integers(2000, 2098), st.integers(1, 4), st.sampled_from(["Q{q} {y}", "Q{q} of {y}", "{o} quarter of {y}",
                                                                     "{o} quarter {y}", "{o} fiscal quarter of {y}"]),
       st.sampled_from([" and ", " vs ", ", ", " & "]))
def test_a_quarter_shared_by_two_years_is_read_into_both_in_any_wording(year: int, quarter: int, form: str,
                                                                        joined: str) -> None:
    ordinal = ("first", "second", "third", "fourth")[quarter - 1]
    question = f"revenue in the {form.format(q=quarter, y=year + 1, o=ordinal)}{joined}{year}"
    assert _periods(question) == [f"{year + 1}Q{quarter}", f"{year}Q{quarter}"]


@pytest.mark.parametrize(("words", "expected"), [
    ("the change in transfers between 2018 year end and 2019 year end",
     "the change in transfers between FY2018 and FY2019"),
    ("cash at the 2019 year-end", "cash at the FY2019"),
    ("cash at the 2019 fiscal year end", "cash at the FY2019"),
    ("cash at year-end 2019", "cash at FY2019"),
    ("revenue for the year ended 2019", "revenue for the FY2019"),
])
def test_a_years_end_written_beside_it_is_that_fiscal_year(words: str, expected: str) -> None:
    rewritten = read_period_words(words, MARCH)[0]
    assert " ".join(rewritten.split()) == expected, rewritten
    assert len(rewritten) == len(words)


def test_year_end_beside_a_year_is_no_word_of_a_row() -> None:
    from ragspine.facts.open_vocabulary import open_metric_code, with_open_terms

    base = default_glossary()
    labels = ["At end of the year", "At beginning of the year", "Transfers (Note (b))", "Disposals (Note (c))"]
    glossary = with_open_terms(base, [(open_metric_code(label), base.home_entity) for label in labels])
    parsed = parse_slots("How much is the change in transfers between 2018 year end and 2019 year end?",
                         glossary=glossary)
    assert parsed.metrics == (open_metric_code("Transfers (Note (b))"),)
    assert parsed.periods == (Period.fiscal_year(2018), Period.fiscal_year(2019))


@given(year=st.integers(2000, 2040), quarter=st.integers(1, 4), cjk=st.booleans(), no=st.booleans(),
       dai=st.booleans(), word=st.sampled_from(["四半期", "季度"]),
       fiscal=st.sampled_from([MARCH, FiscalCalendar(2), FiscalCalendar(1)]))
def test_a_nendo_quarter_in_a_question_is_the_quarter_a_table_header_of_those_words_is_filed_under(
        year: int, quarter: int, cjk: bool, no: bool, dai: bool, word: str, fiscal: FiscalCalendar) -> None:
    # 2024年度第3四半期, 2024年度の第三季度, 2024年度3四半期: one spelling and one rule for every reader of 年度
    spelled = f"{year}年度{'の' if no else ''}{'第' if dai else ''}{'一二三四'[quarter - 1] if cjk else quarter}{word}"
    header = nendo_period(fiscal, spelled)
    assert header == Period("Q", f"{year + 1}Q{quarter}")  # the year starting in ``year``, named by its end
    glossary = replace(default_glossary(), fiscal_calendar=fiscal)
    assert parse_slots(f"{spelled}の売上高", glossary=glossary).periods == (header,)
