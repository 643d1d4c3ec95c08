"""A heading over a whole table that says where its rows stand, not what they are, through ``ragspine ingest`` and
``answer_question``: "Assets" over capitalized software costs carried as assets gives their total, never total
assets; a heading the lead names too stays the subject of the table's total."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

CAPITALIZED = """\
# Capitalized software

The carrying amounts of capitalized software costs in our balance sheets were as follows:

| (in millions) | 2024 | 2023 |
| --- | --- | --- |
| Assets | | |
| Prepaid and other current assets | 130.0 | 110.0 |
| Noncurrent assets | 270.0 | 240.0 |
| Total | 400.0 | 350.0 |
"""

BY_CATEGORY = """\
# Holdings

Our assets by category were as follows:

| (in millions) | 2024 | 2023 |
| --- | --- | --- |
| Assets | | |
| Cash and equivalents | 620.0 | 600.0 |
| Receivables | 380.0 | 300.0 |
| Total | 1,000.0 | 900.0 |
"""


@pytest.fixture(scope="module")
def capitalized(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "capitalized", {"software.md": CAPITALIZED})


@pytest.fixture(scope="module")
def by_category(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "by_category", {"holdings.md": BY_CATEGORY})


class TestAHeadingTheLeadDoesNotName:

    def test_gives_no_total_assets(self, capitalized: None) -> None:
        answer, status = service_answer("What were total assets in 2024?")

        assert status is not AnswerStatus.FOUND, answer
        assert "400" not in answer, answer

    def test_leaves_the_total_the_tables_own(self, capitalized: None) -> None:
        answer, status = service_answer("What was the total carrying amounts of capitalized software costs in 2024?")

        assert status is AnswerStatus.FOUND, answer
        assert "400" in answer and "row=Total,col=2024" in answer, answer


class TestAHeadingTheLeadNames:

    def test_stays_the_subject_of_the_total(self, by_category: None) -> None:
        answer, status = service_answer("What were total assets in 2024?")

        assert status is AnswerStatus.FOUND, answer
        assert "FY2024 total assets (label:total assets): 1000.0 M" in answer, answer
        assert "row=Assets: Total,col=2024" in answer, answer
