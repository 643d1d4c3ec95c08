"""A row named beside the metric its document says the table is of ("revenues from Canada") answers alone.

Through ``answer_question`` on a domain fresh from ``domain init`` (its glossary's revenue has no
figure here), the rows of a report's table of revenues by country (``label:canada`` …) and the
passages of the report's text as the index returns them. Where the document holding the row
does not state the metric, or the metric has a figure of its own, the question is answered as
before: the row is never read as the metric.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ragspine.domain.starter import init_domain
from ragspine.facts.model import Fact
from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.result import AnswerStatus
from tests.fakes.narrative import StaticRetriever, evidence
from tests.unit.qa.derived.statement_set import statement_fact, statement_qa_with_labels

REVENUES = "revenues_by_country.md"
ASSETS = "assets_by_country.md"
PASSAGES = [
    evidence("The following table presents total external revenues by geographic location.", doc=REVENUES,
             locator="heading=Geographic information,para=1"),
    evidence("下表列示按地区划分的营业收入。", doc=REVENUES, locator="heading=地区信息,para=1"),
    evidence("地域別の売上高は次のとおりです。", doc=REVENUES, locator="heading=地域別情報,para=1"),
    evidence("Long-lived assets by geographic area are as follows.", doc=ASSETS,
             locator="heading=Long-lived assets,para=1"),
]


def _fact(row: str, year: str, value: float, doc: str) -> Fact:
    return statement_fact(row if row.isupper() else f"label:{row}", year, value, unit="USD_K", source_doc_id=doc,
                          source_locator=f"table=1,row={row},col={year}")


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QAComponents:
    domain: Path = tmp_path_factory.mktemp("rows") / "domain"
    init_domain(domain)
    facts = [_fact("canada", "2019", 96168, REVENUES), _fact("united states", "2019", 1079520, REVENUES),
             _fact("加拿大", "2019", 8813, REVENUES), _fact("カナダ", "2019", 7712, REVENUES),
             _fact("germany", "2019", 4410, ASSETS),
             _fact("canada", "2017", 512, REVENUES), _fact("REVENUE", "2017", 9000, REVENUES),
             _fact("united states", "2018", 1000000, REVENUES)]
    qa = statement_qa_with_labels(domain, facts)
    return replace(qa, retriever=StaticRetriever(PASSAGES))  # a fresh parse cache: it is built per instance


@pytest.mark.parametrize(("question", "value", "said"), [
    ("What is the total external revenues from Canada in 2019?", "96168", "read 'revenue' as canada"),
    ("What was the sales in the United States in 2019?", "1079520", "read 'revenue' as united states"),
    ("2019年加拿大的营收是多少？", "8813", "将“营业收入”理解为加拿大（label:加拿大）"),
    ("2019年のカナダの売上高はいくらですか", "7712", "「売上高」をカナダ（label:カナダ）と解釈"),
])
def test_the_row_of_a_table_its_document_says_is_of_the_metric_answers(
        qa: QAComponents, question: str, value: str, said: str) -> None:
    result = answer_question(question, qa=qa)
    assert result.status is AnswerStatus.FOUND, result.answer
    assert value in result.answer and f"{REVENUES} · table=1" in result.answer, result.answer
    assert said in result.answer.splitlines()[-1], result.answer  # the reading is said


def test_a_row_of_a_document_that_does_not_state_the_metric_is_not_read_as_it(qa: QAComponents) -> None:
    result = answer_question("What was the revenue from Germany in 2019?", qa=qa)
    assert result.status is not AnswerStatus.FOUND, result.answer
    assert "read 'revenue'" not in result.answer, result.answer


def test_a_metric_with_a_figure_of_its_own_is_asked_as_before(qa: QAComponents) -> None:
    result = answer_question("What was the revenue from Canada in 2017?", qa=qa)
    assert "9000" in result.answer and "read 'revenue'" not in result.answer, result.answer


def test_without_an_index_the_row_is_not_read_as_the_metric(qa: QAComponents) -> None:
    bare = replace(qa, retriever=None)
    result = answer_question("What is the total external revenues from Canada in 2019?", qa=bare)
    assert result.status is not AnswerStatus.FOUND, result.answer


def test_a_question_saying_much_besides_keeps_both_figures_asked(qa: QAComponents) -> None:
    # "…based on the geographic location of the customer's headquarters" may describe another table than the
    # row's: the row is not read as the metric, so the change of the row is still computed beside "no revenue"
    result = answer_question("What is the percentage change of revenue from the United States from 2018 to 2019, "
                             "based on the geographic location of the customer's headquarters?", qa=qa)
    assert "read 'revenue'" not in result.answer and "names more than the row" not in result.answer, result.answer
    assert "FY2019 vs FY2018 up 79520" in result.answer, result.answer


def test_a_question_asked_again_after_its_documents_came_is_read_anew(tmp_path: Path) -> None:
    # asked twice before the text is indexed (the parse and its plan kept), then once after: the row alone
    domain = tmp_path / "domain"
    init_domain(domain)
    facts = [_fact("canada", "2019", 96168, REVENUES)]
    base = statement_qa_with_labels(domain, facts)
    index = StaticRetriever([])
    qa = QAComponents(facts=base.facts, glossary=base.glossary, screening=base.screening, intent=base.intent,
                      llm=base.llm, clock=base.clock, retriever=index)
    question = "What is the total external revenues from Canada in 2019?"
    for _ in range(2):
        assert answer_question(question, qa=qa).status is not AnswerStatus.FOUND
    index.evidence = PASSAGES
    result = answer_question(question, qa=qa)
    assert result.status is AnswerStatus.FOUND and "read 'revenue' as canada" in result.answer, result.answer
    assert "No data" not in result.answer, result.answer


HEADQUARTERS = "revenue_by_headquarters.md"
SHIP_TO = "revenue_by_ship_to.md"
LEAD_INS = [
    evidence("Geographic Information\nRevenue based on the geographic location of our customer's headquarters "
             "was as follows:", doc=HEADQUARTERS, locator="heading=Geographic Information,para=1"),
    evidence("We ship our products to locations specified by our customers. Revenue based on the ship-to location "
             "of our customers is described in the notes.", doc=SHIP_TO, locator="heading=Sales,para=2"),
]


@pytest.fixture(scope="module")
def lead_in_qa(tmp_path_factory: pytest.TempPathFactory) -> QAComponents:
    domain: Path = tmp_path_factory.mktemp("lead_ins") / "domain"
    init_domain(domain)
    facts = [_fact("taiwan", "2018", 3918, HEADQUARTERS), _fact("japan", "2018", 1265, SHIP_TO)]
    qa = statement_qa_with_labels(domain, facts)
    return replace(qa, retriever=StaticRetriever(LEAD_INS))


def test_a_question_in_the_words_of_the_sentence_leading_into_the_table_reads_the_row(
        lead_in_qa: QAComponents) -> None:
    result = answer_question("What is the revenue from Taiwan in 2018 based on the geographic location of the "
                             "customer's headquarters?", qa=lead_in_qa)
    assert result.status is AnswerStatus.FOUND, result.answer
    assert "3918" in result.answer and f"{HEADQUARTERS} · table=1" in result.answer, result.answer
    assert "read 'revenue' as taiwan" in result.answer.splitlines()[-1], result.answer


@pytest.mark.parametrize("question", [
    # the words stand in the text, but in no sentence leading into a table
    "What is the revenue from Japan in 2018 based on the ship-to location specified by the customers?",
    # words the sentence leading into the row's table does not say
    "What is the revenue from Taiwan in 2018 based on the location of the distribution centres of the customers?",
])
def test_words_no_sentence_leading_into_the_table_states_keep_the_row_apart(
        lead_in_qa: QAComponents, question: str) -> None:
    result = answer_question(question, qa=lead_in_qa)
    assert "read 'revenue' as" not in result.answer, result.answer
    assert result.status is not AnswerStatus.FOUND, result.answer


COMMON_SIZE = "results_as_percent_of_sales.md"
SEGMENTS = "segment_results.md"


@pytest.fixture(scope="module")
def rows_in_other_words(tmp_path_factory: pytest.TempPathFactory) -> QAComponents:
    domain: Path = tmp_path_factory.mktemp("other_words") / "domain"
    init_domain(domain)

    def fact(row: str, year: str, value: float, unit: str, doc: str) -> Fact:
        return statement_fact(f"label:{row}", year, value, unit=unit, source_doc_id=doc,
                              source_locator=f"table=1,row={row},col={year}")

    facts = [fact("other income (expense), net", "2018", 0.1, "PCT", COMMON_SIZE),
             fact("other income (expense), net", "2019", 1.6, "PCT", COMMON_SIZE),
             fact("provision for income taxes", "2019", 1.4, "PCT", COMMON_SIZE),
             fact("results of operations: cost of sales", "2018", 61, "PCT", COMMON_SIZE),
             fact("results of operations: cost of sales", "2019", 58, "PCT", COMMON_SIZE),
             fact("income (loss) from vessel operations: teekay lng", "2018", 148599, "USD_K", SEGMENTS),
             fact("income (loss) from vessel operations: teekay lng", "2019", 299253, "USD_K", SEGMENTS)]
    passages = [evidence("The following table sets forth our results of operations as a percentage of sales:",
                         doc=COMMON_SIZE, locator="heading=Results of operations,para=1"),
                evidence("Revenues and income from vessel operations by segment are as follows.", doc=SEGMENTS,
                         locator="heading=Segments,para=1")]
    return replace(statement_qa_with_labels(domain, facts), retriever=StaticRetriever(passages))


@pytest.mark.parametrize("words", ["net other income", "other income, net", "Other Income (Expense) net"])
def test_a_row_named_in_other_words_beside_the_metric_answers_when_the_metric_has_no_figure(
        rows_in_other_words: QAComponents, words: str) -> None:
    # GIVEN a table of results as a percentage of sales, its row "Other income (expense), net", and no sales figure
    # WHEN the question names sales and the row in its own words
    result = answer_question(f"What was the change in percentage of sales represented by {words} between 2018 and "
                             "2019?", qa=rows_in_other_words)
    # THEN the row's change answers, cited, and the reading is said
    assert "FY2019 vs FY2018 up 1.5 points" in result.answer, result.answer
    assert f"{COMMON_SIZE} · table=1,row=other income (expense), net" in result.answer, result.answer
    assert "No data" not in result.answer and "read 'revenue' as other income" in result.answer, result.answer


def test_a_row_of_another_section_named_by_its_item_alone_is_not_the_metric(
        rows_in_other_words: QAComponents) -> None:
    # "Revenues of Teekay LNG" names the item of "Income (loss) from vessel operations: Teekay LNG", not its figure
    result = answer_question("What is the increase/ (decrease) in Revenues of Teekay LNG from 2018 to 2019?",
                             qa=rows_in_other_words)
    assert "150654" not in result.answer and "299253" not in result.answer, result.answer


@pytest.mark.parametrize(("ask", "figure"), [
    ("What is the average cost of sales as a percentage of sales in 2018 and 2019?", "average: 59.5 PCT"),
    ("What is the total proportion of cost of sales as a percentage of the total sales in 2018 and 2019?",
     ": 119 PCT"),
])
def test_a_row_of_a_section_holding_the_metrics_own_words_stays_read_beside_it(
        rows_in_other_words: QAComponents, ask: str, figure: str) -> None:
    # GIVEN a common-size statement whose "Cost of sales" row sits under a "Results of operations" heading, no sales
    # WHEN the question names the row by its item and sales as the whole it is a share of
    result = answer_question(ask, qa=rows_in_other_words)
    # THEN the row is read (its item holds "sales": a line item of its own, not a part of sales), its stated shares
    # computed as asked and cited
    first = result.answer.splitlines()[0]
    assert figure in first, result.answer
    assert f"{COMMON_SIZE} · table=1,row=results of operations: cost of sales,col=2018" in first, result.answer
