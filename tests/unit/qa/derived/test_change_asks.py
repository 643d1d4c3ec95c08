"""A change line that would answer another question than the one asked is replaced by the reason, with no number."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.model import Fact
from ragspine.facts.open_vocabulary import with_open_terms
from ragspine.qa.answer import QAComponents
from ragspine.qa.change_asks import share_change_unanswered
from ragspine.qa.difference import difference
from ragspine.qa.language import Lang
from ragspine.qa.result import AnswerResult
from ragspine.qa.structured import render_difference
from tests.support.glossary import default_glossary
from tests.unit.qa.derived.statement_set import answered, statement_fact, statement_qa_with_labels


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


def voyage(period: str, value: float) -> Fact:
    return statement_fact("label:voyage expenses", period, value, unit="USD_K")


class TestChangeOfFiguresWrittenAsNegatives:
    """A cost written in parentheses: the signed change and the change by size point opposite ways; both are said."""

    def test_the_change_by_size_is_said_beside_the_signed_one(self, folder: Path) -> None:
        result = ask(statement_qa_with_labels(folder, [voyage("2018", -28237), voyage("2019", -21387)]),
                     "What is the increase/ (decrease) in Voyage expenses from 2018 to 2019?")
        assert ("FY2019 vs FY2018 up 6850 USD_K（−24.26%）; both are written as negatives, so by size down 6850 USD_K"
                "（计算自：") in result.answer, result.answer

    @pytest.mark.parametrize(("lang", "said"), [
        (Lang.ZH, "增加 6850 USD_K（−24.26%）；两者均以负数列示，按绝对值减少 6850 USD_K（计算自："),
        (Lang.JA, "増加 6850 USD_K（−24.26%）；いずれも負の値で記載されており、絶対値では減少 6850 USD_K（计算自："),
    ])
    def test_said_in_the_question_language(self, folder: Path, lang: Lang, said: str) -> None:
        qa = statement_qa_with_labels(folder, [voyage("2018", -28237), voyage("2019", -21387)])
        line = render_difference(difference(voyage("2018", -28237), voyage("2019", -21387)), qa.glossary, lang)
        assert said in line, line

    def test_figures_of_one_sign_get_no_reading_by_size(self, folder: Path) -> None:
        result = ask(statement_qa_with_labels(folder, [voyage("2018", 28237), voyage("2019", 21387)]),
                     "What is the change in Voyage expenses from 2018 to 2019?")
        assert "FY2019 vs FY2018 down 6850 USD_K（−24.26%）（计算自：" in result.answer, result.answer


@given(st.integers(1, 10**7), st.integers(1, 10**7))
def test_the_reading_by_size_goes_the_other_way_from_the_signed_change(earlier: int, later: int) -> None:
    base = default_glossary()
    glossary = with_open_terms(base, [("label:voyage expenses", base.home_entity)])
    first, second = (replace(voyage(year, -value), entity=base.home_entity) for year, value in (("2018", earlier),
                                                                                                ("2019", later)))
    line = render_difference(difference(first, second), glossary, Lang.EN)
    if earlier == later:
        assert "by size" not in line
    else:
        signed = "up" if later < earlier else "down"
        assert f" {signed} {abs(later - earlier)} USD_K" in line
        assert f"by size {'down' if signed == 'up' else 'up'} {abs(later - earlier)} USD_K" in line, line


def segment_result(period: str, value: float) -> Fact:
    return statement_fact("label:segment result", period, value, unit="USD_M")


class TestPercentChangeOfANegativeBase:
    """A loss turned to a profit: the percentage divides by the loss as written, and the answer says so."""

    def test_the_sign_rule_is_said_beside_the_percentage(self, folder: Path) -> None:
        result = ask(statement_qa_with_labels(folder, [segment_result("2018", -762.3), segment_result("2019", 542.0)]),
                     "What was the percentage change in the Segment result between 2018 and 2019?")
        assert ("FY2019 vs FY2018 up 1304.3 USD_M（−171.10%）; the earlier figure is negative: the percentage is the "
                "change divided by it as written, so its sign is the opposite of the change's（计算自：") in result.answer, \
            result.answer

    @pytest.mark.parametrize(("lang", "said"), [
        (Lang.ZH, "增加 1304.3 USD_M（−171.10%）；基期数值为负：百分比为变化额除以基期原值，故其符号与变化方向相反（计算自："),
        (Lang.JA, "増加 1304.3 USD_M（−171.10%）；基準の値が負のため、変化率は変化額を符号のままの基準の値で割ったもので、"
                  "符号は増減と逆になる（计算自："),
    ])
    def test_said_in_the_question_language(self, folder: Path, lang: Lang, said: str) -> None:
        qa = statement_qa_with_labels(folder, [segment_result("2018", -762.3), segment_result("2019", 542.0)])
        line = render_difference(difference(segment_result("2018", -762.3), segment_result("2019", 542.0)), qa.glossary, lang)
        assert said in line, line


@given(st.integers(-10**7, 10**7), st.integers(-10**7, 10**7))
def test_the_sign_rule_is_said_exactly_when_a_negative_base_turns_the_percentage_against_the_change(
        earlier: int, later: int) -> None:
    base = default_glossary()
    glossary = with_open_terms(base, [("label:segment result", base.home_entity)])
    first, second = (replace(segment_result(year, value), entity=base.home_entity) for year, value in (("2018", earlier),
                                                                                                   ("2019", later)))
    line = render_difference(difference(first, second), glossary, Lang.EN)
    said = "the earlier figure is negative" in line
    assert said == (earlier < 0 <= later)
    if said:
        assert " up " in line and "（−" in line  # the change is up and its percentage is negative, as said
