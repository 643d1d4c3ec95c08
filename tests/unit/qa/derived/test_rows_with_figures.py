"""Alike rows told apart by whose figures are filed: "South's earnings per ordinary share".

Two tables word a row alike but for its unit mark, "Earnings per ordinary share (cents)" for one company
and "Earnings per ordinary share (€)" for another. A question naming the company, with only one of the
rows holding figures for it in the periods asked, is answered from that row and says so; a question
either row could answer for the company is still asked back.
"""

from __future__ import annotations

from pathlib import Path

from ragspine.facts.model import Fact
from ragspine.facts.open_vocabulary import open_metric_code
from ragspine.qa.answer import QAComponents
from ragspine.qa.result import AnswerStatus
from tests.unit.qa.derived.statement_set import answered, statement_fact, statement_qa_with_labels

CENTS = "Earnings per ordinary share (cents)"
EUROS = "Earnings per ordinary share (€)"


def _row(label: str, entity: str, period: str, value: float, unit: str) -> Fact:
    code = open_metric_code(label)
    assert code is not None
    return statement_fact(code, period, value, unit, entity=entity,
                          source_locator=f"table=1,row={label},col={period}")


FILED = [_row(CENTS, "EXAMPLE_SOUTH", "2023", 41.5, ""), _row(CENTS, "EXAMPLE_SOUTH", "2024", 44.0, ""),
         _row(EUROS, "EXAMPLE_GROUP", "2023", 2.1, "EUR"), _row(EUROS, "EXAMPLE_GROUP", "2024", 2.4, "EUR")]


def _qa(folder: Path, facts: list[Fact]) -> QAComponents:
    return statement_qa_with_labels(folder, facts)


def test_the_row_with_the_named_companys_figures_is_answered(folder: Path) -> None:
    result = answered(_qa(folder, FILED), "What were South's earnings per ordinary share in FY2024?")
    assert result.status is AnswerStatus.FOUND
    assert "44" in result.answer and "2.4" not in result.answer
    assert "the row 'earnings per ordinary share (cents)', the only one with figures for South" in result.answer


def test_a_question_naming_no_company_reads_the_home_groups_row(folder: Path) -> None:
    result = answered(_qa(folder, FILED), "What was the year-over-year change in earnings per ordinary share in FY2024?")
    assert result.status is AnswerStatus.FOUND
    assert "up 0.3 EUR" in result.answer and "44" not in result.answer
    assert "no entity named" in result.answer


def test_a_change_of_the_named_company_is_computed_from_its_row(folder: Path) -> None:
    result = answered(_qa(folder, FILED),
                      "What was the growth in South's earnings per ordinary share from FY2023 to FY2024?")
    assert "up 2.5" in result.answer and "+6.02%" in result.answer
    assert "row=Earnings per ordinary share (cents),col=2023" in result.answer


def test_rows_both_holding_the_companys_figures_are_asked_back(folder: Path) -> None:
    both = [*FILED, _row(EUROS, "EXAMPLE_SOUTH", "2024", 0.44, "EUR")]
    result = answered(_qa(folder, both), "What were South's earnings per ordinary share in FY2024?")
    assert result.status is AnswerStatus.NEEDS_CLARIFICATION
    assert result.clarification is not None and len(result.clarification.options) == 2


def test_no_row_is_chosen_when_neither_has_the_period_asked(folder: Path) -> None:
    # South's row has figures, but not for FY2022; the euro row's company is another: nothing decides
    result = answered(_qa(folder, FILED), "What were South's earnings per ordinary share in FY2022?")
    assert result.status is AnswerStatus.NEEDS_CLARIFICATION


def test_japanese_question_says_the_reading_in_japanese(folder: Path) -> None:
    result = answered(_qa(folder, FILED), "2024年度の南部のearnings per ordinary shareは？")
    assert result.status is AnswerStatus.FOUND
    assert "の数値があるのはこの行だけです" in result.answer
