"""Figures compared across rows of one period, not across periods: a difference of two rows, a share of a total.

"The difference in net sales between APAC and EMEA in 2019" asks for the gap between two rows of
one year; "what percentage of the total income before taxes is Swiss income" names its whole with
its own word "total", though the row ("Income before taxes") says none. Rows of one table that
states no period are of one period too, so they may be compared, never rows of two such tables.
Each is asked through ``answer_question``, and every computed figure cites both cells.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.domain.starter import init_domain
from ragspine.facts.model import UNDATED
from ragspine.qa.answer import QAComponents
from ragspine.qa.result import AnswerResult
from tests.unit.qa.derived.statement_set import DOC, answered, statement_fact, statement_qa_with_labels

COMPUTED = re.compile(r"（计算自：([^（）]*)）")


def rows_qa(folder: Path, rows: Mapping[str, float], *, period: str = "2019", unit: str = "USD_K") -> QAComponents:
    """The rows as cells of one table's column of ``period`` ("" for a table stating no period)."""
    facts = [statement_fact(f"label:{row}", period, value, unit=unit,
                            source_locator=f"table=1,row={row},col={period or 'Fair value amount'}",
                            **({"period_type": UNDATED} if not period else {}))
             for row, value in rows.items()]
    return statement_qa_with_labels(folder, facts)


def computed_line(result: AnswerResult, marker: str = "") -> tuple[str, set[str]]:
    """The one computed line (holding ``marker``) and the cells it cites (each among the answer's sources)."""
    lines = [line for line in result.answer.splitlines() if "（计算自：" in line and marker in line]
    assert len(lines) == 1, result.answer
    match = COMPUTED.search(lines[0])
    assert match is not None
    cells = {part.split(" · ")[1] for part in match.group(1).split("；")}
    assert {f"{DOC} · {c}" for c in cells} <= {f"{s['doc']} · {s['locator']}" for s in result.sources}
    return lines[0], cells


SALES = {"net sales: apac": 533340, "net sales: emea": 315535, "net sales: americas": 402000}


class TestDifferenceOfTwoRows:
    def test_the_gap_between_two_rows_of_one_year(self, folder: Path) -> None:
        result = answered(rows_qa(folder, SALES), "What was the difference in the net sales in 2019 between APAC "
                                                  "and EMEA?")
        line, cells = computed_line(result)
        assert "FY2019 difference between net sales: apac (label:net sales: apac) and net sales: emea " \
               "(label:net sales: emea): 217805 USD_K (net sales: apac (label:net sales: apac) above" in line, line
        assert cells == {"table=1,row=net sales: apac,col=2019", "table=1,row=net sales: emea,col=2019"}

    def test_the_size_whichever_row_is_named_first(self, folder: Path) -> None:
        line, _ = computed_line(answered(rows_qa(folder, SALES), "What is the difference between EMEA and APAC net "
                                                                 "sales in 2019?"))
        assert ": 217805 USD_K (net sales: emea (label:net sales: emea) below net sales: apac" in line, line

    @pytest.mark.parametrize(("rows", "question", "said"), [
        ({"国内收入": 1200, "海外收入": 450}, "2019年国内收入与海外收入相差多少？", "国内收入（label:国内收入）与海外收入（label:海外收入）之差：750 USD_K"),
        ({"国内收入": 1200, "海外收入": 450}, "2019年国内收入与海外收入之差是多少？", "国内收入（label:国内收入）与海外收入（label:海外收入）之差：750 USD_K"),
        ({"国内売上高": 1200, "海外売上高": 450}, "2019年度の国内売上高と海外売上高の差はいくらか。",
         "国内売上高（label:国内売上高）と海外売上高（label:海外売上高）の差：750 USD_K"),
    ])
    def test_in_chinese_and_japanese(self, folder: Path, rows: Mapping[str, float], question: str, said: str) -> None:
        line, cells = computed_line(answered(rows_qa(folder, rows), question))
        assert said in line, line
        assert len(cells) == 2

    def test_a_percentage_difference_is_no_gap(self, folder: Path) -> None:
        result = answered(rows_qa(folder, SALES), "What is the percentage difference between APAC and EMEA net sales "
                                                  "in 2019?")
        assert "217805" not in result.answer, result.answer

    def test_two_years_ask_for_a_change_not_a_gap_of_rows(self, folder: Path) -> None:
        facts = [statement_fact(f"label:{row}", year, value, unit="USD_K") for row in ("net sales: apac",
                                                                                      "net sales: emea")
                 for year, value in (("2018", 100), ("2019", 130))]
        result = answered(statement_qa_with_labels(folder, facts), "What was the difference in the net sales between "
                                                                   "APAC and EMEA in 2018 and 2019?")
        assert "difference between" not in result.answer, result.answer

    @settings(max_examples=15, deadline=None)
    @given(first=st.decimals(min_value=-10**6, max_value=10**6, places=1),
           second=st.decimals(min_value=-10**6, max_value=10**6, places=1))
    def test_the_gap_is_the_size_and_the_side_says_which_is_above(self, folder: Path, first: Decimal,
                                                                  second: Decimal) -> None:
        qa = rows_qa(folder, {"net sales: apac": float(first), "net sales: emea": float(second)})
        line, _ = computed_line(answered(qa, "What was the difference between APAC and EMEA net sales in 2019?"))
        size = abs(first - second)
        shown = re.search(r": ([\d.]+) USD_K \((.*?)\)（", line)
        assert shown is not None, line
        assert Decimal(shown.group(1)) == size
        side = "above" if first > second else "below" if first < second else "level with"
        assert shown.group(2).startswith(f"net sales: apac (label:net sales: apac) {side} "), line


