"""Questions naming a statement's rows in their own words, through ``ragspine ingest`` and ``ragspine ask``.

A domain folder fresh from ``ragspine domain init`` names none of these rows. A question names a
row loosely ("the effective tax rate" for "Effective income tax rate"), a balance-sheet date
("as at December 31, 2018"), or a row the table repeats under two section headings ("Federal"
under current and deferred tax); each is answered from its own cell, and a question two rows
match equally, or one naming a word of another row, gets no figure.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain

TAX = """\
# Income taxes

| | | Years Ended December 31, | |
| --- | --- | --- | --- |
| | 2019 | 2018 | 2017 |
| Statutory federal income tax rate | 21.0% | 21.0% | 35.0% |
| Effective income tax rate | 13.0% | 18.3% | (48.3)% |

| | Year Ended December 31, | |
| --- | --- | --- |
| | 2019 | 2018 |
| Current income tax expense (benefit): | | |
| Federal | $5 | $4 |
| Deferred income tax expense (benefit): | | |
| Federal | 4,206 | 4,860 |
| Income tax expense (benefit) | $(7,125) | $5,534 |
"""

BALANCE = """\
# Accrued liabilities

| | December 31, | |
| --- | --- | --- |
| | 2019 | 2018 |
| Derivative liabilities | 93.8 | 120.5 |
| Accrued warranty reserve, current | 12.0 | 11.0 |
| Accrued warranty reserve, noncurrent | 30.0 | 28.0 |
"""


@pytest.fixture
def asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {"tax.md": TAX, "balance.md": BALANCE})


def test_a_row_named_in_other_words_is_answered_from_its_cell(asked: None) -> None:
    answer = cli_answer("What was the effective tax rate in 2018?")
    assert "18.3 PCT" in answer and "tax.md · table=1,row=Effective income tax rate" in answer, answer
    assert "read 'effective tax rate' as effective income tax rate" in answer


def test_a_balance_sheet_date_in_the_question_names_the_year_it_closes(asked: None) -> None:
    answer = cli_answer("How much was the derivative liabilities as at December 31, 2018?")
    assert "120.5" in answer and "93.8" not in answer and "row=Derivative liabilities" in answer, answer


def test_a_row_repeated_under_two_sections_is_answered_by_its_section(asked: None) -> None:
    answer = cli_answer("What was the Federal deferred income tax expense in 2019?")
    assert "4206" in answer and "row=Deferred income tax expense (benefit): Federal" in answer, answer
    assert "-7125" not in answer


@pytest.mark.parametrize("question", [
    "What was the accrued warranty reserve in 2019?",  # two rows match equally
    "What was the federal income tax expense in 2019?",  # names no one row: current or deferred
])
def test_a_question_no_one_row_answers_gets_no_figure(asked: None, question: str) -> None:
    answer = cli_answer(question)
    for figure in ("12.0", "30.0", "4206", "-7125", "5 "):
        assert f": {figure}" not in answer, answer
