"""A retailer's report that names its January or February year ends by their start: no column guessed.

"Fiscal 2019 ended February 1, 2020": the report's 2019 is the column dated 2020. The table reader
reads no year from such columns, so a question naming any of them is never answered with a
neighbouring column's figure (``test_january_year_ends`` has the report that says neither).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.integration.qa.periods.test_january_year_ends import YEAR_END_TABLE
from tests.support.domain_env import ingested_for_module, service_answer

BY_START = YEAR_END_TABLE + """\

Fiscal 2020 ended January 30, 2021 and fiscal 2019 ended February 1, 2020.
"""


@pytest.fixture(scope="module")
def ingested_by_start(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "january_years_by_start", {"harbor.md": BY_START})


@pytest.mark.parametrize("year", ["2019", "2020", "2021"])
def test_years_the_report_names_by_their_start_are_never_answered_with_a_guessed_column(
        ingested_by_start: None, year: str) -> None:
    # GIVEN a report calling the year ended February 1, 2020 "fiscal 2019": a question's "2020" is in doubt
    answer, _ = service_answer(f"What was the net sales in {year}?")
    # THEN no column's figure is given for it
    assert not any(figure in answer for figure in ("4812", "4,812", "4520.5", "4,520.5", "4310", "4,310"))
