"""An out-of-scope verdict weighed against the documents the caller may see (``qa/scope.py``)."""

from __future__ import annotations

import pytest

from ragspine.errors import ProviderUnavailableError
from ragspine.qa.evidence import Evidence
from ragspine.qa.refusal import Refusal
from ragspine.qa.scope import covered_by_knowledge, subject_words
from ragspine.qa.screening import RefusalReason
from ragspine.sensitivity import Sensitivity
from tests.fakes.narrative import StaticRetriever, evidence
from tests.support.glossary import default_glossary

FILING = evidence("Amcor reported Adjusted EBITDA of 2,018 million for FY2023.", doc="Amcor_FY2023.md",
                  locator="heading=Results,para=1")
CARS = evidence("Amcor supplies battery packaging to makers of electric cars.", doc="Amcor_FY2023.md",
                locator="heading=Electric cars,para=1")
NO_TERM = Refusal(RefusalReason.OUT_OF_SCOPE, "NO_BUSINESS_TERM", "outside")


def _covered(question: str, refusal: Refusal = NO_TERM, found: list[Evidence] | None = None) -> bool:
    retriever = StaticRetriever(found if found is not None else [FILING, CARS])
    return covered_by_knowledge(refusal, question, retriever=retriever, glossary=default_glossary(),
                                max_sensitivity=Sensitivity.CONFIDENTIAL)


def test_subject_words_leave_out_slots_fillers_and_plain_words() -> None:
    assert subject_words("What was AMCOR's Adjusted EBITDA for FY 2023?", default_glossary()) == [
        "amcor", "adjusted", "ebitda"]
    assert subject_words("香港2024年的天气怎么样", default_glossary()) == ["天气怎么样"]


def test_iteration_marks_and_the_kanji_zero_stay_inside_their_words() -> None:
    # 々 repeats the character before it and 〇 writes a zero: both are part of the word, as the index reads it
    assert subject_words("各々の事業の人材戦略は", default_glossary()) == ["各々", "事業", "人材戦略"]
    assert subject_words("二〇二四年の研究開発方針", default_glossary()) == ["二〇二四年", "研究開発方針"]


@pytest.mark.parametrize(("question", "covered"), [
    ("How did AMCOR's Adjusted EBITDA develop?", True),  # amcor, adjusted, ebitda stated; develop not: 3 of 4
    ("What is the capital of France?", False),  # nothing stated
    ("Tell me about Amcor dinosaurs and volcanoes", False),  # 1 of 3 is no majority
])
def test_a_strict_majority_of_subject_words_must_be_stated(question: str, covered: bool) -> None:
    assert _covered(question) is covered


def test_an_off_topic_subject_must_itself_be_stated() -> None:
    cars = Refusal(RefusalReason.OUT_OF_SCOPE, "OFF_TOPIC:electric cars", "outside")
    assert _covered("Does Amcor supply makers of electric cars?", cars)
    assert not _covered("Does Amcor supply makers of electric cars?", cars, found=[FILING])
    assert not _covered("Which electric car is the fastest?",
                        Refusal(RefusalReason.OUT_OF_SCOPE, "OFF_TOPIC:electric car", "outside"))


def test_other_refusals_are_never_overridden() -> None:
    competitor = Refusal(RefusalReason.COMPETITOR, "COMPETITOR:globex", "no")
    assert not _covered("What did Amcor say about Globex Adjusted EBITDA?", competitor)


def test_without_documents_or_with_a_failing_index_the_refusal_stands() -> None:
    assert not covered_by_knowledge(NO_TERM, "How did AMCOR's Adjusted EBITDA develop?", retriever=None,
                                    glossary=default_glossary(), max_sensitivity=Sensitivity.CONFIDENTIAL)

    class Failing:
        def retrieve(self, query: str, *, top_k: int, max_sensitivity: Sensitivity) -> list[Evidence]:
            raise ProviderUnavailableError("index down")

    assert not covered_by_knowledge(NO_TERM, "How did AMCOR's Adjusted EBITDA develop?", retriever=Failing(),
                                    glossary=default_glossary(), max_sensitivity=Sensitivity.CONFIDENTIAL)


def test_the_probe_respects_the_callers_ceiling() -> None:
    secret = evidence("Amcor reported Adjusted EBITDA of 2,018 million.", sensitivity=Sensitivity.RESTRICTED)
    assert not _covered("How did AMCOR's Adjusted EBITDA develop?", found=[secret])


@pytest.mark.parametrize(("question", "words"), [
    ("How many Amcor plants were below 500 tonnes?", ["amcor", "plants", "tonnes"]),
    ("What was the change in Amcor warrants from Aug 2007-Jan 2011 to Jun-2018?", ["change", "amcor", "warrants"]),
    ("What is the average Amcor equity at end of period in terms of $M?", ["average", "amcor", "equity", "terms"]),
])
def test_words_saying_when_are_no_subject(question: str, words: list[str]) -> None:
    assert subject_words(question, default_glossary()) == words
