"""A share asked of rows stated in percent, where the documents state no figure of the whole: the rows are the shares."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.glossary import SlotKind
from ragspine.facts.model import Fact
from ragspine.qa.language import Lang
from ragspine.qa.render import STATED_SHARE, render_assumptions
from ragspine.qa.slots import Assumption
from tests.support.glossary import default_glossary
from tests.unit.qa.derived.statement_set import answered, finance_domain, statement_fact, statement_qa_with_labels


def row(label: str, figures: dict[str, float], unit: str = "PCT") -> list[Fact]:
    return [statement_fact(f"label:{label}", year, value, unit=unit) for year, value in figures.items()]


OEM = row("oem", {"2017": 66, "2018": 65, "2019": 70})
DISTRIBUTION = row("distribution", {"2017": 34, "2018": 35, "2019": 30})


@pytest.mark.parametrize(("question", "said"), [
    ("What is the average percentage of net revenues of OEM?", "oem (label:oem) FY2017–FY2019 average: 67 PCT"),
    ("What is the average percentage of net revenues of Distribution?",
     "distribution (label:distribution) FY2017–FY2019 average: 33 PCT"),
    ("What is the average percentage of net revenues of OEM in 2018 and 2019?",
     "oem (label:oem) FY2018–FY2019 average: 67.5 PCT"),
])
def test_rows_stated_in_percent_are_the_shares_asked(folder: Path, question: str, said: str) -> None:
    result = answered(statement_qa_with_labels(folder, OEM + DISTRIBUTION), question)
    assert said in result.answer and "（计算自：" in result.answer, result.answer
    assert ("read 'percentage of net revenues' as the figures the documents state in percent (they state no "
            "revenue (REVENUE))") in result.answer, result.answer


@pytest.mark.parametrize(("question", "said"), [
    ("What is the total percentage of net revenues of OEM and Distribution in 2019?",
     "FY2019 oem (label:oem) + distribution (label:distribution): 100 PCT"),
    ("What is the sum of the percentage of net revenues from OEM and Distribution in 2018?",
     "FY2018 oem (label:oem) + distribution (label:distribution): 100 PCT"),
])
def test_stated_shares_of_the_parts_named_are_added(folder: Path, question: str, said: str) -> None:
    result = answered(statement_qa_with_labels(folder, OEM + DISTRIBUTION), question)
    assert said in result.answer and "（计算自：" in result.answer, result.answer


def test_a_whole_the_documents_state_keeps_the_ratio_reading(folder: Path) -> None:
    revenue = [statement_fact("REVENUE", year, 1000.0) for year in ("2017", "2018", "2019")]
    result = answered(statement_qa_with_labels(folder, OEM + revenue),
                      "What is the average percentage of net revenues of OEM?")
    assert "state in percent" not in result.answer and "average: 67 PCT" not in result.answer, result.answer


def test_rows_stated_as_amounts_are_no_shares(folder: Path) -> None:
    amounts = row("oem", {"2017": 5549, "2018": 6325, "2019": 6720}, unit="EUR_M")
    result = answered(statement_qa_with_labels(folder, amounts), "What is the average percentage of net revenues of OEM?")
    assert "state in percent" not in result.answer and "6198" not in result.answer, result.answer


@given(st.lists(st.integers(1, 99), min_size=2, max_size=4))
@settings(max_examples=15, deadline=None)
def test_the_mean_of_stated_shares_is_the_mean_of_the_rows_figures(tmp_path_factory: pytest.TempPathFactory,
                                                                  shares: list[int]) -> None:
    years = [str(2019 - i) for i in range(len(shares))]
    facts = row("oem", dict(zip(years, shares, strict=True)))
    result = answered(statement_qa_with_labels(finance_domain(tmp_path_factory.mktemp("shares")), facts),
                      "What is the average percentage of net revenues of OEM?")
    mean = sum(shares) / len(shares)
    shown = float(result.answer.split("average: ")[1].split(" PCT")[0])
    assert abs(shown - mean) <= 0.01, result.answer


@pytest.mark.parametrize(("lang", "said"), [
    (Lang.ZH, "将“percentage of net revenues”理解为文件中以百分比列示的数值（文件中没有营业收入（REVENUE）的数值）"),
    (Lang.JA, "「percentage of net revenues」を資料に百分率で記載された数値と解釈（資料に売上高（REVENUE）の数値はありません）"),
])
def test_the_reading_is_said_in_the_question_language(lang: Lang, said: str) -> None:
    reading = Assumption(SlotKind.METRIC, "REVENUE", "", cue=STATED_SHARE, typed="percentage of net revenues")
    assert said in render_assumptions((reading,), default_glossary(), lang)