INCOME = {"swiss": 212986, "non-swiss": 58147, "income before taxes": 271133}


class TestShareOfATotalTheQuestionNames:
    @pytest.mark.parametrize("question", [
        "What percentage of the total income before taxes does Swiss income form a part of in 2019?",
        "What is the percentage of Swiss in the total income before taxes in 2019?",
    ])
    def test_the_row_called_the_total_is_the_whole(self, folder: Path, question: str) -> None:
        line, cells = computed_line(answered(rows_qa(folder, INCOME, unit=""), question))
        assert "ratio of swiss (label:swiss) to income before taxes (label:income before taxes): 78.55%" in line, line
        assert cells == {"table=1,row=swiss,col=2019", "table=1,row=income before taxes,col=2019"}

    @pytest.mark.parametrize("question", [
        "What is the percentage of Swiss in income before taxes in 2019?",
        "What is the percentage constitution of Swiss in the income before taxes in 2019?",
        "What was the share of swiss in income before taxes in 2019?",
    ])
    def test_the_row_a_part_is_named_in_is_the_whole(self, folder: Path, question: str) -> None:
        # GIVEN two rows, neither called a total; WHEN the share of one "in" the other is asked
        line, cells = computed_line(answered(rows_qa(folder, INCOME, unit=""), question))

        # THEN the row named after "in" is the whole that divides
        assert "ratio of swiss (label:swiss) to income before taxes (label:income before taxes): " in line, line
        assert "78.55%" in line, line
        assert cells == {"table=1,row=swiss,col=2019", "table=1,row=income before taxes,col=2019"}

    def test_a_part_larger_than_the_row_it_is_named_in_gives_no_share(self, folder: Path) -> None:
        rows = {"swiss": 300000, "income before taxes": 271133}
        result = answered(rows_qa(folder, rows, unit=""), "What is the percentage of Swiss in income before taxes "
                                                          "in 2019?")
        assert "计算自" not in result.answer and "which figure is the whole" in result.answer, result.answer

    @pytest.mark.parametrize(("rows", "question", "said"), [
        ({"瑞士收入": 212986, "税前收入": 271133}, "2019年瑞士收入占税前收入总额的百分比是多少？",
         "瑞士收入（label:瑞士收入）与税前收入（label:税前收入）之比：78.55%"),
        ({"スイス拠点": 212986, "全拠点": 271133}, "2019年度の全拠点に占めるスイス拠点の割合は何%か。",
         "スイス拠点（label:スイス拠点）の全拠点（label:全拠点）に対する比率：78.55%"),
    ])
    def test_in_chinese_and_japanese(self, folder: Path, rows: Mapping[str, float], question: str, said: str) -> None:
        line, _ = computed_line(answered(rows_qa(folder, rows, unit=""), question))
        assert said in line, line

    def test_a_part_larger_than_the_named_total_gives_no_share(self, folder: Path) -> None:
        rows = {"swiss": 300000, "income before taxes": 271133}
        result = answered(rows_qa(folder, rows, unit=""), "What percentage of the total income before taxes does "
                                                          "Swiss income form a part of in 2019?")
        assert "计算自" not in result.answer and "which figure is the whole" in result.answer, result.answer

    @pytest.mark.parametrize("question", [
        "What is the percentage of software in total in 2019?",
        "What percentage of total did software account for in 2019?",
        "What is the software as a percentage of total in 2019?",
    ])
    def test_a_whole_read_as_no_row_leaves_the_part_unanswered(self, folder: Path, question: str) -> None:
        # GIVEN segment rows whose total is named "total segment revenue"; WHEN the share of one "in total" is asked
        rows = {"hardware": 300, "software": 500, "total segment revenue": 1000}
        result = answered(rows_qa(folder, rows, unit=""), question)

        # THEN the part's amount is not given as the share asked: which figure is the whole is said to be unclear
        assert "计算自" not in result.answer and "500" not in result.answer, result.answer
        assert "which figure is the whole" in result.answer, result.answer

    def test_a_row_stated_in_percent_is_its_own_share(self, folder: Path) -> None:
        result = answered(rows_qa(folder, {"percentage of total: software": 50}, unit="PCT"),
                          "What is the percentage of total: software in 2019?")
        assert "50 PCT" in result.answer, result.answer

    def test_without_the_word_total_the_whole_stays_unclear(self, folder: Path) -> None:
        # neither row called the total nor named as what the other is in: which divides is not said
        result = answered(rows_qa(folder, INCOME, unit=""), "What is the percentage of Swiss and income before "
                                                            "taxes in 2019?")
        assert "计算自" not in result.answer, result.answer


