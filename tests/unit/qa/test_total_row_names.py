"""A question naming the total of a glossary metric ("total sales", 売上高合計) reaches the table's total row of it.

Through ``answer_question`` on a glossary fresh from ``domain init`` (whose revenue is named by
"sales" and "revenue", whose total channel by "total", 合计 and 合計) and the row labels a statement's
tables give: the total row's figures answer, cited at its cell, not the glossary's revenue.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from ragspine.domain.starter import init_domain
from ragspine.facts.model import Fact
from ragspine.qa.answer import QAComponents, answer_question
from tests.unit.qa.derived.statement_set import statement_fact, statement_qa_with_labels


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    domain = tmp_path_factory.mktemp("totals") / "domain"
    init_domain(domain)
    return domain


def rows(values: Mapping[str, tuple[float, float]]) -> list[Fact]:
    """FY2018 and FY2019 figures of open rows, each at its own row and column."""
    return [statement_fact(f"label:{row}", year, value, unit="USD_M",
                           source_locator=f"table=1,row={row},col={year}")
            for row, pair in values.items() for year, value in zip(("2018", "2019"), pair, strict=True)]


SEGMENTS = {"international": (900, 800), "foodservice": (1000, 950), "total net sales": (7938.3, 9538.4)}


def qa(folder: Path, values: Mapping[str, tuple[float, float]]) -> QAComponents:
    return statement_qa_with_labels(folder, rows(values))


class TestTheTotalOfAGlossaryMetric:
    def test_total_sales_is_the_total_net_sales_row(self, folder: Path) -> None:
        result = answer_question("What is the change in total sales from fiscal 2018 to 2019?", qa=qa(folder, SEGMENTS))
        assert result.slots.as_dict()["metric"] == ["label:total net sales"], result.answer
        assert "FY2019 vs FY2018 up 1600.1 USD_M（+20.16%）" in result.answer, result.answer
        assert "table=1,row=total net sales,col=2019" in result.answer

    def test_total_revenue_is_the_revenue_sections_total(self, folder: Path) -> None:
        values = {"revenue: product": (36709, 39005), "revenue: total": (49330, 51904)}
        result = answer_question("What was the total revenue in 2019?", qa=qa(folder, values))
        assert "FY2019 revenue: total (label:revenue: total): 51904 USD_M" in result.answer, result.answer

    def test_a_total_of_something_else_is_not_read(self, folder: Path) -> None:
        values = {"total cost of revenue": (51896, 48881)}
        result = answer_question("What was the total revenue in 2019?", qa=qa(folder, values))
        assert "48881" not in result.answer, result.answer
        assert result.slots.as_dict()["metric"] == ["REVENUE"]

    def test_two_total_rows_of_it_are_not_chosen_between(self, folder: Path) -> None:
        values = {"total net sales": (7938.3, 9538.4), "sales: total net": (100, 120)}
        result = answer_question("What were total sales in 2019?", qa=qa(folder, values))
        assert "9538.4" not in result.answer and "120" not in result.answer, result.answer

    def test_the_total_of_named_rows_is_still_their_sum(self, folder: Path) -> None:
        result = answer_question("What was the total sales of International and Foodservice in fiscal year 2019?",
                                 qa=qa(folder, SEGMENTS))
        assert "1750" in result.answer and "9538.4" not in result.answer, result.answer


@pytest.mark.parametrize(("row", "question"), [
    ("净营业收入合计", "2019年营业收入合计是多少？"),
    ("純売上高合計", "2019年の売上高合計は？"),
])
def test_the_total_word_after_the_metric_in_chinese_and_japanese(folder: Path, row: str, question: str) -> None:
    result = answer_question(question, qa=qa(folder, {row: (7938.3, 9538.4)}))
    assert result.slots.as_dict()["metric"] == [f"label:{row}"], result.answer
    assert "9538.4" in result.answer and f"row={row},col=2019" in result.answer, result.answer
