"""A part of a row as a share of its whole, asked through ``ragspine ingest`` and ``answer_question``.

A payment schedule's span column and the row's ``Total`` column ("the leases due after more than 5
years in the total leases"), two rows' ``Total`` cells ("the ratio of total notes payable to total
finance lease obligations"), and a roll-forward's movement over its closing balance ("the shares
released as a percentage of the total unreleased shares") are computed from the cells, each cited;
a movement written in brackets is given signed and by size.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.ask import WAYS, asker
from tests.support.domain_env import ingested_in_fresh_domain

SCHEDULE = """\
# Commitments by due date

(in thousands)

| | Total | Less than 1 year | 1-3 years | 3-5 years | More than 5 years |
| --- | --- | --- | --- | --- | --- |
| Vehicle leases | 2,000 | 800 | 600 | 350 | 250 |
| Supply contracts | 5,000 | 3,000 | 1,000 | 500 | 500 |
| Total | 7,000 | 3,800 | 1,600 | 850 | 750 |
"""

SECTIONED = """\
# Annual report excerpt

|  |  |  | Payments Due by Period (in millions) |  |  |
| --- | --- | --- | --- | --- | --- |
| Contractual Obligations | Total | Less than 1 Year | 1-3 Years | 3-5 Years | After 5 Years |
| Term borrowings | $4,000.0 | $500.0 | $1,500.0 | $1,000.0 | $1,000.0 |
| Finance lease obligations | 250.0 | 50.0 | 100.0 | 60.0 | 40.0 |
| Notes payable | 5.0 | 5.0 | — | — | — |
| Total | $4,255.0 | $555.0 | $1,600.0 | $1,060.0 | $1,040.0 |
"""

ROLL_FORWARD = """\
# Unreleased share units

| Unreleased units | Units | Weighted-average value |
| --- | --- | --- |
| Unreleased at December 31, 2022 | 900,000 | $20.00 |
| Awarded | 300,000 | $25.00 |
| Released | (200,000) | $21.00 |
| Cancelled | (50,000) | $22.00 |
| Unreleased at December 31, 2023 | 950,000 | $22.50 |
"""


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from ragspine.bootstrap import get_services

    root = tmp_path_factory.mktemp("shares")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAGSPINE_TODAY", "2025-09-15")
        for _ in ingested_in_fresh_domain(patch, root, {"schedule.md": SCHEDULE, "sectioned.md": SECTIONED,
                                                         "roll.md": ROLL_FORWARD}):
            yield get_services().qa


def _ask(qa: object, question: str) -> str:
    from ragspine.qa.answer import answer_question

    return answer_question(question, qa=qa).answer  # type: ignore[arg-type]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(row=st.sampled_from([("vehicle leases", "250", "2000", "12.50"), ("supply contracts", "500", "5000", "10.00")]),
       wording=st.sampled_from(["What is the percentage of the {row} of more than 5 years in the total {row}?",
                                "What percentage of the total {row} is the {row} of more than 5 years?"]))
def test_a_span_of_a_row_over_its_total(qa: object, row: tuple[str, str, str, str], wording: str) -> None:
    name, part, whole, share = row
    answer = _ask(qa, wording.format(row=name))
    first = answer.splitlines()[0]
    assert f"{share}%" in first and "计算自" in first
    assert "col=More than 5 years" in first and "col=Total" in first  # the span's cell over the row's Total cell
    assert f"{part} " in answer and f"{whole} " in answer
    assert "North" not in answer and "FY2025" not in answer  # "more than" asks no gap of the group's parts


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize(("question", "share", "span"), [
    ("What is the vehicle leases of more than 5 years as a percentage of vehicle leases?", "12.50%",
     "More than 5 years"),
    ("What percentage of vehicle leases is due in more than 5 years?", "12.50%", "More than 5 years"),
    ("What percentage of the supply contracts falls due in 1-3 years?", "20.00%", "1-3 years"),
    ("What proportion of supply contracts is due in less than 1 year?", "60.00%", "Less than 1 year"),
])
def test_the_whole_named_without_total(qa: object, way: str, question: str, share: str, span: str) -> None:
    from ragspine.bootstrap import get_services

    body = asker(way, get_services())(question)
    first = body["answer"].splitlines()[0]
    assert share in first and "计算自" in first, body["answer"]
    assert f"col={span}" in first and "col=Total" in first  # the span's cell over the row's own Total cell


def test_the_span_alone_still_reads_no_total_column(qa: object) -> None:
    answer = _ask(qa, "What are the total vehicle leases due within 5 years?")
    assert "1750" in answer and "2000 " not in answer  # the spans' sum, never the Total column


@pytest.mark.parametrize(("question", "value"), [
    ("What is the ratio (in percentage) of total notes payable to total finance lease obligations?", "2.00%"),
    ("What is the ratio of total finance lease obligations to total term borrowings?", "0.06（6.25%）"),
])
def test_total_cells_of_two_rows(qa: object, question: str, value: str) -> None:
    first = _ask(qa, question).splitlines()[0]
    assert value in first and "col=Total" in first and "Less than" not in first


def test_total_of_a_row_alone(qa: object) -> None:
    answer = _ask(qa, "What is the total notes payable?")
    assert "5.0 USD_M" in answer and "col=Total" in answer


@pytest.mark.parametrize(("question", "signed", "size"), [
    ("What is the percentage of unreleased units released in 2023 as a percentage of the total unreleased units at "
     "December 31, 2023?", "-21.05%", "so by size 21.05%"),
    ("What is the percentage of unreleased units cancelled in 2023 as a percentage of the total unreleased units at "
     "December 31, 2023?", "-5.26%", "so by size 5.26%"),
])
def test_a_movement_over_the_closing_balance(qa: object, question: str, signed: str, size: str) -> None:
    first = _ask(qa, question).splitlines()[0]
    assert signed in first and size in first
    assert "row=Unreleased at December 31 2023" in first  # the closing balance, not the movement's own row alone
