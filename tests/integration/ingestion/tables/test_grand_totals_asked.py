"""Totals whose subject the table says only around its rows, through ``ragspine ingest`` and ``answer_question``:
a grand total after two sections is the total of what their headings share, a total of figures "included
in" another is asked as that part, and so is the total of the rows a figure "included the following" of; the
total of a roll-forward led by "X activity" is the total of X, and the total of "X information by Y" is the total of
X by Y, never one of the rows it splits."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.qa.result import AnswerStatus
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module, service_answer

ALLOCATED = """\
# Property by business line

The following table shows property allocated by business line:

| (in millions) | 2024 | 2023 |
| --- | --- | --- |
| Property allocated to business lines: | | |
| Orchards | 410.0 | 380.0 |
| Vineyards | 290.0 | 270.0 |
| Total business lines | 700.0 | 650.0 |
| Property not allocated: | | |
| Head office | 55.5 | 50.0 |
| Land held for sale | 4.5 | 10.0 |
| Total | 760.0 | 710.0 |
"""

INCLUDED = """\
# Share-based compensation

The following table summarizes the share-based compensation expense included in research and development expenses:

| (in thousands) | 2024 | 2023 |
| --- | --- | --- |
| Restricted units | 40 | 35 |
| Options | 12 | 15 |
| Total | 52 | 50 |
"""

# The rows are charges the operating income includes; their total is no operating income.
INCLUDES = """\
# Operating results

Segment income included the following:

| | 2024 | 2023 |
| --- | --- | --- |
| Integration costs | 41 | 18 |
| Restructuring charges | 120 | 66 |
| Asset write-downs | 9 | 6 |
| Total | 170 | 90 |
"""

# A roll-forward by segment: balances at each year end, the year's movements between them.
ACTIVITY = """\
# Goodwill

Goodwill activity for each year was as follows:

| (In millions) | Dec 31, 2023 | Acquisitions | Impairments | Dec 31, 2024 |
| --- | --- | --- | --- | --- |
| Orchards | $1,210 | $40 | $— | $1,250 |
| Vineyards | 860 | — | (15) | 845 |
| Cellars | 330 | 12 | — | 342 |
| Total | $2,400 | $52 | $(15) | $2,437 |
"""

# Sales split by country, led by a sentence naming the figures as "sales information by geographic area".
BY_AREA = """\
# Additional information

The following table presents sales information by geographic area for the years ended December 31, 2024 and 2023:

