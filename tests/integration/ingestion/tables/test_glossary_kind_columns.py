"""Rows of a document's own words under a column the glossary reads as a metric, through ``ragspine ingest``.

A table of a group's businesses states each one's "Revenues" beside its "Income from vessel
operations": the first heading is a metric a fresh glossary knows, the second is not. Each column
states its kind of figure for each business, so the cell under "Revenues" is the business's
revenues (``revenues: harbor tankers``), as the other column's is its income; it is never the
company's own revenue, and is no longer skipped as naming two metrics.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, rows_read, service_answer

SEGMENTS = """\
# Segment results

The following table presents revenues and income from vessel operations by business:

| | Revenues | | Income from vessel operations | |
| --- | --- | --- | --- | --- |
| (in thousands of U.S. dollars) | 2019 | 2018 | 2019 | 2018 |
| Harbor Tankers | 712,480 | 655,130 | 88,210 | 41,905 |
| Coastal Gas Carriers | 401,275 | 389,960 | 120,450 | 97,300 |
| Holding company | 96,310 | 104,825 | (35,600) | (12,410) |
"""


@pytest.fixture(scope="module")
def segments(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "glossary_kind_columns", {"segments.md": SEGMENTS})


def test_each_row_under_the_glossary_metric_column_is_that_kind_of_the_row(segments: None) -> None:
    facts = rows_read()

    assert facts["revenues: harbor tankers"][1] in (712480, 655130), facts
    assert "row=Coastal Gas Carriers,col=Revenues" in facts["revenues: coastal gas carriers"][2], facts
    assert "income from vessel operations: holding company" in facts, facts


def test_a_business_revenues_change_is_answered_from_its_row(segments: None) -> None:
    answer, status = service_answer("What is the increase/ (decrease) in Revenues of Harbor Tankers from 2018 "
                                    "to 2019?")

    assert status is AnswerStatus.FOUND, answer
    assert "revenues: harbor tankers" in answer and "up 57350" in answer, answer
    assert "col=Revenues/2018" in answer and "col=Revenues/2019" in answer, answer


def test_the_company_revenue_is_not_any_business_figure(segments: None) -> None:
    answer, status = service_answer("What was the revenue in 2019?")

    assert status is not AnswerStatus.FOUND or "harbor tankers" not in answer, answer
    assert "712480" not in answer and "712,480" not in answer, answer
