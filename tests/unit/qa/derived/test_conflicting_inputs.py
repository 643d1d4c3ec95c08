"""A figure two documents state differently is an input of no computed figure taken from one side alone.

The stated line says the sources differ and chooses neither; a margin, a ratio or an average over
that input is therefore refused naming the conflict (every figure cited), and a change is given
once per figure, each citing its own. The same amount on another scale, or rounded more coarsely,
is no other side.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.answer import answer_question
from ragspine.qa.differing_figures import same_amount
from ragspine.qa.result import AnswerResult
from tests.unit.qa.derived.statement_set import DOC, statement_fact, statement_facts, statement_qa

OTHER = "Example_FY2024_Flash.md"


def _ask(folder: Path, question: str) -> AnswerResult:
    qa = statement_qa(folder, statement_facts())
    qa.facts.put_conflicts([statement_fact("REVENUE", "2024", 1980, source_doc_id=OTHER)])  # stated is 2000
    return answer_question(question, qa=qa)


@pytest.mark.parametrize(("question", "refusal"), [
    ("What was the operating margin in FY2024?", "the sources state different figures for revenue"),
    ("2024年的营业利润率是多少", "数值不一致"),
    ("2024年度の営業利益率は何%か", "資料間で一致せず"),
])
def test_a_formula_over_a_conflicting_input_is_refused_with_both_figures_cited(folder: Path, question: str,
                                                                              refusal: str) -> None:
    result = _ask(folder, question)
    assert refusal in result.answer
    assert "7.50 PCT" not in result.answer and "7.58 PCT" not in result.answer  # 150/2000 nor 150/1980
    assert f"2000 EUR_M（来源：{DOC} · table=1,row=REVENUE,col=FY2024）" in result.answer
    assert f"1980 EUR_M（来源：{OTHER} · table=1,row=REVENUE,col=FY2024）" in result.answer
    assert {s["doc"] for s in result.sources} >= {DOC, OTHER}


def test_a_change_over_a_conflicting_figure_is_given_for_each_figure(folder: Path) -> None:
    result = _ask(folder, "How did revenue change from FY2023 to FY2024?")
    assert "FY2024 vs FY2023 up 200 EUR_M（+11.11%）" in result.answer  # 2000 - 1800
    assert "FY2024 vs FY2023 up 180 EUR_M（+10.00%）" in result.answer  # 1980 - 1800, citing the other document
    assert f"；{OTHER} · table=1,row=REVENUE,col=FY2024）" in result.answer


def test_question_arithmetic_over_a_conflicting_figure_is_refused(folder: Path) -> None:
    result = _ask(folder, "What was the average revenue in FY2023 and FY2024?")
    assert "is not computed: the sources state different figures for" in result.answer
    assert "1900" not in result.answer and "1890" not in result.answer  # neither side's mean


@pytest.mark.parametrize(("value", "unit"), [(2000, "M"), (2.0, "EUR_B"), (2000, "")])
def test_the_same_amount_on_another_scale_is_no_side_to_choose(folder: Path, value: float, unit: str) -> None:
    qa = statement_qa(folder, statement_facts())
    qa.facts.put_conflicts([statement_fact("REVENUE", "2024", value, unit=unit, source_doc_id=OTHER)])
    result = answer_question("What was the operating margin in FY2024?", qa=qa)
    assert "7.50 PCT" in result.answer  # 150 / 2000: both documents state 2000 EUR_M


@given(st.integers(1, 10**9), st.sampled_from([("JPY_M", "JPY_B", 3), ("USD_K", "USD_M", 3), ("EUR_M", "M", 0)]),
       st.integers(0, 2))
def test_a_coarser_rounding_of_a_figure_is_the_same_figure_and_a_step_off_is_not(amount: int,
                                                                               units: tuple[str, str, int],
                                                                               places: int) -> None:
    fine_unit, coarse_unit, digits = units
    fine = statement_fact("REVENUE", "2024", amount, unit=fine_unit)
    coarse_value = (Decimal(amount) / Decimal(10) ** digits).quantize(Decimal(1).scaleb(-places),
                                                                     rounding=ROUND_HALF_UP)
    coarse = statement_fact("REVENUE", "2024", float(coarse_value), unit=coarse_unit)
    assert same_amount(fine, coarse) and same_amount(coarse, fine)
    step_off = statement_fact("REVENUE", "2024", float(coarse_value + 1), unit=coarse_unit)  # a whole unit off
    assert not same_amount(fine, step_off)
    assert not same_amount(fine, statement_fact("REVENUE", "2024", amount, unit="GBP_M"))  # another currency


def test_a_figure_far_from_the_kept_one_is_another_quantity_and_the_formula_is_computed(folder: Path) -> None:
    # GIVEN a segment table's revenue (a third of the company's) filed under the company's revenue as a conflict
    qa = statement_qa(folder, statement_facts())
    qa.facts.put_conflicts([statement_fact("REVENUE", "2024", 650, source_doc_id=OTHER)])  # stated is 2000
    # WHEN the margin is asked
    result = answer_question("What was the operating margin in FY2024?", qa=qa)
    # THEN it is computed from the figure the fact table keeps, and the far figure takes no side
    assert "7.50 PCT" in result.answer, result.answer
    assert "the sources state different figures for revenue" not in result.answer


def test_a_second_figure_of_the_same_document_is_another_table_s_quantity(folder: Path) -> None:
    # GIVEN the same report filing a second, close revenue figure (another table's) under the company's revenue
    qa = statement_qa(folder, statement_facts())
    qa.facts.put_conflicts([statement_fact("REVENUE", "2024", 1980, source_doc_id=DOC)])  # stated is 2000
    # WHEN the margin is asked
    result = answer_question("What was the operating margin in FY2024?", qa=qa)
    # THEN the kept figure stands for the arithmetic
    assert "7.50 PCT" in result.answer, result.answer


def test_a_figure_the_kept_document_states_too_is_no_disagreement_between_documents(folder: Path) -> None:
    # GIVEN a report stating revenue 2000 (its net sales) and 1980 in another table (its total revenues), and a
    # later report stating the same 1980 for the year (its total revenues): both documents state both figures
    qa = statement_qa(folder, statement_facts())
    qa.facts.put_conflicts([statement_fact("REVENUE", "2024", 1980, source_locator="table=7,row=REVENUE,col=FY2024"),
                            statement_fact("REVENUE", "2024", 1980, source_doc_id=OTHER)])
    # WHEN the margin is asked
    result = answer_question("What was the operating margin in FY2024?", qa=qa)
    # THEN the documents do not disagree: the kept figure stands for the arithmetic
    assert "7.50 PCT" in result.answer, result.answer
    assert "the sources state different figures for revenue" not in result.answer


def test_a_figure_only_the_other_document_states_is_still_a_side(folder: Path) -> None:
    # GIVEN the kept report's second table stating another amount than the other report does
    qa = statement_qa(folder, statement_facts())
    qa.facts.put_conflicts([statement_fact("REVENUE", "2024", 1990, source_locator="table=7,row=REVENUE,col=FY2024"),
                            statement_fact("REVENUE", "2024", 1980, source_doc_id=OTHER)])
    result = answer_question("What was the operating margin in FY2024?", qa=qa)
    # THEN the other report's figure is one the kept report does not state: nothing is computed from either
    assert "the sources state different figures for revenue" in result.answer, result.answer
    assert "7.50 PCT" not in result.answer


def test_a_mean_of_a_computed_figure_refused_gives_no_other_row_s_mean_in_its_place(folder: Path) -> None:
    # GIVEN FY2023 revenue stated differently by two documents, so the FY2023 operating margin is not computed
    qa = statement_qa(folder, statement_facts())
    qa.facts.put_conflicts([statement_fact("REVENUE", "2023", 1790, source_doc_id=OTHER)])  # stated is 1800
    # WHEN the mean of the margin is asked beside another row the question names
    result = answer_question("What was the average operating margin and the average net income in FY2023 and FY2024?",
                             qa=qa)
    # THEN the answer leads with the refused mean, and no other row's mean stands in for it
    assert result.answer.startswith("The Example Group (EXAMPLE_GROUP) operating margin (OPERATING_MARGIN) "
                                    "FY2023–FY2024 average cannot be computed"), result.answer
    assert "average: 90.5" not in result.answer  # (81 + 100) / 2, the net income's mean


@pytest.mark.parametrize(("value", "unit", "said"), [
    (2.0, "EUR_B", "another source states the same amount as 2.0 EUR_B"),
    (-2000, "EUR_M", "another source writes the same amount with the opposite sign: -2000 EUR_M"),
])
def test_the_stated_line_gives_the_same_amount_written_otherwise_without_saying_the_sources_differ(
        folder: Path, value: float, unit: str, said: str) -> None:
    # GIVEN another document stating revenue 2000 EUR_M as 2.0 EUR_B, or as (2,000) by a sign convention
    qa = statement_qa(folder, statement_facts())
    qa.facts.put_conflicts([statement_fact("REVENUE", "2024", value, unit=unit, source_doc_id=OTHER)])
    # WHEN the stated figure is asked
    result = answer_question("What was revenue in FY2024?", qa=qa)
    # THEN both are cited and the answer does not call them two figures
    assert f"2000 EUR_M（来源：{DOC}" in result.answer and f"{said}（来源：{OTHER}" in result.answer, result.answer
    assert "The sources differ" not in result.answer and "different figure" not in result.answer


def test_the_stated_line_still_says_the_sources_differ_beside_a_figure_written_otherwise(folder: Path) -> None:
    qa = statement_qa(folder, statement_facts())
    qa.facts.put_conflicts([statement_fact("REVENUE", "2024", 2.0, unit="EUR_B", source_doc_id=OTHER),
                            statement_fact("REVENUE", "2024", 1980, source_doc_id="Example_FY2024_Release.md")])
    result = answer_question("What was revenue in FY2024?", qa=qa)
    assert "another source states the same amount as 2.0 EUR_B" in result.answer, result.answer
    assert "another source states a different figure: 1980 EUR_M" in result.answer
    assert "The sources differ; neither figure is chosen over the other." in result.answer
