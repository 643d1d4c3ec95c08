"""A question naming no period, about rows the documents state for one fiscal year only, is answered for that year."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.model import Fact
from ragspine.qa.result import AnswerResult, AnswerStatus
from tests.unit.qa.derived.statement_set import answered, finance_domain, statement_fact, statement_qa_with_labels


def row(label: str, figures: dict[str, float], period_type: str = "FY") -> list[Fact]:
    return [statement_fact(f"label:{label}", period, value, unit="USD_K", period_type=period_type,
                           source_locator=f"table=1,row={label},col={period}")
            for period, value in figures.items()]


def ask(folder: Path, facts: list[Fact], question: str) -> AnswerResult:
    return answered(statement_qa_with_labels(folder, facts), question)


# an ageing table dated at one year end only: every row is stated for FY2019 and no other period
AGEING = [*row("gross carrying amount", {"2019": 2832.0}), *row("loss allowance", {"2019": 74.1})]


def test_a_lookup_with_no_period_reads_the_one_year_stated(folder: Path) -> None:
    result = ask(folder, AGEING, "What is the gross carrying amount?")
    assert result.status is AnswerStatus.FOUND
    assert "FY2019 gross carrying amount (label:gross carrying amount): 2832" in result.answer, result.answer
    assert "no period named, so FY2019, the only fiscal year the documents state it for" in result.answer
    assert "last completed fiscal year" not in result.answer


def test_a_ratio_of_two_rows_stated_for_one_year_is_computed_for_it(folder: Path) -> None:
    result = ask(folder, AGEING, "What is the ratio of loss allowance to gross carrying amount?")
    first = result.answer.splitlines()[0]
    assert "FY2019 ratio of loss allowance" in first and "（2.62%）" in first, result.answer
    assert "row=loss allowance,col=2019" in first and "row=gross carrying amount,col=2019" in first


def test_the_reading_is_said_in_japanese(folder: Path) -> None:
    result = ask(folder, AGEING, "gross carrying amountはいくらですか？")
    assert "資料に記載のある唯一の年度 FY2019" in result.answer, result.answer


class TestLeftAsAssumed:
    def test_rows_stated_for_different_years_are_not_read_so(self, folder: Path) -> None:
        # which year the question means is open: the last completed fiscal year stays assumed
        facts = [*row("gross carrying amount", {"2019": 2832.0}), *row("loss allowance", {"2018": 74.1})]
        result = ask(folder, facts, "What is the ratio of loss allowance to gross carrying amount?")
        assert "2019" not in result.answer.splitlines()[0] and "last completed fiscal year" in result.answer

    def test_a_row_stated_for_a_quarter_too_is_not_read_so(self, folder: Path) -> None:
        facts = [*row("gross carrying amount", {"2019": 2832.0}),
                 *row("gross carrying amount", {"2019Q3": 2790.0}, period_type="Q")]
        result = ask(folder, facts, "What is the gross carrying amount?")
        assert "2832" not in result.answer and "last completed fiscal year" in result.answer, result.answer

    def test_a_row_stated_for_two_years_is_not_read_so(self, folder: Path) -> None:
        facts = row("gross carrying amount", {"2018": 2604.0, "2019": 2832.0})
        result = ask(folder, facts, "What is the gross carrying amount?")
        assert "2832" not in result.answer and "2604" not in result.answer, result.answer

    def test_a_named_period_is_kept(self, folder: Path) -> None:
        result = ask(folder, AGEING, "What was the gross carrying amount in FY2018?")
        assert "2832" not in result.answer and "No data" in result.answer, result.answer


@settings(max_examples=15, deadline=None)
@given(year=st.integers(min_value=2010, max_value=2023), value=st.integers(min_value=1, max_value=10**6),
       wording=st.sampled_from(["What is the {row}?", "What was the {row}?", "How much is the {row}?",
                                "Tell me the {row}."]))
def test_any_one_stated_year_is_the_one_answered(tmp_path_factory: pytest.TempPathFactory, year: int, value: int,
                                                 wording: str) -> None:
    folder = finance_domain(tmp_path_factory.mktemp("finance") / "domain")
    result = ask(folder, row("deferred contract costs", {str(year): float(value)}),
                 wording.format(row="deferred contract costs"))
    assert f"FY{year} deferred contract costs (label:deferred contract costs): {value}" in result.answer, \
        result.answer
    assert "the only fiscal year the documents state it for" in result.answer
