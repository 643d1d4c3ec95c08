"""A percentage difference between two rows of one period: the first's gap from the second, over the second.

"What is the percentage difference between fair value and carrying amount of total debt in 2021?"
asks (fair value − carrying amount) / carrying amount, as an analyst states how far one figure
stands from another. A table written here is ingested through ``ragspine ingest`` into a fresh
domain and asked through ``answer_question`` and ``POST /v1/ask``: the computed line cites both
cells. Rows stated in percent (a gap in points, or relative?) and a second figure that is not
positive (no relative gap from it) give no figure.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import Services, get_services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module

DEBT = """\
# Debt

| | 2021 | 2020 |
| --- | --- | --- |
| | $m | $m |
| Fair value of total debt | 3,535.1 | 3,210.0 |
| Carrying amount of total debt | 3,474.2 | 3,300.0 |
| Deferred financing balance | (12.0) | 0.0 |
| Average interest rate | 4.1% | 3.5% |
| Effective interest rate | 4.6% | 3.9% |
"""


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Services]:
    for _ in ingested_for_module(tmp_path_factory, "percentage_difference", {"debt.md": DEBT}):
        yield get_services()


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, services: Services) -> Ask:
    return asker(request.param, services)


@pytest.fixture(scope="module")
def engine(services: Services) -> Ask:
    return asker("answer_question", services)


def _relative(first: str, second: str) -> str:
    a, b = Decimal(first), Decimal(second)
    return str(((a - b) / b * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def test_the_first_row_from_the_second_in_percent(ask: Ask) -> None:
    body = ask("What is the percentage difference between fair value of total debt and carrying amount of total "
               "debt in 2021?")
    first = body["answer"].splitlines()[0]
    assert "percentage difference of fair value of total debt" in first, first
    assert f": {_relative('3535.1', '3474.2')}%" in first, first  # 1.75
    cells = {"table=1,row=Fair value of total debt,col=2021/$m", "table=1,row=Carrying amount of total debt,col=2021/$m"}
    assert all(cell in first for cell in cells), first
    assert {s["locator"] for s in body["sources"]} >= cells


def test_below_the_second_is_negative(ask: Ask) -> None:
    body = ask("What is the percentage difference between fair value of total debt and carrying amount of total "
               "debt in 2020?")
    first = body["answer"].splitlines()[0]
    assert f": {_relative('3210.0', '3300.0')}%" in first, first  # -2.73


@pytest.mark.parametrize("question", [
    "What is the percentage difference between average interest rate and effective interest rate in 2021?",
    "What is the percentage difference between fair value of total debt and deferred financing balance in 2021?",
])
def test_no_figure_from_rows_in_percent_or_a_base_not_positive(ask: Ask, question: str) -> None:
    answer = ask(question)["answer"]
    assert "percentage difference of" not in answer, answer


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.sampled_from(["percentage difference", "percent difference", "relative difference"]),
       opening=st.sampled_from(["What is the", "What was the", "what's the"]),
       year=st.sampled_from(["in 2021", "for 2021", "as of 2021"]))
def test_any_wording_of_a_percentage_difference(engine: Ask, words: str, opening: str, year: str) -> None:
    body = engine(
        f"{opening} {words} between fair value of total debt and carrying amount of total debt {year}?")
    assert f": {_relative('3535.1', '3474.2')}%" in body["answer"].splitlines()[0], body["answer"]
