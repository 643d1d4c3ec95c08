"""A payment schedule's columns headed by a span of years ("2021-2022"), named by the question as the table heads them.

A schedule of obligations may head its columns ``Total | 2020 | 2021-2022 | 2023-2024 | Thereafter``. The
cells are stored undated under the row qualified by the column (``2021-2022: operating leases``); no
fiscal year is any of them. A question naming the row and two of those columns as headed ("from 2020 to
2021-2022") gets their change, sum or mean, each cell cited and said to fall due in its column's years. A
span the table does not head ("2022-2023") reads no cell: the answer gives no figure computed from a
column the question did not name.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.bootstrap import get_services
from ragspine.qa.result import AnswerStatus
from tests.support.ask import asker
from tests.support.domain_env import ingested_for_module, service_answer

OBLIGATIONS = """\
# Contractual obligations

The following table provides aggregate information regarding our contractual obligations as of March 31, 2019.

| (In thousands) | Total | 2020 | 2021-2022 | 2023-2024 | Thereafter |
| --- | --- | --- | --- | --- | --- |
| Operating leases | $12,840 | $2,310 | $4,905 | $3,125 | $2,500 |
| Purchase commitments | 1,460 | 610 | 520 | 330 | — |
| Total contractual obligations | $14,300 | $2,920 | $5,425 | $3,455 | $2,500 |
"""


@pytest.fixture(scope="module", autouse=True)
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "span_columns", {"obligations.md": OBLIGATIONS})


def test_a_change_from_a_year_to_a_span_of_years_is_the_spans_cell_minus_the_years() -> None:
    answer, status = service_answer(
        "What was the increase / (decrease) in the contractual obligation for operating leases from 2020 to 2021-2022?")
    assert status is AnswerStatus.FOUND, answer
    assert "operating leases: falling due in 2021-2022 vs 2020 up 2595 USD_K（+112.34%）" in answer, answer
    assert "obligations.md · table=1,row=Operating leases,col=2020,date=2019-03-31" in answer, answer
    assert "obligations.md · table=1,row=Operating leases,col=2021-2022,date=2019-03-31" in answer, answer
    assert "FY2020" not in answer and "FY2021" not in answer and "FY2022" not in answer, answer


def test_a_change_between_two_spans_of_years_reads_both_columns() -> None:
    answer, status = service_answer("What was the change in purchase commitments from 2021-2022 to 2023-2024?")
    assert status is AnswerStatus.FOUND, answer
    assert "purchase commitments: falling due in 2023-2024 vs 2021-2022 down 190 USD_K（−36.54%）" in answer, answer


@pytest.mark.parametrize("written", ["2021-2022", "2021–2022", "2021 - 2022", "2021-22"])
def test_the_span_is_the_same_column_however_its_dash_and_years_are_written(written: str) -> None:
    answer, _ = service_answer(f"What was the change in operating leases from 2020 to {written}?")
    assert "falling due in 2021-2022 vs 2020 up 2595 USD_K" in answer, answer


def test_an_average_of_two_span_columns_is_their_mean() -> None:
    answer, _ = service_answer("What is the average operating leases for 2021-2022 and 2023-2024?")
    assert "operating leases falling due in 2021-2022, 2023-2024, average: 4015 USD_K (mean of 2 figures)" in answer, answer


def test_one_span_column_named_alone_is_that_cell_said_to_fall_due_then() -> None:
    answer, status = service_answer("What were the operating leases in 2021-2022?")
    assert status is AnswerStatus.FOUND, answer
    assert "4905 USD_K（来源：obligations.md · table=1,row=Operating leases,col=2021-2022,date=2019-03-31）" in answer, answer
    assert "(falling due in 2021-2022, as the document's payment schedule states; no fiscal year's figure)" in answer, answer


def test_a_share_asked_of_one_span_column_is_not_answered_with_the_cell() -> None:
    answer, status = service_answer("What percentage of operating leases is due in 2021-2022?")
    assert status is not AnswerStatus.FOUND and "4905" not in answer, answer  # a share, not the cell as its answer


def test_a_span_the_table_does_not_head_reads_no_column() -> None:
    answer, status = service_answer("What was the change in operating leases from 2021-2022 to 2022-2023?")
    assert status is not AnswerStatus.FOUND, answer
    assert "falling due in" not in answer and "4905" not in answer and "3125" not in answer, answer


def test_a_chinese_question_names_the_span_columns_and_is_answered_in_chinese() -> None:
    answer, _ = service_answer("2021-2022年和2023-2024年的operating leases合计是多少？")
    assert "operating leases（2021-2022、2023-2024年到期）合计：8030 USD_K（2 个数值之和）" in answer, answer
    assert "到期期限为“2021-2022”" in answer, answer


def test_over_post_v1_ask_the_change_cites_both_columns() -> None:
    body = asker("/v1/ask", get_services())("What was the change in operating leases from 2020 to 2021-2022?")
    assert "falling due in 2021-2022 vs 2020 up 2595 USD_K" in body["answer"], body
    assert {(s["doc"], s["locator"]) for s in body["sources"]} == {
        ("obligations.md", "table=1,row=Operating leases,col=2020,date=2019-03-31"),
        ("obligations.md", "table=1,row=Operating leases,col=2021-2022,date=2019-03-31")}
