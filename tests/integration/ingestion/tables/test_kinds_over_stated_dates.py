"""One balance date over columns of different kinds, through ``ragspine ingest`` and ``answer_question``.

A fresh domain keeps a December year; the subscriber statistics below date their columns by
May 31 (another company's year end), the 2021 date heading the balance column and again the
first column of two kinds (subscribers won or lost, and the share of homes reached). Told apart
by their kinds, each kind's column is the year it writes: a question naming the kind and two
years is computed from that kind's columns, each input cited with its column, never from the
balance (the one column of its kind, so undated). A member count beside its net additions and
its share, each under the same dates: a question naming the row alone asks its balance, so it is
never answered with a kind's figure of that year, while one naming the kind is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, ingested_in_fresh_domain, service_answer

REPORT = """\
# Subscriber statistics

| | | Subscribers won (lost) | | Share of homes reached % | |
| --- | --- | --- | --- | --- | --- |
| | May 31, 2021 | May 31, 2021 | May 31, 2020 | May 31, 2021 | May 31, 2020 |
| Fibre lines | 310,550 | 12,404 | 9,870 | 41.2 | 38.9 |
| Cable television lines | 120,330 | (2,215) | (3,940) | 16.0 | 17.5 |
"""

MEMBERS = """\
# Members by plan

| | | Net additions | | % of all members | |
| --- | --- | --- | --- | --- | --- |
| | June 30, 2022 | June 30, 2022 | June 30, 2021 | June 30, 2022 | June 30, 2021 |
| Premium members | 84,210 | 3,115 | 2,870 | 35.8 | 34.1 |
| Basic members | 150,900 | (1,240) | 410 | 64.2 | 65.9 |
"""


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "lines", {"lines.md": REPORT})


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.sampled_from([
    "What was the change in the fibre lines subscribers won (lost) from 2020 to 2021?",
    "What is the change in subscribers won (lost) of fibre lines between 2020 and 2021?",
    "How much did the subscribers won (lost) for fibre lines change from 2020 to 2021?",
]))
def test_a_kind_over_two_dates_answers_its_own_years(asked: None, question: str) -> None:
    answer, status = service_answer(question)

    assert status is AnswerStatus.FOUND, answer
    assert "up 2534" in answer, answer
    assert "col=Subscribers won (lost)/May 31 2021" in answer, answer
    assert "col=Subscribers won (lost)/May 31 2020" in answer, answer
    assert "310550" not in answer, answer


def test_the_other_kind_answers_with_its_own_columns(asked: None) -> None:
    answer, status = service_answer("What was the share of homes reached % of cable television lines in 2020?")

    assert status is AnswerStatus.FOUND, answer
    assert "17.5" in answer and "col=Share of homes reached %/May 31 2020" in answer, answer


@pytest.fixture
def members(tmp_path: Path) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {"members.md": MEMBERS})


def test_a_row_named_alone_is_never_answered_with_its_kinds_figure(members: None) -> None:
    for question, kinds_figures in (("How many premium members were there in 2022?", ("3115", "35.8")),
                                    ("How many basic members did the company have in 2021?", ("410", "65.9"))):
        answer, status = service_answer(question)

        assert status is not AnswerStatus.FOUND, answer
        assert not any(figure in answer for figure in kinds_figures), answer


def test_a_question_naming_the_kind_is_answered_with_its_figure(members: None) -> None:
    answer, status = service_answer("What were the net additions of premium members in 2022?")

    assert status is AnswerStatus.FOUND, answer
    assert "3115" in answer and "col=Net additions/June 30 2022" in answer, answer
    assert "84210" not in answer, answer
