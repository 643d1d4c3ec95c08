"""A part's share of a whole asked with the sign "%" where the words "percentage of" would stand.

"What was hardware % of total revenue in 2019?" over a table of revenue by product line, stating
amounts only, asks hardware / total revenue, the same as "hardware as a percentage of total revenue":
the share is computed and cites both rows; the hardware amount alone is never the answer. A whole
no row states ("% of total") is asked back, with no figure. On a domain fresh from ``domain init``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

PRODUCT_LINES = """\
# Corvid Devices annual report

Revenue by product line (in thousands of US dollars):

| | 2019 | 2018 |
| --- | --- | --- |
| Hardware | 40,000 | 36,000 |
| Software | 60,000 | 54,000 |
| Total revenue | 100,000 | 90,000 |

Figures are for the financial year.
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "share_with_percent_sign", {"corvid.md": PRODUCT_LINES})


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(wording=st.sampled_from([
    "What was hardware % of total revenue in 2019?",
    "What was the hardware % of total revenue in 2019?",
    "What was hardware as % of total revenue in 2019?",
    "What was hardware as a % of total revenue in 2019?",
    "What was hardware's ％ of total revenue in 2019?",
    "What % of total revenue was hardware in 2019?",
]))
def test_a_share_written_with_the_sign_is_computed_from_both_rows(ingested: None, wording: str) -> None:
    # WHEN a user asks a part's share of the total with "%" for "percentage"
    answer, status = service_answer(wording)
    # THEN the share is hardware / total revenue, computed and citing both rows
    assert status is AnswerStatus.FOUND, answer
    lead = answer.splitlines()[0]
    assert "40.00%" in lead and "row=Hardware,col=2019" in lead and "row=Total revenue,col=2019" in lead, answer


def test_a_share_of_a_whole_no_row_states_is_asked_back(ingested: None) -> None:
    # WHEN the whole is "total" alone, which no row is named
    answer, status = service_answer("What was hardware % of total in 2019?")
    # THEN no figure is given, the hardware amount least of all, and the reason is said
    assert status is AnswerStatus.NOT_FOUND, answer
    assert "40000" not in answer and "40,000" not in answer
    assert "which figure is the whole" in answer
