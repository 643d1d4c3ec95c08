"""Counting periods over a threshold through ``answer_question``: every counted figure cited, no count when unclear."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.model import Fact
from ragspine.qa.answer import answer_question
from ragspine.qa.count_asks import read_count
from ragspine.qa.result import AnswerResult, AnswerStatus
from tests.unit.qa.derived.statement_set import DOC, answered, statement_fact, statement_qa

COMPUTED = re.compile(r"（计算自：([^（）]*)）")


def revenue(values: dict[str, float], unit: str = "EUR_M") -> list[Fact]:
    return [statement_fact("REVENUE", year, value, unit=unit) for year, value in values.items()]


def ask(folder: Path, question: str, facts: list[Fact]) -> AnswerResult:
    return answered(statement_qa(folder, facts), question)


def cited(result: AnswerResult) -> set[str]:
    found = COMPUTED.search(result.answer)
    assert found is not None, result.answer
    return {part.split(" · ")[1] for part in found.group(1).split("；")}


class TestCountOfYears:
    def test_every_stated_year_is_compared_and_cited(self, folder: Path) -> None:
        facts = revenue({"2017": 1500, "2018": 2100, "2019": 2300})
        result = ask(folder, "How many years did revenue exceed 2,000 million?", facts)
        assert "revenue (REVENUE) years above 2,000 million: 2 (FY2019 2300, FY2018 2100; 3 years compared)" in \
            result.answer, result.answer
        assert cited(result) == {f"table=1,row=REVENUE,col=FY{y}" for y in (2017, 2018, 2019)}
        assert {s["locator"] for s in result.sources} == cited(result)
        assert "FY2025" not in result.answer  # no default year is assumed for a count over years
        assert result.status is AnswerStatus.FOUND

    def test_a_threshold_in_another_scale_is_put_on_the_figures_scale(self, folder: Path) -> None:
        facts = revenue({"2018": 2100, "2019": 1900})
        result = ask(folder, "How many years did revenue exceed 2 billion?", facts)
        assert ": 1 (FY2018 2100;" in result.answer, result.answer

    def test_below(self, folder: Path) -> None:
        facts = revenue({"2018": 2100, "2019": 1900, "2020": 1200})
        result = ask(folder, "How many years was revenue below 2,000 million?", facts)
        assert ": 2 (FY2020 1200, FY2019 1900;" in result.answer, result.answer

    def test_a_named_range_counts_only_its_years(self, folder: Path) -> None:
        facts = revenue({"2016": 9000, "2017": 1500, "2018": 2100, "2019": 2300})
        result = ask(folder, "From 2017 to 2019, how many of the years was revenue more than 2,000 million?", facts)
        assert ": 2 (FY2019 2300, FY2018 2100; 3 years compared)" in result.answer, result.answer
        assert "FY2016" not in cited(result).__str__()


class TestNothingCountedWhenUnclear:
    def test_a_year_of_the_range_not_stated(self, folder: Path) -> None:
        facts = revenue({"2017": 1500, "2019": 2300})
        result = ask(folder, "From 2017 to 2019, how many of the years was revenue more than 2,000 million?", facts)
        assert "Nothing is counted: there is no figure for" in result.answer and "FY2018" in result.answer
        assert "计算自" not in result.answer and result.status is AnswerStatus.NOT_FOUND

    def test_a_scaled_threshold_against_figures_in_no_stated_unit(self, folder: Path) -> None:
        facts = revenue({"2018": 2100, "2019": 1900}, unit="")
        result = ask(folder, "How many years did revenue exceed 2,000 thousand?", facts)
        assert "cannot be compared" in result.answer and "计算自" not in result.answer

    def test_a_percentage_against_amounts(self, folder: Path) -> None:
        result = ask(folder, "How many years did revenue exceed 20%?", revenue({"2018": 2100, "2019": 1900}))
        assert "cannot be compared" in result.answer and "计算自" not in result.answer

    def test_a_year_stated_twice_differently(self, folder: Path) -> None:
        qa = statement_qa(folder, revenue({"2018": 2100, "2019": 1900}))
        qa.facts.put_conflicts([statement_fact("REVENUE", "2019", 1950, source_doc_id="Other.md")])
        result = answer_question("How many years did revenue exceed 2,000 million?", qa=qa)
        assert "FY2019 is stated with different values" in result.answer


def test_a_count_of_quarters_counts_quarters_only(folder: Path) -> None:
    facts = [*revenue({"2019": 2300}),
             *(statement_fact("REVENUE", f"2019Q{q}", v, period_type="Q") for q, v in ((1, 500), (2, 650), (3, 700)))]
    result = ask(folder, "How many quarters did revenue exceed 600 million?", facts)
    assert ": 2 (2019Q3 700, 2019Q2 650; 3 quarters compared)" in result.answer, result.answer
    assert DOC in result.answer


@given(st.integers(0, 10**7), st.sampled_from(["", " thousand", " million", "%"]),
       st.sampled_from(["exceed", "exceeded", "more than", "above", "below", "less than"]))
def test_any_threshold_is_read_as_written(number: int, scale: str, op: str) -> None:
    ask_ = read_count(f"How many years did net sales {op} ${number:,}{scale}?")
    assert ask_ is not None
    assert ask_.threshold == Decimal(number) and ask_.scale == scale.strip()
    assert ask_.below is (op in ("below", "less than"))


def test_questions_that_count_no_periods_are_not_read() -> None:
    assert read_count("How many segments does the company report?") is None
    assert read_count("What was revenue in 2019?") is None
