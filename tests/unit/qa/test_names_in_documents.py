"""Words the documents state are no unknown company, and the documents' own rows are in scope.

Through ``answer_question`` on a domain fresh from ``domain init``, the rows of a report's tables
(``label:…`` facts) and the passages of its text as the index returns them:

* a name the report's text states beside the row asked ("the assets and liabilities of IMFT",
  "华润置地的负债合计", "キオクシアの負債合計") is read as the report's words: the row's figure,
  with the reading said; a name the text states elsewhere only ("IMFT sales to Intel"), a name
  only another document states, and a name no document states are asked back as before;
* a question in the words of the stored rows ("the 2018 IFRS9 opening balance of financial
  assets", 金融资产的期初余额, 金融資産の期首残高: a Chinese or Japanese run counts by its character
  pairs) is in scope though no glossary term is named; a question about something else is still
  refused, in any language.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.domain.starter import init_domain
from ragspine.facts.model import Fact
from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.result import AnswerStatus
from tests.fakes.narrative import StaticRetriever, evidence
from tests.unit.qa.derived.statement_set import statement_fact, statement_qa_with_labels

REPORT = "jv_report.md"
OTHER = "other_report.md"
PASSAGES = [
    evidence("The following table presents the assets and liabilities of IMFT included in our consolidated "
             "balance sheets.", doc=REPORT, locator="heading=IMFT,para=1"),
    evidence("IMFT sales to Intel were $731 million in 2019.", doc=REPORT, locator="heading=IMFT,para=2"),
    evidence("Under the DSU Plan, the following DSUs were issued by the Corporation.", doc=REPORT,
             locator="heading=DSU plan,para=1"),
    evidence("华润置地的负债合计如下表所示。", doc=REPORT, locator="heading=合营企业,para=1"),
    evidence("キオクシアの負債合計は次のとおりです。", doc=REPORT, locator="heading=関連会社,para=1"),
    evidence("The total liabilities as of October 31 are shown below.", doc=REPORT, locator="heading=IMFT,para=3"),
    evidence("Hotels carry part of the total liabilities below.", doc=REPORT, locator="heading=Segments,para=1"),
    evidence("Umbra Holdings reported its total assets in the table below.", doc=OTHER,
             locator="heading=Umbra,para=1"),
]


def _fact(row: str, year: str, value: float, doc: str = REPORT) -> Fact:
    return statement_fact(f"label:{row}", year, value, unit="USD_M", source_doc_id=doc,
                          source_locator=f"table=1,row={row},col={year}")


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QAComponents:
    domain: Path = tmp_path_factory.mktemp("names") / "domain"
    init_domain(domain)
    facts = [_fact("total liabilities", "2018", 1305), _fact("issued", "2019", 11328),
             _fact("assets: property, plant, and equipment", "2018", 2641),
             _fact("liabilities: current debt", "2018", 20),
             _fact("负债合计", "2018", 2154), _fact("負債合計", "2018", 3017),
             _fact("total assets", "2018", 4410, doc=OTHER),
             _fact("financial assets: opening balance – ifrs 9", "2018", 100107),
             _fact("financial assets: opening balance – ias 39", "2018", 77131),
             _fact("金融资产：期初余额", "2018", 5120), _fact("金融資産：期首残高", "2018", 6230)]
    qa = statement_qa_with_labels(domain, facts)
    return replace(qa, retriever=StaticRetriever(PASSAGES))  # a fresh parse cache: it is built per instance


@pytest.mark.parametrize(("question", "value", "name"), [
    ("What were the total liabilities of IMFT in 2018?", "1305", "IMFT"),
    ("What was the issued DSU in 2019?", "11328", "DSU"),
    ("2018年华润置地的负债合计是多少？", "2154", "华润置地"),
    ("2018年のキオクシアの負債合計はいくらですか", "3017", "キオクシア"),
])
def test_a_name_the_text_states_beside_the_row_is_read_as_the_documents_word(
        qa: QAComponents, question: str, value: str, name: str) -> None:
    result = answer_question(question, qa=qa)
    assert result.status is AnswerStatus.FOUND, result.answer
    assert value in result.answer and f"{REPORT} · table=1" in result.answer, result.answer
    assert name in result.answer.splitlines()[-1], result.answer  # the reading is said


def test_a_row_under_the_section_a_sentence_pointing_at_its_table_names_is_read_for_the_name(
        qa: QAComponents) -> None:
    # "the assets and liabilities of IMFT" names the section Assets, not the row's own words
    result = answer_question("What was IMFT’s property, plant, and equipment in 2018?", qa=qa)
    assert result.status is AnswerStatus.FOUND, result.answer
    assert result.answer.splitlines()[0].split("（")[0].endswith(": 2641 USD_M"), result.answer
    assert "IMFT" in result.answer.splitlines()[-1], result.answer


@given(ask=st.sampled_from(["What was IMFT’s {} in 2018?", "What was the {} of IMFT in 2018?",
                             "Show IMFT's {} for 2018", "How much {} did IMFT have in 2018?"]),
       row=st.sampled_from(["property, plant, and equipment", "property, plant and equipment",
                            "Property, Plant, and Equipment"]))
def test_a_row_under_a_named_section_is_read_for_the_name_however_asked(qa: QAComponents, ask: str,
                                                                        row: str) -> None:
    result = answer_question(ask.format(row), qa=qa)
    assert result.status is AnswerStatus.FOUND, result.answer
    assert "2641" in result.answer and "1305" not in result.answer, result.answer


@pytest.mark.parametrize(("question", "name"), [
    ("What were the total liabilities of Intel in 2018?", "Intel"),  # stated, but not beside the row
    # stated in a passage naming no section of the row nor pointing at its table
    ("What was the current debt of Intel in 2018?", "Intel"),
    ("What were the total liabilities of Globex in 2018?", "Globex"),  # stated nowhere
    ("What were the total assets of Initech in 2018?", "Initech"),  # stated nowhere, the row by another name
    ("What were the total liabilities as of October 31, 2018?", "October 31, 2018"),  # a date inside the year
    # stated beside the row, but a capitalised word, not an abbreviation: a segment whose figure the row is not
    ("What were the total liabilities of Hotels in 2018?", "Hotels"),
])
def test_any_other_name_is_still_asked_back(qa: QAComponents, question: str, name: str) -> None:
    result = answer_question(question, qa=qa)
    assert result.status is AnswerStatus.UNRECOGNIZED_PARAM, result.answer
    assert f"“{name}”" in result.answer and "1305" not in result.answer and "4410" not in result.answer


def test_a_figure_of_another_document_than_the_one_stating_the_name_is_not_given(qa: QAComponents) -> None:
    result = answer_question("What were the total assets of IMFT in 2018?", qa=qa)  # only OTHER states them
    assert result.status is AnswerStatus.UNRECOGNIZED_PARAM, result.answer
    assert "4410" not in result.answer and "“IMFT”" in result.answer


def test_without_an_index_the_name_is_asked_back(qa: QAComponents) -> None:
    bare = replace(qa, retriever=None)
    result = answer_question("What were the total liabilities of IMFT in 2018?", qa=bare)
    assert result.status is AnswerStatus.UNRECOGNIZED_PARAM, result.answer


def test_the_documents_rows_are_in_scope_in_their_own_words(qa: QAComponents) -> None:
    result = answer_question("What is the 2018 IFRS9 opening balance of financial assets?", qa=qa)
    assert result.status is AnswerStatus.FOUND, result.answer
    assert "100107" in result.answer and "77131" not in result.answer, result.answer


@pytest.mark.parametrize(("question", "row"), [("2018年金融资产的期初余额是多少？", "金融资产：期初余额"),
                                             ("2018年の金融資産の期首残高はいくらですか", "金融資産：期首残高")])
def test_the_documents_chinese_and_japanese_rows_are_in_scope_in_their_own_words(qa: QAComponents, question: str,
                                                                                   row: str) -> None:
    result = answer_question(question, qa=qa)
    assert result.status is not AnswerStatus.REFUSED, result.answer
    assert row in result.answer  # the row is offered by name: screening no longer ends the question


@pytest.mark.parametrize("question", ["What is the capital of France?", "Who won the football match yesterday?",
                                      "法国的首都是哪里？", "昨天的足球比赛谁赢了？", "明日の天気はどうですか",
                                      "2018年の金融市場の天気はどうですか"])
def test_a_question_about_something_else_is_still_refused(qa: QAComponents, question: str) -> None:
    assert answer_question(question, qa=qa).status is AnswerStatus.REFUSED