| (In thousands) | 2024 | 2023 |
| --- | --- | --- |
| Portugal | $120,400 | $110,000 |
| Chile | 45,100 | 52,300 |
| Other international | 20,500 | 17,700 |
| Total | $186,000 | $180,000 |
"""


@pytest.fixture(scope="module")
def by_area(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "by_area", {"sales.md": BY_AREA})


@pytest.fixture(scope="module")
def activity(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "activity", {"goodwill.md": ACTIVITY})


@pytest.fixture(scope="module")
def allocated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "allocated", {"property.md": ALLOCATED})


@pytest.fixture(scope="module")
def included(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "included", {"compensation.md": INCLUDED})


@pytest.fixture(scope="module")
def includes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "includes", {"charges.md": INCLUDES})


@pytest.fixture(params=WAYS)
def ask_includes(request: pytest.FixtureRequest, includes: None) -> Ask:
    from ragspine.bootstrap import get_services

    return asker(request.param, get_services())


class TestAGrandTotalAfterSections:

    @settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(question=st.sampled_from([
        "What is the percentage change of total property from 2023 to 2024?",
        "What was the percentage change in Total property between 2023 and 2024?",
        "By what percentage did total property change from 2023 to 2024?",
    ]))
    def test_is_read_as_the_total_its_sections_name(self, allocated: None, question: str) -> None:
        answer, status = service_answer(question)

        assert status is AnswerStatus.FOUND, answer
        assert "total property (label:total property): FY2024 vs FY2023 up 50.0 M（+7.04%）" in answer, answer
        assert "row=Total,col=2023" in answer and "row=Total,col=2024" in answer, answer

    def test_is_averaged_over_the_years_asked(self, allocated: None) -> None:
        answer, status = service_answer("What is the average total property value for 2023 and 2024?")

        assert status is AnswerStatus.FOUND, answer
        assert "FY2023–FY2024 average: 735 M (mean of 2 figures)" in answer, answer


class TestATotalOfFiguresIncludedInAnother:

    def test_is_the_documents_one_total_asked_as_the_total_named_as_that_part(self, included: None) -> None:
        answer, status = service_answer("What was the percentage change in the total between 2023 and 2024?")

        assert status is AnswerStatus.FOUND, answer
        assert ("total share-based compensation expense included in research and development expenses "
                "(label:total share-based compensation expense included in research and development expenses): "
                "FY2024 vs FY2023 up 2 K（+4.00%）") in answer, answer


class TestATotalOfRowsAFigureIncludes:

    @settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(question=st.sampled_from([
        "What was the change in Total segment income in 2024 from 2023?",
        "What was the percentage change in the total included in segment income from 2023 to 2024?",
        "How much did total segment income change between 2023 and 2024?",
    ]))
    def test_is_read_as_the_total_included_in_that_figure(self, ask_includes: Ask, question: str) -> None:
        answer = ask_includes(question)["answer"]

        assert ("total included in segment income (label:total included in segment income): "
                "FY2024 vs FY2023 up 80") in answer, answer
        assert "row=Total,col=2024" in answer and "row=Total,col=2023" in answer, answer

    def test_the_figure_itself_is_never_answered_with_that_total(self, ask_includes: Ask) -> None:
        body = ask_includes("What was segment income in 2024?")

        assert "170" not in body["answer"], body["answer"]


class TestATotalOfARollForwardLedByItsActivity:

    @settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(question=st.sampled_from([
        "How much is the percentage change of total goodwill amount from 2023 to 2024?",
        "What was the change in total goodwill between 2023 and 2024?",
        "By what percentage did total goodwill change from 2023 to 2024?",
    ]))
    def test_is_read_as_the_total_of_what_the_activity_is_of(self, activity: None, question: str) -> None:
        answer, status = service_answer(question)

        assert status is AnswerStatus.FOUND, answer
        assert "total goodwill (label:total goodwill): FY2024 vs FY2023 up 37 USD_M（+1.54%）" in answer, answer
        assert "row=Total,col=Dec 31 2023" in answer and "row=Total,col=Dec 31 2024" in answer, answer

    def test_a_movement_column_is_never_read_as_the_total(self, activity: None) -> None:
        answer, _ = service_answer("What was total goodwill in 2024?")

        assert "2437 USD_M" in answer and "52 USD_M" not in answer, answer


class TestATotalOfInformationByAnArea:

    @settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(question=st.sampled_from([
        "What was the percentage change in total sales by geographic area between 2023 and 2024?",
        "What was the change in total sales by geographic area from 2023 to 2024?",
        "By what percentage did total sales by geographic area change from 2023 to 2024?",
    ]))
    def test_is_the_total_of_the_figures_split(self, by_area: None, question: str) -> None:
        answer, status = service_answer(question)

        assert status is AnswerStatus.FOUND, answer
        assert "FY2024 vs FY2023 up 6000 USD_K（+3.33%）" in answer, answer
        assert "row=Total,col=2023" in answer and "row=Total,col=2024" in answer, answer

    @pytest.mark.parametrize(("question", "figure"), [("What were total sales in Chile in 2024?", "45100 USD_K"),
                                                      ("What were sales in Portugal in 2023?", "110000 USD_K")])
    def test_a_row_asked_is_never_read_as_the_total(self, by_area: None, question: str, figure: str) -> None:
        answer, _ = service_answer(question)

        assert figure in answer and "186000" not in answer and "180000" not in answer, answer
