"""Amounts whose document states no unit: no currency is assumed, and they are computed only with their like."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.facts.glossary import Glossary
from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import ExtractionResult, extract_facts, primary_facts
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.qa.answer import REJECTED, answer_question
from tests.support.glossary import default_glossary
from tests.unit.qa.derived.statement_set import (
    answered,
    statement_fact,
    statement_facts,
    statement_qa,
    statement_qa_with_labels,
)


def _table(doc_id: str, *rows: tuple[str, ...], caption: str = "") -> ParsedDocument:
    block = Block(BlockKind.TABLE, "t", "table=1", ("ACME_HK",), rows, (), caption)
    return ParsedDocument(doc_id, "Key figures", "text/markdown", (block,))


def _extract(doc: ParsedDocument, glossary: Glossary | None = None) -> ExtractionResult:
    return extract_facts(doc, glossary=glossary or default_glossary(), source_file_hash="sha256:00")


def test_a_table_stating_no_unit_keeps_its_amounts_in_no_currency() -> None:
    result = _extract(_table("plain.md", ("Metric", "FY2024"), ("Revenue", "1,320")))
    assert [(f.metric_code, f.value, f.unit) for f in result.facts] == [("REVENUE", 1320, "")]


def test_a_table_stating_its_unit_keeps_it() -> None:
    result = _extract(_table("stated.md", ("Metric", "FY2024"), ("Revenue", "1,320"), caption="Unit: USD_M"))
    assert [(f.metric_code, f.value, f.unit) for f in result.facts] == [("REVENUE", 1320, "USD_M")]


@pytest.mark.parametrize("order", [("plain.md", "stated.md"), ("stated.md", "plain.md")])
def test_the_same_figure_stated_with_and_without_its_unit_is_one_figure_in_that_unit(order: tuple[str, str]) -> None:
    docs = {"plain.md": _table("plain.md", ("Metric", "FY2024"), ("Revenue", "1,320")),
            "stated.md": _table("stated.md", ("Metric", "FY2024"), ("Revenue", "1,320"), caption="Unit: USD_M")}
    merged = primary_facts([_extract(docs[name]) for name in order])
    assert [(f.value, f.unit, f.source_doc_id) for f in merged.facts] == [(1320, "USD_M", "stated.md")]
    assert merged.warnings == ()  # not a conflict between documents


def test_a_different_figure_without_a_unit_is_still_a_conflict() -> None:
    merged = primary_facts([_extract(_table("stated.md", ("Metric", "FY2024"), ("Revenue", "1,320"),
                                            caption="Unit: USD_M")),
                            _extract(_table("plain.md", ("Metric", "FY2024"), ("Revenue", "1,400")))])
    assert [(f.value, f.unit) for f in merged.facts] == [(1320, "USD_M")]
    assert len(merged.warnings) == 1


def _unstated(*metrics: str) -> list[Fact]:
    """The statement set with ``metrics`` of FY2024 in no stated unit."""
    facts = statement_facts()
    return [statement_fact(f.metric_code, f.period, f.value, unit="") if f.period == "2024" and f.metric_code in metrics
            else f for f in facts]


ALL_2024 = ("REVENUE", "OPERATING_INCOME", "OPERATING_CASH_FLOW", "CAPEX", "NET_INCOME", "TOTAL_ASSETS",
            "NET_ASSETS", "COST_OF_SALES", "GROSS_PROFIT", "NET_INCOME_OWNERS", "CURRENT_ASSETS", "INVENTORIES",
            "CURRENT_LIABILITIES", "TOTAL_LIABILITIES")


def test_a_ratio_of_two_amounts_in_the_same_unstated_unit_is_computed(folder: Path) -> None:
    result = answer_question("What was the operating margin in FY2024?", qa=statement_qa(folder, _unstated(*ALL_2024)))
    assert "7.50 PCT" in result.answer, result.answer


def test_an_amount_of_unstated_amounts_is_given_in_no_currency(folder: Path) -> None:
    result = answer_question("free cash flow FY2024", qa=statement_qa(folder, _unstated(*ALL_2024)))
    assert "free cash flow (FREE_CASH_FLOW): 140 (computed as" in result.answer, result.answer
    assert "EUR_M" not in result.answer.splitlines()[0]


@pytest.mark.parametrize(("question", "said"), [("What was the operating margin in FY2024?", "unit not stated"),
                                                ("2024年度の営業利益率は？", "単位の記載なし")])
def test_an_unstated_amount_beside_one_in_a_currency_is_not_computed(folder: Path, question: str, said: str) -> None:
    result = answer_question(question, qa=statement_qa(folder, _unstated("OPERATING_INCOME")))
    assert "7.50" not in result.answer and said in result.answer and "EUR_M" in result.answer, result.answer


def test_question_arithmetic_never_mixes_an_unstated_amount_with_one_in_a_currency(folder: Path) -> None:
    result = answer_question("What is revenue minus cost of sales in FY2024?",
                             qa=statement_qa(folder, _unstated("COST_OF_SALES")))
    assert result.answer not in REJECTED.values()
    assert "800" not in result.answer and "unit not stated" in result.answer, result.answer


def _cell(label: str, period: str, value: float, unit: str, **extra: object) -> Fact:
    return statement_fact(f"label:{label}", period, value, unit=unit, **extra)


class TestOneTableRowInOneUnit:
    """A unit note heading one column group only: the row's other cells are in that unit, and the answer says so."""

    SERVICES = [_cell("cost of revenue: services", "2018", 246548, "USD_K"),
                _cell("cost of revenue: services", "2019", 243053, "")]

    @pytest.mark.parametrize(("question", "said"), [
        ("What was the average cost of revenue: services for 2018 and 2019?",
         "FY2018–FY2019 average: 244800.5 USD_K (mean of 2 figures) (FY2019 states no unit: read in USD_K, "
         "the unit the same table row states)（计算自："),
        ("2018年和2019年cost of revenue: services的平均值是多少？",
         "平均值：244800.5 USD_K（2 个数的平均）（FY2019 未注明单位，按同一表格同一行其他数值的单位 USD_K 计）（计算自："),
    ])
    def test_a_cell_stating_no_unit_is_read_in_the_unit_of_its_row(self, folder: Path, question: str,
                                                                    said: str) -> None:
        result = answered(statement_qa_with_labels(folder, self.SERVICES), question)
        assert said in result.answer, result.answer

    def test_cells_of_two_documents_keep_their_own_units(self, folder: Path) -> None:
        facts = [self.SERVICES[0], _cell("cost of revenue: services", "2019", 243053, "", source_doc_id="other.md")]
        result = answered(statement_qa_with_labels(folder, facts),
                          "What was the average cost of revenue: services for 2018 and 2019?")
        assert "244800.5" not in result.answer and "the units differ (unit not stated, USD_K)" in result.answer, \
            result.answer

    def test_an_average_of_figures_written_as_negatives_is_said_by_size_too(self, folder: Path) -> None:
        facts = [_cell("voyage expenses", "2018", -6442, "USD_K"), _cell("voyage expenses", "2019", -17334, "USD_K")]
        result = answered(statement_qa_with_labels(folder, facts),
                          "What was the average voyage expenses for 2018 and 2019?")
        assert ("average: -11888 USD_K (mean of 2 figures); all are written as negatives, so by size 11888 USD_K"
                "（计算自：") in result.answer, result.answer
