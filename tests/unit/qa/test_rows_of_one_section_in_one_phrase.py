"""Two of a document's rows named in one phrase ask one figure: the question is asked back, even for arithmetic.

A table of share activity has the rows "Number of shares: nonvested" and "Number of shares:
granted". "The average number of nonvested shares granted" names both, with only their section's
word ("shares") between them, yet asks one average: which row it means is unsaid, so computing
the average of the first would answer a question not asked. Rows joined by a list word ("nonvested
and granted shares") are each asked, and two rows joined by a word of arithmetic ("nonvested to
granted") are no one phrase.
"""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.glossary import Glossary
from ragspine.facts.open_vocabulary import open_metric_code, with_open_terms
from ragspine.qa.clarify import AskBack, Proceed, clarify_scope
from ragspine.qa.intent import RuleIntentParser
from ragspine.qa.language import Lang
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary

ROWS = ["Number of shares: nonvested", "Number of shares: granted", "Number of shares: vested",
        "Number of shares: forfeited", "Units: issued", "Units: redeemed"]
TODAY = date(2025, 9, 15)


def glossary_with(labels: list[str]) -> Glossary:
    base = default_glossary()
    codes = [open_metric_code(label) for label in labels]
    return with_open_terms(base, [(code, base.home_entity) for code in codes if code])


GLOSSARY = glossary_with(ROWS)
PARSER = RuleIntentParser.from_file(GLOSSARY)
SECTIONS = st.sampled_from([("nonvested", "shares", "granted"), ("nonvested", "shares", "vested"),
                            ("nonvested", "shares", "forfeited"), ("issued", "units", "redeemed")])
ASKS = st.sampled_from(["What is the average number of {}", "What was the number of {}", "What is the total of {}",
                        "What was the change in the number of {}"])
LISTING = st.sampled_from([" and ", ", ", " or ", " as well as "])


@given(section=SECTIONS, ask=ASKS)
def test_two_rows_with_their_sections_word_between_are_asked_back(section: tuple[str, str, str], ask: str) -> None:
    first, noun, second = section
    question = ask.format(f"{first} {noun} {second}") + " in 2018 and 2019?"
    parsed = parse_slots(question, glossary=GLOSSARY)
    assert parsed.one_phrase is not None
    assert {r.code.rpartition(": ")[2] for r in parsed.one_phrase.readings} == {first, second}
    decision = clarify_scope(PARSER.parse(question), glossary=GLOSSARY, today=TODAY, lang=Lang.EN)
    assert isinstance(decision, AskBack)  # no average, total or change of either row computed


@given(section=SECTIONS, ask=ASKS, joiner=LISTING)
def test_two_rows_listed_are_each_asked(section: tuple[str, str, str], ask: str, joiner: str) -> None:
    first, noun, second = section
    question = ask.format(f"{first}{joiner}{second} {noun}") + " in 2019?"
    parsed = parse_slots(question, glossary=GLOSSARY)
    assert parsed.one_phrase is None
    assert {code.rpartition(": ")[2] for code in parsed.metrics} == {first, second}


@pytest.mark.parametrize("question", [
    "What is the ratio of nonvested to granted shares in 2019?",
    "What is the number of nonvested shares divided by granted shares in 2019?",
])
def test_two_rows_joined_by_a_word_of_arithmetic_are_no_one_phrase(question: str) -> None:
    parsed = parse_slots(question, glossary=GLOSSARY)
    assert parsed.one_phrase is None
    decision = clarify_scope(PARSER.parse(question), glossary=GLOSSARY, today=TODAY, lang=Lang.EN)
    assert isinstance(decision, Proceed)


def test_one_row_named_with_its_section_is_answered() -> None:
    question = "What was the number of nonvested shares in 2019?"
    assert parse_slots(question, glossary=GLOSSARY).metrics == ("label:number of shares: nonvested",)
    decision = clarify_scope(PARSER.parse(question), glossary=GLOSSARY, today=TODAY, lang=Lang.EN)
    assert isinstance(decision, Proceed)
