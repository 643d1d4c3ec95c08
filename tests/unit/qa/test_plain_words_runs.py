"""The plain lookup's word check takes a run of spaces whole, and accepts exactly what it accepted one space at a time."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.qa.intent import RuleIntentParser
from ragspine.qa.plain_lookup import _PLAIN_WORDS, plain_intent
from tests.support.glossary import default_glossary

# The check as it was written before, one space or mark a step: the reference it is held to.
_ONE_AT_A_TIME = re.compile(_PLAIN_WORDS.pattern.replace(r"[\s?？。]++|", r"[\s?？。]|", 1))
_PIECES = st.sampled_from([" ", "  ", "   ", "\t", "?", "？", "。", "what", "was", "is", "the", "of", "in", "for",
                           "how much", "how many", "did", "have", "是多少", "的", "の", "は", "を", "いくら", "ですか",
                           "でしたか", "教えて", "ください", "x", "a", "2024", "isthe", "how", "many", "です", "收入"])


def test_the_reference_is_the_check_without_the_possessive_run() -> None:
    assert _ONE_AT_A_TIME.pattern != _PLAIN_WORDS.pattern
    assert "++" not in _ONE_AT_A_TIME.pattern


@settings(max_examples=500)
@given(st.lists(_PIECES, max_size=14).map("".join))
def test_a_leftover_is_accepted_exactly_as_one_space_at_a_time(leftover: str) -> None:
    # GIVEN a blanked question made of question words, particles, runs of spaces, marks and other words
    # THEN the check accepts it exactly when the check one space at a time does
    assert (_PLAIN_WORDS.fullmatch(leftover) is None) == (_ONE_AT_A_TIME.fullmatch(leftover) is None)


def test_a_plain_lookup_is_still_read_from_the_scan() -> None:
    # a question whose names leave long runs of spaces behind is still a plain lookup
    parser = RuleIntentParser.from_file(default_glossary())
    assert plain_intent("What was the gross margin of Mainland China in FY2023?", parser) is not None
    assert plain_intent("What was the gross margin of Mainland China really in FY2023?", parser) is None
