"""Two of a document's rows named in one phrase ask one figure: the row named last, qualified by the first.

A table of share activity has the rows "Number of shares: nonvested" and "Number of shares:
granted". "The average number of nonvested shares granted" names both, with only their section's
word ("shares") between them, yet asks one average: of the shares granted (in the nonvested shares'
roll-forward). Computing the average of the nonvested balance too would answer a question not
asked. Rows joined by a list word ("nonvested and granted shares") are each asked, and two rows
joined by a word of arithmetic ("nonvested to granted") are two figures.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.glossary import Glossary
from ragspine.facts.open_vocabulary import open_metric_code, with_open_terms
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary

ROWS = ["Number of shares: nonvested", "Number of shares: granted", "Number of shares: vested",
        "Number of shares: forfeited", "Notes: issued", "Notes: redeemed"]


def glossary_with(labels: list[str]) -> Glossary:
    base = default_glossary()
    codes = [open_metric_code(label) for label in labels]
    return with_open_terms(base, [(code, base.home_entity) for code in codes if code])


GLOSSARY = glossary_with(ROWS)
SECTIONS = st.sampled_from([("nonvested", "shares", "granted"), ("nonvested", "shares", "vested"),
                            ("nonvested", "shares", "forfeited"), ("issued", "notes", "redeemed")])
ASKS = st.sampled_from(["What is the average number of {}", "What was the number of {}", "What is the total of {}",
                        "What was the change in the number of {}"])
LISTING = st.sampled_from([" and ", ", ", " or ", " as well as "])


def _items(metrics: tuple[str, ...]) -> list[str]:
    return [code.rpartition(": ")[2] for code in metrics]


@given(section=SECTIONS, ask=ASKS)
def test_the_row_named_last_is_asked_when_only_the_sections_word_stands_between(section: tuple[str, str, str],
                                                                                 ask: str) -> None:
    first, noun, second = section
    parsed = parse_slots(ask.format(f"{first} {noun} {second}") + " in 2018 and 2019?", glossary=GLOSSARY)
    assert _items(parsed.metrics) == [second]


@given(section=SECTIONS, ask=ASKS, joiner=LISTING)
def test_two_rows_listed_are_each_asked(section: tuple[str, str, str], ask: str, joiner: str) -> None:
    first, noun, second = section
    parsed = parse_slots(ask.format(f"{first}{joiner}{second} {noun}") + " in 2019?", glossary=GLOSSARY)
    assert set(_items(parsed.metrics)) == {first, second}


@pytest.mark.parametrize("question", [
    "What is the ratio of nonvested to granted shares in 2019?",
    "What is the number of nonvested shares divided by granted shares in 2019?",
])
def test_two_rows_joined_by_a_word_of_arithmetic_are_both_asked(question: str) -> None:
    assert set(_items(parse_slots(question, glossary=GLOSSARY).metrics)) == {"nonvested", "granted"}


def test_one_row_named_with_its_section_is_asked() -> None:
    question = "What was the number of nonvested shares in 2019?"
    assert parse_slots(question, glossary=GLOSSARY).metrics == ("label:number of shares: nonvested",)


def test_adjacent_rows_of_two_sections_with_nothing_between_are_both_kept() -> None:
    # "basic" (the row "Earnings per share: basic") and "net income" share no section: neither qualifies the other
    glossary = glossary_with(["Earnings per share: basic", "Net income"])
    parsed = parse_slots("What is the change in basic net income per share from 2018 to 2019?", glossary=glossary)
    assert "label:earnings per share: basic" in parsed.metrics
