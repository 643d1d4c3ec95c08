"""An average, a sum or a change asked with no period named is computed over every year the documents state."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.model import Fact
from ragspine.qa.result import AnswerResult
from tests.unit.qa.derived.statement_set import answered, finance_domain, statement_fact, statement_qa_with_labels


def row(label: str, figures: dict[str, float]) -> list[Fact]:
    return [statement_fact(f"label:{label}", year, value, unit="USD_M") for year, value in figures.items()]


def ask(folder: Path, facts: list[Fact], question: str) -> AnswerResult:
    return answered(statement_qa_with_labels(folder, facts), question)


SGA = row("selling, general and administrative", {"2017": 384, "2018": 361, "2019": 453})


def test_an_average_with_no_period_is_over_every_year_stated(folder: Path) -> None:
    result = ask(folder, SGA, "What is the average Selling, general and administrative?")
    first = result.answer.splitlines()[0]
    assert "FY2017–FY2019 average: 399.33 USD_M (mean of 3 figures)（计算自：" in first, result.answer
    assert first.count("row=") == 3  # every year's figure cited
    assert "last completed fiscal year" not in result.answer


def test_a_sum_over_all_years_with_no_period_is_over_every_year_stated(folder: Path) -> None:
    result = ask(folder, SGA, "What is the total selling, general and administrative across all 3 years?")
    assert "1198 USD_M" in result.answer.splitlines()[0], result.answer


def test_a_change_with_no_period_is_between_the_two_years_stated(folder: Path) -> None:
    cash = row("closing cash", {"2018": 121.6, "2019": 183.2})
    result = ask(folder, cash, "What was the change in closing cash?")
    assert "FY2019 vs FY2018 up 61.6 USD_M" in result.answer, result.answer


@pytest.mark.parametrize("question", ["What was the difference in closing cash between both FYs?",
                                      "What was the difference in closing cash between the two years?"])
def test_a_difference_between_both_years_is_the_change_between_the_two_stated(folder: Path, question: str) -> None:
    cash = row("closing cash", {"2018": 121.6, "2019": 183.2})
    result = ask(folder, cash, question)
    assert "FY2019 vs FY2018 up 61.6 USD_M" in result.answer, result.answer
    assert "last completed fiscal year" not in result.answer


def test_a_sum_for_both_fys_is_over_the_two_years_stated(folder: Path) -> None:
    cash = row("closing cash", {"2018": 121.6, "2019": 183.2})
    assert "304.8 USD_M" in ask(folder, cash, "What was the total closing cash for both FYs?").answer


class TestLeftAsAssumed:
    def test_a_difference_between_a_row_and_an_unread_name_is_no_change(self, folder: Path) -> None:
        # one side is no row: the difference between two things is not the row's change over the years
        cash = row("closing cash", {"2018": 121.6, "2019": 183.2})
        result = ask(folder, cash, "What was the difference between closing cash and the dividend reserve?")
        assert " vs " not in result.answer, result.answer

    def test_a_change_over_three_stated_years_is_not_guessed(self, folder: Path) -> None:
        result = ask(folder, SGA, "What was the change in selling, general and administrative?")
        assert " vs " not in result.answer and "No data" in result.answer, result.answer

    def test_a_change_word_of_the_row_itself_asks_no_change(self, folder: Path) -> None:
        facts = row("net change in cash balance", {"2018": -5, "2019": 16})
        result = ask(folder, facts, "What was the net change in cash balance?")
        assert " vs " not in result.answer, result.answer

    def test_a_sum_of_figures_all_written_negative_is_not_guessed(self, folder: Path) -> None:
        # signed or by size: the sum's line would say one reading only
        facts = row("allowance for doubtful accounts", {"2018": -15, "2019": -16})
        result = ask(folder, facts, "What is the total allowance for doubtful accounts across both years?")
        assert "31" not in result.answer and "No data" in result.answer, result.answer

    def test_a_named_period_is_kept(self, folder: Path) -> None:
        result = ask(folder, SGA, "What is the average Selling, general and administrative in 2018 and 2019?")
        assert "FY2018–FY2019 average: 407 USD_M" in result.answer, result.answer


class TestFiguresAllWrittenNegative:
    """A deduction written in parentheses every year: the average and the change say both readings."""

    ALLOWANCE = row("allowance for doubtful accounts", {"2018": -15, "2019": -16})

    @pytest.mark.parametrize(("question", "said"), [
        ("What is the average Allowance for doubtful accounts?",
         "FY2018–FY2019 average: -15.5 USD_M (mean of 2 figures); all are written as negatives, so by size 15.5 USD_M"),
        ("allowance for doubtful accounts的平均值是多少？",
         "FY2018–FY2019平均值：-15.5 USD_M（2 个数的平均）；各数均以负数列示，按绝对值为 15.5 USD_M"),
        ("allowance for doubtful accountsの平均はいくらですか？", "FY2018–FY2019の平均：-15.5 USD_M"),
    ])
    def test_the_average_is_over_every_year_stated_signed_and_by_size(self, folder: Path, question: str,
                                                                       said: str) -> None:
        result = ask(folder, self.ALLOWANCE, question)
        first = result.answer.splitlines()[0]
        assert said in first and first.count("row=") == 2, result.answer

    def test_the_change_is_between_the_two_years_signed_and_by_size(self, folder: Path) -> None:
        result = ask(folder, self.ALLOWANCE, "What was the change in allowance for doubtful accounts?")
        assert "FY2019 vs FY2018 down 1 USD_M" in result.answer, result.answer
        assert "so by size up 1 USD_M" in result.answer, result.answer


class TestTwoRowsAveragedWithNoPeriod:
    """"The difference between the average A and average B": each row's mean over the years both state."""

    INCOME = row("investment income", {"2018": 685, "2019": 433})
    COSTS = row("financing costs", {"2018": -1074, "2019": -2088})

    @pytest.mark.parametrize("question", [
        "What is the difference between the average investment income and average financing costs?",
        "平均investment income与平均financing costs的差额是多少？",
        "investment income的平均值与financing costs的平均值相差多少？",  # 平均值 whole: no 值 left as a name
        "investment incomeの平均とfinancing costsの平均の差はいくらですか？",
    ])
    def test_the_gap_of_the_means_cites_every_figure(self, folder: Path, question: str) -> None:
        result = ask(folder, self.INCOME + self.COSTS, question)
        line = next(line for line in result.answer.splitlines() if "2140 USD_M" in line)
        assert "FY2018–FY2019" in line and line.count("row=") == 4, result.answer
        assert "last completed fiscal year" not in result.answer

    def test_rows_stating_different_years_are_not_averaged(self, folder: Path) -> None:
        costs = row("financing costs", {"2017": -900, "2018": -1074, "2019": -2088})
        result = ask(folder, self.INCOME + costs,
                     "What is the difference between the average investment income and average financing costs?")
        assert "2140" not in result.answer and " average: " not in result.answer, result.answer


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 10**6), min_size=2, max_size=5))
def test_a_mean_of_negatives_is_said_signed_and_by_size(tmp_path_factory: pytest.TempPathFactory,
                                                         values: list[int]) -> None:
    folder = finance_domain(tmp_path_factory.mktemp("negative") / "domain")
    figures = {str(2015 + i): -float(v) for i, v in enumerate(values)}
    result = ask(folder, row("realized losses", figures), "What was the average realized losses?")
    first = result.answer.splitlines()[0]
    assert f"(mean of {len(values)} figures); all are written as negatives, so by size " in first, result.answer
    signed = float(first.split("average: ")[1].split(" ")[0])
    by_size = float(first.split("so by size ")[1].split(" ")[0].split("（")[0])
    mean = sum(values) / len(values)
    assert abs(signed + mean) <= 0.01 and abs(by_size - mean) <= 0.01


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 10**6), min_size=2, max_size=5))
def test_the_average_is_the_mean_of_every_stated_year(tmp_path_factory: pytest.TempPathFactory,
                                                     values: list[int]) -> None:
    folder = finance_domain(tmp_path_factory.mktemp("mean") / "domain")
    figures = {str(2015 + i): float(v) for i, v in enumerate(values)}
    result = ask(folder, row("royalty income", figures), "What was the average royalty income?")
    mean = sum(values) / len(values)
    first = result.answer.splitlines()[0]
    assert f"(mean of {len(values)} figures)" in first, result.answer
    shown = float(first.split("average: ")[1].split(" ")[0])
    assert abs(shown - mean) <= 0.01