FEES = {"audit fees": 55000, "tax fees": 8000, "other fees": 3000}


class TestShareOfPartsTheQuestionAddsUp:
    @pytest.mark.parametrize("question", [
        "What percentage of audit fees, tax fees and other fees combined is audit fees in 2019?",
        "In 2019, what is the percentage of audit fees in audit fees, tax fees and other fees in total?",
    ])
    def test_the_part_over_the_sum_of_every_part_named(self, folder: Path, question: str) -> None:
        line, cells = computed_line(answered(rows_qa(folder, FEES), question))
        assert "FY2019 audit fees (label:audit fees) as a share of audit fees (label:audit fees) + tax fees " \
               "(label:tax fees) + other fees (label:other fees) combined: 83.33% (sum 66000 USD_K)" in line, line
        assert cells == {f"table=1,row={row},col=2019" for row in FEES}

    @pytest.mark.parametrize(("rows", "question", "said"), [
        ({"审计费": 55000, "税务费": 11000}, "2019年审计费占审计费和税务费合计的百分比是多少？", "合计的比例：83.33%（合计 66000 USD_K）"),
        ({"監査報酬": 55000, "税務報酬": 11000}, "2019年度の監査報酬と税務報酬の合計に占める監査報酬の割合は何%か。",
         "の割合：83.33%（合計 66000 USD_K）"),
    ])
    def test_in_chinese_and_japanese(self, folder: Path, rows: Mapping[str, float], question: str, said: str) -> None:
        line, cells = computed_line(answered(rows_qa(folder, rows), question))
        assert said in line, line
        assert len(cells) == 2

    @settings(max_examples=15, deadline=None)
    @given(st.lists(st.integers(min_value=1, max_value=10**6), min_size=3, max_size=3))
    def test_the_share_is_the_part_over_the_sum(self, folder: Path, values: list[int]) -> None:
        rows = dict(zip(FEES, values, strict=True))
        line, _ = computed_line(answered(rows_qa(folder, rows), "What percentage of audit fees, tax fees and other "
                                                                "fees combined is tax fees in 2019?"))
        share = (Decimal(values[1]) / sum(values) * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        assert f"combined: {share.normalize() if share == share.to_integral() else share}%" in line or \
            f"combined: {share}%" in line, line

    def test_a_part_not_found_is_named_and_nothing_divided(self, folder: Path) -> None:
        rows = {"audit fees": 55000, "tax fees": 8000}
        result = answered(rows_qa(folder, rows), "What percentage of audit fees, tax fees and other fees combined "
                                                 "is audit fees in 2019?")
        assert "%" not in result.answer.replace("计算自", ""), result.answer


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A domain folder fresh from ``domain init`` (no finance pack: "total revenue" is the documents' row)."""
    folder = tmp_path_factory.mktemp("fresh") / "domain"
    init_domain(folder)
    return folder


REGIONS = {"taiwan": 2703, "japan": 958, "hong kong": 1614, "total revenue": 23406}


class TestSumOfPartsOverAWhole:
    @pytest.mark.parametrize("question", [
        "What is the total percentage of revenue from Taiwan and Japan over total revenue in 2019?",
        "What is the percentage of Taiwan and Japan as a percentage of total revenue in 2019?",
        "What were Taiwan & Japan as a percent of total revenue in 2019?",
        "What is the proportion, in percentage, of Taiwan and Japan over total revenue in 2019?",
        "What is the proportion (in percentage) of Taiwan and Japan over total revenue in 2019?",
    ])
    def test_the_parts_listed_are_added_and_divided_by_the_whole(self, fresh: Path, question: str) -> None:
        line, cells = computed_line(answered(rows_qa(fresh, REGIONS), question))
        assert "taiwan (label:taiwan) + japan (label:japan) combined as a share of total revenue " \
               "(label:total revenue): 15.64% (sum 3661 USD_K)" in line, line
        assert cells == {f"table=1,row={row},col=2019" for row in ("taiwan", "japan", "total revenue")}

    @settings(max_examples=15, deadline=None)
    @given(st.lists(st.integers(min_value=0, max_value=10**5), min_size=3, max_size=3), st.integers(0, 10**5))
    def test_the_share_is_the_sum_over_the_whole(self, fresh: Path, parts: list[int], rest: int) -> None:
        rows = {"taiwan": parts[0], "japan": parts[1], "hong kong": parts[2], "total revenue": sum(parts) + rest + 1}
        line, _ = computed_line(answered(rows_qa(fresh, rows), "What is the percentage of Taiwan, Japan and Hong "
                                                                "Kong over total revenue in 2019?"))
        share = (Decimal(sum(parts)) / rows["total revenue"] * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        assert re.search(rf"as a share of total revenue \(label:total revenue\): {share.normalize()}%|"
                         rf": {share}%", line), line

    def test_a_ratio_of_listed_rows_to_a_whole_is_no_sum(self, fresh: Path) -> None:
        result = answered(rows_qa(fresh, REGIONS), "What is the ratio of Taiwan and Japan to total revenue in 2019?")
        assert "combined as a share" not in result.answer, result.answer

    def test_a_name_between_the_parts_leaves_the_ratio_reading(self, fresh: Path) -> None:
        result = answered(rows_qa(fresh, REGIONS), "What is the percentage of Taiwan and other regions and Japan "
                                                    "over total revenue in 2019?")
        assert "combined as a share" not in result.answer, result.answer

    def test_parts_more_than_the_whole_give_no_share(self, fresh: Path) -> None:
        rows = {"taiwan": 20000, "japan": 9000, "total revenue": 23406}
        result = answered(rows_qa(fresh, rows), "What is the percentage of Taiwan and Japan over total revenue "
                                                 "in 2019?")
        assert "计算自" not in result.answer and "which figure is the whole" in result.answer, result.answer


# A roll-forward of units in two columns (their count and their fair value): the rows awarded and settled over the
# year, and the units non-vested at its end. "Non-vested units awarded" names the row awarded by its section's
# word too, so the whole after "as a percentage of" reads as that section unless its side is read apart.
UNITS = {"units: non-vested awards: awarded": 1840, "units: non-vested awards: settled": 215,
         "units: non-vested": 9200, "fair value: non-vested awards: awarded": 61, "fair value: non-vested": 58}
AWARDED = "ratio of units: non-vested awards: awarded (label:units: non-vested awards: awarded) to units: non-vested " \
          "(label:units: non-vested)"


class TestAPartAsAPercentageOfItsWhole:
    @pytest.mark.parametrize("question", [
        "What is the percentage of non-vested units awarded in 2019 as a percentage of the total non-vested units "
        "at December 31, 2019?",
        "What were the non-vested units awarded as a proportion of the total non-vested units in 2019?",
        "In 2019, what were non-vested units awarded as a fraction of total non-vested units?",
    ])
    def test_each_side_of_the_joining_words_is_its_own_row(self, fresh: Path, question: str) -> None:
        line, cells = computed_line(answered(rows_qa(fresh, UNITS), question))
        assert re.search(rf"{re.escape(AWARDED)}: (?:0\.20（)?20\.00%", line), line  # a fraction shown with its percent
        assert cells == {"table=1,row=units: non-vested awards: awarded,col=2019",
                         "table=1,row=units: non-vested,col=2019"}

    @settings(max_examples=15, deadline=None)
    @given(st.integers(min_value=1841, max_value=10**6), st.sampled_from(["What were", "What is the percentage of",
                                                                           "How much were"]))
    def test_the_share_is_the_part_over_the_whole(self, fresh: Path, whole: int, lead: str) -> None:
        rows = {**UNITS, "units: non-vested": whole}
        line, _ = computed_line(answered(rows_qa(fresh, rows), f"{lead} the non-vested units awarded in 2019 as "
                                                                "a percentage of the total non-vested units?"))
        assert AWARDED in line, line
        share = (Decimal(1840) / whole * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        assert re.search(rf": {share}%|: {share.normalize()}%", line), line

    def test_one_row_named_on_both_sides_is_no_share_of_another(self, fresh: Path) -> None:
        result = answered(rows_qa(fresh, UNITS), "What were the non-vested units awarded in 2019 as a percentage of "
                                                  "the non-vested units awarded in 2018?")
        assert AWARDED not in result.answer, result.answer


class TestPerShareAsksNoShare:
    @pytest.mark.parametrize("question", ["What is the basic earnings per share in 2019?",
                                          "What was the per-share basic earnings in 2019?"])
    def test_a_figure_per_share_is_answered_as_stated(self, fresh: Path, question: str) -> None:
        rows = {"net earnings": 4120, "earnings per share: basic": 0.31, "earnings per share: diluted": 0.3}
        result = answered(rows_qa(fresh, rows, unit=""), question)
        assert "earnings per share: basic (label:earnings per share: basic): 0.31" in result.answer, result.answer
        assert "no share is computed" not in result.answer and " is 0" not in result.answer, result.answer


FAIR_VALUES = {"fair value amount: purchased technology": 232, "fair value amount: trademarks and tradenames": 25,
               "fair value amount: total intangible assets": 492}


class TestRowsOfATableStatingNoPeriod:
    def test_the_gap_of_two_rows_is_computed_and_each_figure_said_undated(self, folder: Path) -> None:
        result = answered(rows_qa(folder, FAIR_VALUES, period="", unit="USD_M"),
                          "What was the difference in the fair value amount between purchased technology and "
                          "trademarks and tradenames?")
        line, cells = computed_line(result)
        assert line.startswith("Example Group (EXAMPLE_GROUP) difference between fair value amount: purchased "
                               "technology"), line
        assert ": 207 USD_M (" in line and len(cells) == 2
        assert result.answer.count("the document states no period for this figure") == 2, result.answer
        assert "FY2025" not in result.answer

    def test_a_share_of_the_tables_total_row(self, folder: Path) -> None:
        result = answered(rows_qa(folder, FAIR_VALUES, period="", unit="USD_M"),
                          "What was the fair value amount of trademarks and tradenames as a percentage of the fair "
                          "value amount of total intangible assets?")
        line, _ = computed_line(result)
        assert ": 5.08%" in line, line  # 25 / 492

    def test_rows_of_two_undated_tables_are_never_compared(self, folder: Path) -> None:
        facts = [statement_fact(f"label:{row}", "", value, unit="USD_M", period_type=UNDATED,
                                source_locator=f"table={table},row={row},col=Fair value amount")
                 for table, (row, value) in enumerate(list(FAIR_VALUES.items())[:2], start=1)]
        result = answered(statement_qa_with_labels(folder, facts),
                          "What was the difference in the fair value amount between purchased technology and "
                          "trademarks and tradenames?")
        assert "207" not in result.answer and "计算自" not in result.answer, result.answer

    def test_a_column_the_question_numbers_and_the_cells_do_not_is_never_compared(self, folder: Path) -> None:
        rows = {"country risk: low": 1912, "country risk: medium": 3035}  # the rows' Total column, read
        facts = [statement_fact(f"label:{row}", "", value, unit="", period_type=UNDATED,
                                source_locator=f"table=1,row={row},col=Total") for row, value in rows.items()]
        result = answered(statement_qa_with_labels(folder, facts),
                          "What is the difference in low and medium country risk due for 1-90 days past due?")
        assert "1123" not in result.answer and "计算自" not in result.answer, result.answer

    def test_a_year_named_never_reaches_them(self, folder: Path) -> None:
        result = answered(rows_qa(folder, FAIR_VALUES, period="", unit="USD_M"),
                          "What was the difference in the fair value amount between purchased technology and "
                          "trademarks and tradenames in 2019?")
        assert "207" not in result.answer, result.answer



class TestOneFigureOfTwoYears:
    """"The ratio of X in fiscal 2019 to fiscal 2018": one row, the year written first over the other."""

    @pytest.mark.parametrize(("question", "said"), [
        ("What is the ratio of the revenue in fiscal 2024 to fiscal 2023?", "ratio of FY2024 to FY2023: 1.11"),
        ("What is the 2023 revenue expressed as a percentage of 2024 revenue?", "ratio of FY2023 to FY2024: 90.00%"),
        ("2024年与2023年营业收入之比是多少？", "FY2024与FY2023之比：1.11"),
        ("2024年度の売上高の2023年度に対する比率はいくらか。", "FY2024のFY2023に対する比率：1.11"),
    ])
    def test_the_first_year_written_is_divided_by_the_second(self, folder: Path, question: str, said: str) -> None:
        facts = [statement_fact("REVENUE", "2024", 2000), statement_fact("REVENUE", "2023", 1800)]
        line, cells = computed_line(answered(statement_qa_with_labels(folder, facts), question), said)
        assert cells == {"table=1,row=REVENUE,col=FY2024", "table=1,row=REVENUE,col=FY2023"}

    def test_a_missing_year_is_named_and_nothing_divided(self, folder: Path) -> None:
        qa = statement_qa_with_labels(folder, [statement_fact("REVENUE", "2024", 2000)])
        result = answered(qa, "What is the ratio of the revenue in fiscal 2024 to fiscal 2022?")
        assert "计算自" not in result.answer and "there is no figure for" in result.answer, result.answer

    def test_a_change_as_a_percentage_of_a_year_is_no_ratio_of_the_years(self, folder: Path) -> None:
        facts = [statement_fact("REVENUE", "2024", 2000), statement_fact("REVENUE", "2023", 1800)]
        result = answered(statement_qa_with_labels(folder, facts), "What is the value of the change in revenue "
                                                                   "between 2023 and 2024 as a percentage of the "
                                                                   "2023 revenue?")
        assert "ratio of FY" not in result.answer and "111.11" not in result.answer, result.answer

    def test_a_ratio_dividing_by_a_metric_is_no_ratio_of_the_years(self, folder: Path) -> None:
        facts = [statement_fact("REVENUE", "2024", 2000), statement_fact("REVENUE", "2023", 1800)]
        result = answered(statement_qa_with_labels(folder, facts), "What is the total proportion of revenue as "
                                                                   "a percentage of revenue in 2023 and 2024?")
        assert "ratio of FY" not in result.answer and "90.00" not in result.answer, result.answer
