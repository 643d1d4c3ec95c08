"""A date centred over a table's kinds of figure, through ``ragspine ingest`` and ``answer_question``: the kind
left of the date's cell (``Amortized Cost``) is of that date too, and asked by its own name."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

# The converter writes a date merged over four columns into the second one.
HOLDINGS = """\
# Restricted investments

The following tables summarize our restricted investments by security type (in thousands):

| | | As of December 31, 2024 | | |
| --- | --- | --- | --- | --- |
| | Amortized | Unrealized | Unrealized | Fair |
| | Cost | Gains | Losses | Value |
| Municipal bonds | $61,300 | $— | $1,150 | $60,150 |
| Agency notes | 22,700 | 240 | — | 22,940 |
| Total | $84,000 | $240 | $1,150 | $83,090 |
"""


@pytest.fixture(scope="module")
def holdings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "holdings", {"holdings.md": HOLDINGS})


def test_the_kind_left_of_the_dates_cell_is_answered_for_that_date(holdings: None) -> None:
    answer, status = service_answer("What was the total amortized cost in 2024?")

    assert status is AnswerStatus.FOUND, answer
    assert "total amortized cost (label:total amortized cost): 84000" in answer, answer
    assert "row=Total,col=Amortized/Cost" in answer, answer


def test_its_figures_are_summed_with_the_other_kinds_of_that_date(holdings: None) -> None:
    answer, status = service_answer("What is the total amortized cost and total fair value in 2024 combined?")

    assert "84000" in answer and "83090" in answer, answer