def test_a_total_with_no_period_and_no_years_named_is_one_years_total(folder: Path) -> None:
    result = ask(folder, SGA, "What is the total selling, general and administrative?")
    assert "1198" not in result.answer, result.answer


class TestOneYearNamedForAFigureOfTwo:
    SCHEMES = row("defined contribution schemes", {"2017": 150, "2018": 166, "2019": 178})
    FEES = row("audit-related fees", {"2018": 106528, "2019": 153203})

    def test_the_year_before_an_average_is_its_opening(self, folder: Path) -> None:
        result = ask(folder, self.SCHEMES, "What is the 2019 average defined contribution schemes?")
        assert "FY2018–FY2019 average: 172 USD_M (mean of 2 figures)（计算自：" in result.answer, result.answer

    DUE = row("amounts falling due within one year", {"2018": 221233, "2019": 243424})

    @pytest.mark.parametrize(("facts", "question", "said"), [
        (DUE, "What is the 2019 average total amounts falling due within one year?", "average: 232328.5 USD_M"),
        (SCHEMES, "What is the 2019 average total defined contribution schemes?", "average: 172 USD_M"),
    ])
    def test_a_total_right_after_the_average_is_what_is_averaged_no_sum(self, folder: Path, facts: list[Fact],
                                                                          question: str, said: str) -> None:
        result = ask(folder, facts, question)
        assert f"FY2018–FY2019 {said} (mean of 2 figures)（计算自：" in result.answer, result.answer

    AFTER = row("amounts falling due after more than one year", {"2018": 2480, "2019": 3439})

    @pytest.mark.parametrize("question", [
        "What is the 2019 average amounts falling due after more than one year?",
        "What is the 2019 average amount falling due after more than one year?",
        "What is the 2019 average of the amount falling due after more than one year?",
        "What is the 2019 average amounts due after more than one year?",  # the row read in other words
        "What is the 2019 average of the amounts that fall due after more than one year?",
    ])
    def test_a_rows_own_more_than_is_no_comparison_asked(self, folder: Path, question: str) -> None:
        # "more than one year" names the row: no ranking of the group's parts, no gap between two rows
        result = ask(folder, self.AFTER, question)
        assert "FY2018–FY2019 average: 2959.5 USD_M (mean of 2 figures)（计算自：" in result.answer, result.answer

    def test_a_change_in_one_year_is_against_the_year_before(self, folder: Path) -> None:
        result = ask(folder, self.FEES, "What is the percentage change in audit-related fees in 2019?")
        assert "FY2019 vs FY2018 up 46675 USD_M（+43.81%）（计算自：" in result.answer, result.answer

    def test_in_chinese_a_change_in_one_year_is_against_the_year_before(self, folder: Path) -> None:
        result = ask(folder, self.FEES, "2019年audit-related fees的变化是多少？")
        assert "FY2019 较 FY2018 增加 46675 USD_M（+43.81%）（计算自：" in result.answer, result.answer

    BENEFIT = row("defined benefit schemes", {"2017": 20, "2018": 44, "2019": 57})

    @pytest.mark.parametrize(("question", "said"), [
        ("What is the difference between 2019 average defined contribution schemes and 2019 average defined "
         "benefit schemes?", "FY2018–FY2019 average defined contribution schemes (label:defined contribution schemes) "
                             "minus average defined benefit schemes (label:defined benefit schemes): 121.5 USD_M"),
        ("2019 平均 defined contribution schemes 与 2019 平均 defined benefit schemes 的差额是多少？", "121.5 USD_M"),
    ])
    def test_two_rows_each_averaged_over_its_year_and_the_year_before(self, folder: Path, question: str,
                                                                      said: str) -> None:
        result = ask(folder, self.SCHEMES + self.BENEFIT, question)
        line = next(line for line in result.answer.splitlines() if said in line)
        assert line.count("row=") == 4 and "FY2017" not in line, result.answer  # both years of both rows cited

    def test_two_rows_averaged_need_the_year_before_for_both(self, folder: Path) -> None:
        benefit = row("defined benefit schemes", {"2019": 57})
        result = ask(folder, self.SCHEMES + benefit, "What is the difference between 2019 average defined "
                                                     "contribution schemes and 2019 average defined benefit schemes?")
        assert "121.5" not in result.answer and "172" not in result.answer, result.answer

    def test_an_average_in_a_year_is_no_average_of_two_years(self, folder: Path) -> None:
        # "the average … in 2019" may be over that year's quarters: the year before is not taken
        result = ask(folder, self.SCHEMES, "What is the average defined contribution schemes in 2019?")
        assert "FY2018–FY2019" not in result.answer and "172 " not in result.answer, result.answer

    def test_no_year_before_stated_leaves_the_one_year(self, folder: Path) -> None:
        result = ask(folder, self.FEES, "What is the percentage change in audit-related fees in 2018?")
        assert " vs " not in result.answer and "46675" not in result.answer, result.answer


