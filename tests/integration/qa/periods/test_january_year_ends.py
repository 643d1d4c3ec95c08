"""A retailer's years ending in January or February, asked by the year their ends fall in.

The table heads its columns ``January 30, 2021 | February 1, 2020 | February 2, 2019`` and the
report never says whether it names such a year by its start or its end. A question naming 2020
gets the column ending in 2020, and the answer says that reading ("the year ended February 1 2020
read as FY2020") in its text and its assumptions: a period is never picked silently. Asked through
``answer_question`` and ``POST /v1/ask``, on a domain fresh from ``domain init`` (December years).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ragspine.bootstrap import get_services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module, service_answer

RETAILER = """\
# Harbor Outfitters annual report

Net sales and gross profit by fiscal year (in millions):

| | For the Year Ended | | |
| --- | --- | --- | --- |
| | January 30, 2021 | February 1, 2020 | February 2, 2019 |
| Net sales | $ 4,812.0 | $ 4,520.5 | $ 4,310.0 |
| Gross profit | 1,640.2 | 1,588.0 | 1,502.4 |

Our retail stores were open for the whole of each year shown.
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "january_years", {"harbor.md": RETAILER})


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, ingested: None) -> Ask:
    return asker(request.param, get_services())


def _period_readings(body: dict[str, Any]) -> set[str]:
    return {a["value"] for a in body["assumptions"] if a["slot"] == "period"}


def test_a_year_named_gets_the_column_ending_in_it_with_the_reading_said(ask: Ask) -> None:
    # WHEN a user asks for the change in net sales between two years, as a calendar year
    body = ask("What was the change in net sales between 2019 and 2020?")
    # THEN the columns ending in those years are compared, each cited
    answer = body["answer"]
    assert "FY2020 vs FY2019 up 210.5" in answer
    assert "February 1 2020" in answer and "February 2 2019" in answer
    # AND the answer says which year each January or February year end was read as
    assert "the year ended February 1 2020 read as FY2020" in answer
    assert "the year ended February 2 2019 read as FY2019" in answer
    assert {"FY2019", "FY2020"} <= _period_readings(body)


def test_a_lookup_of_one_year_says_the_reading_too(ask: Ask) -> None:
    body = ask("What was the gross profit in 2021?")
    assert "1640.2" in body["answer"]
    assert "the year ended January 30 2021 read as FY2021" in body["answer"]
    assert "FY2021" in _period_readings(body)


def test_a_year_no_column_ends_in_is_not_answered_with_a_neighbour(ask: Ask) -> None:
    body = ask("What was the net sales in 2018?")
    assert "4310" not in body["answer"] and "4,310" not in body["answer"]
    assert "4520.5" not in body["answer"]


@pytest.mark.parametrize(("question", "said"), [
    ("2020年的net sales是多少？", "（假设：截至 February 1 2020 的年度按其结束日所在的年份理解为 FY2020。）"),
    ("2020年のnet salesはいくらですか？", "（前提：February 1 2020 に終了した年度を、終了日の属する年の FY2020 と解釈。）"),
])
def test_the_reading_is_said_in_the_question_language(ingested: None, question: str, said: str) -> None:
    answer, _ = service_answer(question)
    assert "4520.5" in answer
    assert said in answer

