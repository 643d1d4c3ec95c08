"""Averages compared: the change between two years' averages, and the average gap of two rows.

"The change in the average life expectancy from 2020 to 2021", of a row stated once a year, is the
change of its two figures (each year's average is its one figure), and the answer says so.

"What is the change between 2018 and 2019 average free cash flow?" compares "the 2019 average"
(the mean of 2019 and 2018, as a year's average balance is its opening and closing mean) with "the
2018 average" (2018 and 2017). A table written here is ingested through ``ragspine ingest`` into a
fresh domain and asked through ``answer_question`` and ``POST /v1/ask``: the computed line states
both means and the years each is over, and cites every cell; a year before that the document does
not state leaves no figure and names that year.

"What was the average difference between EBITDA and adjusted EBITDA for both years?" is the mean of
the two rows' gap over the years stated (the gap of their means); where the gap runs one way in one
year and the other way in another, the signed mean and the mean of the gaps' sizes differ, and no
figure is given, nor where a row is written as negatives (the gap of the signed figures, or of their sizes?).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import Services, get_services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module

CASH = """\
# Cash flow summary

| | 2021 | 2020 | 2019 |
| --- | --- | --- | --- |
| | €m | €m | €m |
| Cash from operations | 9,250 | 8,730 | 8,100 |
| Capital spending | (4,100) | (3,980) | (4,020) |
| Free cash flow | 5,150 | 4,750 | 4,080 |
"""

EARNINGS = """\
# Earnings reconciliation

| | 2021 | 2020 |
| --- | --- | --- |
| | €m | €m |
| EBITDA | 7,900 | 6,400 |
| Adjusted EBITDA | 8,300 | 6,900 |
| Underlying EBITDA | 8,500 | 6,200 |
| Interest income | (300) | (250) |
"""

LIFE = """\
# Mortality assumptions

| | 2021 | 2020 |
| --- | --- | --- |
| Member aged 60 life expectancy | 87.1 | 87.6 |
"""


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Services]:
    for _ in ingested_for_module(tmp_path_factory, "year_averages", {"cash.md": CASH, "earnings.md": EARNINGS, "life.md": LIFE}):
        yield get_services()


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, services: Services) -> Ask:
    return asker(request.param, services)


def test_each_year_averaged_with_the_year_before(ask: Ask) -> None:
    body = ask("What is the change between 2020 and 2021 average free cash flow?")
    first = body["answer"].splitlines()[0]
    # (5150 + 4750) / 2 − (4750 + 4080) / 2 = 4950 − 4415 = 535
    assert "change of the average (2020–2021 against 2019–2020): 535 EUR_M (means 4950 and 4415)" in first, first
    assert all(f"col={year}/€m" in first for year in ("2019", "2020", "2021")), first
    assert {s["locator"] for s in body["sources"]} >= {f"table=1,row=Free cash flow,col={y}/€m"
                                                       for y in ("2019", "2020", "2021")}


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(wording=st.sampled_from(["What is the change between 2020 and 2021 average free cash flow?",
                                "What was the change between the 2020 and 2021 average free cash flow?",
                                "2020年和2021年平均free cash flow的变化是多少？"]))
def test_in_other_wordings(services: Services, wording: str) -> None:
    first = asker("answer_question", services)(wording)["answer"].splitlines()[0]
    assert "535 EUR_M" in first and "4950" in first and "4415" in first, first


def test_a_year_before_not_stated_gives_no_figure(ask: Ask) -> None:
    answer = ask("What is the change between 2019 and 2021 average free cash flow?")["answer"]
    assert "FY2018" in answer and "no figure" in answer, answer
    assert "EUR_M (means" not in answer


def test_the_average_of_one_year_range_is_not_read_so(ask: Ask) -> None:
    # "the average … between 2020 and 2021" names no year's own average: the mean of the two years, no change
    answer = ask("What is the average free cash flow between 2020 and 2021?")["answer"]
    assert "change of the average" not in answer and "4950" in answer, answer


@pytest.mark.parametrize("question", ["What was the average difference between EBITDA and adjusted EBITDA for both "
                                      "years?",
                                      "What was the average difference between EBITDA and adjusted EBITDA in 2020 "
                                      "and 2021?"])
def test_the_average_gap_of_two_rows(ask: Ask, question: str) -> None:
    first = ask(question)["answer"].splitlines()[0]
    # (7900 − 8300 + 6400 − 6900) / 2 = −450: EBITDA below adjusted EBITDA by 450 on average
    assert "minus average adjusted ebitda" in first and ": 450 EUR_M" in first and "below" in first, first
    assert "means 7150 and 7600" in first and first.count("col=") == 4, first


def test_gaps_of_both_signs_give_no_average(ask: Ask) -> None:
    answer = ask("What was the average difference between EBITDA and underlying EBITDA for both years?")["answer"]
    assert "runs one way in some years asked and the other way in others" in answer, answer
    assert "EUR_M (" not in answer.splitlines()[0]


def test_a_row_written_as_negatives_gives_no_average_gap(ask: Ask) -> None:
    # 7900 − (−300) or 7900 − 300: the signed figures or their sizes, which the question does not say
    answer = ask("What was the average difference between EBITDA and interest income for both years?")["answer"]
    assert "is written as a negative" in answer and "not clear" in answer, answer
    assert "EUR_M (" not in answer.splitlines()[0]


@pytest.mark.parametrize(("question", "said"), [
    ("What was the change in the average member aged 60 life expectancy from 2020 to 2021?", "down 0.5"),
    ("What was the percentage change in the average member aged 60 life expectancy from 2020 to 2021?", "−0.57%"),
])
def test_the_average_of_a_year_stating_one_figure_is_that_figure(ask: Ask, question: str, said: str) -> None:
    answer = ask(question)["answer"]
    assert "FY2021 vs FY2020" in answer and said in answer, answer
    assert "each year's average is that figure" in answer


def test_an_average_over_the_months_of_each_year_is_not_read_so(ask: Ask) -> None:
    answer = ask("What was the change in the average monthly free cash flow from 2020 to 2021?")["answer"]
    assert "each year's average is that figure" not in answer and "400" not in answer, answer
