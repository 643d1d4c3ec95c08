"""Whether a structured question asks nothing beyond its lookups, decided in one pass over its words.

``read_structured_asks`` runs six readers on every question bound for the structured channel (a
figure "as previously reported", a change or growth against the year before, a derived figure
nothing computes, a count of periods over a threshold, arithmetic over every stated year, a change
across a range of years), and most questions ask none of them. Each reader finds something only
when the normalised question holds one of the words below, or when the question asks arithmetic,
an analysis or a document's row; a question holding none of them gets ``NOTHING_MORE`` from all
six, which one search of the words' prefix tree shows without running any:

- the earlier version: every branch of its pattern holds "report", "publ" or "stat", or ends in 前
  (the question is NFKC-normalised, so no case-folding look-alike is left to match them);
- the change or growth of one year (with no arithmetic asked) and a change over every stated year
  or across a range: their change and growth words are looked for in the question, or in it with
  its names blanked, which turns characters into spaces only, so a word missing from the question
  is missing from the blanked one too;
- a derived figure: its words are read by ``derived_words``, which the intent already read for the
  same question (so this is its memo), and only for the glossary's metrics (a document's row is
  weighed word by word, so a question naming one is read in full);
- a count: its wording is "how many" followed by years or quarters, or 几/幾/多少 followed by 年,
  季度 or 四半期 (个 between them or not).

The property tests hold the gate to the readers on generated questions
(``tests/unit/qa/test_plain_asks.py``).
"""

from __future__ import annotations

import re

from ragspine.facts.glossary import Glossary, normalize_text
from ragspine.facts.matching import trie_pattern
from ragspine.facts.open_vocabulary import METRIC_PREFIX
from ragspine.lazy import LazyPattern
from ragspine.qa.analytics.cues import NO_ANALYSIS
from ragspine.qa.arithmetic_cues import NO_ARITHMETIC
from ragspine.qa.derived_asks import DERIVED_CORE_WORDS, derived_words
from ragspine.qa.intent_model import Intent
from ragspine.qa.slots import Slots

_EARLIER_VERSION_WORDS = ("report", "publ", "stat", "前")
_CHANGE_WORDS = ("change", "increase", "decrease", "difference", "变化", "变动", "増減", "変化")
_GROWTH_WORDS = ("grow", "grew", "增长", "增幅", "伸び", "成長")
_COUNT_WORDS = (*(f"how many {of}{what}" for of in ("", "of the ")
                  for what in ("year", "fiscal year", "quarter")),
                *(f"{how}{unit}{what}" for how in ("几", "幾", "多少") for unit in ("", "个")
                  for what in ("年", "季度", "四半期")))
# Unguarded: the tree opens the pattern, so ``re`` skips to the positions of its first characters in C.
_ASKS = (*_EARLIER_VERSION_WORDS, *_CHANGE_WORDS, *_GROWTH_WORDS, *_COUNT_WORDS)
_ASKS_WORDS = LazyPattern(trie_pattern(_ASKS, guarded=False))
# These words or what every derived word holds (``derived_words`` reads nothing without it), in one prefix tree
# whose spaces are any character: it finds something wherever either search would (and a little more), and most
# questions hold none of them, which one search shows.
_ASKS_OR_DERIVED = LazyPattern(trie_pattern((*_ASKS, *DERIVED_CORE_WORDS), guarded=False).replace(r"\ ", "."),
                               re.DOTALL)


def asks_nothing_more(question: str, intent: Intent, slots: Slots, glossary: Glossary) -> bool:
    """True only when ``read_structured_asks`` of the same question, intent and slots is ``NOTHING_MORE``.

    False means "not shown": the readers then run as they always do.
    """
    arithmetic = intent.arithmetic
    analysis = intent.analysis  # (each ``is`` first: most questions ask neither, and each truth test is a call)
    if (arithmetic is not NO_ARITHMETIC and arithmetic) or (analysis is not NO_ANALYSIS and analysis):
        return False
    if any(metric.startswith(METRIC_PREFIX) for metric in slots.metrics):
        return False
    norm = normalize_text(question)
    if _ASKS_OR_DERIVED.search(norm) is None:  # none of the readers' words, and no derived word to read
        return True
    if _ASKS_WORDS.search(norm) is not None:
        return False
    # a derived word with no formula metric asked is unmet; with one (or no metric), nothing is read of it
    return not slots.metrics or any(m in glossary.formulas for m in slots.metrics) \
        or not derived_words(question, glossary)
