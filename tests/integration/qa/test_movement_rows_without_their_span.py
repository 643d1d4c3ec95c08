"""A movement table's rows named without the span words every column already dates ("Granted during the period"
asked as "shares granted in 2024"), through ``ragspine ingest`` and ``answer_question`` / ``POST /v1/ask``:
answered from that row, its label said and every cell cited; never where two rows read alike without them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module

OPTIONS = """\
# Share options

Movements in the number of share options outstanding (in thousands) were as follows:

| | 2024 | 2023 |
| --- | --- | --- |
| Outstanding at 1 January | 3,120.0 | 2,870.5 |
| Granted during the period | 840.0 | 700.0 |
| Lapsed during the period | -212.5 | -450.5 |
| Outstanding at 31 December | 3,747.5 | 3,120.0 |
"""

# two rows that read alike without their span words: a question naming "bonus" alone is no reading of either
BONUSES = """\
# Bonuses

Bonus provisions were as follows (in millions):

| | 2024 | 2023 |
| --- | --- | --- |
| Bonus accrued for the year | 18.0 | 15.0 |
| Bonus accrued in the year | 2.0 | 1.0 |
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "movements", {"options.md": OPTIONS, "bonuses.md": BONUSES})


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, ingested: None) -> Ask:
    from ragspine.bootstrap import get_services

    return asker(request.param, get_services())


def _text(body: dict[str, Any]) -> str:
    return str(body["answer"])


class TestMovementRowsNamedWithoutTheirSpan:
    @settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(asked=st.sampled_from(["What was the change in the number of options granted in 2024 from 2023?",
                                  "What was the change in options granted between 2023 and 2024?",
                                  "How much did the granted options change from 2023 to 2024?"]))
    def test_a_change_of_the_row_named_without_its_span(self, ask: Ask, asked: str) -> None:
        # GIVEN a movement table whose row says "during the period" and whose columns are years
        # WHEN the row is named by its own word, the years written
        answer = _text(ask(asked))

        # THEN the row's change is given, its label said and both cells cited
        assert "granted during the period (label:granted during the period): FY2024 vs FY2023 up 140" in answer, answer
        assert "（+20.00%）" in answer, answer
        for year in ("2024", "2023"):
            assert f"options.md · table=1,row=Granted during the period,col={year}" in answer, answer

    def test_one_year_of_the_row(self, ask: Ask) -> None:
        answer = _text(ask("How many options lapsed in 2023?"))

        assert "FY2023 lapsed during the period (label:lapsed during the period): -450.5" in answer, answer
        assert "options.md · table=1,row=Lapsed during the period,col=2023" in answer, answer

    def test_two_rows_alike_without_their_span_are_not_read_so(self, ask: Ask) -> None:
        # GIVEN "accrued for the year" and "accrued in the year": without their span words they read alike
        answer = _text(ask("What was the bonus accrued in 2024?"))

        # THEN neither figure is given as the answer: a reader could not tell which row is meant
        assert "18.0" not in answer and "2.0 USD" not in answer, answer
