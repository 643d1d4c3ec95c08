"""The row a computed figure reads is the row the question names, in the words people ask with.

Words that ask for arithmetic ("percentage change", "increase / (decrease)", "average") do not
count against a row named in other words ("net inventories" for ``Inventories, net``), and a row
of a section read by its item's words alone never stands in for another metric the question
names ("Revenues of Teekay LNG" is not the row ``Income from vessel operations: Teekay LNG``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ragspine.domain.starter import init_domain
from ragspine.facts.glossary import Glossary, normalize_text
from ragspine.facts.model import Fact
from ragspine.facts.open_vocabulary import open_metric_code, with_open_terms
from ragspine.qa.answer import QAComponents
from ragspine.qa.label_words import label_readings
from ragspine.qa.result import AnswerResult
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary
from tests.unit.qa.derived.statement_set import answered, statement_fact, statement_qa_with_labels


def ask(qa: QAComponents, question: str) -> AnswerResult:
    return answered(qa, question)


def glossary_with(labels: list[str]) -> Glossary:
    base = default_glossary()
    codes = [open_metric_code(label) for label in labels]
    return with_open_terms(base, [(code, base.home_entity) for code in codes if code])


def read(question: str, glossary: Glossary) -> list[tuple[str, ...]]:
    leftover = glossary.leftover(question, glossary.scan(question))
    return [tuple(r.code for r in miss.readings) for miss in label_readings(normalize_text(question), leftover, glossary)]


BALANCES = glossary_with(["Inventories, net", "Accounts receivable, net of allowance", "Accrued expenses",
                          "Balance at the beginning of the fiscal year", "Balance at the end of the fiscal year",
                          "Telecommunication - Installation", "Telecommunication - Maintenance",
                          "Vessel operating expenses (in thousands)"])


class TestWordsAskingForArithmetic:
    @pytest.mark.parametrize(("question", "label"), [
        ("What was the percentage change in net inventories from 2018 to 2019?", "inventories, net"),
        ("What is the change in the beginning balance between fiscal years 2019 and 2018?",
         "balance at the beginning of the fiscal year"),
        ("What is the increase / (decrease) in the telecommunication maintenance from 2018 to 2019?",
         "telecommunication - maintenance"),
        ("What is the average net inventories for 2018 and 2019?", "inventories, net"),
    ])
    def test_a_row_named_in_other_words_is_read_beside_words_asking_for_arithmetic(self, question: str,
                                                                                  label: str) -> None:
        assert read(question, BALANCES) == [(f"label:{label}",)]
        assert parse_slots(question, glossary=BALANCES).metrics == (f"label:{label}",)

    def test_a_unit_note_in_a_label_is_no_word_of_its_row(self) -> None:
        question = "What is the increase / (decrease) in the vessel operating expenses from 2018 to 2019?"
        assert read(question, BALANCES) == [("label:vessel operating expenses (in thousands)",)]

    def test_a_remark_in_parentheses_need_not_be_named(self) -> None:
        glossary = glossary_with(["Net cash from operating activities", "Net cash used in investing activities",
                                  "Free cash flow (non-U.S. GAAP measure)"])
        assert read("What is the percentage increase / (decrease) in Free Cash Flow from 2018 to 2019?", glossary) == [
            ("label:free cash flow (non-u.s. gaap measure)",)]
        # a word of the remark named still counts, and a row named by other words is not read
        assert read("What is the change in the free cash flow GAAP measure in 2019?", glossary) == [
            ("label:free cash flow (non-u.s. gaap measure)",)]
        assert read("What is the change in the flow of funds in 2019?", glossary) == []

    def test_an_asking_word_the_label_holds_still_tells_rows_apart(self) -> None:
        glossary = glossary_with(["Increase in accrued payroll", "Accrued payroll"])
        assert read("What was the increase in payroll accrued in 2019?", glossary) == [
            ("label:increase in accrued payroll",)]
        assert read("What was the percentage change in payroll accrued in 2019?", glossary) == [
            ("label:accrued payroll",)]

    def test_two_rows_equally_named_are_still_offered_back(self) -> None:
        glossary = glossary_with(["Accrued warranty reserve, current", "Accrued warranty reserve, noncurrent"])
        question = "What is the percentage change in the accrued warranty reserve between 2018 and 2019?"
        assert read(question, glossary) == [("label:accrued warranty reserve, current",
                                             "label:accrued warranty reserve, noncurrent")]
        assert parse_slots(question, glossary=glossary).metrics == ()

    @settings(max_examples=40, deadline=None)
    @given(st.sampled_from(["What was the percentage change in", "What is the increase / (decrease) in",
                            "What is the average", "What is the difference in", "What was the change in the number of",
                            "What is the nominal difference in", "What was the growth in"]),
           st.sampled_from(["2018 to 2019", "between 2018 and 2019", "for 2018 and 2019"]))
    def test_only_the_row_words_decide_the_row(self, asking: str, years: str) -> None:
        named = read(f"{asking} net inventories {years}?", BALANCES)
        assert named == [("label:inventories, net",)]
        assert read(f"{asking} the weather {years}?", BALANCES) == []


def vessel_income(period: str, value: float) -> Fact:
    return statement_fact("label:income (loss) from vessel operations: teekay lng", period, value, unit="USD_K")


class TestAnItemOfAnotherSection:
    FACTS = [vessel_income("2018", 148599), vessel_income("2019", 299253)]

    def test_another_metric_named_beside_the_item_is_not_answered_with_that_row(self, folder: Path) -> None:
        result = ask(statement_qa_with_labels(folder, self.FACTS),
                     "What is the increase/ (decrease) in Revenues of Teekay LNG from 2019 to 2018?")
        assert " vs " not in result.answer, result.answer
        assert "150654" not in result.answer and "299253" not in result.answer, result.answer

    def test_the_row_is_answered_when_its_section_is_named(self, folder: Path) -> None:
        result = ask(statement_qa_with_labels(folder, self.FACTS),
                     "What is the change in income from vessel operations of Teekay LNG from 2018 to 2019?")
        assert "FY2019 vs FY2018 up 150654 USD_K" in result.answer, result.answer

    def test_the_row_is_answered_by_its_item_alone(self, folder: Path) -> None:
        result = ask(statement_qa_with_labels(folder, self.FACTS), "What was Teekay LNG in 2019?")
        assert "299253 USD_K（来源" in result.answer, result.answer

    def test_a_section_named_in_part_keeps_the_row(self) -> None:
        glossary = glossary_with(["Operating revenues: Bell Wireless", "Total BCE operating revenues"])
        parsed = parse_slots("What is the percentage of Bell Wireless out of the Total BCE operating revenues in 2019?",
                             glossary=glossary)
        assert parsed.metrics == ("label:operating revenues: bell wireless", "label:total bce operating revenues")


def test_a_percent_change_of_a_row_named_in_other_words_is_computed_and_cited(folder: Path) -> None:
    facts = [statement_fact("label:prepaid royalties, net", "2018", 9317, unit="USD_K"),
             statement_fact("label:prepaid royalties, net", "2019", 12542, unit="USD_K")]
    result = ask(statement_qa_with_labels(folder, facts),
                 "What was the percentage change in net prepaid royalties from 2018 to 2019 year end?")
    assert "FY2019 vs FY2018 up 3225 USD_K（+34.61%）（计算自：" in result.answer, result.answer


class TestAQuestionNamingMoreThanTheRow:
    FACTS = [statement_fact("label:adjusted operating costs", "2018", 267.4, unit="USD_M"),
             statement_fact("label:adjusted operating costs", "2019", 275.7, unit="USD_M")]

    def test_many_words_no_row_explains_withhold_the_row(self, folder: Path) -> None:
        result = ask(statement_qa_with_labels(folder, self.FACTS),
                     "For adjusted operating costs, what was the percentage change in the amount of before exceptional "
                     "items, acquisition related costs, acquired intangible asset amortisation and share-based payment "
                     "between 2018 and 2019?")
        assert " vs " not in result.answer and "275.7" not in result.answer, result.answer
        assert "names more than the row it was read as" in result.answer
        assert "exceptional" in result.answer  # the words that are no row are said

    def test_a_few_words_qualifying_the_row_keep_its_answer(self, folder: Path) -> None:
        result = ask(statement_qa_with_labels(folder, self.FACTS),
                     "What was the percentage change in adjusted operating costs between 2018 and 2019, based on the "
                     "group's own reporting?")
        assert "FY2019 vs FY2018 up 8.3 USD_M（+3.10%）" in result.answer, result.answer


class TestWordsBeyondTheRowOutnumberIt:
    SOFTWARE = [statement_fact("label:internal use software", "2018", 31565, unit="USD_K"),
                statement_fact("label:internal use software", "2019", 33351, unit="USD_K")]
    MODULES = [statement_fact("label:modules", "2017", 806398, unit="USD_K"),
               statement_fact("label:modules", "2019", 152680, unit="USD_K")]

    def test_more_words_beyond_the_row_than_its_own_withhold_the_sum(self, folder: Path) -> None:
        # four words (capitalized, related, continuing, operations) against the row's three: the question
        # asks an amount capitalized during the years, not the balance row
        result = ask(statement_qa_with_labels(folder, self.SOFTWARE),
                     "What is the total amount capitalized to internal use software related to continuing "
                     "operations for the years ended December 31, 2019 and 2018?")
        assert "64916" not in result.answer and "names more than the row" in result.answer, result.answer
        assert "capitalized" in result.answer

    def test_the_row_named_with_a_qualifier_or_two_is_answered(self, folder: Path) -> None:
        # "net" and "sale" qualify the one-word row Modules (a table of net sales by product)
        result = ask(statement_qa_with_labels(folder, self.MODULES),
                     "What is the net difference in sale of modules between 2017 and 2019?")
        assert "FY2019 vs FY2017 down 653718 USD_K" in result.answer, result.answer

    def test_as_many_words_beyond_as_the_row_holds_keep_the_row(self, folder: Path) -> None:
        # three words beyond a three-word row: the row still names half of what is asked
        result = ask(statement_qa_with_labels(folder, self.SOFTWARE),
                     "What is the change in internal use software carried at historical cost between 2018 and 2019?")
        assert "FY2019 vs FY2018 up 1786 USD_K" in result.answer, result.answer


class TestOneItemUnderTwoSections:
    GLOSSARY = glossary_with(["Participating shares at end of period: Unvested restricted stock",
                              "Percentage of loss allocated to: Unvested restricted stock",
                              "Participating shares at end of period: Preferred stock"])

    def test_the_item_alone_reads_its_amount_not_its_share(self) -> None:
        # the row under a heading of percentages is a share of the loss, not the item's own figure
        question = "What is the average unvested restricted stock in 2018 and 2019?"
        assert parse_slots(question, glossary=self.GLOSSARY).metrics == (
            "label:participating shares at end of period: unvested restricted stock",)

    def test_the_item_alone_under_two_headings_of_amounts_offers_both_rows(self) -> None:
        glossary = glossary_with(["Current: Other receivables", "Non-current: Other receivables"])
        question = "What is the average other receivables in 2018 and 2019?"
        assert read(question, glossary) == [("label:current: other receivables",
                                             "label:non-current: other receivables")]
        assert parse_slots(question, glossary=glossary).metrics == ()

    def test_a_section_word_named_picks_its_row(self) -> None:
        question = "What is the percentage of loss allocated to unvested restricted stock in 2019?"
        assert parse_slots(question, glossary=self.GLOSSARY).metrics == (
            "label:percentage of loss allocated to: unvested restricted stock",)

    def test_through_the_engine_the_amounts_are_averaged(self, folder: Path) -> None:
        facts = [statement_fact("label:participating shares at end of period: unvested restricted stock", "2018", 0.4,
                                unit=""),
                 statement_fact("label:participating shares at end of period: unvested restricted stock", "2019", 0.6,
                                unit=""),
                 statement_fact("label:percentage of loss allocated to: unvested restricted stock", "2018", 0.8,
                                unit="PCT"),
                 statement_fact("label:percentage of loss allocated to: unvested restricted stock", "2019", 1.3,
                                unit="PCT")]
        result = ask(statement_qa_with_labels(folder, facts),
                     "What is the average unvested restricted stock in 2018 and 2019?")
        assert "average: 0.5 " in result.answer and "1.05" not in result.answer, result.answer
        assert "percentage of loss allocated" not in result.answer, result.answer


class TestADerivedWordTheRowStates:
    """"Cash dividend per share": a row whose own label holds the derived word states the figure asked."""

    DIVIDEND = [statement_fact(f"label:{row}", year, value, unit="") for row, figures in (
        ("cash dividend per share (nt dollars): cash dividends", (("2018", 0.58), ("2019", 0.75))),
        ("appropriation of earnings: cash dividends", (("2018", 6916105), ("2019", 9765155))),
        ("appropriation of earnings: legal reserve", (("2018", 707299), ("2019", 963947))),
    ) for year, value in figures]

    def test_the_stated_figure_answers(self, tmp_path: Path) -> None:
        init_domain(tmp_path)  # the glossary fresh from domain init: no per-share metric of its own
        result = ask(statement_qa_with_labels(tmp_path, self.DIVIDEND), "What was the cash dividend per share in 2019?")
        assert "0.75 （来源：" in result.answer and "cannot be computed" not in result.answer, result.answer

    def test_a_derived_word_no_row_states_is_still_said_not_computed(self, folder: Path) -> None:
        facts = [statement_fact("label:special reserve", "2019", 3491626, unit="")]
        result = ask(statement_qa_with_labels(folder, facts), "What was the special reserve margin in 2019?")
        assert "cannot be computed" in result.answer and "3491626" not in result.answer, result.answer


FINAL = "Final dividend for the year ended 30 June 2018 of AU 14 cents (2017: AU 12 cents)"
INTERIM = "Interim dividend for the half year ended 31 December 2018 of AU 16 cents (2017: AU 13 cents)"
_MONTHS = st.sampled_from(["June", "December", "March", "September"])


class TestALabelDatingItsFigure:
    """A row's label may say when its figure fell and at what rate per share ("for the half year ended 31
    December 2018 of AU 16 cents (2017: AU 13 cents)"): the columns date the figure, the question names the item."""

    DIVIDENDS = glossary_with([FINAL, INTERIM])

    @pytest.mark.parametrize(("question", "label"), [
        ("What is the percentage change in the final dividend from 2018 to 2019?", FINAL),
        ("What was the interim dividend in 2019?", INTERIM),
    ])
    def test_the_row_is_read_by_its_item(self, question: str, label: str) -> None:
        assert read(question, self.DIVIDENDS) == [(open_metric_code(label),)]

    def test_words_both_rows_share_read_neither(self) -> None:
        assert read("What was the dividend in 2019?", self.DIVIDENDS) == []

    @settings(max_examples=40, deadline=None)
    @given(st.sampled_from(["Final", "Interim", "Special"]), st.sampled_from(["", "half ", "financial "]),
           st.sampled_from(["year", "period"]), st.integers(1, 28), _MONTHS, st.integers(2015, 2024),
           st.sampled_from(["AU ", "US$", "$", "", "HK$"]), st.integers(1, 99))
    def test_any_dating_and_rate_leave_the_item(self, item: str, half: str, span: str, day: int, month: str,
                                                year: int, currency: str, cents: int) -> None:
        rate = f"{currency}{cents / 100:.2f}" if currency.endswith("$") else f"{currency}{cents} cents"
        label = f"{item} dividend for the {half}{span} ended {day} {month} {year} of {rate} ({year - 1}: {rate})"
        other = "Interim dividend paid" if item != "Interim" else "Final dividend paid"
        glossary = glossary_with([label, other])
        assert read(f"What is the change in the {item.lower()} dividend from 2018 to 2019?", glossary) == [
            (open_metric_code(label),)]

    def test_a_change_of_the_row_is_answered_with_its_truncated_locator_cited(self, folder: Path) -> None:
        # a locator cuts a long row label short, and with it the bracket its remark opened
        cut = f"table=1,row={FINAL[:70]}…"
        facts = [statement_fact(open_metric_code(FINAL) or "", year, value, unit="",
                                source_locator=f"{cut},col={year}")
                 for year, value in (("2018", 12534), ("2019", 13327))]
        result = ask(statement_qa_with_labels(folder, facts),
                     "What is the percentage change in the final dividend from 2018 to 2019?")
        assert "FY2019 vs FY2018 up 793（+6.33%）（计算自：" in result.answer, result.answer


