"""A share-price table's rows (``High``, ``Low`` by quarter) asked in the words its document describes it by.

Through ``answer_question`` on a finance domain folder: the rows of a report's table of quarterly
high and low prices, the sentence leading into that table as the index returns it, and questions
naming the rows beside the table's topic ("the prices of the ordinary shares") or two quarters of
a year named once ("In 2023, … between the second quarter and third quarter"), or counted over the
quarters of a year named ("In 2023, how many quarters …").
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ragspine.facts.model import Fact
from ragspine.qa.answer import QAComponents, answer_question
from tests.fakes.narrative import StaticRetriever, evidence
from tests.unit.qa.derived.statement_set import statement_fact, statement_qa_with_labels

PRICES = "harbor_lights_market_information.md"
LEAD_IN = evidence("Our ordinary shares trade on the Example Exchange under the symbol “HLX.” The following table sets "
                   "forth the quarterly high and low closing prices of our ordinary shares for the periods indicated.",
                   doc=PRICES, locator="heading=Market information,para=2")
CLOSING = {"2023Q1": (18.40, 15.10), "2023Q2": (24.15, 19.80), "2023Q3": (22.05, 17.32), "2023Q4": (21.30, 18.95),
           "2022Q4": (16.80, 14.25)}


def _price(row: str, quarter: str, value: float) -> Fact:
    return statement_fact(f"label:{row}", quarter, value, unit="USD", period_type="Q", source_doc_id=PRICES,
                          source_locator=f"table=1,row={row},col={quarter}")


@pytest.fixture(scope="module")
def qa(folder: Path) -> QAComponents:
    facts = [_price(row, quarter, value) for quarter, pair in CLOSING.items()
             for row, value in zip(("high", "low"), pair, strict=True)]
    return replace(statement_qa_with_labels(folder, facts), retriever=StaticRetriever([LEAD_IN]))


def test_the_tables_topic_beside_its_rows_names_the_table(qa: QAComponents) -> None:
    result = answer_question("What is the difference in the high and low prices of the ordinary shares in the "
                             "second quarter of 2023?", qa=qa)
    assert "difference between high (label:high) and low (label:low): 4.35 USD" in result.answer, result.answer
    assert f"{PRICES} · table=1,row=high,col=2023Q2" in result.answer, result.answer
    assert "read 'price, ordinary, share' as what the table of high (label:high) is of" in result.answer, result.answer


def test_the_topics_words_are_said_in_the_order_the_question_writes_them(qa: QAComponents) -> None:
    result = answer_question("What is the difference in the high and low ordinary share closing prices in the "
                             "second quarter of 2023?", qa=qa)
    assert "4.35 USD" in result.answer, result.answer
    assert "read 'ordinary, share, closing, price' as what the table" in result.answer, result.answer


def test_words_the_sentence_before_the_table_does_not_say_still_withhold_the_figure(qa: QAComponents) -> None:
    result = answer_question("What is the difference in the high and low prices of the preferred shares in the "
                             "second quarter of 2023?", qa=qa)
    assert "4.35" not in result.answer and "names more than the row" in result.answer, result.answer


def test_without_an_index_the_topic_is_not_read(qa: QAComponents) -> None:
    result = answer_question("What is the difference in the high and low prices of the ordinary shares in the "
                             "second quarter of 2023?", qa=replace(qa, retriever=None))
    assert "4.35" not in result.answer and "names more than the row" in result.answer, result.answer


def test_two_quarters_of_a_year_named_once_are_that_years_quarters(qa: QAComponents) -> None:
    result = answer_question("In 2023, what is the change in high price between the second quarter and third "
                             "quarter?", qa=qa)
    assert "2023Q3 vs 2023Q2 down 2.10 USD" in result.answer, result.answer
    assert "names more than the row" not in result.answer, result.answer


def test_a_count_of_quarters_in_a_year_named_counts_that_years_four_quarters(qa: QAComponents) -> None:
    result = answer_question("In 2023, how many quarters had share prices lower than $17.50 during their lows?",
                             qa=qa)
    assert "low (label:low) quarters below $17.50: 2 (2023Q3 17.32, 2023Q1 15.1; 4 quarters compared)" in \
        result.answer, result.answer
    assert "2022Q4" not in result.answer, result.answer


def test_a_count_over_a_year_with_quarters_not_stated_says_which(qa: QAComponents) -> None:
    result = answer_question("In 2022, how many quarters had share prices lower than $17.50 during their lows?",
                             qa=qa)
    assert "2022Q1" in result.answer and "quarters below" not in result.answer, result.answer
