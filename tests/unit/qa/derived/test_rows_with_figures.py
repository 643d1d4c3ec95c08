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
from ragspine.qa.trace import question_digest
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


DIVIDEND_CENTS = "Dividend per ordinary share (cents)"
DIVIDEND_EUROS = "Dividend per ordinary share (€)"
BOTH_SIDES = [*FILED, _row(DIVIDEND_CENTS, "EXAMPLE_SOUTH", "2024", 11.0, ""),
              _row(DIVIDEND_EUROS, "EXAMPLE_GROUP", "2024", 0.6, "EUR")]


def test_a_ratio_of_two_alike_rows_is_computed_from_the_named_companys_rows(folder: Path) -> None:
    # both sides of "to" fit a (cents) and a (€) row: each is told apart by South's figures
    result = answered(_qa(folder, BOTH_SIDES),
                      "What was the ratio of South's dividend per ordinary share to earnings per ordinary share "
                      "in FY2024?")
    assert result.status is AnswerStatus.FOUND
    assert "0.25" in result.answer  # 11.0 / 44.0
    assert "row=Dividend per ordinary share (cents),col=2024" in result.answer
    assert "row=Earnings per ordinary share (cents),col=2024" in result.answer
    assert "0.6" not in result.answer and "2.4" not in result.answer
    assert "the row 'dividend per ordinary share (cents)', the only one with figures for South" in result.answer
    assert "the row 'earnings per ordinary share (cents)', the only one with figures for South" in result.answer


def test_a_ratio_is_asked_back_when_one_side_stays_in_doubt(folder: Path) -> None:
    # South states its dividend in both rows: that side is not told apart, so no ratio is computed
    doubt = [*BOTH_SIDES, _row(DIVIDEND_EUROS, "EXAMPLE_SOUTH", "2024", 0.11, "EUR")]
    result = answered(_qa(folder, doubt),
                      "What was the ratio of South's dividend per ordinary share to earnings per ordinary share "
                      "in FY2024?")
    assert result.status is AnswerStatus.NEEDS_CLARIFICATION
    assert result.clarification is not None
    assert {option.label for option in result.clarification.options} == {"dividend per ordinary share (cents)",
                                                                          "dividend per ordinary share (€)"}


def test_the_trace_is_the_questions_own_with_the_rows_reading_added(folder: Path) -> None:
    question = "What were South's earnings per ordinary share in FY2024?"
    result = answered(_qa(folder, FILED), question)
    assert result.trace["question_sha256"] == question_digest(question)  # the question asked, not the rewritten one
    decisions = result.trace["decisions"]
    assert isinstance(decisions, list)
    # the question asked back which row, the one row with figures read, then how its answer was reached
    assert decisions == ["clarify:ask_metric", "structured:row_with_figures", "provenance:pass"]
    assert result.trace["status"] == str(AnswerStatus.FOUND)
    assert result.trace["fact_ids"]
