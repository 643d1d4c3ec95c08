"""A "Years Ended" heading centred over three dates, asked through ``ragspine ingest`` and ``ragspine ask``.

A converter writes a merged heading in its middle cell: "Years Ended" sits over the second of
three July dates, with another group's heading ("2019 vs. 2018") further right. Filled
rightwards it reached the second and third dates only; the first date, a July day in a
December-year domain, named no fiscal year and its figures were lost. The heading heads the
columns left of it too, so every year answers from its own column, cited as written.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain

_REPORT = """\
# Annual report excerpt

| | | {heading} | | 2019 vs. 2018 | |
| --- | --- | --- | --- | --- | --- |
| | July 27, 2019{note} | July 28, 2018 | July 29, 2017 | Variance in Dollars | Variance in Percent |
| Product | 41,200 | 38,400 | 36,100 | 2,800 | 7% |
| Service | 13,300 | 12,700 | 12,500 | 600 | 5% |
"""


@pytest.fixture(params=[("Years Ended", " (1)"), ("Fiscal Years Ended", ""), ("For the years ended", "")])
def asked(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    heading, note = request.param
    report = _REPORT.format(heading=heading, note=note)
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {"report.md": report})


def test_the_date_left_of_the_heading_answers_its_year(asked: None) -> None:
    answer = cli_answer("What was the change in product between 2018 and 2019?")
    assert "FY2019 product (label:product): 41200" in answer, answer
    assert "FY2019 vs FY2018 up 2800（+7.29%）" in answer, answer
    assert "No data" not in answer, answer


def test_the_columns_under_the_heading_keep_their_years(asked: None) -> None:
    answer = cli_answer("What was the change in service between 2017 and 2018?")
    assert "FY2018 vs FY2017 up 200（+1.60%）" in answer, answer
    assert "13300" not in answer, answer
