"""A row of a table whose total is the metric named, asked where the metric has no figure at all.

"What was the change in revenue from software maintenance between 2018 and 2019?" names the
glossary's revenue and, in its other words, the row ``Services: Software maintenance`` of a table
of revenue by type, whose section also holds ``Services: Total revenue``. Looked up as named, the
glossary's revenue has no figure (the store holds the table's own rows, none coded as revenue) and
the answer is "no data" although the table states the row. The row is what the question asks when:

* the question names one glossary metric and nothing it computes with two figures (no ratio,
  share or sum of metrics: "the percentage of revenue from software maintenance" divides by the
  whole);
* the metric has no figure at all for any entity asked, in any period (a metric with figures is
  answered as named: the row might be another figure of the same words);
* the question's other words name exactly one document row, whose label holds no word of the
  metric's names (a row such as ``Cost of revenue: Hosting`` is never read for revenue);
* the row stands in the same section of the same table of the same document as a total row
  whose own words are one of the metric's names (``Total revenue``, ``Total net sales``): the
  table says its rows are parts of that metric; a row of another section ("Income from vessel
  operations: Teekay LNG" beside "Revenues: Total") is not;
* the row has a figure in every slot asked.

Then the row alone is looked up, and the answer says it read the metric's words as that row.
Deterministic: the same facts give the same reading.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import TYPE_CHECKING

from ragspine.citation import table_of
from ragspine.facts.glossary import Glossary, SlotKind, normalize_text
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.facts.query_metric import MetricQuery, QueryStatus, run_query
from ragspine.qa.clarify import Proceed
from ragspine.qa.label_words import label_readings, label_words
from ragspine.qa.language import Lang
from ragspine.qa.metric_rows import combines_metrics
from ragspine.qa.slots import Assumption
from ragspine.qa.stated_names import metric_names
from ragspine.qa.total_rows import is_a_total

if TYPE_CHECKING:
    from ragspine.facts.model import Fact
    from ragspine.facts.ports import FactStore
    from ragspine.qa.intent_model import Intent
    from ragspine.sensitivity import Sensitivity

# The reason on the reading's assumption.
ROW_UNDER_METRIC_TOTAL = "a row of a table whose total is the metric named, which has no figure of its own"
_TOTAL = frozenset({"total"})


def row_under_metric_total(intent: Intent, decision: Proceed, question: str, *, facts: FactStore,
                           glossary: Glossary, max_sensitivity: Sensitivity, lang: Lang) -> Proceed | None:
    """The decision with the row alone when the metric named has no figure and the row's table totals it."""
    slots = decision.slots
    if (slots.unrecognized is not None or combines_metrics(intent) or intent.analysis or len(slots.metrics) != 1
            or slots.metrics[0].startswith(METRIC_PREFIX)):
        return None
    metric = slots.metrics[0]
    if not any(code.startswith(METRIC_PREFIX) for code in glossary.terms[SlotKind.METRIC]):
        return None  # no document row to read: the question's words need no second reading
    if any(facts.find(metric_code=metric, entity=entity) for entity in slots.entities):
        return None
    row = _row_named(question, glossary)
    if row is None:
        return None
    names = [own for name in metric_names(metric, glossary) if (own := label_words(name))]
    if not names or any(own & label_words(label_of(row)) for own in names):
        return None
    found = [run_query(MetricQuery(row, e, p, c), facts=facts, max_sensitivity=max_sensitivity)
             for e, p, c in itertools.product(slots.entities, slots.periods, slots.channels)]
    figures = [r.fact for r in found if r.status is QueryStatus.FOUND and r.fact is not None]
    if not found or len(figures) != len(found):
        return None
    if not all(_totalled_by(fact, names, facts) for fact in figures):
        return None
    reading = Assumption(SlotKind.METRIC, row, ROW_UNDER_METRIC_TOTAL,
                         typed=glossary.term(SlotKind.METRIC, metric).name(lang.value))
    return replace(decision, slots=replace(slots, metrics=(row,), assumptions=(reading, *slots.assumptions)))


def _row_named(question: str, glossary: Glossary) -> str | None:
    """The one document row the question names: by its item as written (``software maintenance``, a row whose
    section goes unnamed) or else in other words; None for none or several."""
    mentions = glossary.scan(question)
    written = {m.code for m in mentions if m.kind is SlotKind.METRIC and m.code and m.code.startswith(METRIC_PREFIX)}
    if written:
        return next(iter(written)) if len(written) == 1 else None
    readings = label_readings(normalize_text(question), glossary.leftover(question, mentions), glossary)
    if len(readings) != 1 or len(readings[0].readings) != 1:
        return None
    return readings[0].readings[0].code


def _totalled_by(fact: Fact, names: list[set[str]], facts: FactStore) -> bool:
    """Whether the fact's table states, in the fact's own section, a total row whose own words name the metric."""
    section = label_of(fact.metric_code).rpartition(": ")[0]
    table = table_of(fact.source_locator)
    for code, entity in facts.open_codes():
        if entity != fact.entity or not is_a_total(code):
            continue
        total_section, _, item = label_of(code).rpartition(": ")
        if total_section != section or (label_words(item) - _TOTAL) not in names:
            continue
        if any(other.source_doc_id == fact.source_doc_id and table_of(other.source_locator) == table
               for other in facts.find(metric_code=code, entity=entity)):
            return True
    return False