DEBT = ["Carrying amount: Total debt", "Fair value: Total debt", "Carrying amount: Other foreign borrowings",
        "Fair value: Other foreign borrowings", "Other domestic borrowings"]


def code(label: str) -> str:
    return open_metric_code(label) or ""


class TestTwoRowsNamedInOtherWords:
    """Two rows a question computes with, each named in other words on its side of a joining word."""

    GLOSSARY = glossary_with(DEBT)

    @settings(max_examples=30, deadline=None)
    @given(st.sampled_from(["What is the ratio of {a} to {b}", "What is {a} as a percentage of {b}",
                            "What is the difference between {a} and {b}", "What is {a} divided by {b}"]),
           st.sampled_from([("the fair value of total debt", DEBT[1]), ("carrying amount of total debt", DEBT[0]),
                            ("the fair value of other foreign borrowings", DEBT[3])]),
           st.sampled_from([("the carrying amount of total debt", DEBT[0]),
                            ("carrying amount of other foreign borrowings", DEBT[2])]))
    def test_each_side_reads_its_row(self, wording: str, first: tuple[str, str], second: tuple[str, str]) -> None:
        assume(first[1] != second[1])
        question = wording.format(a=first[0], b=second[0]) + " in 2018?"
        assert parse_slots(question, glossary=self.GLOSSARY).metrics == (code(first[1]), code(second[1]))

    @pytest.mark.parametrize(("item", "rows"), [("total debt", (DEBT[1], DEBT[0])),
                                                ("other foreign borrowings", (DEBT[3], DEBT[2]))])
    def test_an_item_written_once_after_two_sections_is_read_with_each(self, item: str,
                                                                       rows: tuple[str, str]) -> None:
        question = f"What is the difference between the fair value and carrying amount of {item} in 2018?"
        assert parse_slots(question, glossary=self.GLOSSARY).metrics == tuple(map(code, rows))

    @pytest.mark.parametrize("question", [
        "What is the difference between the fair value and carrying amount in 2018?",  # no item: which rows?
        "What is the difference between the fair value of debt and carrying amount of total debt in 2018?",
        "What is the ratio of fair value to borrowings in 2018?",  # "borrowings" is two rows' word alike
    ])
    def test_a_side_naming_no_one_row_reads_neither(self, question: str) -> None:
        assert parse_slots(question, glossary=self.GLOSSARY).metrics == ()

    def test_their_difference_is_computed_with_both_inputs_cited(self, folder: Path) -> None:
        # (the finance pack reads "total debt" and "borrowings" as its interest-bearing debt: a term loan is a row)
        loan = ["Fair value: Term loan A facility", "Carrying amount: Term loan A facility"]
        facts = [statement_fact(code(loan[0]), "2018", 99.2, unit="USD_M"),
                 statement_fact(code(loan[1]), "2018", 98.5, unit="USD_M")]
        result = ask(statement_qa_with_labels(folder, facts), "What is the difference between the fair value and "
                                                              "carrying amount of the term loan A facility in 2018?")
        assert "difference between fair value: term loan a facility" in result.answer, result.answer
        assert "read 'fair value' as fair value: term loan a facility" in result.answer, result.answer
        assert ": 0.7 USD_M" in result.answer and "（计算自：" in result.answer, result.answer


