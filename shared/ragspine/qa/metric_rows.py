"""A row named beside the metric its document says the table is of: "external revenues from Canada".

A table of revenues by country has rows that name only the country (``Canada``); what its
figures are is said in the text around it ("The following table presents total external
revenues by geographic location"). "What is the total external revenues from Canada in 2019?"
names the glossary's revenue and the row ``Canada``: looked up as two figures, revenue has none
and the row's figure stands beside "no data". The row is what the question asks when:

* the question names one glossary metric and one document row, a row of no section whose words
  are none of the metric's (a name: a country, a customer, a segment), computes nothing from
  the two (no ratio, share or sum of metrics), and says little else ("…based on the geographic
  location of the customer's headquarters" may describe another table than the row's), unless a
  sentence of the row's document leading into a table (ending with a colon: "Revenue based on the
  geographic location of our customer's headquarters was as follows:") names the metric and says
  every such word;
* the glossary metric has no figure for what is asked, and the row has one in every asked slot;
* every document the row's figures come from states the metric in a passage the index returns
  for the question.

Then the row alone is looked up, and the answer says it read the metric's words as that row.
Deterministic: the same facts and index give the same reading; no model decides.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import TYPE_CHECKING

from ragspine.facts.glossary import Glossary, SlotKind, normalize_text
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.facts.query_metric import MetricQuery, QueryStatus, run_query
from ragspine.lazy import LazyPattern
from ragspine.qa.clarify import Proceed
from ragspine.qa.derived_asks import QUALIFYING_WORDS
from ragspine.qa.label_words import ASKING_WORDS, label_words
from ragspine.qa.language import Lang
from ragspine.qa.passage_probe import probe_passages
from ragspine.qa.slots import Assumption
from ragspine.qa.stated_names import metric_names, names_row

# The reason on the reading's assumption; a row so read may be named in its document's own words beside it
# (``structured_asks``: they are no part of the question the row leaves unexplained).
ROW_OF_STATED_METRIC = "the row of a table its document states is of the metric named"
_SENTENCE_END = LazyPattern(r"(?<=[.!?。])\s+|\n+")

if TYPE_CHECKING:
    from ragspine.facts.ports import FactStore
    from ragspine.qa.intent_model import Intent
    from ragspine.qa.ports import NarrativeRetriever
    from ragspine.sensitivity import Sensitivity


def row_for_metric(intent: Intent, decision: Proceed, question: str, *, facts: FactStore, glossary: Glossary,
                   retriever: NarrativeRetriever | None, max_sensitivity: Sensitivity,
                   lang: Lang) -> Proceed | None:
    """The decision with the row alone when its documents say its table is of the metric named; else None."""
    slots = decision.slots
    if (retriever is None or slots.unrecognized is not None or combines_metrics(intent) or intent.analysis
            or len(slots.metrics) != 2):
        return None
    opened = [code for code in slots.metrics if code.startswith(METRIC_PREFIX)]
    named = [code for code in slots.metrics if not code.startswith(METRIC_PREFIX)]
    if len(opened) != 1 or len(named) != 1 or ": " in label_of(opened[0]):
        return None
    row, metric = opened[0], named[0]
    names = metric_names(metric, glossary)
    label = label_of(row)
    if label_words(label) & set().union(*map(label_words, names)) or any(
            name and not label_words(name) and normalize_text(name) in label for name in names):  # CJK: as written
        return None
    # the words beyond the row and the metric: more than a row's qualifiers, and the question asks something else
    beyond = label_words(glossary.leftover(question, glossary.scan(question))) - label_words(label) - ASKING_WORDS
    # more words than that are read only as the document's own sentence leading into the table ("Revenue based
    # on the geographic location of our customer's headquarters was as follows:"), checked below
    described = beyond if len(beyond) > max(QUALIFYING_WORDS, len(label_words(label))) else set()
    asked = list(itertools.product(slots.entities, slots.periods, slots.channels))

    def found(code: str) -> list[str | None]:
        results = [run_query(MetricQuery(code, e, p, c), facts=facts, max_sensitivity=max_sensitivity)
                   for e, p, c in asked]
        return [r.fact.source_doc_id if r.status is QueryStatus.FOUND and r.fact is not None else None
                for r in results]

    if any(found(metric)):
        return None
    documents = found(row)
    if not documents or None in documents:
        return None
    evidence = probe_passages(retriever, question, max_sensitivity=max_sensitivity,
                              on_failure="row probe failed; the metric is asked as named")
    if evidence is None:
        return None
    if not all(any(item.doc == doc and names_row(item.text, metric, glossary)
                   and (not described or _leads_in(item.text, metric, described, glossary)) for item in evidence)
               for doc in set(documents)):
        return None
    reading = Assumption(SlotKind.METRIC, row, ROW_OF_STATED_METRIC,
                         typed=glossary.term(SlotKind.METRIC, metric).name(lang.value))
    return replace(decision, slots=replace(slots, metrics=(row,), assumptions=(reading, *slots.assumptions)))


def _leads_in(passage: str, metric: str, words: set[str], glossary: Glossary) -> bool:
    """Whether a sentence of the passage leading into a table (ending with a colon) names the metric and ``words``.

    Such a sentence says what its table's figures are: a question repeating it asks for them. The
    same words elsewhere in the text (a paragraph on another breakdown) say nothing of the table.
    """
    for sentence in _SENTENCE_END.split(passage):
        if sentence.rstrip().endswith((":", "：")) and words <= label_words(sentence) \
                and names_row(sentence, metric, glossary):
            return True
    return False


def combines_metrics(intent: Intent) -> bool:
    """Whether the question computes with two figures (a ratio, a share, a sum of metrics): then both are asked.

    A sum, mean or growth of one row over its periods ("the total external revenues in 2019") is no such.
    """
    arithmetic = intent.arithmetic
    return any((arithmetic.ratio, arithmetic.subtract, arithmetic.add, arithmetic.entity_gap, arithmetic.consistency,
                arithmetic.share_of, arithmetic.explicit, arithmetic.by_formula, arithmetic.denominator))
