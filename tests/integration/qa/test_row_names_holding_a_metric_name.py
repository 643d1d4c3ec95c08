"""A row whose line item holds a glossary metric's name inside a longer one is read as the row.

On a domain fresh from ``domain init`` the glossary's revenue is named "revenue" (収益 in Japanese).
A table's rows ``Deferred revenue (current)`` and ``Hardware revenue`` hold that word inside a
longer line item: the question naming the longer name asks for the row, never for the glossary's
revenue ("no data"), and the answer cites the row's cells. A question naming the metric alone, or
"total revenue", keeps the glossary's reading.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.domain_env import ingest_into_finance_domain, ingested_for_module, pointed_services, service_answer

CONTRACT_BALANCES = """\
# Marlow Systems annual report

Contract balances for the year ended December 31, 2024 (in thousands of US dollars):

| | Balance at start of year | Net change | Balance at end of year |
| --- | --- | --- | --- |
| Trade receivables | 50,200 | 3,100 | 53,300 |
| Deferred revenue (current) | 2,600 | (400) | 2,200 |
| Deferred revenue (non-current) | 1,900 | (150) | 1,750 |
"""

PRODUCT_LINES = """\
# Brisk Devices annual report

Revenue by product line (in thousands of US dollars):

| | 2024 | 2023 |
| --- | --- | --- |
| Hardware revenue | 30,000 | 27,000 |
| Software revenue | 45,000 | 41,000 |
| Total revenue | 75,000 | 68,000 |
"""

JAPANESE = """\
# 三和精機 有価証券報告書

契約負債の内訳（単位：百万円）

| | 2024年度 | 2023年度 |
| --- | --- | --- |
| 繰延収益 | 1,240 | 1,100 |
| 前受金 | 380 | 350 |
"""


@pytest.fixture(scope="module")
def balances(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "longer_row_names", {"marlow.md": CONTRACT_BALANCES})


@pytest.fixture(scope="module")
def product_lines(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "longer_row_names_lines", {"brisk.md": PRODUCT_LINES})


@pytest.fixture(scope="module")
def japanese(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "longer_row_names_ja", {"sanwa.md": JAPANESE})


_END = "col=Balance at end of year"


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["as of the end of the year", "at the end of the year", "as at end of year"]))
def test_a_ratio_of_two_rows_holding_the_metric_name(balances: None, dated: str) -> None:
    # GIVEN rows "Deferred revenue (current)" and "(non-current)", and no figure of the glossary's revenue
    # WHEN the ratio of the two is asked at the year's end
    answer, _ = service_answer(f"What is the ratio of current deferred revenue to non-current deferred revenue {dated}?")
    first = answer.splitlines()[0]
    # THEN the two rows' end-of-year cells are divided, both cited, and revenue is not what was read
    assert ": 1.26" in first, answer  # 2,200 / 1,750
    assert f"row=Deferred revenue (current),{_END}" in first, first
    assert f"row=Deferred revenue (non-current),{_END}" in first, first
    assert "No data" not in answer and "(REVENUE)" not in answer, answer


def test_a_share_of_two_rows_holding_the_metric_name(product_lines: None) -> None:
    answer, _ = service_answer("What was hardware revenue % of total revenue in 2024?")
    first = answer.splitlines()[0]
    assert "40.00%" in first, answer  # 30,000 / 75,000
    assert "table=1,row=Hardware revenue,col=2024" in first and "table=1,row=Total revenue,col=2024" in first, first


@pytest.mark.parametrize("named", ["hardware revenue", "Hardware Revenues"])
def test_a_row_holding_the_metric_name_alone(product_lines: None, named: str) -> None:
    answer, _ = service_answer(f"What was {named} in 2024?")
    assert "30000" in answer.splitlines()[0], answer
    assert "table=1,row=Hardware revenue,col=2024" in answer, answer
    assert "No data" not in answer, answer


def test_total_revenue_is_still_read(product_lines: None) -> None:
    answer, _ = service_answer("What was total revenue in 2024?")
    assert "75000" in answer.splitlines()[0], answer
    assert "table=1,row=Total revenue,col=2024" in answer, answer


def test_a_japanese_row_holding_the_metric_name(japanese: None) -> None:
    # 繰延収益 holds the glossary's 収益: the row is asked, never revenue
    answer, _ = service_answer("2024年度の繰延収益はいくらですか？")
    assert "1240" in answer.splitlines()[0], answer
    assert "row=繰延収益,col=2024年度" in answer, answer


SEGMENT_SALES = """\
# Harlow Foods annual report

