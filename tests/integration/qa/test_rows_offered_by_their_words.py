"""A figure asked back offers the rows the question's own words name, never rows sharing only its unit.

An environmental table measures energy rows in MWh and water rows in tonnes. A question asking for
"running water consumption (MWh)" names the water row with the wrong unit: no row is read, and the
question asked back offers the running water row, not the fuel rows whose labels carry "(MWh)". A
unit written in brackets is how a row is measured, not which row it is. Asked through
``answer_question`` on a domain fresh from ``domain init``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

RESOURCES = """\
# Fernhill Logistics sustainability report

Resource use of the office buildings:

| Indicators | 2024 | 2023 |
| --- | --- | --- |
| Total energy consumption (MWh) | 20,500.40 | 16,700.10 |
| Diesel (MWh) | 41.30 | 42.10 |
| Natural gas (MWh) | 1,829.70 | 1,202.90 |
| Purchased electricity (MWh) | 18,629.40 | 15,455.10 |
| Running water consumption (tonnes) | 128,374.90 | 97,341.30 |
| Running water consumption per employee (tonnes per employee) | 21.50 | 19.10 |
| Recycled water consumption (tonnes) | 4,076 | 5,461 |
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "rows_offered_by_words", {"fernhill.md": RESOURCES})


def test_a_row_named_with_another_rows_unit_is_offered_by_its_words(ingested: None) -> None:
    # WHEN a user names the water row but writes the energy rows' unit
    answer, status = service_answer("What is the change between running water consumption (MWh) in 2023 and 2024?")
    # THEN no figure is given: the question is asked back
    assert status is AnswerStatus.NEEDS_CLARIFICATION
    assert "Choose one:" in answer
    # AND the row offered is the one its words name, none of the rows sharing only the unit
    assert "running water consumption (tonnes)" in answer
    assert not any(fuel in answer for fuel in ("diesel", "natural gas", "purchased electricity", "recycled"))


def test_the_row_named_with_its_own_unit_is_answered(ingested: None) -> None:
    # WHEN the same row is asked for with the unit its label writes
    answer, status = service_answer("What is the change between running water consumption (tonnes) in 2023 and 2024?")
    # THEN it is answered from that row, citing it
    assert status is AnswerStatus.FOUND
    assert "31033.6" in answer and "row=Running water consumption (tonnes)" in answer
