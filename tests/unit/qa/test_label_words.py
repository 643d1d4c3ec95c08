"""A question naming a document's row label in other words reaches that label, and only where one label is meant."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.glossary import Glossary, normalize_text
from ragspine.facts.open_vocabulary import open_metric_code, with_open_terms
from ragspine.qa.label_words import label_readings
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary

GLOSSARY_FILE = Path(__file__).parents[3] / "shared" / "ragspine" / "shipped_domains" / "acme" / "glossary.yaml"
STATEMENT = [
    "Statutory federal income tax rate",
    "Effective income tax rate",
    "Net cash provided by (used in) financing activities",
    "Net cash provided by (used for) investing activities",
    "Outstanding at start of period",
    "Outstanding at end of period",
    "Income tax expense (benefit)",
    "Goodwill, end of the year",
    "Goodwill, beginning of the year",
    "Power - Operations, Maintenance & Construction Support",
    "Capital leases",
    "Total capital leases",
]


def glossary_with(labels: list[str]) -> Glossary:
    base = default_glossary()
    codes = [open_metric_code(label) for label in labels]
    return with_open_terms(base, [(code, base.home_entity) for code in codes if code])


GLOSSARY = glossary_with(STATEMENT)


def read(question: str, glossary: Glossary = GLOSSARY) -> list[tuple[str, ...]]:
    norm = normalize_text(question)
    leftover = glossary.leftover(question, glossary.scan(question))
    return [tuple(r.code for r in miss.readings) for miss in label_readings(norm, leftover, glossary)]


@pytest.mark.parametrize(("question", "label"), [
    ("What was the effective tax rate in 2019?", "effective income tax rate"),
    ("How much net cash was used for financing activities in 2018?",
     "net cash provided by (used in) financing activities"),
    ("What is the outstanding number of rights at end of period in 2019?", "outstanding at end of period"),
    ("What was Autodesk's goodwill at the end of 2018?", "goodwill, end of the year"),
    ("What was the power - operations, maintenance and construction in 2019?",
     "power - operations, maintenance & construction support"),
])
def test_a_row_named_in_other_words_is_read_as_its_label(question: str, label: str) -> None:
    assert read(question) == [(f"label:{label}",)]
    assert parse_slots(question, glossary=GLOSSARY).metrics == (f"label:{label}",)


@pytest.mark.parametrize("question", [
    "What was the Federal deferred income tax expense in 2019?",  # "federal" is another row's word
    "What was the balance of total gross unrecognized tax benefits at the end of period in 2018?",
    "What was the cash in 2019?",  # one word of many labels: not most of any
    "What were the dividends paid in 2019?",  # no label's words
])
def test_a_question_no_label_answers_clearly_is_not_read(question: str) -> None:
    assert read(question) == []


def test_two_labels_matching_equally_are_both_offered_never_chosen_between() -> None:
    glossary = glossary_with(["Accrued warranty reserve, current", "Accrued warranty reserve, noncurrent"])
    question = "What was the accrued warranty reserve in 2019?"
    assert read(question, glossary) == [("label:accrued warranty reserve, current",
                                         "label:accrued warranty reserve, noncurrent")]
    assert parse_slots(question, glossary=glossary).metrics == ()


_WORDS = st.sampled_from(["accrued", "payroll", "warranty", "reserve", "deferred", "royalty", "licence", "freight"])


@settings(max_examples=60, deadline=None)
@given(words=st.lists(_WORDS, min_size=2, max_size=4, unique=True), upper=st.booleans(), plural=st.booleans(),
       filler=st.sampled_from(["What was the {} in 2019?", "How much were {} in FY2019?", "{} 2019"]))
def test_case_number_and_filler_words_do_not_change_the_reading(words: list[str], upper: bool, plural: bool,
                                                                filler: str) -> None:
    label = " ".join(words).capitalize()
    glossary = glossary_with([label, "Other income"])
    asked = " ".join(words) + ("s" if plural else "")
    question = filler.format(asked.upper() if upper else asked)
    assert parse_slots(question, glossary=glossary).metrics == (open_metric_code(label),)


def test_a_note_reference_in_a_label_is_not_a_word_the_question_must_name() -> None:
    glossary = glossary_with(["Deferred tax assets (see Note 16)", "Other assets (1)", "Total other assets"])
    assert read("What was the Deferred tax assets in 2018?", glossary) == [("label:deferred tax assets (see note 16)",)]


@pytest.mark.parametrize("remark", ["(non-current (liabilities)/assets)", "(net (of (hedging)) effects)"])
def test_a_remark_nesting_brackets_is_not_a_word_the_question_must_name(remark: str) -> None:
    label = f"Interest rate swaps: Carrying amount {remark}"
    glossary = glossary_with([label, "Interest rate swaps: Notional amount", "Weighted average hedged rate"])
    assert read("What is the 2019 carrying amount of interest rate swaps?", glossary) == [
        (open_metric_code(label),)]


DENOMINATED = ["Non-USD denominated RMB’Million: Monetary assets, current",
               "USD denominated RMB’Million: Monetary assets, non-current",
               "USD denominated RMB’Million: Monetary assets, current"]


def test_the_label_holding_the_questions_hyphenated_word_as_written_is_read() -> None:
    # both rows hold every word of the question ("non" and "current" too); only one holds "non-USD"
    glossary = glossary_with(DENOMINATED)
    question = "What was the amount of non-USD denominated current monetary assets as at 31 December 2019?"
    assert parse_slots(question, glossary=glossary).metrics == (open_metric_code(DENOMINATED[0]),)


def test_labels_holding_the_same_words_and_hyphenated_words_are_still_asked_back() -> None:
    glossary = glossary_with(["USD denominated: Monetary assets, non-current",
                              "Non-USD denominated: Monetary assets, non-current"])
    question = "What were the USD denominated non-current monetary assets in 2019?"
    assert len(read(question, glossary)[0]) == 2
    assert parse_slots(question, glossary=glossary).metrics == ()


DEBT = ["Carrying amount: Total debt", "Carrying amount: Other foreign borrowings",
        "Fair value: Total debt", "Fair value: Other foreign borrowings"]


@pytest.mark.parametrize(("question", "label"), [
    ("What is the fair value of total debt as of December 31, 2019", "Fair value: Total debt"),
    ("What is the carrying amount of total debt in 2019?", "Carrying amount: Total debt"),
    ("What is the fair value of other foreign borrowings in 2019?", "Fair value: Other foreign borrowings"),
])
def test_total_read_as_the_channel_still_names_the_row_holding_it(question: str, label: str) -> None:
    assert parse_slots(question, glossary=glossary_with(DEBT)).metrics == (open_metric_code(label),)


COSTS = ["Employee severance and related costs", "Qdoba evaluation", "Other", "Total costs incurred"]
HEDGES = ["Derivatives in cash flow hedging relationship: Commodity contracts",
          "Derivatives in cash flow hedging relationship: Foreign exchange contracts",
          "Total derivatives in cash flow hedging relationship"]
SEGMENT_ASSETS = ["Assets allocated to segments: Food care", "Assets allocated to segments: Total segments",
                  "Assets not allocated: Deferred taxes"]


@pytest.mark.parametrize(("labels", "question", "label"), [
    (COSTS, "What is the average total costs for 2017, 2018 and 2019?", "Total costs incurred"),
    (COSTS, "What was the change in total cost between 2018 and 2019?", "Total costs incurred"),
    (HEDGES, "What was the change in the Total amount in 2019 from 2018?",
     "Total derivatives in cash flow hedging relationship"),
    (HEDGES, "What was the percentage change in the total in 2019 from 2018?",
     "Total derivatives in cash flow hedging relationship"),
])
def test_total_with_only_the_words_of_the_one_total_row_reads_it(labels: list[str], question: str,
                                                                 label: str) -> None:
    assert parse_slots(question, glossary=glossary_with(labels)).metrics == (open_metric_code(label),)


@pytest.mark.parametrize(("labels", "question"), [
    (SEGMENT_ASSETS, "What is the percentage change of total assets from 2018 to 2019?"),  # its section's word only
    (COSTS, "What is the total restructuring cost in 2019?"),  # a word the total row lacks
    ([*COSTS, "Total other charges"], "What is the average total costs for 2017, 2018 and 2019?"),  # two totals
    (["Qdoba evaluation", "Other"], "What was the change in the total in 2019 from 2018?"),  # no total row
])
def test_total_is_not_read_as_a_total_row_it_does_not_name(labels: list[str], question: str) -> None:
    metrics = parse_slots(question, glossary=glossary_with(labels)).metrics
    assert not any(code.startswith("label:") and "total" in code for code in metrics), metrics


@pytest.mark.parametrize("question", [
    "For 2018, what is the percentage of employee severance and related costs among the total cost?",
    "What is the ratio of Other to the total costs in 2017?",
])
def test_total_beside_a_row_read_adds_the_one_total_row(question: str) -> None:
    metrics = parse_slots(question, glossary=glossary_with(COSTS)).metrics
    assert open_metric_code("Total costs incurred") in metrics and len(metrics) == 2, metrics


@pytest.mark.parametrize(("labels", "question"), [
    (COSTS, "What is the total cost of revenue in 2018?"),  # the phrase goes on with a name read
    (COSTS, "What is the ratio of Other to the total cost of sales in 2017?"),  # a word the total row lacks
    ([*COSTS, "Total other charges"], "What is the ratio of Other to the total cost in 2017?"),  # two totals
])
def test_total_beside_a_row_read_reads_no_total_row_it_does_not_name(labels: list[str], question: str) -> None:
    metrics = parse_slots(question, glossary=glossary_with(labels)).metrics
    assert open_metric_code("Total costs incurred") not in metrics, metrics


def test_a_question_word_of_a_glossary_line_item_the_label_lacks_is_not_read_as_that_label() -> None:
    # a user who lists the line items: "non-current" names the glossary's own row, never the table's total
    raw = yaml.safe_load(Path(GLOSSARY_FILE).read_text(encoding="utf-8"))
    raw["metrics"]["DERIVATIVES_NONCURRENT"] = {
        "unit": "USD_M", "names": {"en": "Derivative financial instruments, non-current liability"},
        "aliases": ["Derivative financial instruments, non-current liability"]}
    listed = Glossary.from_mapping(raw)
    glossary = with_open_terms(listed, [(open_metric_code("Total fair value of the derivative liabilities") or "",
                                         listed.home_entity)])
    question = "What was the fair value of derivatives non-current liability in 2019?"

    assert read(question, glossary) == []
    assert read("What was the fair value of the derivative liabilities in 2019?", glossary) == [
        ("label:total fair value of the derivative liabilities",)]


SIGNED_LINES = glossary_with(["Voyage revenue", "Less voyage expenses", "Net voyage revenue", "Add depreciation",
                              "Less than one year", "One to three years"])


@pytest.mark.parametrize(("question", "label"), [
    ("What is the average voyage expenses in 2018 and 2019?", "less voyage expenses"),
    ("What was the depreciation in 2019?", "add depreciation"),
])
def test_a_lines_leading_less_or_add_is_no_word_the_question_must_name(question: str, label: str) -> None:
    # "Less voyage expenses": the word says the line is deducted from the total above it
    assert read(question, SIGNED_LINES) == [(f"label:{label}",)]


@given(st.sampled_from(["Less", "Add", "Plus", "Deduct", "less", "LESS"]),
       st.sampled_from(["voyage expenses", "imputed interest", "valuation allowance", "current portion"]))
@settings(max_examples=40)
def test_every_sign_word_leaves_the_item_named_alone(sign: str, item: str) -> None:
    glossary = glossary_with([f"{sign} {item}", "Net voyage revenue"])
    assert read(f"What was the change in {item} between 2018 and 2019?", glossary) == \
        [(f"label:{sign.lower()} {item}",)]


def test_less_than_is_the_items_own_words() -> None:
    # a maturity bucket: "Less than one year" deducts nothing, so "one year" alone does not name it
    assert read("What was the change in one year between 2018 and 2019?", glossary_with(["Less than one year"])) == []


BALANCES = glossary_with(["Balance at the beginning of the fiscal year", "Balance at the end of the fiscal year",
                          "Additions based on tax positions"])


@pytest.mark.parametrize(("question", "label"), [
    ("What is the average ending balance for fiscal years 2018 and 2019?", "balance at the end of the fiscal year"),
    ("What was the closing balance in 2019?", "balance at the end of the fiscal year"),
    ("What was the opening balance in 2019?", "balance at the beginning of the fiscal year"),
    ("What was the beginning balance in 2019?", "balance at the beginning of the fiscal year"),
])
def test_an_end_of_a_balance_is_named_either_way(question: str, label: str) -> None:
    assert read(question, BALANCES) == [(f"label:{label}",)]


@given(st.sampled_from(["ending", "closing", "opening", "beginning"]), st.sampled_from(["", "the ", "total "]))
def test_a_balance_written_as_its_end_reads_the_row_written_the_other_way(end: str, lead: str) -> None:
    glossary = glossary_with(["Ending balance", "Beginning balance", "Additions"])
    other = glossary_with(["Balance at end of year", "Balance at beginning of year", "Additions"])
    row = "ending" if end in ("ending", "closing") else "beginning"
    spelled = "end" if row == "ending" else "beginning"
    question = f"What was {lead}{end} balance in 2019?"
    assert read(question, other) == [(f"label:balance at {spelled} of year",)]
    if end not in ("ending", "beginning"):  # "ending balance" itself is the row's own name, read by the scan
        assert read(question, glossary) == [(f"label:{row} balance",)]


def test_ending_alone_is_still_no_word_of_a_row() -> None:
    # "the year ending June 30" names a period, not the balance at the end
    assert read("What was the balance for the year ending June 30, 2019?", BALANCES) == []


SCHEDULE_ROWS = glossary_with([f"{when}: finance leases" for when in ("2021", "2022", "2023", "Thereafter")]
                              + ["Finance leases: total lease liabilities"])


@pytest.mark.parametrize(("question", "year"), [("What were the finance leases for 2022?", "2022"),
                                                ("How much are the finance leases in 2023?", "2023")])
def test_a_schedule_row_is_told_apart_by_the_year_the_question_writes(question: str, year: str) -> None:
    assert read(question, SCHEDULE_ROWS) == [(f"label:{year}: finance leases",)]


@pytest.mark.parametrize("question", [
    "What was the change in finance leases between 2022 and 2023?",  # two years: no one row
    "What were the finance leases?",  # no year
    "What were the finance leases for 2030?",  # a year the schedule has no row of
])
def test_a_schedule_row_without_one_year_written_stays_offered_back(question: str) -> None:
    readings = read(question, SCHEDULE_ROWS)
    assert len(readings) == 1 and len(readings[0]) == 4, readings


SEXES = glossary_with(["Men: member aged 65", "Women: member aged 65"])


@pytest.mark.parametrize(("question", "column"), [
    ("What is the life expectancy of a male member aged 65?", "men"),
    ("What is the life expectancy of a female member aged 65?", "women"),
    ("What is the life expectancy of a woman member aged 65?", "women"),
])
def test_male_and_female_name_the_men_and_women_columns(question: str, column: str) -> None:
    assert read(question, SEXES) == [(f"label:{column}: member aged 65",)]


def test_a_member_of_no_sex_named_is_read_as_neither_column() -> None:
    assert read("What is the member aged 65?", SEXES) == [
        ("label:men: member aged 65", "label:women: member aged 65")]
