"""The ``Fact`` record of the fact table and its key."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

from ragspine.errors import MissingLineageError
from ragspine.lazy import LazyPattern
from ragspine.sensitivity import Sensitivity

LINEAGE_FIELDS = ("source_doc_id", "source_locator")

# The period_type of a fact whose table and its context state no period (an aging schedule, a
# fair-value table): its period is "" and no question naming a period ever reaches it.
UNDATED = "UNDATED"
# An undated fact whose table states one date that closes no fiscal year ("As of September 30, 2019"
# under a December year) carries that date at the end of its locator: the answer then says which
# date the document gives, rather than that it gives none. Compiled on its first read: a figure found as
# asked (a plain lookup's answer) never reads it.
_STATED_DATE = LazyPattern(r",date=(\d{4})-(\d{2})-(\d{2})$")


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


def with_stated_date(locator: str, stated: date) -> str:
    """``locator`` with the date its table states (``…,col=As reported,date=2019-09-30``)."""
    return f"{locator},date={stated.isoformat()}"


def stated_date(fact: Fact) -> date | None:
    """The date an undated fact's table states (``with_stated_date``), or None when it states none."""
    match = _STATED_DATE.search(fact.source_locator)
    if match is None or fact.period_type != UNDATED:
        return None
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None


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
