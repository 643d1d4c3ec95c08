"""A change line that would answer another question than the one asked is replaced by the reason, with no number."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.model import Fact
from ragspine.qa.answer import QAComponents
from ragspine.qa.change_asks import share_change_unanswered
from ragspine.qa.result import AnswerResult
from ragspine.qa.structured import difference
from tests.unit.qa.derived.statement_set import answered, finance_domain, statement_fact, statement_qa_with_labels


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return finance_domain(tmp_path_factory.mktemp("change") / "domain")


def ask(qa: QAComponents, question: str) -> AnswerResult:
    return answered(qa, question)


def apac(period: str, value: float) -> Fact:
    return statement_fact("label:net sales: apac", period, value, unit="USD_K")


class TestChangeOfAShare:
    def test_a_share_asked_is_not_answered_with_the_change_of_the_amounts(self, folder: Path) -> None:
        result = ask(statement_qa_with_labels(folder, [apac("2018", 479987), apac("2019", 533340)]),
                     "What was the change in the percentage of sales from APAC to total net sales between 2018 "
                     "and 2019?")
        assert " vs " not in result.answer and "53353" not in result.answer, result.answer
        assert "asks how a share (a percentage of a total) changed" in result.answer
        assert "479987 USD_K（来源" in result.answer  # the stated figures stay, each cited

    def test_figures_beyond_a_hundred_in_no_stated_unit_are_no_share(self, folder: Path) -> None:
        facts = [statement_fact("label:net sales: apac", y, v, unit="") for y, v in (("2017", 288764),
                                                                                     ("2018", 479987))]
        result = ask(statement_qa_with_labels(folder, facts), "What was the change in the percent of total sales from APAC between "
                                             "2017 and 2018?")
        assert " vs " not in result.answer and "asks how a share" in result.answer, result.answer

    def test_percentages_in_no_stated_unit_keep_their_change(self, folder: Path) -> None:
        facts = [statement_fact("label:net sales: apac", y, v, unit="") for y, v in (("2018", 40.0), ("2019", 38.6))]
        result = ask(statement_qa_with_labels(folder, facts), "What was the change in the percentage of sales from APAC between "
                                             "2018 and 2019?")
        assert "FY2019 vs FY2018 down 1.4" in result.answer, result.answer

    def test_a_share_stated_in_percent_keeps_its_change(self, folder: Path) -> None:
        facts = [statement_fact("label:net sales: apac", y, v, unit="PCT") for y, v in (("2018", 40.0),
                                                                                        ("2019", 38.6))]
        result = ask(statement_qa_with_labels(folder, facts), "What was the change in the percentage of sales from APAC between "
                                             "2018 and 2019?")
        assert "FY2019 vs FY2018 down 1.4 points" in result.answer, result.answer

    def test_the_change_of_the_amounts_is_still_given(self, folder: Path) -> None:
        result = ask(statement_qa_with_labels(folder, [apac("2018", 479987), apac("2019", 533340)]),
                     "What was the change in net sales from APAC between 2018 and 2019?")
        assert "FY2019 vs FY2018 up 53353 USD_K" in result.answer


@given(st.integers(-10**8, 10**8).map(lambda n: n / 100), st.integers(-10**8, 10**8).map(lambda n: n / 100),
       st.sampled_from(["EUR_M", "PCT", ""]),
       st.sampled_from(["What is the change in the percentage of X?", "percentage change of X", "X in 2018 and 2019",
                        "the change in the share of X", "X占比的变化", "percentage of X"]))
def test_a_change_is_withheld_only_for_amounts_asked_as_a_share(earlier: float, later: float, unit: str,
                                                                question: str) -> None:
    a = statement_fact("REVENUE", "2018", earlier, unit=unit)
    b = statement_fact("REVENUE", "2019", later, unit=unit)
    withheld = share_change_unanswered(question, difference(a, b))
    if withheld:
        assert unit == "EUR_M" or unit == "" and max(abs(earlier), abs(later)) > 100
        assert "of" in question or "占比" in question
    if question in ("X in 2018 and 2019", "percentage change of X", "percentage of X"):
        assert not withheld
