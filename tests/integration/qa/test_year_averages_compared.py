"""The change between two years' averages, each year averaged with the year before it.

"What is the change between 2018 and 2019 average free cash flow?" compares "the 2019 average"
(the mean of 2019 and 2018, as a year's average balance is its opening and closing mean) with "the
2018 average" (2018 and 2017). A table written here is ingested through ``ragspine ingest`` into a
fresh domain and asked through ``answer_question`` and ``POST /v1/ask``: the computed line states
both means and the years each is over, and cites every cell; a year before that the document does
not state leaves no figure and names that year.
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


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Services]:
    for _ in ingested_for_module(tmp_path_factory, "year_averages", {"cash.md": CASH}):
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
