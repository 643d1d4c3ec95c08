"""A total of rows the question names is their sum, never the table's grand total, through ``ragspine ingest`` and ``ask``.

"The total net sales of International and Foodservice" reads "total net sales" as the table's
``Total`` row, yet the question names the rows it adds up. The answer is the sum of those rows
(and its change, over two years), each input cited; the grand total's figure is not given. When a
named row has no figure for a year asked, the answer says so and asks which figures to add, with
no number. A total asked alone is still the ``Total`` row.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain

EN = """\
# Annual report

| ($ in millions) |  |  |  |
| --- | --- | --- | --- |
| Reporting Segment | Fiscal 2019 Net Sales | Fiscal 2018 Net Sales | % Inc (Dec) |
| Grocery & Snacks | $3,100.0 | $3,000.0 | 3% |
| International | 800.0 | 900.0 | (11)% |
| Foodservice | 950.0 | 1,000.0 | (5)% |
| Pinnacle Foods | 1,700.0 | — | 100% |
| Total | $6,550.0 | $4,900.0 | 34% |

Overall, our net sales were $6.55 billion in fiscal 2019, an increase of 34% compared to fiscal 2018.
"""

ZH = """\
# 年度报告

单位：人民币百万元

| 净销售额 | 2019年 | 2018年 | 增减% |
| --- | --- | --- | --- |
| 零售 | 3,100.0 | 3,000.0 | 3% |
| 国际 | 800.0 | 900.0 | (11)% |
| 餐饮服务 | 950.0 | 1,000.0 | (5)% |
| 合计 | 4,850.0 | 4,900.0 | (1)% |

2019年本集团净销售额为48.5亿元，较2018年减少1%。
"""

JA = """\
# 有価証券報告書

単位：百万円

| 販売額 | 2019年 | 2018年 | 増減率 |
| --- | --- | --- | --- |
| 国内 | 3,100.0 | 3,000.0 | 3% |
| 海外 | 800.0 | 900.0 | (11)% |
| 外食 | 950.0 | 1,000.0 | (5)% |
| 合計 | 4,850.0 | 4,900.0 | (1)% |
"""


@pytest.fixture(params=[("en", EN), ("zh", ZH), ("ja", JA)], ids=["en", "zh", "ja"])
def report(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    lang, text = request.param
    yield from (lang for _ in ingested_in_fresh_domain(monkeypatch, tmp_path, {"report.md": text}))


GRAND_TOTALS = ("4850.0", "4,850.0", "6550.0", "6,550.0", "4900.0", "4,900.0", "+1", "−1.02", "+33.67")
SUM_ASKED = {
    "en": "What was the total net sales of International and Foodservice in fiscal year 2019?",
    "zh": "2019年国际和餐饮服务的净销售额合计是多少？",
    "ja": "2019年の海外と外食の販売額の合計は？",
}
CHANGE_ASKED = {
    "en": "What is the percentage change in total net sales of International and Foodservice from fiscal year "
          "2018 to 2019?",
    "zh": "国际和餐饮服务的净销售额合计2019年较2018年变化了多少？",
    "ja": "海外と外食の販売額合計の2018年から2019年への変化は？",
}


def test_the_total_of_named_rows_is_their_sum_with_each_row_cited(report: str) -> None:
    answer = cli_answer(SUM_ASKED[report])
    summed = [line for line in answer.splitlines() if "1750.0" in line]  # 800.0 + 950.0
    assert summed and "计算自" in summed[0] and summed[0].count("row=") == 2, answer
    assert not any(total in answer for total in GRAND_TOTALS), answer


def test_the_change_of_a_total_of_named_rows_is_the_change_of_their_sum(report: str) -> None:
    answer = cli_answer(CHANGE_ASKED[report])
    first = answer.splitlines()[0]
    assert "150.0" in first and "−7.89%" in first, answer  # 1900.0 -> 1750.0
    assert "计算自" in first and first.count("row=") == 4, first
    assert not any(total in answer for total in GRAND_TOTALS), answer


def test_a_total_asked_alone_is_still_the_total_row(report: str) -> None:
    asked = {"en": "What were the total net sales in fiscal year 2019?", "zh": "2019年净销售额合计是多少？",
             "ja": "2019年の販売額合計は？"}[report]
    answer = cli_answer(asked)
    assert "row=Total" in answer or "合计" in answer or "合計" in answer, answer
    assert "1750.0" not in answer, answer


def test_a_named_row_without_the_year_asked_is_asked_back_not_the_grand_total(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in ingested_in_fresh_domain(monkeypatch, tmp_path, {"report.md": EN}):
        answer = cli_answer("What is the change in total net sales of Pinnacle Foods and Foodservice from "
                            "fiscal year 2018 to 2019?")
        assert "Which figures should be added?" in answer, answer
        assert not any(total in answer for total in GRAND_TOTALS), answer
        assert "1650" not in answer, answer  # the grand total's change


def test_a_share_of_the_grand_total_keeps_the_total_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in ingested_in_fresh_domain(monkeypatch, tmp_path, {"report.md": EN}):
        answer = cli_answer("What is the proportion of the sum of International and Foodservice net sales over "
                            "total net sales in fiscal year 2019?")
        assert "Which figures should be added?" not in answer, answer
        assert " combined: " not in answer, answer  # the total divides: it is not replaced by the parts' sum