class TestRowsToldApartByTheirNumbers:
    """Rows whose words tie are told apart by the numbers their labels write ("aged 65", "aged 45")."""

    AGED = ["Men: Member aged 65 (current life expectancy)", "Men: Member aged 45 (life expectancy at age 65)"]
    FACTS = [statement_fact(code(AGED[0]), "2019", 86.8, unit=""), statement_fact(code(AGED[0]), "2018", 87.3, unit=""),
             statement_fact(code(AGED[1]), "2019", 88.5, unit=""), statement_fact(code(AGED[1]), "2018", 89.0, unit="")]

    @settings(max_examples=20, deadline=None)
    @given(st.sampled_from(["What was the life expectancy for a male member aged 65 in 2019?",
                            "What is the life expectancy of a man member aged 65 in 2019?",
                            "In 2019, what was the life expectancy for a male member aged 65?"]))
    def test_the_row_writing_only_numbers_the_question_writes_answers(self, folder: Path, question: str) -> None:
        result = ask(statement_qa_with_labels(folder, self.FACTS), question)
        assert "86.8 （来源：" in result.answer, result.answer
        assert "88.5" not in result.answer, result.answer

    def test_the_change_of_that_row_is_computed_from_its_own_cells(self, folder: Path) -> None:
        result = ask(statement_qa_with_labels(folder, self.FACTS),
                     "What was the change in life expectancy for a male member aged 65 from 2018 to 2019?")
        assert "FY2019 vs FY2018 down 0.5" in result.answer and "（计算自：" in result.answer, result.answer
        assert "88.5" not in result.answer and "89.0" not in result.answer, result.answer

    def test_a_number_both_rows_write_leaves_them_offered_back(self, folder: Path) -> None:
        # "aged 45" is the second row's, but it writes 65 too: the question names neither row's every number
        result = ask(statement_qa_with_labels(folder, self.FACTS),
                     "What was the life expectancy for a male member aged 45 in 2019?")
        assert result.answer.startswith("Which did you mean"), result.answer
        assert "86.8" not in result.answer and "88.5" not in result.answer, result.answer


