"""Rows named with the words their document describes their table by: "the high and low prices of the common stock".

A share-price table has rows ``High`` and ``Low`` by quarter; what its figures are is said in
the text before it ("The following table sets forth … the high and low sales prices per share
of our common stock"). "What is the difference in the high and low prices of the common stock
in the fourth quarter of 2019?" names the rows and, beside them, the table's topic: words no row
holds, but no other figure either. Such words are read as naming the table when:

* every metric the question names is a document row (``label:…``) and the words beyond the rows
  are more than a row's qualifiers (``derived_asks.beyond_the_rows`` would withhold the figure);
* every row has a figure in every asked slot;
* every document those figures come from has, in a passage the index returns for the question,
  a sentence leading into a table (ending with a colon, or opening "the following table") that
  holds the rows' own words and every word beyond them.

Then the answer says it read the words as the table's topic. Words the sentence does not say
("the preferred stock" beside a table of the common stock) still withhold the figure.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.open_vocabulary import label_of
from ragspine.facts.query_metric import MetricQuery, QueryStatus, run_query
from ragspine.lazy import LazyPattern
from ragspine.qa.clarify import Proceed
from ragspine.qa.derived_asks import beyond_the_rows
from ragspine.qa.label_words import label_words
from ragspine.qa.passage_probe import probe_passages
from ragspine.qa.render import TABLE_TOPIC
from ragspine.qa.slots import Assumption

# The reason on the reading's assumption (``structured_asks``: the words are no part of the question the rows
# leave unexplained).
ROWS_OF_DESCRIBED_TABLE = "rows of a table its document describes in the question's words"
# a closing quote or parenthesis after the stop ends the sentence too: 'under the symbol “TZOO.” The following table'
_SENTENCE_END = LazyPattern(r"(?<=[.!?。])[”’\"')]*\s+|\n+")
_OPENS_ON_TABLE = LazyPattern(r"^\s*(?:the|this)\s+(?:following\s+)?table(?:\s+below)?\s", re.IGNORECASE)

if TYPE_CHECKING:
    from ragspine.facts.ports import FactStore
    from ragspine.qa.ports import NarrativeRetriever
    from ragspine.sensitivity import Sensitivity


def rows_of_described_table(decision: Proceed, question: str, *, facts: FactStore, glossary: Glossary,
                            retriever: NarrativeRetriever | None, max_sensitivity: Sensitivity) -> Proceed | None:
    """The decision with the words beyond its rows read as their table's topic, when the documents say so; else None."""
    slots = decision.slots
    if retriever is None or slots.unrecognized is not None or not slots.metrics:
        return None
    beyond = beyond_the_rows(question, slots.metrics, glossary)
    if not beyond:
        return None
    documents: set[str] = set()
    for code, entity, period, channel in itertools.product(slots.metrics, slots.entities, slots.periods,
                                                            slots.channels):
        result = run_query(MetricQuery(code, entity, period, channel), facts=facts, max_sensitivity=max_sensitivity)
        if result.status is not QueryStatus.FOUND or result.fact is None:
            return None
        documents.add(result.fact.source_doc_id)
    if not documents:
        return None
    evidence = probe_passages(retriever, question, max_sensitivity=max_sensitivity,
                              on_failure="table topic probe failed; the words beyond the rows stand")
    if evidence is None:
        return None
    words = set(beyond).union(*(label_words(label_of(code)) for code in slots.metrics))
    if not all(any(item.doc == doc and _leads_in(item.text, words) for item in evidence) for doc in documents):
        return None
    reading = Assumption(SlotKind.METRIC, slots.metrics[0], ROWS_OF_DESCRIBED_TABLE, cue=TABLE_TOPIC,
                         typed=", ".join(beyond))
    return replace(decision, slots=replace(slots, assumptions=(reading, *slots.assumptions)))


def _leads_in(passage: str, words: set[str]) -> bool:
    """Whether a sentence of the passage leading into a table holds every one of ``words``.

    Such a sentence says what its table's figures are; the same words elsewhere in the text say
    nothing of the table.
    """
    for sentence in _SENTENCE_END.split(passage):
        leads = sentence.rstrip().endswith((":", "：")) or _OPENS_ON_TABLE.search(sentence) is not None
        if leads and words <= label_words(sentence):
            return True
    return False
