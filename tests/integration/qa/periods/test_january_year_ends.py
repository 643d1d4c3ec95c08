"""A retailer's years ending in January or February, asked by the year their ends fall in.

The table heads its columns ``January 30, 2021 | February 1, 2020 | February 2, 2019`` and the
report never says whether it names such a year by its start or its end. A question naming 2021
can only mean the column ending in 2021 (no column ends in January 2022): it is answered, and the
answer says that reading ("the year ended January 30 2021 read as FY2021") in its text and its
assumptions. A question naming 2020 could mean the column ending in February 2020 or the one
ending in January 2021: it is asked back with both, never answered with a column picked silently.
Asked through ``answer_question`` and ``POST /v1/ask``, on a domain fresh from ``domain init``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ragspine.bootstrap import get_services
from ragspine.qa.answer import answer_question
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module, service_answer

# A retailer's statement headed by January and February year ends; each test file adds the sentence after it.
YEAR_END_TABLE = """\
# Harbor Outfitters annual report

Net sales and gross profit by fiscal year (in millions):

| | For the Year Ended | | |
| --- | --- | --- | --- |
| | January 30, 2021 | February 1, 2020 | February 2, 2019 |
| Net sales | $ 4,812.0 | $ 4,520.5 | $ 4,310.0 |
| Gross profit | 1,640.2 | 1,588.0 | 1,502.4 |
"""
RETAILER = YEAR_END_TABLE + """\

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


def test_years_only_one_reading_finds_are_answered_with_the_reading_said(ask: Ask) -> None:
    # WHEN a user asks for the change in net sales between two years, as calendar years
    body = ask("What was the change in net sales between 2020 and 2021?")
    # THEN the columns ending in those years are compared, each cited
    answer = body["answer"]
    assert "FY2021 vs FY2020 up 291.5" in answer
    assert "February 1 2020" in answer and "January 30 2021" in answer
    # AND the answer says which year each January or February year end was read as
    assert "the year ended February 1 2020 read as FY2020" in answer
    assert "the year ended January 30 2021 read as FY2021" in answer
    assert {"FY2020", "FY2021"} <= _period_readings(body)


def test_a_lookup_of_one_year_says_the_reading_too(ask: Ask) -> None:
    body = ask("What was the gross profit in 2021?")
    assert "1640.2" in body["answer"]
    assert "the year ended January 30 2021 read as FY2021" in body["answer"]
    assert "FY2021" in _period_readings(body)


def test_a_year_either_reading_finds_is_asked_back_with_both(ask: Ask) -> None:
    # WHEN the year named could be the column ending in it or the one starting in it
    body = ask("What was the net sales in 2020?")
    # THEN no figure is given, and both years are offered by their end dates
    assert body["status"] == "needs_clarification"
    assert "4520.5" not in body["answer"] and "4812" not in body["answer"]
    assert "2020 as the year ended February 1 2020" in body["answer"]
    assert "2020 as the year ended January 30 2021" in body["answer"]
    # AND the option picked is answered with that column
    picked = ask(body["clarification"]["options"][1]["question"])
    assert "4812.0" in picked["answer"] and "January 30 2021" in picked["answer"]


def test_a_year_written_as_its_end_date_is_answered(ask: Ask) -> None:
    body = ask("What was the change in net sales between the year ended February 2, 2019 and the year ended "
               "February 1, 2020?")
    assert "FY2020 vs FY2019 up 210.5" in body["answer"]
    # the question wrote the years as their end dates: no reading of them to state
    assert "read as" not in body["answer"] and not _period_readings(body)


def test_a_year_no_column_ends_in_is_not_answered_with_a_neighbour(ask: Ask) -> None:
    body = ask("What was the net sales in 2018?")
    assert "4310" not in body["answer"] and "4,310" not in body["answer"]
    assert "4520.5" not in body["answer"]


@pytest.mark.parametrize(("question", "said"), [
    ("2021年的net sales是多少？", "（假设：截至 January 30 2021 的年度按其结束日所在的年份理解为 FY2021。）"),
    ("2021年のnet salesはいくらですか？", "（前提：January 30 2021 に終了した年度を、終了日の属する年の FY2021 と解釈。）"),
])
def test_the_reading_is_said_in_the_question_language(ingested: None, question: str, said: str) -> None:
    answer, _ = service_answer(question)
    assert "4812.0" in answer
    assert said in answer



def test_a_chinese_question_back_offers_options_answered_in_turn(ingested: None) -> None:
    asked = answer_question("2020年的net sales是多少？", qa=get_services().qa)
    assert asked.clarification is not None and "2020年即截至 February 1 2020 的年度" in asked.answer
    figures = [answer_question(option.question, qa=get_services().qa).answer for option in asked.clarification.options]
    assert "4520.5" in figures[0] and "4812.0" in figures[1]
