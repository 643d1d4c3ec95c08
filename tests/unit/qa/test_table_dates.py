"""A date the row's own table heads its period with ("as at September 30, 2019") is read as that year.

Through ``answer_question`` on a glossary fresh from ``domain init`` (fiscal year ending in
December) and the rows of a table headed "September 30, 2019" (filed under FY2019, the date kept in
the locator). Any other date, or a date beside a bare year, is asked back as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.domain.starter import init_domain
from ragspine.facts.model import Fact
from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.dated_periods import DATE
from ragspine.qa.result import AnswerStatus
from ragspine.qa.table_dates import with_table_dates_read, writes_no_date
from tests.fakes.facts import InMemoryFactStore
from tests.unit.qa.derived.statement_set import statement_fact, statement_qa_with_labels


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QAComponents:
    domain = tmp_path_factory.mktemp("dates") / "domain"
    init_domain(domain)
    facts: list[Fact] = []
    for row, values in {"domestic: discount rate": (3.75, 4.0), "international: discount rate": (2.8, 1.9)}.items():
        for year, value in zip(("2018", "2019"), values, strict=True):
            facts.append(statement_fact(f"label:{row}", year, value, unit="PCT",
                                        source_locator=f"table=1,row=Discount rate,col={row.split(':')[0]}/"
                                                       f"September 30 /{year}"))
    facts += [statement_fact("label:outstanding", year, value, unit="",
                             source_locator=f"table=1,row=Outstanding at September 30 {year},col=Number of Shares")
              for year, value in (("2018", 2806364), ("2019", 1686902))]
    return statement_qa_with_labels(domain, facts)


@pytest.mark.parametrize(("question", "cell"), [
    ("What was the domestic discount rate as at September 30, 2019?", "col=domestic/September 30 /2019"),
    ("What was the international discount rate as of 30 September 2018?", "col=international/September 30 /2018"),
    ("How many shares were outstanding at Sept. 30, 2019?", "row=Outstanding at September 30 2019"),
])
def test_the_tables_own_closing_date_is_its_year(qa: QAComponents, question: str, cell: str) -> None:
    result = answer_question(question, qa=qa)
    assert result.status is AnswerStatus.FOUND, result.answer
    assert cell in result.answer, result.answer


def test_a_repeated_question_reads_the_tables_date_on_every_ask(qa: QAComponents) -> None:
    # the verdict kept with a repeated question's parse is only ever that it writes no date: this one writes one
    answers = [answer_question("What was the international discount rate as of 30 September 2019?", qa=qa)
               for _ in range(3)]
    assert all("col=international/September 30 /2019" in a.answer for a in answers), answers[-1].answer


def test_the_change_between_two_such_dates(qa: QAComponents) -> None:
    result = answer_question("What is the change in the domestic discount rate between September 30, 2018 and "
                             "September 30, 2019?", qa=qa)
    assert "FY2019 vs FY2018 up 0.25" in result.answer, result.answer


@pytest.mark.parametrize("written", ["September 30, 2019 and 2018", "September 30, 2019, and 2018",
                                     "September 30, 2019 & 2018", "30 September 2019 and 2018"])
def test_a_date_written_once_before_a_list_of_years_is_that_date_of_each(qa: QAComponents, written: str) -> None:
    result = answer_question(f"What is the change in the domestic discount rate between {written}?", qa=qa)
    assert "FY2019 vs FY2018 up 0.25" in result.answer, result.answer
    assert "col=domestic/September 30 /2018" in result.answer and "col=domestic/September 30 /2019" in result.answer


def test_the_average_over_a_date_shared_by_a_list_of_years(qa: QAComponents) -> None:
    result = answer_question("What is the average international discount rate for September 30, 2019 and 2018?",
                             qa=qa)
    assert "average: 2.35 PCT" in result.answer, result.answer


@pytest.mark.parametrize("question", [
    "What is the change in the domestic discount rate between September 30, 2019 and 2017?",  # no 2017 at that date
    "What is the change in the domestic discount rate between September 30, 2019, 2018 and 2017?",
    "What was the domestic discount rate as at September 15, 2019?",  # no table heads a period with it
    "What was the domestic discount rate as at June 30, 2019?",
    "What was the domestic discount rate in 2018 over the one at September 30, 2019?",  # a bare year beside it
])
def test_any_other_date_is_asked_back(qa: QAComponents, question: str) -> None:
    result = answer_question(question, qa=qa)
    assert result.status is AnswerStatus.UNRECOGNIZED_PARAM, result.answer
    assert "4.0" not in result.answer and "3.75" not in result.answer


def _inside_the_year(when: date) -> bool:
    """Not in the last week of December nor the week after: those the glossary reads as the year they close."""
    return not ((when.month == 12 and when.day > 24) or (when.month == 1 and when.day <= 7))


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(when=st.dates(min_value=date(2001, 1, 1), max_value=date(2030, 12, 31)).filter(_inside_the_year),
       other=st.integers(1, 27),
       day_first=st.booleans())
def test_only_the_date_the_table_states_is_read(tmp_path_factory: pytest.TempPathFactory, when: date, other: int,
                                                day_first: bool) -> None:
    """Any date inside a December year, written either way: read where the row's locator states it, else kept."""
    qa = _one_row(tmp_path_factory, when)
    month = MONTHS[when.month - 1]
    written = f"{when.day} {month} {when.year}" if day_first else f"{month} {when.day}, {when.year}"
    question = f"What was the rate as at {written}?"
    read = with_table_dates_read(question, facts=qa.facts, glossary=qa.glossary)
    assert read == question.replace(written, f"FY{when.year}".ljust(len(written)))
    moved = question.replace(f"{when.day}", f"{other if other != when.day else other + 1}", 1)
    assert with_table_dates_read(moved, facts=qa.facts, glossary=qa.glossary) == moved


