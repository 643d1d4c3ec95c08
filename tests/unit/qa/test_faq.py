"""The FAQ short-circuit: curated answers matched deterministically, each with its own source."""

from __future__ import annotations

import pytest

from ragspine.domain.files import domain_dir
from ragspine.errors import ConfigurationError
from ragspine.qa.answer import answer_question
from ragspine.qa.faq import FaqIndex
from ragspine.qa.result import AnswerStatus, Route
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.narrative import StaticRetriever
from tests.fakes.qa import make_qa


@pytest.fixture(scope="module")
def faq() -> FaqIndex:
    return FaqIndex.from_file(domain_dir() / "faq.yaml")


@pytest.mark.parametrize(("question", "entry_id"), [
    ("How is ACME's fiscal year defined?", "fiscal_year_definition"),
    ("how is acme's fiscal year defined", "fiscal_year_definition"),  # case and punctuation
    ("How is ACMEs fiscal year defined??", "fiscal_year_definition"),
    ("ACME的财年是如何定义的", "fiscal_year_definition"),
    ("返品は何日以内にできますか", "returns_window"),
    ("What membership tiers does ACME offer", "membership_tiers"),
    ("What membership tier does ACME offer?", "membership_tiers"),  # fuzzy: a plural dropped
])
def test_variants_match_their_entry(faq: FaqIndex, question: str, entry_id: str) -> None:
    hit = faq.match(question)
    assert hit is not None and hit.entry.entry_id == entry_id


@pytest.mark.parametrize("question", ["What was Japan's revenue in 2024?", "退货", "Why did margins fall?"])
def test_unrelated_questions_do_not_match(faq: FaqIndex, question: str) -> None:
    assert faq.match(question) is None


def test_a_hit_short_circuits_with_its_own_source(faq: FaqIndex) -> None:
    retriever = StaticRetriever()
    result = answer_question("How long do I have to return an item?",
                             qa=make_qa(InMemoryFactStore(), faq=faq, retriever=retriever))
    assert (result.route, result.status) == (Route.FAQ, AnswerStatus.FOUND)
    assert result.sources == ({"doc": "ACME_Product_Policy.md", "locator": "heading=Returns"},)
    assert "30 days" in result.answer and "（来源：ACME_Product_Policy.md · heading=Returns）" in result.answer
    assert retriever.queries == []  # no channel ran


def test_an_entry_without_a_source_is_refused_at_load_time() -> None:
    raw = {"entries": [{"id": "x", "questions": ["q"], "answer": "a", "source": {"doc": "", "locator": "l"}}]}
    with pytest.raises(ConfigurationError, match="source"):
        FaqIndex.from_mapping(raw)
