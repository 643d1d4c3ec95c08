"""The ``Fact`` record of the fact table and its key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ragspine.errors import MissingLineageError
from ragspine.sensitivity import Sensitivity

LINEAGE_FIELDS = ("source_doc_id", "source_locator")

# The period_type of a fact whose table and its context state no period (an aging schedule, a
# fair-value table): its period is "" and no question naming a period ever reaches it.
UNDATED = "UNDATED"


class FactKey(NamedTuple):
    """What identifies one fact: a metric of an entity, channel and period (a tuple: built per lookup)."""

    metric_code: str
    entity: str
    channel: str
    period_type: str
    period: str


@dataclass(frozen=True, slots=True)
class Fact:
    """One number with its lineage.

    The first ten fields are positional and frozen in seed order (seed 001/002); the
    version lineage fields of v2 are optional and come after them. ``value`` keeps the
    source's own form: ``1320`` stays an int and ``36.0`` a float, so rendering shows the
    number exactly as the document wrote it.
    """

    metric_code: str
    entity: str
    geography: str
    channel: str
    period_type: str
    period: str
    value: float
    unit: str
    source_doc_id: str
    source_locator: str
    source_file_hash: str | None = None
    extractor_version: str | None = None
    mapping_version: str | None = None
    sensitivity: Sensitivity = Sensitivity.INTERNAL

    @property
    def key(self) -> FactKey:
        """The identity of this fact in a store."""
        return FactKey(self.metric_code, self.entity, self.channel, self.period_type, self.period)


def require_lineage(fact: Fact) -> Fact:
    """Refuse a fact whose source document or locator is missing or blank.

    Raises:
        MissingLineageError: naming the fact and the missing field.
    """
    for name in LINEAGE_FIELDS:
        value = getattr(fact, name)
        if not isinstance(value, str) or not value.strip():
            raise MissingLineageError(
                f"fact {fact.metric_code}/{fact.entity}/{fact.period_type}{fact.period} has no {name}: "
                "every fact must name its source document and the locator inside it"
            )
    if isinstance(fact.value, bool) or not isinstance(fact.value, int | float):
        raise MissingLineageError(f"fact {fact.metric_code}/{fact.entity} has a non-numeric value")
    return fact


def parse_number(literal: str) -> int | float:
    """Read a number literal keeping its form: ``"1320"`` -> 1320, ``"36.0"`` -> 36.0."""
    text = literal.strip().replace(",", "")
    try:
        return int(text)
    except ValueError:
        return float(text)


def format_number(value: float) -> str:
    """Render a value as the source wrote it (ints without a decimal point)."""
    return str(value) if isinstance(value, int) else repr(float(value))
