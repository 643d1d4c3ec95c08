"""A question naming a table's subject in the words of the sentence leading into it reads the row it names.

Through ``answer_question`` on a domain fresh from ``domain init``, the rows of a reconciliation
(``label:balance at end of period`` …) and the passages of its document as the index returns
them. The subject's words are dropped only where a sentence leading into a table (ending with a
colon) states them, and the figure stands only when it comes from that sentence's document.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ragspine.domain.starter import init_domain
from ragspine.facts.model import Fact
from ragspine.facts.query_metric import QueryResult, QueryStatus
from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.evidence import Evidence
from ragspine.qa.lead_in_subjects import LeadInSubject, answered_from, lead_in_subject
from ragspine.qa.result import AnswerStatus
from ragspine.sensitivity import Sensitivity
from tests.fakes.narrative import StaticRetriever, evidence
from tests.support.glossary import default_glossary
from tests.unit.qa.derived.statement_set import statement_fact, statement_qa_with_labels

BENEFITS = "unrecognized_tax_benefits.md"
OPTIONS = "stock_options.md"
LEAD_IN = evidence("We account for uncertain tax positions by applying a recognition threshold. The reconciliation of "
                   "our total gross unrecognized tax benefits is as follows:", doc=BENEFITS,
                   locator="heading=Income taxes,para=2")
IN_PASSING = evidence("The total gross unrecognized tax benefits, if recognized, would lower the effective tax rate.",
                      doc=OPTIONS, locator="heading=Income taxes,para=3")
QUESTION = "What was the balance of total gross unrecognized tax benefits at the end of period in 2018?"


def _fact(row: str, year: str, value: float, doc: str) -> Fact:
    return statement_fact(f"label:{row}", year, value, unit="USD_K", source_doc_id=doc,
                          source_locator=f"table=1,row={row},col={year}")


def _qa(tmp_path: Path, passages: list[Evidence], doc: str = BENEFITS) -> QAComponents:
    domain = tmp_path / "domain"
    init_domain(domain)
    facts = [_fact("balance at end of period", "2018", 13162, doc), _fact("balance at beginning of period", "2018",
                                                                           15990, doc),
             _fact("additions based on tax positions taken during a prior period", "2018", 94, doc)]
    return replace(statement_qa_with_labels(domain, facts), retriever=StaticRetriever(passages))


def test_the_subject_the_sentence_leading_into_the_table_states_is_read_as_the_tables(tmp_path: Path) -> None:
    result = answer_question(QUESTION, qa=_qa(tmp_path, [LEAD_IN]))
    assert result.status is AnswerStatus.FOUND, result.answer
    assert ": 13162" in result.answer and f"{BENEFITS} · table=1,row=balance at end of period" in result.answer
    assert "Read 'total gross unrecognized tax benefits' as what the table is of" in result.answer, result.answer


def test_the_same_words_said_in_passing_read_nothing(tmp_path: Path) -> None:
    result = answer_question(QUESTION, qa=_qa(tmp_path, [IN_PASSING], doc=OPTIONS))
    assert result.status is AnswerStatus.NEEDS_CLARIFICATION, result.answer
    assert "13162" not in result.answer, result.answer


def test_a_figure_of_another_document_than_the_sentences_is_not_given(tmp_path: Path) -> None:
    # the sentence leads into a table of one document, the row read is another document's
    result = answer_question(QUESTION, qa=_qa(tmp_path, [LEAD_IN], doc=OPTIONS))
    assert result.status is AnswerStatus.NEEDS_CLARIFICATION, result.answer
    assert "13162" not in result.answer, result.answer


def test_without_an_index_the_question_is_asked_back(tmp_path: Path) -> None:
    result = answer_question(QUESTION, qa=replace(_qa(tmp_path, [LEAD_IN]), retriever=None))
    assert result.status is AnswerStatus.NEEDS_CLARIFICATION, result.answer


@pytest.mark.parametrize(("question", "words"), [
    (QUESTION, "total gross unrecognized tax benefits"),
    ("What were the additions of gross unrecognized tax benefits in 2018?", "gross unrecognized tax benefits"),
    ("What was the balance of tax benefits in 2018?", None),  # two words: too few to name a table
])
def test_the_run_dropped_is_the_longest_of_three_words_or_more(question: str, words: str | None) -> None:
    subject = lead_in_subject(question, glossary=default_glossary(), retriever=StaticRetriever([LEAD_IN]),
                              max_sensitivity=Sensitivity.CONFIDENTIAL)
    assert (subject.words if subject else None) == words
    if subject is not None and words is not None:
        assert words not in subject.question and subject.doc == BENEFITS


@pytest.mark.parametrize(("row", "doc", "stands"), [
    ("balance at end of period", BENEFITS, True),
    ("total deferred tax assets", BENEFITS, False),  # "deferred tax assets" named the row, not the table
    ("balance at end of period", OPTIONS, False),  # another document's row
])
def test_a_figure_stands_only_from_the_sentences_document_and_a_row_not_named_by_the_run(
        row: str, doc: str, stands: bool) -> None:
    subject = LeadInSubject("What was the total in 2018?", "deferred tax assets", BENEFITS)
    found = QueryResult(QueryStatus.FOUND, fact=_fact(row, "2018", 100, doc))
    assert answered_from(subject, [found]) is stands
