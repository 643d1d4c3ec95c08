"""A row of a table whose total is the metric named answers where the glossary's metric has no figure.

On a domain fresh from ``domain init``, the glossary's revenue has no figure: the report's table of
revenue by type is read as its own rows (``Services: Software maintenance`` … ``Services: Total
revenue``). "The revenue from software maintenance" names revenue and that row; the row's section
is totalled by the table's "Total revenue", so the row is read, and the answer says so. A row
whose section is totalled by something else (cost of revenue) is never read as revenue, and a
share of revenue is not answered by the part alone.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.domain_env import ingested_for_module, service_answer

REVENUE_BY_TYPE = """\
# Tamsin Software annual report

Revenue by type (in millions of US dollars):

| | 2024 | 2023 |
| --- | --- | --- |
| Services: | | |
| Software maintenance | 4,754 | 4,351 |
| Consulting | 999 | 917 |
| Total revenue | 5,753 | 5,268 |

Cost of revenue by type (in millions of US dollars):

| | 2024 | 2023 |
| --- | --- | --- |
| Cost of revenue: | | |
| Hosting | 754 | 651 |
| Support staff | 299 | 217 |
| Total cost of revenue | 1,053 | 868 |
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "metric_total_parts", {"tamsin.md": REVENUE_BY_TYPE})


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["revenue from software maintenance", "software maintenance revenue",
                        "revenue of software maintenance"]))
def test_the_row_a_metric_total_sums_answers_for_the_metric(ingested: None, named: str) -> None:
    # GIVEN revenue has no figure, and the row's section is totalled by the table's "Total revenue"
    # WHEN the question names revenue and the row
    answer, _ = service_answer(f"What was the change in {named} between 2023 and 2024?")
    # THEN the row's change is given, each figure cited from its row
    assert "FY2024 vs FY2023 up 403" in answer
    assert "row=Services: Software maintenance,col=2023" in answer
    assert "row=Services: Software maintenance,col=2024" in answer
    # AND the answer says it read revenue's word as that row, and gives no "no data"
    assert "read 'revenue' as services: software maintenance" in answer
    assert "No data" not in answer


def test_a_year_of_the_row_is_read_alike(ingested: None) -> None:
    answer, _ = service_answer("What was the revenue from consulting in 2024?")
    assert "consulting (label:services: consulting): 999" in answer
    assert "No data" not in answer


def test_a_row_totalled_by_another_figure_is_never_the_metric(ingested: None) -> None:
    # GIVEN "Hosting" is a row of cost of revenue, totalled by "Total cost of revenue"
    answer, _ = service_answer("What was the revenue from hosting in 2024?")
    # THEN it is never given as revenue
    assert "read 'revenue' as" not in answer
    assert "No data" in answer


def test_a_share_of_the_metric_is_not_answered_by_the_part_alone(ingested: None) -> None:
    # the whole a share divides by is the metric: the part's figure is no answer to it
    answer, _ = service_answer("What percentage of revenue came from software maintenance in 2024?")
    assert "read 'revenue' as" not in answer


WITH_REVENUE = """\
# Tamsin Software annual report

Income statement (in millions of US dollars):

| | 2024 | 2023 |
| --- | --- | --- |
| Revenue | 6,100 | 5,500 |
| Operating income | 900 | 800 |

""" + REVENUE_BY_TYPE.split("\n", 2)[2]


@pytest.fixture(scope="module")
def ingested_with_revenue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "metric_with_figures", {"tamsin.md": WITH_REVENUE})


def test_a_metric_with_figures_of_its_own_is_answered_as_named(ingested_with_revenue: None) -> None:
    # GIVEN the income statement states revenue itself
    answer, _ = service_answer("What was the change in revenue from software maintenance between 2023 and 2024?")
    # THEN the row is not read in its place
    assert "read 'revenue' as" not in answer
    assert "row=Revenue,col=2024" in answer
