"""A table heading no unit whose paragraph writes its figures with their scale ("$24.9 | $33.5" beside
"decreased $8.6 million to $24.9 million from $33.5 million"): the answer states that scale.

The scale is read only where the text writes two of the table's figures or more exactly as in their cells; a
text that rounds them ("$41.2 million" beside "$41,187"), or writes a figure no cell holds, states no scale, and
the figures stay without one. A row counting people or things ("Corporate headcount") takes no money scale
from the text. Asked through ``answer_question`` and ``POST /v1/ask``, on a domain fresh from
``domain init``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.bootstrap import get_services
from ragspine.ingestion.table_restated_scale import counts_things, restated_scale
from ragspine.qa.result import AnswerStatus
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module, service_answer

CORPORATE = """\
# Corporate segment

| | 2019 | 2018 | Increase / (Decrease) |
| --- | --- | --- | --- |
| Corporate overhead | $18.4 | $21.7 | $(3.3) |
| Amortization of software | 0.6 | 0.4 | 0.2 |
| Loss from corporate activities | $(19.0) | $(22.1) | $3.1 |
| Corporate headcount | 245 | 230 | 15 |

Corporate overhead for the year ended December 31, 2019 decreased $3.3 million to $18.4 million from
$21.7 million for the year ended December 31, 2018, on lower consulting fees.
"""

# the paragraph before the table quotes the overhead of the corporate segment's table, not these bare figures
BACKLOG = """\
# Orders

Corporate overhead decreased $3.3 million to $18.4 million from $21.7 million.

| | 2019 | 2018 |
| --- | --- | --- |
| Order backlog | 18.4 | 21.7 |
| Orders on hand at year end | 3.3 | 2.9 |
"""

# the text rounds the table's figures: it states no scale for the table
CASH = """\
# Cash flows

| | 2019 | 2018 |
| --- | --- | --- |
| Cash provided by operating activities | $41,187 | $38,052 |
| Cash used in investing activities | $(12,904) | $(10,377) |

Net cash provided by operations was $41.2 million for 2019 and $38.1 million for 2018.
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "restated_scale", {"corporate.md": CORPORATE, "cash.md": CASH,
                                                                        "backlog.md": BACKLOG})


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, ingested: None) -> Ask:
    return asker(request.param, get_services())


def test_the_scale_the_text_writes_the_figures_with_is_stated(ask: Ask) -> None:
    body = ask("What is the average amortization of software?")

    assert body["status"] == AnswerStatus.FOUND.value, body["answer"]
    assert "average: 0.5 USD_M (mean of 2 figures)" in body["answer"], body["answer"]
    assert "corporate.md · table=1,row=Amortization of software,col=2019" in body["answer"], body["answer"]


def test_a_change_is_stated_in_that_scale(ingested: None) -> None:
    answer, status = service_answer("What was the change in corporate overhead from 2018 to 2019?")

    assert status is AnswerStatus.FOUND, answer
    assert "FY2019 vs FY2018 down 3.3 USD_M" in answer, answer


def test_figures_the_text_only_rounds_stay_without_a_scale(ingested: None) -> None:
    answer, status = service_answer("What was the change in cash provided by operating activities from 2018 to 2019?")

    assert status is AnswerStatus.FOUND, answer
    assert "FY2019 vs FY2018 up 3135（" in answer, answer  # no "K" guessed from "$41.2 million"


def test_a_table_of_bare_figures_after_a_paragraph_quoting_another_table_takes_no_scale(ingested: None) -> None:
    answer, status = service_answer("What was the change in order backlog from 2018 to 2019?")

    assert status is AnswerStatus.FOUND, answer
    assert "FY2019 vs FY2018 down 3.3（" in answer, answer  # the paragraph's "$18.4 million" is the overhead's
    assert "USD_M" not in answer, answer


def test_a_count_beside_the_money_takes_no_scale_from_the_text(ingested: None) -> None:
    answer, status = service_answer("What was the change in corporate headcount from 2018 to 2019?")

    assert status is AnswerStatus.FOUND, answer
    assert "FY2019 vs FY2018 up 15（" in answer, answer  # people, never "15 USD_M"
    assert "USD_M" not in answer, answer


@pytest.mark.parametrize("label", ["Headcount", "Number of stores", "Employees at year end", "Customers", "従業員数"])
def test_labels_counting_people_or_things(label: str) -> None:
    assert counts_things(label)


@pytest.mark.parametrize("label", ["Corporate overhead", "Amortization of software", "Customer deposits payable"])
def test_labels_of_money(label: str) -> None:
    assert not counts_things(label)


@given(scale=st.sampled_from(["thousand", "million", "billion"]), sign=st.sampled_from(["$", "€", "£"]))
def test_two_figures_written_alike_state_the_scale(scale: str, sign: str) -> None:
    cells = [f"{sign}24.9", f"{sign}33.5", f"{sign}(8.6)", "0.1"]
    text = f"Expenses decreased {sign}8.6 {scale} to {sign}24.9 {scale} from {sign}33.5 {scale}."
    assert restated_scale(cells, [text]) == {"thousand": "K", "million": "M", "billion": "B"}[scale]


@pytest.mark.parametrize(("cells", "text"), [
    (["$24.9", "$33.5"], "Expenses were $24.9 million."),  # one figure alike may be chance
    (["$24.9", "$33.5"], "Expenses were $24.9 million, against $33.5 thousand of fees."),  # two scales
    (["0.1", "0.2"], "Fees were $0.1 million and $0.2 million."),  # figures too plain to tell
    (["$24.9", "$33.5"], "We sold 24.9 million and 33.5 million units."),  # no money written
    (["36.5%", "24.8%"], "Fees were $36.5 million and $24.8 million."),  # the cells are percentages, no money
    (["24.9", "33.5"], "Operating income fell to $24.9 million from $33.5 million."),  # no cell written as money
])
def test_no_scale_is_read_from_a_text_that_does_not_quote_the_table(cells: list[str], text: str) -> None:
    assert restated_scale(cells, [text]) == ""