# Wordings of a date: with its month's name, abbreviated, or in figures only.
DATE_FORMS = (lambda d: f"{MONTHS[d.month - 1]} {d.day}, {d.year}", lambda d: f"{d.day} {MONTHS[d.month - 1]} {d.year}",
              lambda d: f"{MONTHS[d.month - 1][:3]}. {d.day}, {d.year}", lambda d: f"{MONTHS[d.month - 1].upper()} {d.day} {d.year}",
              lambda d: d.isoformat(), lambda d: f"{d.month}/{d.day}/{d.year}", lambda d: f"{d.day}.{d.month}.{d.year}",
              lambda d: f"{d.year}年{d.month}月{d.day}日")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(when=st.dates(min_value=date(2001, 1, 1), max_value=date(2030, 12, 31)).filter(_inside_the_year),
       form=st.sampled_from(DATE_FORMS))
def test_a_question_the_date_check_clears_is_one_the_reading_leaves_as_written(
        tmp_path_factory: pytest.TempPathFactory, when: date, form: Callable[[date], str]) -> None:
    """The check whose verdict a repeated question keeps with its parse: never a date the reading reads."""
    qa = _one_row(tmp_path_factory, when)  # its one row's column headed by that very date
    question = f"What was the rate as at {form(when)}?"
    # the reading's own pattern finds the date, or the reading rewrites it: the check must not clear it
    if DATE.search(question) is not None or with_table_dates_read(question, facts=qa.facts,
                                                                  glossary=qa.glossary) != question:
        assert not writes_no_date(question), question


_ROWS: dict[date, QAComponents] = {}


def _one_row(tmp_path_factory: pytest.TempPathFactory, when: date) -> QAComponents:
    """A fresh domain whose one row ``rate`` is filed under ``when``'s year, its column headed by ``when``."""
    if not _ROWS:
        domain = tmp_path_factory.mktemp("one_row") / "domain"
        init_domain(domain)
        _ROWS[date.min] = statement_qa_with_labels(domain, [statement_fact("label:rate", "2001", 1, unit="PCT")])
    base = _ROWS[date.min]
    fact = statement_fact("label:rate", str(when.year), 4.0, unit="PCT",
                          source_locator=f"table=1,row=Rate,col={MONTHS[when.month - 1]} {when.day} /{when.year}")
    return replace(base, facts=InMemoryFactStore([fact]))
