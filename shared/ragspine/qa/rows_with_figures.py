"""A row chosen among equally named ones by whose figures are filed: "Brantwell's dividend per share".

Two companies' tables may word a row alike but for a unit mark ("Dividend per share (p)" and
"Dividend per share (€)"): the question's words fit both, and the parse, which sees no facts, asks
back which. When the company asked about (named, or the home group a question naming none is
answered for) has figures in the periods asked under one of the fitting rows only, that row is the
one meant: the question is answered as if it named the row, and the answer says so. The unit mark
itself decides nothing (a company may state a row in two units); the figures filed do. A tie of
rows the company has figures under in both, or in neither, is still asked back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ragspine.facts.glossary import SlotKind
from ragspine.facts.open_vocabulary import METRIC_PREFIX

if TYPE_CHECKING:
    from ragspine.facts.glossary import Glossary, Period
    from ragspine.facts.ports import FactStore
    from ragspine.qa.intent_model import Intent
    from ragspine.qa.near_miss import NearMiss, Reading
    from ragspine.sensitivity import Sensitivity


@dataclass(frozen=True, slots=True)
class RowWithFigures:
    """The question as if it named the one row with figures, and what to say about the reading."""

    question: str
    rows: tuple[tuple[str, str], ...]  # each tie's words that fit several rows, and the row read as labelled
    entities: tuple[str, ...]  # the companies whose figures decided


def row_with_figures(intent: Intent, *, facts: FactStore, glossary: Glossary,
                     max_sensitivity: Sensitivity) -> RowWithFigures | None:
    """The one row of a tie of document rows that has figures for the company and periods asked; else None.

    Two ties ("the ratio of dividend per share to basic earnings per share", each fitting a (p) and a (€)
    row) are told apart together, each by the same rule, or neither is: a question naming one of its rows
    and leaving the other in doubt would no longer read as the ratio asked.
    """
    slots = intent.slots
    ties = [miss for miss in slots.near_misses if len(miss.readings) > 1]
    if not ties or not all(r.kind is SlotKind.METRIC and r.code.startswith(METRIC_PREFIX)
                           for tie in ties for r in tie.readings):
        return None
    entities = slots.entities or (glossary.home_entity,)
    chosen: list[tuple[NearMiss, Reading]] = []
    for tie in ties:
        filed = [reading for reading in tie.readings
                 if all(_has_figures(reading.code, entity, slots.periods, facts, max_sensitivity)
                        for entity in entities)]
        if len(filed) != 1:
            return None
        chosen.append((tie, filed[0]))
    question = _naming_rows(chosen)
    if question is None:
        return None
    return RowWithFigures(question, tuple((tie.raw, reading.name) for tie, reading in chosen), entities)


def _has_figures(metric: str, entity: str, periods: tuple[Period, ...], facts: FactStore,
                 max_sensitivity: Sensitivity) -> bool:
    """Whether the row has a figure the asker may see for the entity in one of the periods (any, when none is asked)."""
    asked = {(p.period_type, p.period) for p in periods}
    return any(fact.sensitivity <= max_sensitivity and (not asked or (fact.period_type, fact.period) in asked)
               for fact in facts.find(metric_code=metric, entity=entity))


def _naming_rows(chosen: list[tuple[NearMiss, Reading]]) -> str | None:
    """The (normalised) question with the words of each tie replaced by its row's own label (the last first, so
    the spans before it keep their place)."""
    norm = chosen[0][1].question
    for tie, reading in sorted(chosen, key=lambda pair: pair[0].start, reverse=True):
        if reading.question != chosen[0][1].question or norm[tie.start:tie.end] != tie.raw:
            return None
        norm = f"{norm[:tie.start]}{reading.name}{norm[tie.end:]}"
    return norm
