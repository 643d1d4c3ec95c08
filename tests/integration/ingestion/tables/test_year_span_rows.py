"""Rows of spans of years one after another (``2022 – 2026 | 2027 – 2031``), through ``ragspine ingest`` and asked.

Such a row says when its figures expire or fall due, never a fiscal year's figure: each cell is read as
its column's kind in that span as written (``2022 – 2026: ground leases``), undated, as a payment
schedule's years are, though no ``Thereafter`` or ``Total`` row follows them. The header over the spans
("Fiscal Year") names what the rows are, not the table's period. A question writing a span and the kinds
gets them added up, two kinds of a span set against each other, or one kind's two spans compared, each cell
cited and said to be of its span.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import get_services
from ragspine.qa.result import AnswerStatus
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module, rows_read, service_answer

EXPIRIES = """\
# Properties

As of June 27, 2021, our store leases had initial terms expiring as follows:

| Fiscal Year | Ground Leases | Building Leases |
| --- | --- | --- |
| 2022 – 2026 | 214 | 530 |
| 2027 – 2031 | 96 | 188 |
| 2032 – 2036 | 12 | 61 |
"""

# A converter's rendering of a heading merged over both columns (kept in the last cell), each kind broken over
# lines ending in the same word.
BROKEN_HEADERS = """\
# Offices

| | | Number of Offices |
| --- | --- | --- |
| | | Owned and |
| | Leased | Shared |
| Fiscal Year | Sites | Sites |
| 2023 - 2027 | 41 | 17 |
| 2028 - 2032 | 25 | 9 |
"""


@pytest.fixture(scope="module")
def expiries(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "expiries",
                                   {"expiries.md": EXPIRIES, "offices.md": BROKEN_HEADERS})


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, expiries: None) -> Ask:
    return asker(request.param, get_services())


def test_each_cell_is_its_kind_in_the_span_as_written_of_no_fiscal_year(expiries: None) -> None:
    facts = rows_read()

    assert facts["2022 – 2026: ground leases"][:2] == ("UNDATED", 214), facts
    assert facts["2027 – 2031: building leases"][:2] == ("UNDATED", 188), facts
    assert "row=2032 – 2036,col=Ground Leases" in facts["2032 – 2036: ground leases"][2], facts
    assert not any(kind in ("FY", "Q") for kind, _, _ in facts.values()), facts


def test_kinds_broken_over_lines_under_a_merged_count_heading_are_each_read(expiries: None) -> None:
    facts = rows_read()

    assert facts["2023 - 2027: leased sites"][:2] == ("UNDATED", 41), facts
    assert facts["2028 - 2032: owned and shared sites"][:2] == ("UNDATED", 9), facts


def test_a_question_naming_the_kind_alone_is_asked_back_with_each_span(expiries: None) -> None:
    answer, status = service_answer("How many ground leases expire?")

    assert status is AnswerStatus.NEEDS_CLARIFICATION, answer
    assert "2022 – 2026: ground leases" in answer and "2032 – 2036: ground leases" in answer, answer
    assert "214" not in answer, answer  # no span chosen for the asker


def test_kinds_of_one_span_are_added_up_and_said_to_be_of_it(ask: Ask) -> None:
    body = ask("From fiscal year 2027 - 2031, what is the total number of ground leases and building leases "
               "expiring in total?")
    answer = body["answer"]

    assert body["status"] == "found", answer
    assert "ground leases and building leases in 2027–2031, sum: 284" in answer, answer
    assert "row=2027 – 2031,col=Ground Leases" in answer and "row=2027 – 2031,col=Building Leases" in answer, answer
    assert "the span of years the document's schedule states; no fiscal year's figure" in answer, answer
    assert "FY20" not in answer, answer


def test_one_kind_of_two_spans_is_compared_later_against_earlier(expiries: None) -> None:
    answer, status = service_answer(
        "What is the difference of ground leases expiring between the periods 2022-2026 and 2027-2031?")

    assert status is AnswerStatus.FOUND, answer
    assert "ground leases: 2027–2031 vs 2022–2026 down 118（−55.14%）" in answer, answer
    assert ": 214" in answer and ": 96" in answer, answer


def test_two_kinds_of_one_span_are_set_against_each_other_by_the_size_of_their_gap(ask: Ask) -> None:
    body = ask("From fiscal year 2022 - 2026, what is the difference in the number of ground leases and "
               "building leases expiring?")
    answer = body["answer"]

    assert body["status"] == "found", answer
    # which is taken from which the words leave open: the gap's size, and which kind is the larger
    assert "difference between ground leases and building leases in 2022–2026: 316 (ground leases below " \
           "building leases)" in answer, answer
    assert "row=2022 – 2026,col=Ground Leases" in answer and "row=2022 – 2026,col=Building Leases" in answer, answer
    assert "FY20" not in answer, answer


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["2022 - 2026", "2022-2026", "2022–2026", "2022 – 2026", "2022-26"]),
       st.sampled_from(["difference in the number of", "difference between the"]))
def test_the_gap_of_two_kinds_is_read_whatever_the_span_dash(expiries: None, span: str, asked: str) -> None:
    answer, status = service_answer(f"From fiscal year {span}, what is the {asked} ground leases and building "
                                    "leases expiring?")

    assert status is AnswerStatus.FOUND, answer
    assert "in 2022–2026: 316 (ground leases below building leases)" in answer, answer


def test_a_japanese_question_gets_the_gap_of_two_kinds_said_in_japanese(expiries: None) -> None:
    answer, status = service_answer("2022-2026年のground leasesとbuilding leasesの差はいくらですか？")

    assert status is AnswerStatus.FOUND, answer
    assert "の差：316（ground leasesはbuilding leasesより少ない）" in answer, answer


def test_a_chinese_question_gets_the_sum_said_in_chinese(expiries: None) -> None:
    answer, status = service_answer("2027-2031年ground leases和building leases合计是多少？")

    assert status is AnswerStatus.FOUND, answer
    assert "合计：284" in answer and "“2027 – 2031”期间" in answer, answer


@pytest.mark.parametrize("question", [
    # a percentage difference of two kinds: which one it is relative to the question leaves open
    "From fiscal year 2022 - 2026, what is the percentage difference between ground leases and building leases?",
    # a span the schedule does not state
    "From fiscal year 2024 - 2028, what is the total number of ground leases and building leases?",
    # a ratio is not what these cells give
    "What is the ratio of ground leases to building leases in 2022 - 2026?",
])
def test_anything_else_asked_of_the_spans_is_not_computed(expiries: None, question: str) -> None:
    answer, status = service_answer(question)

    assert status is not AnswerStatus.FOUND, answer
    assert "计算自" not in answer, answer