Net sales by reporting segment ($ in millions):

| Reporting Segment | Fiscal 2024 Net Sales | Fiscal 2023 Net Sales |
| --- | --- | --- |
| Bakery | 1,200.0 | 1,100.0 |
| Dairy & Frozen | 800.0 | 700.0 |
| Beverages | 500.0 | 450.0 |
| Total | 2,500.0 | 2,250.0 |
"""


@pytest.fixture(scope="module")
def segment_sales(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "longer_row_names_segments", {"harlow.md": SEGMENT_SALES})


def test_the_sum_of_parts_named_with_their_metric_after_them_over_the_total(segment_sales: None) -> None:
    # GIVEN rows of net sales by segment and their total
    # WHEN the share of two segments' "net sales" (written after the parts) over the total is asked
    answer, _ = service_answer("What is the proportion (in percentage) of the sum of Bakery and Dairy & Frozen's "
                               "net sales over total net sales in fiscal year 2024?")
    first = answer.splitlines()[0]
    # THEN the two parts' sum is divided by the total, every cell cited; never the sum of all three
    assert ": 80.00%" in first, answer  # (1,200 + 800) / 2,500
    assert "row=Reporting Segment: Bakery" in first and "row=Reporting Segment: Dairy & Frozen" in first, first
    assert "row=Total" in first, first
    assert "4500" not in answer, answer


def test_a_proportion_of_a_sum_whose_parts_are_not_told_apart_is_no_sum(segment_sales: None) -> None:
    # "A and B net sales over total net sales", no possessive tying "net sales" to the parts: which names are
    # summed is not read, and the sum of all three figures named answers no proportion
    answer, _ = service_answer("What is the proportion (in percentage) of the sum of Bakery and Dairy & Frozen "
                               "net sales over total net sales in fiscal year 2024?")
    assert "4500" not in answer, answer  # 1,200 + 800 + 2,500
    assert "which figure is the whole" in answer, answer


BALANCE_SHEET_JA = """\
# 東和航運

以下は東和航運の2024年3月期連結貸借対照表である。

| 項目 | 金額(百万円) |
|---|---|
| 流動資産 | 410,500 |
| その他の流動資産 | 31,200 |
| 固定資産 | 689,300 |
| 資産合計 | 1,099,800 |

なお、金額は百万円単位で表示している。
"""


@pytest.fixture
def finance_ja(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    folder, data = ingest_into_finance_domain(tmp_path_factory.mktemp("longer_row_names_finance"),
                                              {"towa.md": BALANCE_SHEET_JA}, today="2025-06-30")
    for _ in pointed_services(monkeypatch, folder, data, today="2025-06-30"):
        yield


def test_a_metric_named_after_a_particle_is_not_a_longer_row(finance_ja: None) -> None:
    # GIVEN the finance pack's 流動資産 and a row その他の流動資産 holding it after a particle
    # WHEN "の流動資産" is asked beside 固定資産
    answer, _ = service_answer("東和航運の2024年3月期の流動資産と固定資産の合計はいくらか。")
    # THEN the metric is read, never the longer row: the sum of the two is given
    assert "1099800" in answer.splitlines()[0], answer
    assert "その他の流動資産" not in answer, answer
