"""A count of a total's rows, over a threshold or all of them, through ``ragspine ingest`` and ``answer_question``: the rows of the
one total the question's words name, counted only where they add up to it, every figure cited; never a count
over rows that do not add up, over two totals the words fit, or over a period the question does not name."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import cli_answer, ingested_for_module, service_answer

SELLING = """\
# Selling costs

Selling costs comprised the following (in millions):

| | 2024 | 2023 |
| --- | --- | --- |
| Freight charges | $ 72.5 | $ 61.0 |
| Sales commissions | 40.1 | 118.4 |
| Trade show fees | 12.4 | 9.6 |
| Total selling costs | $ 125.0 | $ 189.0 |
"""

# a row left out of the table: its rows do not add up to its total, so they are not all of it
DISTRIBUTION = """\
# Distribution costs

Distribution costs were as follows (in millions):

| | 2024 | 2023 |
| --- | --- | --- |
| Warehouse rent | 30.0 | 28.0 |
| Fuel | 25.0 | 20.0 |
| Total distribution costs | 70.0 | 48.0 |
"""


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "counted", {"selling.md": SELLING, "distribution.md": DISTRIBUTION})


class TestRowsOfATotalCounted:
    @settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(rows=st.sampled_from(["selling cost items", "selling costs components", "categories of selling costs",
                                 "selling cost segments"]),
           more=st.sampled_from(["were above", "exceeded", "were more than"]),
           year_first=st.booleans())
    def test_counts_the_rows_above_the_threshold_in_the_year_named(self, asked: None, rows: str, more: str,
                                                                   year_first: bool) -> None:
        # GIVEN a table whose three rows add up to its total in each year
        question = (f"How many {rows} in 2024 {more} $50 million?" if year_first
                    else f"How many {rows} {more} $50 million in 2024?")

        # WHEN its rows are counted over a threshold in one year
        answer, status = service_answer(question)

        # THEN the count is given with the row meeting it, every row and the total cited
        assert status is AnswerStatus.FOUND, answer
        assert "above $50 million in FY2024: 1 (freight charges 72.5; 3 rows compared" in answer, answer
        for row in ("Freight charges", "Sales commissions", "Trade show fees", "Total selling costs"):
            assert f"selling.md · table=1,row={row},col=2024" in answer, answer

    def test_counts_the_rows_below_the_threshold(self, asked: None) -> None:
        answer, status = service_answer("How many selling cost items in 2023 were below $100 million?")

        assert status is AnswerStatus.FOUND, answer
        assert "below $100 million in FY2023: 2 (freight charges 61.0, trade show fees 9.6; 3 rows" in answer, answer

    def test_rows_that_do_not_add_up_to_their_total_are_not_counted(self, asked: None) -> None:
        # GIVEN a table whose rows fall short of its total (a row not listed)
        answer, status = service_answer("How many distribution cost items in 2024 were above $20 million?")

        # THEN no count is given: the rows read may not be all of the total
        assert status is not AnswerStatus.FOUND, answer
        assert "rows compared" not in answer, answer

    def test_words_fitting_two_totals_count_nothing(self, asked: None) -> None:
        answer, status = service_answer("How many cost items in 2024 were above $20 million?")

        assert status is not AnswerStatus.FOUND, answer
        assert "rows compared" not in answer, answer

    def test_no_year_named_counts_nothing(self, asked: None) -> None:
        answer, _ = service_answer("How many selling cost items were above $50 million?")

        assert "rows compared" not in answer, answer

    def test_ragspine_ask_prints_the_count_with_its_sources(self, asked: None) -> None:
        printed = " ".join(cli_answer("How many selling cost items in 2024 were above $50 million?").split())

        assert "FY2024: 1 (freight charges 72.5; 3 rows compared" in printed, printed
        assert "row=Total selling costs,col=2024" in printed, printed


class TestEveryRowOfATotalCounted:
    @settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(question=st.sampled_from([
        "How many categories are there under total selling costs?",
        "How many components are there in the total selling costs?",
        "How many items make up the total selling costs?",
        "How many major components of total selling costs are there?",
    ]))
    def test_counts_the_rows_adding_up_to_the_total_in_every_year(self, asked: None, question: str) -> None:
        # GIVEN a table whose three rows add up to its total in each year stated
        # WHEN its rows are counted, no year named
        answer, status = service_answer(question)

        # THEN every row is listed and counted, each year's rows and total cited
        assert status is AnswerStatus.FOUND, answer
        assert ("rows of total selling costs: 3 (freight charges, sales commissions, trade show fees; adding up to "
                "the total in FY2024, FY2023)") in answer, answer
        assert "row=Trade show fees,col=2023" in answer and "row=Total selling costs,col=2023" in answer, answer

    def test_rows_that_do_not_add_up_in_a_year_are_not_counted(self, asked: None) -> None:
        answer, status = service_answer("How many categories are there under total distribution costs?")

        assert "rows of total distribution costs" not in answer, answer
        assert status is not AnswerStatus.FOUND or "3" not in answer, answer

    def test_a_quantity_asked_is_not_a_count_of_rows(self, asked: None) -> None:
        # "how many items were sold" asks how much was sold, not how many rows the table has
        answer, _ = service_answer("How many items were sold under total selling costs?")

        assert "rows of total selling costs" not in answer, answer
