"""Header cells a converter split or shifted, asked through ``ragspine ingest`` and ``ragspine ask``.

A month and day written alone in the corner over a row of years ("August 31," over ``2021 | 2020``)
is the date each year's column is at: a question naming "August 31, 2021 and 2020" is answered from
those columns. A merged heading whose tail a converter wrote again in the next cell ("Years Ended
June 30, | 30,") leaves the year under the tail read. A note mark glued to a header in capitals
("2020 $’000 RESTATED2") leaves the restated year read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain

_STOCK = """\
# Stock of goods

| {date} | | |
| --- | --- | --- |
| | 2021 | 2020 |
| (In thousands) | | |
| Frozen fish | $ 12,400 | $10,150 |
| Spare parts | 3,310 | 2,870 |
| Total stock | $15,710 | $13,020 |
"""

_FREIGHT = """\
# Shipping costs

| | | Years Ended June 30, | 30, |
| --- | --- | --- | --- |
| | 2021 | 2020 | 2019 |
| Freight costs | 410 | 385 | 352 |
| Handling fees | 96 | 91 | 88 |
"""

_SERVICES = """\
# Results summary

| | 2021 $’000 | 2020 $’000 RESTATED2 | CHANGE |
| --- | --- | --- | --- |
| Service revenue | 8,200 | 7,950 | 3% |
| Contract revenue | 1,400 | 1,520 | (8%) |
"""


@pytest.fixture(params=["August 31,", "31 August"])
def corner(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    stock = _STOCK.format(date=request.param)
    yield from (request.param for _ in ingested_in_fresh_domain(monkeypatch, tmp_path, {"stock.md": stock}))


@pytest.fixture
def split(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {"freight.md": _FREIGHT, "services.md": _SERVICES})


def test_a_corner_date_over_the_years_answers_that_date_of_each_year(corner: str) -> None:
    answer = cli_answer("What is the change in the value of Total stock between August 31, 2021 and 2020?")
    assert "FY2021 vs FY2020 up 2690" in answer, answer
    assert "col=August 31 /2021" in answer or "col=31 August/2021" in answer, answer


def test_the_average_over_a_corner_date_and_its_years(corner: str) -> None:
    answer = cli_answer("What is the average value of Spare parts for August 31, 2021 and 2020?")
    assert "average: 3090 USD_K" in answer, answer


def test_a_heading_tail_in_the_next_cell_leaves_its_year_read(split: None) -> None:
    answer = cli_answer("What is the total freight costs from 2019 to 2021?")
    assert "FY2019 + FY2020 + FY2021: 1147" in answer, answer
    assert "No data" not in answer and "cannot be computed" not in answer, answer


def test_a_note_mark_glued_to_a_restated_header_leaves_the_year_read(split: None) -> None:
    answer = cli_answer("What is the change in service revenue from 2020 to 2021?")
    assert "FY2021 vs FY2020 up 250" in answer, answer
    assert "col=2020 $’000 RESTATED" in answer, answer
