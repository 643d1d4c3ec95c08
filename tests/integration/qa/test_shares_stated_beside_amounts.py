"""A share the table states beside its amounts: ``Net Sales | % of Total`` under each fiscal year.

The ``% of Total`` column is each row's share of the year's total net sales, as the company
rounded it. A share asked ("the percent of total net sales from Industrial") is that stated
figure, never one recomputed from the amounts: 500,000 of 1,250,300 is 39.99 %, stated 40.0 %,
and the change the table states (40.0 − 38.1 = 1.9 points) is not the recomputed 1.86. Every
figure cites its own cell; the amounts are still asked and answered as before. Asked through
``answer_question`` and ``POST /v1/ask``, on a domain fresh from ``domain init``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.bootstrap import get_services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module

SEGMENTS = """\
# Corvane Instruments annual report

Net sales by segment (in thousands):

| | Fiscal Year 2022 | | Fiscal Year 2021 | |
| --- | --- | --- | --- | --- |
| | Net Sales | % of Total | Net Sales | % of Total |
| Industrial | $500,000 | 40.0% | $300,000 | 38.1% |
| Medical | 400,000 | 32.0% | 250,000 | 31.8% |
| Aerospace | 350,300 | 28.0% | 236,800 | 30.1% |
| Total | $1,250,300 | | $786,800 | |

Industrial net sales grew on new distribution contracts.
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "stated_shares_beside", {"corvane.md": SEGMENTS})


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, ingested: None) -> Ask:
    return asker(request.param, get_services())


def test_the_share_column_is_read_as_each_rows_stated_share(ingested: None) -> None:
    # WHEN the table is ingested, THEN each row's "% of Total" cell is its stated share of that year, cited to it
    facts = get_services().facts
    found = {f.period: f for entity in {e for _, e in facts.open_codes()}
             for f in facts.find(metric_code="label:net sales: industrial, percent of total", entity=entity)}
    assert {p: (f.value, f.unit) for p, f in found.items()} == {"2022": (40.0, "PCT"), "2021": (38.1, "PCT")}
    assert found["2022"].source_locator.endswith("col=Fiscal Year 2022/% of Total"), found["2022"].source_locator
    # AND the Total row, with no share stated, gives none
    assert not any(code.startswith("label:total net sales,") for code, _ in facts.open_codes())


def test_a_change_of_share_is_the_change_of_the_stated_shares(ask: Ask) -> None:
    # WHEN a user asks how a segment's share of total net sales changed
    answer = ask("What was the change in the percent of total net sales from Industrial between 2021 and 2022?")[
        "answer"]
    # THEN the stated shares are compared (1.9 points), never the shares recomputed from the amounts (1.86)
    assert "FY2022 vs FY2021 up 1.9 points" in answer, answer
    assert "1.86" not in answer, answer
    # AND both stated shares are cited to their own cells
    assert "row=Industrial,col=Fiscal Year 2021/% of Total" in answer, answer
    assert "row=Industrial,col=Fiscal Year 2022/% of Total" in answer, answer


def test_a_share_of_one_year_is_the_figure_stated(ask: Ask) -> None:
    # WHEN a user asks a segment's share of total net sales in one year
    answer = ask("What was the percent of total net sales from Medical in 2021?")["answer"]
    # THEN the share the table states is given (31.8), not 250,000 / 786,800 = 31.77
    assert ": 31.8 PCT" in answer and "row=Medical,col=Fiscal Year 2021/% of Total" in answer, answer
    assert "31.77" not in answer, answer


def test_the_amounts_are_still_answered(ask: Ask) -> None:
    # WHEN a user asks a segment's net sales, or compares two segments
    one = ask("What was the net sales in 2022 for Aerospace?")["answer"]
    two = ask("What was the difference in the net sales in 2022 between Industrial and Medical?")["answer"]
    # THEN the amounts answer, as before the share column was read
    assert ": 350300 " in one and "col=Fiscal Year 2022/Net Sales" in one, one
    assert ": 100000" in two and "row=Medical,col=Fiscal Year 2022/Net Sales" in two, two
