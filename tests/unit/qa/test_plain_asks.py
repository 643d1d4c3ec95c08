"""A question the one-pass gate calls plain asks nothing beyond its lookups when every reader runs.

``asks_nothing_more`` lets the structured channel skip ``read_structured_asks``; the property holds
it to the readers themselves on questions generated from their words, words near them, the
glossary's names and other scripts, through the real intent parser and clarify gate.
"""

from __future__ import annotations

import re
from datetime import date
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.glossary import normalize_text
from ragspine.qa import derived_asks, plain_asks
from ragspine.qa.clarify import Proceed, clarify_scope
from ragspine.qa.derived_asks import derived_words
from ragspine.qa.intent import RuleIntentParser
from ragspine.qa.intent_model import Channel, Intent
from ragspine.qa.language import detect_language
from ragspine.qa.plain_asks import asks_nothing_more
from ragspine.qa.slots import Slots
from ragspine.qa.structured_asks import NOTHING_MORE, read_structured_asks
from tests.support.glossary import default_glossary

_GLOSSARY = default_glossary()
_PARSER = RuleIntentParser.from_file(_GLOSSARY)
TODAY = date(2026, 11, 30)

_NAMES = ["revenue", "gross margin", "Hong Kong", "Japan", "stores", "operating profit", "operating margin",
          "营业收入", "毛利率", "日本", "売上高", "営業利益", "営業利益率", "香港", "FY2024", "2023年", "2024 ",
          "2019", "Q3 2024", "2024年第三季度", "第4四半期", "fiscal year 2024", "线上"]
_WORDS = ["as previously reported", "originally published", "first stated", "before the restatement", "unrestated",
          "not restated", "Restated", "訂正前", "重述前", "调整前", "前", "report", "state", "ſtated", "ＳＴＡＴＥＤ",
          "change", "changes", "exchange", "increase", "decrease", "difference", "变化", "变动", "増減", "変化",
          "growth", "grew", "grow", "增长", "增幅", "伸び", "成長", "margin", "ratio", "turnover", "per share", "率",
          "how many", "how many years", "how many fiscal years", "how many of the quarters", "HOW MANY QUARTERS",
          "几年", "多少个季度", "多少", "几", "年", "季度", "exceeded 100", "above 5%", "超过100", "average", "total",
          "altogether", "from 2017 to 2019", "2017年至2019年", "all 3 years", "highest", "ratio of", "sum of",
          "to two decimal places", "the year before", "以前"]
_OTHER = [" ", "", "the ", "of ", "in ", "what was ", "what is ", "?", "。", "的", "の", "是多少", "はいくら", "-", "\n"]


def _readings(question: str) -> list[tuple[Channel, Intent, Slots]]:
    intent = _PARSER.parse(question)
    decision = clarify_scope(intent, glossary=_GLOSSARY, today=TODAY, lang=detect_language(question))
    if not isinstance(decision, Proceed):
        return []
    return [(channel, intent, decision.slots) for channel in (Channel.STRUCTURED, Channel.COMPOSITE)]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_WORDS + _NAMES + _OTHER), min_size=1, max_size=10).map("".join))
def test_a_question_the_gate_calls_plain_asks_nothing_more_of_any_reader(question: str) -> None:
    for channel, intent, slots in _readings(question):
        if asks_nothing_more(question, intent, slots, _GLOSSARY):
            read = read_structured_asks(question, intent, slots, channel=channel,
                                        glossary=_GLOSSARY, lang=detect_language(question))
            assert read == NOTHING_MORE


@pytest.mark.parametrize("question", [
    "What was the revenue of Japan in 2024?",
    "2024年日本的毛利率是多少",
    "How many stores did Japan have in 2024?",
    "日本の2024年第4四半期の売上高を教えてください",
])
def test_a_plain_lookup_passes_the_gate(question: str) -> None:
    readings = _readings(question)
    assert readings
    assert all(asks_nothing_more(question, intent, slots, _GLOSSARY)
               for _, intent, slots in readings)


@pytest.mark.parametrize("question", [
    "What was the revenue of Japan in 2024 as previously reported?",
    "What was the change in revenue of Japan in 2024?",
    "How many years did the revenue of Japan exceed 100?",
    "What was the revenue margin of Japan in 2024?",
    "How much did the operating margin of Japan grow in 2024?",  # a formula metric: no derived word unmet
    "2024年日本营业利润率增长了多少",
])
def test_a_question_asking_more_is_read_by_every_reader(question: str) -> None:
    for channel, intent, slots in _readings(question):
        assert not asks_nothing_more(question, intent, slots, _GLOSSARY)
        if channel is Channel.STRUCTURED:
            assert read_structured_asks(question, intent, slots, channel=channel,
                                        glossary=_GLOSSARY, lang=detect_language(question)) != NOTHING_MORE


_DERIVED_PIECES = ["return on", "returns-on", "conversion_cycle", "per share", "per\nshare", "days sales", "days payable",
                   "days inventory", "grow", "grew", "gr", "ew", "yield", "coverage", "turnover", "増長", "增速", "成長",
                   "周转", "回転", "率", "margin", "marg", "ratio", "how many", " years", "how many of the quarters"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_WORDS + _NAMES + _OTHER + _DERIVED_PIECES), min_size=1, max_size=8).map("".join))
def test_the_one_search_finds_something_wherever_either_reader_word_stands(question: str) -> None:
    # a question it finds nothing in is passed without the gate's own search or the derived words' read:
    # each of those would have found nothing
    norm = normalize_text(question)
    if plain_asks._ASKS_OR_DERIVED.search(norm) is None:
        assert plain_asks._ASKS_WORDS.search(norm) is None
        assert derived_asks._DERIVED_CORE.search(norm) is None
        assert not derived_words(question, _GLOSSARY)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_WORDS + _NAMES + _OTHER + _DERIVED_PIECES), min_size=1, max_size=8).map("".join))
def test_the_derived_words_are_those_read_without_the_core_searches(question: str) -> None:
    # "gross margin" and 毛利率 hold a derived word inside a name: the core search over the blanked question shows
    # none is left; with the core searches finding something everywhere, every question is read in full
    found = derived_asks._derived_words(question, _GLOSSARY)
    with mock.patch.object(derived_asks, "_DERIVED_CORE", re.compile("")):
        assert found == derived_asks._derived_words(question, _GLOSSARY)