class TestAChangeAcrossARange:
    """"From 2017 to 2019": a change across a range of years is between its two ends."""

    FUNDING = row("research and development funding", {"2017": 65, "2018": 52, "2019": 132})

    @pytest.mark.parametrize(("question", "said"), [
        ("What is the increase/ (decrease) in Research and development funding from 2017 to 2019?",
         "FY2019 vs FY2017 up 67 USD_M（+103.08%）（计算自："),
        ("What was the percentage change in research and development funding from FY2017 to FY2019?",
         "FY2019 vs FY2017 up 67 USD_M（+103.08%）（计算自："),
        ("2017年至2019年research and development funding的变化是多少？", "FY2019 较 FY2017 增加 67 USD_M（+103.08%）（计算自："),
        ("2017年度から2019年度までのresearch and development fundingの増減は？",
         "FY2019 は FY2017 比 増加 67 USD_M（+103.08%）（计算自："),
    ])
    def test_the_change_is_between_the_ends_and_cites_both(self, folder: Path, question: str, said: str) -> None:
        result = ask(folder, self.FUNDING, question)
        line = next(line for line in result.answer.splitlines() if said in line)
        assert "col=FY2017" in line and "col=FY2019" in line and "col=FY2018" not in line, result.answer
        assert "52 USD_M" not in result.answer, result.answer  # the year inside the range is no input

    def test_an_average_across_the_range_is_over_every_year(self, folder: Path) -> None:
        result = ask(folder, self.FUNDING, "What is the average research and development funding from 2017 to 2019?")
        assert "FY2017–FY2019 average: 83 USD_M (mean of 3 figures)" in result.answer, result.answer

    def test_three_years_listed_are_no_range(self, folder: Path) -> None:
        result = ask(folder, self.FUNDING,
                     "What was the change in research and development funding in 2017, 2018 and 2019?")
        assert " vs FY2017" not in result.answer, result.answer


