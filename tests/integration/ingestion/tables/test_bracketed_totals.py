"""A total row naming what it totals in brackets ("Total (net debt)") under a label column headed by its unit run on
("DKKm"), through ``ragspine ingest`` and ``answer_question``: the row is a line item of its own, the unit the
table's, and the heading no section of its rows."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

REPORT = """\
# Fleet financing

| DKKm | 2020 | 2019 |
| --- | --- | --- |
| Fleet market value | 2,400.0 | 2,250.0 |
| Total (assets) | 2,400.0 | 2,250.0 |
| Bank debt | 1,100.0 | 1,000.0 |
| Lease debt | 60.0 | 40.0 |
| Cash | -160.0 | -90.0 |
| Total (net debt) | 1,000.0 | 950.0 |
| Net debt to fleet value | 41.7% | 42.2% |

Net debt to fleet value is the net debt divided by the fleet's market value.
"""


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "fleet", {"fleet.md": REPORT})


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.sampled_from([
    "What was the change in Total (net debt) in 2020 from 2019?",
    "What is the change in total (net debt) between 2019 and 2020?",
    "How much did Total (net debt) change from 2019 to 2020?",
]))
def test_a_total_naming_its_part_in_brackets_is_its_own_row(asked: None, question: str) -> None:
    answer, status = service_answer(question)

    assert status is AnswerStatus.FOUND, answer
    assert "up 50.0 DKK_M" in answer, answer
    assert "row=Total (net debt),col=2019" in answer and "row=Total (net debt),col=2020" in answer, answer


def test_the_other_bracketed_total_is_not_confused_with_it(asked: None) -> None:
    answer, status = service_answer("What was Total (assets) in 2019?")

    assert status is AnswerStatus.FOUND, answer
    assert "2250.0 DKK_M" in answer and "row=Total (assets),col=2019" in answer, answer
    assert "950" not in answer, answer


def test_a_currency_code_with_its_scale_run_on_heads_no_section(asked: None) -> None:
    answer, status = service_answer("What was the bank debt in 2020?")

    assert status is AnswerStatus.FOUND, answer
    assert "1100.0 DKK_M" in answer, answer
    assert "dkkm" not in answer.lower(), answer
