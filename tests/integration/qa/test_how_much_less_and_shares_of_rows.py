"""Two rows of one period compared by "how much less" and a row's share of a total row.

"How much less revenue came from Asia Pacific as compared to the Americas in 2019?" asks the size of the
gap between two rows, its direction said in words: "less" compares there, it takes nothing away, so the
answer is a positive amount with both cells cited, never Asia Pacific − Americas as a negative number.
"Hardware revenue % of total revenue" asks a share: it is computed with both rows cited, or asked back
with no figure, never answered by the hardware amount alone. A table written here is ingested into a
fresh domain and asked through ``answer_question``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import Services, get_services
from tests.support.ask import Ask, asker
from tests.support.domain_env import ingested_for_module

REVENUE = """\
# Corvid Devices annual report

Revenue by region and by product line (in thousands of US dollars):

| | 2019 | 2018 |
| --- | --- | --- |
| Revenue from Americas | 18,030 | 16,200 |
| Revenue from Asia Pacific | 4,848 | 4,100 |
| Hardware | 40,000 | 36,000 |
| Software | 60,000 | 54,000 |
| Total revenue | 100,000 | 90,000 |
"""

_AMERICAS = "table=1,row=Revenue from Americas,col=2019"
_ASIA = "table=1,row=Revenue from Asia Pacific,col=2019"


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Services]:
    for _ in ingested_for_module(tmp_path_factory, "how_much_less", {"corvid.md": REVENUE}):
        yield get_services()


@pytest.fixture(scope="module")
def ask(services: Services) -> Ask:
    return asker("answer_question", services)


_LESS = st.sampled_from(["less", "lower", "fewer", "smaller"])
_COMPARED = st.sampled_from(["as compared to", "compared to", "compared with", "than"])


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(less=_LESS, compared=_COMPARED)
def test_how_much_less_is_the_positive_gap_said_below(ask: Ask, less: str, compared: str) -> None:
    body = ask(f"How much {less} was revenue from Asia Pacific {compared} revenue from Americas in 2019?")
    first = body["answer"].splitlines()[0]
    assert ": 13182" in first, first  # 18,030 − 4,848, the size of the gap
    assert "-13182" not in body["answer"], body["answer"]
    assert "below" in first, first
    assert _AMERICAS in first and _ASIA in first, first


def test_how_much_more_is_the_positive_gap_said_above(ask: Ask) -> None:
    body = ask("How much more was revenue from Americas as compared to revenue from Asia Pacific in 2019?")
    first = body["answer"].splitlines()[0]
    assert ": 13182" in first and "above" in first, first
    assert _AMERICAS in first and _ASIA in first, first


def test_revenue_less_a_row_is_still_a_subtraction(ask: Ask) -> None:
    body = ask("What was total revenue less software in 2019?")
    assert "40000" in body["answer"].splitlines()[0], body["answer"]


@pytest.mark.parametrize("question", [
    "What was hardware revenue % of total revenue in 2019?",
    "What is the percentage of hardware revenue in total revenue in 2019?",
    "What was hardware % of total revenue in 2019?",
])
def test_a_share_is_computed_or_asked_back_never_the_part_alone(ask: Ask, question: str) -> None:
    body = ask(question)
    answer = body["answer"]
    if "40.00%" in answer:  # computed: both rows cited on the share's line
        first = answer.splitlines()[0]
        assert "table=1,row=Hardware,col=2019" in first and "table=1,row=Total revenue,col=2019" in first, first
    else:  # asked back: no figure at all
        assert "40000" not in answer and "40,000" not in answer, answer
        assert "which figure is the whole" in answer, answer