@settings(max_examples=15, deadline=None)
@given(st.integers(2005, 2020), st.lists(st.integers(-10**6, 10**6), min_size=3, max_size=6))
def test_a_change_across_a_range_is_the_last_year_less_the_first(tmp_path_factory: pytest.TempPathFactory,
                                                                  first: int, values: list[int]) -> None:
    folder = finance_domain(tmp_path_factory.mktemp("range") / "domain")
    last = first + len(values) - 1
    figures = {str(first + i): float(v) for i, v in enumerate(values)}
    result = ask(folder, row("royalty income", figures), f"What was the change in royalty income from {first} to {last}?")
    line = next(line for line in result.answer.splitlines() if f"FY{last} vs FY{first} " in line)
    direction, amount = line.split(f"FY{last} vs FY{first} ")[1].split(" ")[:2]
    gap = values[-1] - values[0]
    said = float(amount.split("（")[0]) if direction != "unchanged" else 0.0
    assert said == abs(gap) and direction == ("up" if gap > 0 else "down" if gap < 0 else "unchanged"), line


def test_a_change_between_split_years_is_between_the_years_they_end_in(folder: Path) -> None:
    ebit = row("earnings before interest and taxes", {"2018": 713, "2019": 828})
    result = ask(folder, ebit, "What was the change in earnings before interest and taxes in 2018/2019 from 2017/2018?")
    assert "FY2019 vs FY2018 up 115 USD_M（+16.13%）（计算自：" in result.answer, result.answer
