"""A unit note written over one year's column only, asked through ``ragspine ingest`` and ``ragspine ask``.

A converter keeps "U.S. $ in thousands" in the header cell over the first year and leaves the
cell over the second year empty. The note is the figures' unit, not a kind of figure: the row
keeps its own name in both years, so a change between the two years is computed, each cited.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain

_REPORT = """\
# Annual report excerpt

| | December 31 | |
| --- | --- | --- |
| | 2019 | 2018 |
| | {note} | |
| Operating loss carryforward | 81,400 | 64,000 |
| Net deferred tax asset | 1,210 | 1,100 |
"""


@pytest.fixture(params=["U.S. $ in thousands", "U.S.$ in thousands", "U.S. dollars in thousands"])
def asked(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {"report.md": _REPORT.format(note=request.param)})


def test_the_year_under_the_unit_note_keeps_the_rows_name(asked: None) -> None:
    answer = cli_answer("What is the percentage change in the operating loss carryforward from 2018 to 2019?")
    assert "FY2019 operating loss carryforward (label:operating loss carryforward): 81400 USD_K" in answer, answer
    assert "up 17400 USD_K（+27.19%）" in answer, answer
    assert "No data" not in answer, answer


def test_the_note_is_no_part_of_any_row_name(asked: None) -> None:
    answer = cli_answer("What was the change in the net deferred tax asset between 2018 and 2019?")
    assert "FY2019 vs FY2018 up 110 USD_K" in answer, answer
    assert "in thousands:" not in answer, answer
