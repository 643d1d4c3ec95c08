"""A change asked in the words people use is computed, never read as the name of a company."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.qa.derived.statement_set import answered, statement_facts, statement_qa

# operating income FY2023 126, FY2024 150: up 24 (+19.05%)
CHANGE = ("24 EUR_M", "+19.05%")


@pytest.mark.parametrize("question", [
    "What was the growth in operating income in FY2024?",  # one year named: against the year before
    "2024年营业利润同比增长多少",
    "2024年营业利润同比增长率是多少",
    "2024年营业利润增长了多少",
    "2024年度の営業利益は前年同期比何%増えたか",
    "2024年度の営業利益を2023年度と比べるとどう変化したか",
    "2024年度の営業利益は前期比でどう変化したか",
])
def test_a_change_in_chinese_or_japanese_words_is_computed(folder: Path, question: str) -> None:
    answer = answered(statement_qa(folder, statement_facts()), question).answer
    assert all(part in answer for part in CHANGE), answer
    assert "认识" not in answer and "認識できません" not in answer and "无法识别" not in answer


def test_a_growth_of_a_year_with_no_year_before_stated_says_it_cannot_be_computed(folder: Path) -> None:
    answer = answered(statement_qa(folder, statement_facts()), "What was the growth in revenue in FY2021?").answer
    assert "a growth needs two periods" in answer and "1500" not in answer  # never the year's figure instead


@pytest.mark.parametrize("question", ["How much did cost of sales grow in FY2024 in %?",
                                      "By how much did cost of sales grow in FY2024?",
                                      "How much has cost of sales grown in FY2024?"])
def test_a_growth_asked_with_the_verb_is_never_answered_with_one_year(folder: Path, question: str) -> None:
    # cost of sales is stated for FY2024 only: no year before, so no growth, and not the year's 1200 instead
    answer = answered(statement_qa(folder, statement_facts()), question).answer
    assert "a growth needs two periods" in answer and "1200" not in answer, answer


def test_the_verb_with_the_year_before_stated_gives_the_change(folder: Path) -> None:
    answer = answered(statement_qa(folder, statement_facts()), "How much did revenue grow in FY2024 in %?").answer
    assert "FY2024 vs FY2023 up 200 EUR_M（+11.11%）" in answer, answer
