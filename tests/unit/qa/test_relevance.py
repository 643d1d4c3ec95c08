"""A reply that does not answer: its words nearly all the question's, or its entities none of the question's."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.relevance import MAX_NEW_WORDS, OTHER_ENTITY, RESTATED, off_question

ASKED = ["margin", "recover", "japan", "gross", "shelf", "prices", "april", "raise", "tourist", "spending"]
NEW = ["yen", "weakened", "import", "costs", "supplier", "contracts", "membership", "logistics", "warehouse",
       "renegotiated", "rents", "livestream"]
NAMES = {"Hong Kong": "ACME_HK", "Japan": "ACME_JP", "the group": "ACME_GROUP"}


def namer(text: str) -> frozenset[str]:
    return frozenset(code for name, code in NAMES.items() if name in text)


@given(st.lists(st.sampled_from(ASKED), min_size=3, max_size=8, unique=True), st.randoms())
def test_a_reply_made_of_the_questions_words_restates_it(words: list[str], rnd) -> None:  # type: ignore[no-untyped-def]
    question = "Why did " + " ".join(words) + "?"
    said = words[:]
    rnd.shuffle(said)
    assert off_question(question, [" ".join(said[: max(2, len(said) - 1)]) + "."]) == RESTATED


@given(st.lists(st.sampled_from(ASKED), min_size=2, max_size=6, unique=True), st.permutations(NEW))
def test_a_reply_adding_as_many_words_of_its_own_is_not_a_restatement(asked: list[str], new: list[str]) -> None:
    reply = " ".join(asked + new[: len(asked)]) + "."
    assert off_question("Why did " + " ".join(asked) + "?", [reply]) is None


def test_a_reply_quoting_the_question_and_adding_more_than_a_few_words_is_not_a_restatement() -> None:
    question = "Why did " + " ".join(ASKED) + "?"
    assert off_question(question, [" ".join(ASKED + NEW[: MAX_NEW_WORDS + 1])]) is None
    assert off_question(question, [" ".join(ASKED + NEW[:MAX_NEW_WORDS])]) == RESTATED  # 4 of 14: a rewording


def test_entities_none_of_the_questions_are_another_entity_the_group_is_not() -> None:
    question = "Why did tourist spending weaken in Hong Kong?"
    assert off_question(question, ["Japan raised shelf prices because the yen weakened."], entities=namer,
                        home=frozenset({"ACME_GROUP"})) == OTHER_ENTITY
    for reply in ["The group closed three stores as tourist numbers dropped.",  # the home group only
                  "Visitors from Japan spent less in Hong Kong as the yen weakened.",  # names the asked one too
                  "Inbound visitors spent less after the currency moved."]:  # names none
        assert off_question(question, [reply], entities=namer, home=frozenset({"ACME_GROUP"})) is None
