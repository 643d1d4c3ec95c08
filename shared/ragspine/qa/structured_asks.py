"""What a question bound for the structured channel asks beyond its lookups, read from its text alone.

Before any figure is looked up, the structured channel checks whether the question asks a derived
figure nothing computes (``derived_asks``), a count of periods over a threshold (``counting``), or
arithmetic over years it does not name (``stated_years``). Each of those readings is a pure
function of the question, its intent, its slots, the glossary and the language, so a parsed
question keeps them (``ParsedQuestion.asks``) and a repeated question does not read its words
again; the facts they lead to are still read from the store on every ask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ragspine.facts.glossary import Glossary
from ragspine.qa.count_asks import read_count
from ragspine.qa.derived_asks import unmet_derivation
from ragspine.qa.described_tables import ROWS_OF_DESCRIBED_TABLE
from ragspine.qa.intent_model import Channel, Intent
from ragspine.qa.language import Lang
from ragspine.qa.metric_rows import ROW_OF_STATED_METRIC
from ragspine.qa.reported_versions import earlier_version_unanswered
from ragspine.qa.slots import Slots
from ragspine.qa.stated_years import asks_range_ends, asks_year_before, years_asked

if TYPE_CHECKING:
    from ragspine.qa.counting import CountAsk


@dataclass(frozen=True, slots=True)
class StructuredAsks:
    """The text-only readings of a structured (or composite) question."""

    unmet: str | None = None  # the "cannot be computed" line: the answer, with no number
    count: CountAsk | None = None  # a count of periods over a threshold
    every_year: str | None = None  # ``stated_years.OVER_PERIODS``, ``SUM_OVER_PERIODS``, ``CHANGE``: every stated year
    year_before: bool = False  # one named year with the year before it (a change, "the 2019 average")
    range_ends: bool = False  # a change across a range of years ("from 2017 to 2019"): between its two ends
    # the "cannot be computed" line of a growth of one year named, when the documents state no year before it
    unmet_alone: str | None = None


NOTHING_MORE = StructuredAsks()  # a question that asks nothing beyond its lookups


def read_structured_asks(question: str, intent: Intent, slots: Slots, *, channel: Channel, glossary: Glossary,
                         lang: Lang) -> StructuredAsks:
    """The readings ``answer_question`` acts on, in its order: a derived figure not computed and a count
    only for the structured channel (a composite answer reads neither), then the years asked."""
    arithmetic = intent.arithmetic
    earlier = earlier_version_unanswered(question, lang) if slots.metrics else None
    if earlier is not None:  # "revenue as previously reported": not the restated figure the facts keep
        return StructuredAsks(unmet=earlier)
    year_before = asks_year_before(question, arithmetic, slots, glossary, growth=channel is Channel.STRUCTURED)
    unmet_alone = None
    if channel is Channel.STRUCTURED:
        # "the growth in FY2025" is against the year before, which is looked up beside the year named
        # a row read as the metric its document's sentence leading into the table names: the question's words
        # beside the row are that sentence's (checked by ``metric_rows``), not a figure the row leaves unasked
        # (or the words the document describes the rows' table by: ``described_tables``)
        described = any(a.reason in (ROW_OF_STATED_METRIC, ROWS_OF_DESCRIBED_TABLE) for a in slots.assumptions)
        unmet = unmet_derivation(question, slots.metrics, len(slots.periods) + year_before, glossary, lang,
                                 computes=arithmetic.computes, analysis=bool(intent.analysis),
                                 rows_described=described)
        if unmet is not None:
            return StructuredAsks(unmet=unmet)
        if year_before:
            unmet_alone = unmet_derivation(question, slots.metrics, len(slots.periods), glossary, lang,
                                           computes=arithmetic.computes, analysis=bool(intent.analysis))
        count = read_count(question) if slots.metrics else None
        if count is not None:
            return StructuredAsks(count=count)
    every_year = years_asked(question, arithmetic, slots, glossary)
    range_ends = asks_range_ends(question, arithmetic, slots, glossary)
    if every_year is None and not year_before and not range_ends:
        return NOTHING_MORE  # most questions: one object for all, not one built per ask
    return StructuredAsks(every_year=every_year, year_before=year_before, range_ends=range_ends,
                          unmet_alone=unmet_alone)
