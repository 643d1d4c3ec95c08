"""Averages compared: the change of one row's average between two year spans, the gap of two rows' averages.

"The change in the average current tax expense between 2017-2018 and 2018-2019" asks for the mean of
2018 and 2019 minus the mean of 2017 and 2018; "the difference between average salaries and average
incentive schemes from 2018 to 2019" for the mean of one row over those years minus the other's.
Each is asked through ``answer_question``; the computed line cites every cell it averages, and each
row's own year-on-year change (another question) is not shown beside it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.result import AnswerResult
from tests.unit.qa.derived.statement_set import answered, statement_fact, statement_qa_with_labels

COMPUTED = re.compile(r"（计算自：([^（）]*)）")
VALUE = re.compile(r"[：:]\s*(-?[\d.]+) USD_K")


def table_qa(folder: Path, rows: Mapping[str, Mapping[str, float]]) -> QAComponents:
    """Each row's figures as cells of one table, a column per year."""
    facts = [statement_fact(f"label:{row}", year, value, unit="USD_K", source_locator=f"table=1,row={row},col={year}")
             for row, years in rows.items() for year, value in years.items()]
    return statement_qa_with_labels(folder, facts)


def computed_line(result: AnswerResult) -> tuple[str, set[str]]:
    """The one computed line and the cells it cites (each among the answer's sources)."""
    lines = [line for line in result.answer.splitlines() if "（计算自：" in line]
    assert len(lines) == 1, result.answer
    match = COMPUTED.search(lines[0])
    assert match is not None
    cited = set(match.group(1).split("；"))
    assert cited <= {f"{s['doc']} · {s['locator']}" for s in result.sources}
    return lines[0], {c.split(" · ")[1] for c in cited}


def asked(qa: QAComponents, question: str) -> AnswerResult:
    """The answer, whatever it says (abstentions included)."""
    return answer_question(question, qa=qa)


TAX = {"current tax expense": {"2017": 950, "2018": 1018, "2019": 1062}}
PAY = {"salaries and fees": {"2018": 4, "2019": 4}, "incentive schemes": {"2018": 3, "2019": 2}}


class TestChangeOfOneAverage:
    @pytest.mark.parametrize("question", [
        "What is the change in the average current tax expense between 2017-2018, and 2018-2019?",
        "What is the change in the average current tax expense between 2018-2019 and 2017-2018?",
        "What was the change in average current tax expense from 2017–2018 to 2018–2019?",
    ])
    def test_the_later_span_mean_minus_the_earlier(self, folder: Path, question: str) -> None:
        line, cells = computed_line(answered(table_qa(folder, TAX), question))
        assert "change of the average (2018–2019 against 2017–2018): 56 USD_K (means 1040 and 984)" in line, line
        assert cells == {f"table=1,row=current tax expense,col={y}" for y in ("2017", "2018", "2019")}

    @pytest.mark.parametrize(("rows", "question", "said"), [
        ({"当期所得税费用": {"2017": 950, "2018": 1018, "2019": 1062}},
         "当期所得税费用在2017年至2018年与2018年至2019年的平均值变化是多少？",
         "平均值的变化（2018–2019 较 2017–2018）：56 USD_K"),
        ({"当期税金費用": {"2017": 950, "2018": 1018, "2019": 1062}},
         "当期税金費用の2017年～2018年と2018年～2019年の平均の変化はいくらか。",
         "の平均の変化（2018–2019 の 2017–2018 に対する）：56 USD_K"),
    ])
    def test_in_chinese_and_japanese(self, folder: Path, rows: Mapping[str, Mapping[str, float]], question: str,
                                     said: str) -> None:
        line, cells = computed_line(answered(table_qa(folder, rows), question))
        assert said in line, line
        assert len(cells) == 3

    @settings(max_examples=15, deadline=None)
    @given(st.lists(st.integers(min_value=-5000, max_value=5000), min_size=3, max_size=3))
    def test_the_figure_is_half_the_gap_of_the_outer_years(self, folder: Path, values: list[int]) -> None:
        rows = {"current tax expense": dict(zip(("2017", "2018", "2019"), values, strict=True))}
        line, _ = computed_line(answered(table_qa(folder, rows), "What is the change in the average current tax "
                                                                 "expense between 2017-2018, and 2018-2019?"))
        said = VALUE.search(line)
        assert said is not None, line
        assert Decimal(said.group(1)) == Decimal(values[2] - values[0]) / 2

    def test_a_year_not_found_gives_no_figure(self, folder: Path) -> None:
        rows = {"current tax expense": {"2018": 1018, "2019": 1062}}
        result = asked(table_qa(folder, rows), "What is the change in the average current tax "
                                                               "expense between 2017-2018, and 2018-2019?")
        assert "cannot be computed: there is no figure for" in result.answer and "2017" in result.answer
        assert "USD_K (means" not in result.answer

    def test_a_percentage_change_of_averages_is_not_this_figure(self, folder: Path) -> None:
        result = asked(table_qa(folder, TAX), "What is the percentage change in the average current "
                                                              "tax expense between 2017-2018, and 2018-2019?")
        assert "(means" not in result.answer and "56" not in result.answer, result.answer


class TestGapOfTwoAverages:
    def test_each_row_averaged_over_the_same_years(self, folder: Path) -> None:
        result = answered(table_qa(folder, PAY), "What is the difference between average salaries and fees and "
                                                 "average incentive schemes from 2018 to 2019?")
        line, cells = computed_line(result)
        assert "FY2018–FY2019 average salaries and fees (label:salaries and fees) minus average incentive schemes " \
               "(label:incentive schemes): 1.5 USD_K (salaries and fees (label:salaries and fees) above" in line, line
        assert "means 4 and 2.5" in line
        assert len(cells) == 4
        assert " vs " not in result.answer  # each row's own change answers another question

    def test_the_size_and_which_is_below_whichever_row_comes_first(self, folder: Path) -> None:
        line, _ = computed_line(answered(table_qa(folder, PAY), "What is the difference between average incentive "
                                                                "schemes and average salaries and fees from 2018 to "
                                                                "2019?"))
        assert ": 1.5 USD_K (incentive schemes (label:incentive schemes) below salaries and fees" in line, line

    def test_one_average_said_of_two_rows_computes_nothing(self, folder: Path) -> None:
        result = asked(table_qa(folder, PAY), "What is the difference between the average of "
                                                              "salaries and fees and incentive schemes from 2018 to "
                                                              "2019?")
        assert "1.5" not in result.answer, result.answer

