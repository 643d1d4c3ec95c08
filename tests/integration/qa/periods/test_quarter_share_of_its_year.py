"""A quarter's figure as a share of its own fiscal year: "the first quarter's revenue as a percentage of that year's".

The table sets each year's quarters under the year written once, with the year's total beside
them. Before, the year the question divides by was folded into the quarter ("the first quarter
of fiscal 2024 … the total revenue that year" read as 2024Q1 alone), so only the quarter's
figure was given and no share. Now the quarter is divided by its year's figure, both cited; a
year other than the quarter's own is never divided by. Asked through ``answer_question`` and
``POST /v1/ask``, on a domain fresh from ``domain init``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.bootstrap import get_services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module

QUARTERLY = """\
# Wrenfield Instruments annual report

Quarterly results (in thousands of US dollars):

| | Fiscal 2024 | | | | |
| --- | --- | --- | --- | --- | --- |
| | First | Second | Third | Fourth | |
| | Quarter | Quarter | Quarter | Quarter | Total |
| Revenues | 50,000 | 60,000 | 40,000 | 50,000 | 200,000 |
| Gross profit | 20,000 | 24,000 | 15,000 | 21,000 | 80,000 |

Demand was strongest in the second quarter.
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "quarter_share", {"wrenfield.md": QUARTERLY})


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, ingested: None) -> Ask:
    return asker(request.param, get_services())


@pytest.mark.parametrize(("question", "line"), [
    ("What was the revenue in the first quarter of fiscal 2024 as a percentage of the total revenue that year?",
     "ratio of 2024Q1 to FY2024: 25.00%"),
    ("What was the gross profit in the second quarter of fiscal 2024 as a percentage of the full year?",
     "ratio of 2024Q2 to FY2024: 30.00%"),
])
def test_a_quarter_is_divided_by_its_own_year(ask: Ask, question: str, line: str) -> None:
    body = ask(question)
    # THEN the quarter's figure over the year's is given
    assert line in body["answer"], body["answer"]
    # AND both figures are cited, the year's total among them
    cited = {s["locator"] for s in body["sources"]}
    assert any(loc.endswith("Total") for loc in cited) and any(loc.endswith("Quarter") for loc in cited)


def test_in_chinese_the_quarter_is_divided_by_its_year(ask: Ask) -> None:
    assert "2024Q3与FY2024之比：0.2" in ask("2024财年第三季度营业收入占全年的比例是多少？")["answer"]


def test_another_years_total_is_never_divided_by(ask: Ask) -> None:
    answer = ask("What was the revenue in the first quarter of fiscal 2024 as a percentage of the total revenue "
                 "in fiscal 2023?")["answer"]
    assert "ratio of" not in answer and "%" not in answer
