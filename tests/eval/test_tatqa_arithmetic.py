"""The TAT-QA arithmetic and FinanceBench metrics evaluations: how an answer's figure is read and scored."""

from __future__ import annotations

import pytest

from tests.eval import abstention_kinds, financebench_metrics, tatqa_arithmetic

CHANGE = ("Example Group (EXAMPLE_GROUP) Sales (M1_SALES): FY2019 vs FY2018 down 21 USD_K（−0.34%）"
          "（计算自：t.md · row=Sales,col=2018；t.md · row=Sales,col=2019）")
AVERAGE = ("Example Group (EXAMPLE_GROUP) Sales (M1_SALES) FY2018–FY2019 average: 20297.5 USD_K (mean of 2 figures)"
           "（计算自：t.md · row=Sales,col=2018；t.md · row=Sales,col=2019）")


@pytest.mark.parametrize(("question", "answer", "figure"), [
    ("What was the change in Sales from 2018 to 2019?", CHANGE, (-21.0, "thousand")),
    ("What is the percentage change in Sales from 2018 to 2019?", CHANGE, (-0.34, "percent")),
    ("What is the difference in Sales between 2018 and 2019?", CHANGE, (21.0, "thousand")),
    ("What is the percentage difference in Sales between 2018 and 2019?", CHANGE, (-0.34, "percent")),
    ("What is the average Sales for 2018 and 2019?", AVERAGE, (20297.5, "thousand")),
    # "decrease by" asks the size of the fall in the direction named; a rise is against it
    ("How much did Sales decrease by from 2018 to 2019?", CHANGE, (21.0, "thousand")),
    ("How much did Sales increase by from 2018 to 2019?", CHANGE, (-21.0, "thousand")),
    ("What is the average Sales for 2018 and 2019?", "No data for Sales FY2018.", None),
    # "change" that is the row's own word asks no change: the average line answers
    ("What is the average net change in cash for 2018 and 2019?",
     "Group net change in cash (label:net change in cash) FY2018–FY2019 average: -10.5 USD_M (mean of 2 figures)"
     "（计算自：t.md · a；t.md · b）\nGroup net change in cash (label:net change in cash): FY2019 vs FY2018 down 11 USD_M"
     "（+220.00%）（计算自：t.md · a；t.md · b）", (-10.5, "million")),
    # a scale the document states without a currency ("shares in thousands") is written bare: "K" is thousands
    ("What was the change in Shares from 2018 to 2019?",
     "Group shares (label:shares): FY2019 vs FY2018 down 21 K（−0.34%）（计算自：t.md · a；t.md · b）", (-21.0, "thousand")),
    ("What is the average Shares for 2018 and 2019?",
     "Group shares (label:shares) FY2018–FY2019 average: 203.67 K (mean of 2 figures)（计算自：t.md · a；t.md · b）",
     (203.67, "thousand")),
    ("What is the average Shares for 2018 and 2019?",
     "Group shares (label:shares) FY2018–FY2019 average: 3354 M（计算自：t.md · a；t.md · b）", (3354.0, "million")),
    # a word after the figure is no unit
    ("What is the average Shares for 2018 and 2019?",
     "Group shares (label:shares) FY2018–FY2019 average: 7 Bells（计算自：t.md · a；t.md · b）", None),
])
def test_the_figure_the_question_asks_for_is_read_with_its_scale(question: str, answer: str,
                                                                  figure: tuple[float, str] | None) -> None:
    assert tatqa_arithmetic.read_figure(question, answer) == figure


WACC = ("Group wacc (label:wacc): FY2019 vs FY2018 down 0.5 points（−5.26%）（计算自：t.md · a；t.md · b）")
VOYAGE = ("Group voyage expenses (label:voyage expenses): FY2019 vs FY2018 up 6850 USD_K（−24.26%）; both are written "
          "as negatives, so by size down 6850 USD_K（计算自：t.md · a；t.md · b）")