class TestARowNamedByItsHead:
    """A row whose line item is qualified ("… from SSL for pre-closing taxes") is named by its head alone."""

    ROWS = ["Indemnification receivable from SSL for pre-closing taxes (see Note 13)", "Due from affiliates",
            "Prepaid expenses"]
    FACTS = [statement_fact(code(ROWS[0]), "2018", 2410, unit="USD_K"),
             statement_fact(code(ROWS[0]), "2019", 598, unit="USD_K"),
             statement_fact(code(ROWS[1]), "2019", 77, unit="USD_K"),
             statement_fact(code(ROWS[2]), "2019", 1200, unit="USD_K")]

    @settings(max_examples=20, deadline=None)
    @given(st.sampled_from(["What is the percentage change in indemnification receivable between 2018 and 2019?",
                            "What was the percentage change in the indemnification receivable from 2018 to 2019?",
                            "What is the percentage change in indemnification receivable from SSL between 2018 "
                            "and 2019?"]))
    def test_its_change_is_computed_from_its_cells(self, folder: Path, question: str) -> None:
        result = ask(statement_qa_with_labels(folder, self.FACTS), question)
        assert "FY2019 vs FY2018 down 1812 USD_K（−75.19%）（计算自：" in result.answer, result.answer

    def test_a_row_named_whole_is_read_before_a_longer_one_with_that_head(self, folder: Path) -> None:
        rows = ["Warranty reserve", "Warranty reserve from acquisitions"]
        facts = [statement_fact(code(rows[0]), "2019", 310, unit="USD_K"),
                 statement_fact(code(rows[1]), "2019", 45, unit="USD_K")]
        result = ask(statement_qa_with_labels(folder, facts), "What was the warranty reserve in 2019?")
        assert "310 USD_K（来源：" in result.answer and "45 USD_K" not in result.answer, result.answer

    def test_a_head_another_row_holds_too_is_offered_back(self, folder: Path) -> None:
        rows = ["Net deferred tax assets", "Deferred tax assets from acquisitions"]
        facts = [statement_fact(code(rows[0]), "2019", 900, unit="USD_K"),
                 statement_fact(code(rows[1]), "2019", 45, unit="USD_K")]
        result = ask(statement_qa_with_labels(folder, facts), "What were the deferred tax assets in 2019?")
        assert "900" not in result.answer and "45 USD_K" not in result.answer, result.answer
