"""A question naming one kind of figure (amortized cost, fair value …) through ``ragspine ingest`` and
``answer_question`` / ``POST /v1/ask``: a table that dates only its fair values is asked back for an amortized
cost, never answered with the fair value of the same row; the kind it gives, or no kind named, is answered, and
a table giving both kinds answers each question with its own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import get_services
from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.open_vocabulary import METRIC_PREFIX
from ragspine.qa.kind_phrases import kinds_named, unstated_kind
from ragspine.qa.result import AnswerStatus
from tests.support.ask import WAYS, asker
from tests.support.domain_env import ingested_for_module, service_answer

# only the fair value column is dated: the reader files its figures under "fair value", the cost stays unread
FAIR_VALUES_DATED = """\
# Investments available for sale

The company's debt securities were as follows (in thousands):

| | Amortized Cost | Fair Value |
| --- | --- | --- |
| | | December 31, 2019 |
| U.S. treasury securities | 41,000 | 41,730 |
| Commercial paper | 12,500 | 12,480 |
"""

# both kinds under one date
BOTH_KINDS = """\
# Held-to-maturity bonds

The company's municipal bonds were as follows (in thousands):

| | December 31, 2019 | |
| --- | --- | --- |
| | Amortized Cost | Fair Value |
| Municipal bonds | 8,200 | 8,350 |
"""


# no kind in the table: the text says its figures are fair values, which no row's name keeps
PLAN_ASSETS = """\
# Pension plan assets

The fair value of the plan assets by category was as follows (in millions):

| | 2019 | 2018 |
| --- | --- | --- |
| Real estate funds | 950 | 760 |
| Hedge funds | 1,000 | 1,010 |
"""


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "kinds",
                                   {"securities.md": FAIR_VALUES_DATED, "bonds.md": BOTH_KINDS,
                                    "plan.md": PLAN_ASSETS})


@pytest.fixture(params=WAYS)
def ask(asked: None, request: pytest.FixtureRequest) -> Any:
    return asker(request.param, get_services())


def test_a_kind_the_table_does_not_give_is_asked_back(ask: Any) -> None:
    body = ask("What was the amortized cost of U.S. treasury securities in 2019?")

    assert "41730" not in body["answer"] and "41,730" not in body["answer"], body["answer"]
    assert body["clarification"] is not None, body
    question = body["clarification"]["question"]
    assert "fair value" in question and "no amortized cost" in question, question
    assert [o["question"] for o in body["clarification"]["options"]] == [
        "what was the fair value of u.s. treasury securities in 2019?"]


def test_the_kind_the_table_gives_is_answered(ask: Any) -> None:
    body = ask("What was the fair value of U.S. treasury securities in 2019?")

    assert body["status"] == AnswerStatus.FOUND.value, body["answer"]
    assert "41730" in body["answer"], body["answer"]


def test_no_kind_named_is_answered_with_the_rows_figure(asked: None) -> None:
    answer, status = service_answer("What was the value of U.S. treasury securities in 2019?")

    assert status is AnswerStatus.FOUND and "41730" in answer, answer


def test_rows_naming_no_kind_answer_the_kind_their_text_names(asked: None) -> None:
    answer, status = service_answer("What was the fair value of real estate funds in 2019?")

    assert status is AnswerStatus.FOUND and "950" in answer, answer


@pytest.mark.parametrize(("question", "figure", "other"), [
    ("What was the amortized cost of municipal bonds in 2019?", "8200", "8350"),
    ("What was the fair value of municipal bonds in 2019?", "8350", "8200"),
])
def test_a_table_giving_both_kinds_answers_each_its_own(ask: Any, question: str, figure: str, other: str) -> None:
    body = ask(question)

    assert body["status"] == AnswerStatus.FOUND.value, body["answer"]
    assert figure in body["answer"] and other not in body["answer"], body["answer"]


@pytest.mark.parametrize(("question", "given"), [
    ("2019年U.S. treasury securities的摊余成本是多少？", "公允价值"),
    ("2019年のU.S. treasury securitiesの償却原価はいくらですか？", "公正価値"),
])
def test_chinese_and_japanese_questions_naming_the_missing_kind_are_asked_back(
        asked: None, question: str, given: str) -> None:
    answer, status = service_answer(question)

    assert status is AnswerStatus.NEEDS_CLARIFICATION and given in answer, answer
    assert "41730" not in answer, answer


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.sampled_from([
    "How much was the amortized cost of U.S. treasury securities in 2019?",
    "What is the amortised cost of the U.S. treasury securities as of December 31, 2019?",
    "What was the change in the amortized cost of U.S. treasury securities from 2018 to 2019?",
    "What was the book value of commercial paper in 2019?",
    "What was the carrying amount of commercial paper in 2019?",
]))
def test_other_wordings_of_a_kind_not_given_are_never_answered(asked: None, question: str) -> None:
    answer, _status = service_answer(question)

    assert not any(figure in answer for figure in ("41730", "41,730", "12480", "12,480")), answer


KINDS = {"amortized cost": ["amortized cost", "Amortised Costs"], "fair value": ["fair value", "Fair-Value"],
         "carrying amount": ["carrying amount", "carrying value", "book value"],
         "unrealized losses": ["unrealized losses"], "net additions": ["net additions"]}


def _glossary() -> Glossary:
    return get_services().qa.glossary


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(asked_kind=st.sampled_from(sorted(KINDS)), row_kind=st.sampled_from(sorted(KINDS)), data=st.data(),
       row=st.sampled_from(["u.s. treasury securities", "commercial paper", "postpaid customers"]))
def test_a_row_of_one_kind_is_refused_for_another_named_in_any_spelling(
        asked: None, asked_kind: str, row_kind: str, row: str, data: st.DataObject) -> None:
    written = data.draw(st.sampled_from(KINDS[asked_kind]))
    question = f"What was the {written} of {row.title()} in 2019?"
    code = f"{METRIC_PREFIX}{row_kind}: {row}"

    assert kinds_named(question) == {asked_kind}
    refused = unstated_kind(question, (code,), _glossary())
    assert (refused is None) is (asked_kind == row_kind), refused
    assert unstated_kind(f"What was {row} in 2019?", (code,), _glossary()) is None  # no kind named: no refusal
    assert unstated_kind(question, (f"{METRIC_PREFIX}{row}",), _glossary()) is None  # a row naming no kind
    beside = unstated_kind(question, (f"{METRIC_PREFIX}{row}", code), _glossary())  # and one naming its kind
    assert (beside is None) is (asked_kind == row_kind), beside
    assert beside is None or row_kind in {kind for kind, _words in beside.given}  # the row's kind is offered
    assert unstated_kind(question, (f"{METRIC_PREFIX}gross {asked_kind}: {row}",), _glossary()) is None \
        or asked_kind == "net additions"


def test_glossary_metrics_are_never_refused(asked: None) -> None:
    glossary = _glossary()
    code = next(c for c in glossary.terms[SlotKind.METRIC] if not c.startswith(METRIC_PREFIX))
    assert unstated_kind("What was the fair value of it in 2019?", (code,), glossary) is None