@pytest.mark.parametrize(("question", "answer", "first", "other"), [
    # "difference" names no direction: the size is read first, the signed change the line states is the other
    ("What is the difference in Sales between 2018 and 2019?", CHANGE, (21.0, "thousand"), (-21.0, "thousand")),
    # a rate's percentage change: relative first, the points the line states the other
    ("What was the percentage change in the WACC between 2018 and 2019?", WACC, (-5.26, "percent"),
     (-0.5, "percent")),
    # two figures written as negatives: signed first, the change by size the line states the other
    ("What is the increase/ (decrease) in Voyage expenses from 2018 to 2019?", VOYAGE, (6850.0, "thousand"),
     (-6850.0, "thousand")),
    # an average of figures written as negatives: signed first, by size the other
    ("What was the average interest expense for 2018 and 2019?",
     "Group interest expense (label:interest expense) FY2018–FY2019 average: -11888 USD_K (mean of 2 figures); all are "
     "written as negatives, so by size 11888 USD_K（计算自：t.md · a；t.md · b）", (-11888.0, "thousand"),
     (11888.0, "thousand")),
    ("What is the average Sales for 2018 and 2019?", AVERAGE, (20297.5, "thousand"), None),
    # the gap of two rows of one period: its size first, the signed first-minus-second its side states the other
    ("What is the difference between Pumps and Valves and other parts in 2019?",
     "Group FY2019 difference between pumps (label:pumps) and valves and other parts (label:valves and other parts): "
     "1,903 USD_K (pumps (label:pumps) below valves and other parts (label:valves and other parts))（计算自：t.md · a；"
     "t.md · b）", (1903.0, "thousand"), (-1903.0, "thousand")),
    # "the change in X" leaves open the change in X's unit (read first) and the relative change stated beside it
    ("What was the change in Sales from 2018 to 2019?", CHANGE, (-21.0, "thousand"), (-0.34, "percent")),
    ("What is the increase / (decrease) in Sales from 2018 to 2019?", CHANGE, (-21.0, "thousand"),
     (-0.34, "percent")),
    # "the percentage change" names the relative change: one reading only
    ("What is the percentage change in Sales from 2018 to 2019?", CHANGE, (-0.34, "percent"), None),
    # a change line stating no relative change (the earlier figure is nought) has no other reading
    ("What was the change in Sales from 2018 to 2019?",
     "Group sales (label:sales): FY2019 vs FY2018 up 21 USD_K（计算自：t.md · a；t.md · b）", (21.0, "thousand"), None),
])
def test_an_open_word_is_scored_by_either_reading_the_answer_states(
        question: str, answer: str, first: tuple[float, str], other: tuple[float, str] | None) -> None:
    assert tatqa_arithmetic.read_figure(question, answer) == first
    assert tatqa_arithmetic.stated_reading(question, answer) == other


@pytest.mark.parametrize(("figure", "gold", "scale", "verdict"), [
    ((-21.0, "thousand"), -21.0, "thousand", "exact"),
    ((-6.754, "percent"), -6.75, "percent", "exact"),
    ((10.3025, ""), 10.3, "", "exact"),  # a mean of four prices to the cent, against a gold rounded to 10.3
    ((10.3125, ""), 10.3, "", "wrong"),
    ((-21.0, "million"), -21.0, "thousand", "wrong"),  # TAT-QA's EM compares the scaled figure
    ((-21.0, ""), -21.0, "thousand", "unit_not_stated"),
    ((21.0, "thousand"), -21.0, "thousand", "wrong"),
    (None, -21.0, "thousand", "abstained"),
])
def test_tatqa_em_with_scale(figure: tuple[float, str] | None, gold: float, scale: str, verdict: str) -> None:
    assert tatqa_arithmetic.judge(figure, gold, scale) == verdict


