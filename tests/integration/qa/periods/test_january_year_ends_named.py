"""A retailer's report that names its January or February year ends by the year they end in: its own years.

"Fiscal 2020 ended February 1, 2020": the column dated February 1, 2020 is what the report calls
2020, so a question naming 2020 gets it, cited with the report's name for it, and is neither asked
back nor answered with an assumption (``test_january_year_ends`` has the report that says neither).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.integration.qa.periods.test_january_year_ends import YEAR_END_TABLE
from tests.support.domain_env import ingested_for_module, service_answer

NAMED = YEAR_END_TABLE + """\

Fiscal 2021 ended January 30, 2021, fiscal 2020 ended February 1, 2020 and fiscal 2019 ended February 2, 2019.
"""


@pytest.fixture(scope="module")
def ingested_named(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "january_years_named", {"harbor.md": NAMED})


def test_a_year_the_report_names_gets_its_column_without_a_question_back(ingested_named: None) -> None:
    # WHEN a user asks for a year both readings could find, of a report that says how it names its years
    answer, status = service_answer("What was the net sales in 2020?")
    # THEN the column the report calls 2020 is given, cited with that name, no reading assumed
    assert status == "found"
    assert "4520.5" in answer and "February 1 2020 (fiscal 2020)" in answer
    assert "read as FY2020" not in answer


def test_a_change_between_years_the_report_names_is_computed(ingested_named: None) -> None:
    answer, _ = service_answer("What was the change in net sales between 2019 and 2020?")
    assert "FY2020 vs FY2019 up 210.5" in answer