@pytest.mark.parametrize(("question", "gold", "answer", "verdict"), [
    ("What is the FY2018 capital expenditure amount (in USD millions) for 3M?", "$1577.00",
     "3M FY2018 capex (CAPEX): 1577 USD_M（来源：3M_2018_10K.pdf · page=60）", "correct"),
    ("what is the year end FY2018 net PPNE for 3M? Answer in USD billions.", "$8.70",
     "3M FY2018 net PP&E (NET_PPE): 8738 USD_M（来源：3M_2018_10K.pdf · page=58）", "correct"),
    ("What is Kraft Heinz's FY2019 inventory turnover ratio?", "6.25",
     "Kraft Heinz FY2019 inventory turnover (INVENTORY_TURNOVER): 6.31 TIMES (computed as …)（计算自：k.pdf · p）",
     "wrong"),
    ("What is Kraft Heinz's FY2019 inventory turnover ratio?", "6.25", "No data for inventories.", "abstained"),
    # a figure in the pack's RATIO unit is the answer's, not the first input it cites
    ("What is the FY2022 retention ratio for Example Mills? Round answer to two decimal places.", "0.54",
     "Example Mills FY2022 retention ratio (RETENTION_RATIO): 0.54 RATIO (computed as 1 - ABS(DIVIDENDS_PAID) / "
     "NET_INCOME_OWNERS: dividends paid (DIVIDENDS_PAID) -1244.5 USD_M)（计算自：m.pdf · p）", "correct"),
])
def test_financebench_scoring(question: str, gold: str, answer: str, verdict: str) -> None:
    assert financebench_metrics.verdict(question, gold, answer) == verdict


@pytest.mark.parametrize(("question", "answer", "table_facts", "kind"), [
    ("What is the total revenue in 2019?", "Which figure do you mean? Choose one: revenue, operating margin", 0,
     abstention_kinds.NO_FACTS),
    ("What is the total revenue in 2019?", "Which figure do you mean? Choose one: revenue, operating margin", 12,
     abstention_kinds.TOTAL_ROW),
    ("What is the change in leases?", "Which did you mean by 'leases'? Choose one: current: leases, non-current: leases",
     12, abstention_kinds.TIED),
    ("What is the average Cost of sales?", "No data for Example Group (EXAMPLE_GROUP) FY2025 cost of sales (label:cost "
     "of sales): the fact table has no such record, so no figure is given.\n(Assumed: no period named)", 6,
     abstention_kinds.NO_PERIOD_NAMED),
    ("What is the change in Sales from 2018 to 2019?", "No data for Example Group (EXAMPLE_GROUP) FY2018 sales", 6,
     abstention_kinds.NO_FIGURE),
    ("What is the change between 2018 and 2019 average free cash flow?", "The question asks for a change between "
     "averages, which is not computed here, so no value is given.", 6, abstention_kinds.NOT_COMPUTABLE),
    ("What is the change in Sales from 2018 to 2019?", "Group FY2019 sales: 5 （来源：t.md · row=Sales,col=2019）", 6,
     abstention_kinds.STATED_ONLY),
    ("What is the average ROFE for F19 and F18?", "According to the retrieved documents: …", 6,
     abstention_kinds.TEXT_SEARCH),
])
def test_an_abstention_is_counted_by_what_the_answer_says(question: str, answer: str, table_facts: int,
                                                          kind: str) -> None:
    assert abstention_kinds.abstention_kind(question, answer, table_facts) == kind


def test_the_kinds_report_lists_the_counts_and_every_wrong_answer() -> None:
    report = {"abstained": 3, "wrong": 1,
              "abstained_by_kind": abstention_kinds.tally([{"kind": "b"}, {"kind": "a"}, {"kind": "b"}]),
              "examples": {"wrong": [{"context": 7, "question": "Q?", "gold": "1 million", "said": "2.0"}]}}
    text = tatqa_arithmetic.kinds_text(report)
    assert text.splitlines() == ["3 abstained, by kind:", "     2  b", "     1  a", "1 wrong:",
                                 "  context 7: Q? gold 1 million, said 2.0"]
