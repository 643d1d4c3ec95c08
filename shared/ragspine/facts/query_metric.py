"""The ``query_metric`` tool: the only primitive that produces a number (seed 001)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ragspine.citation import Source
from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.facts.model import Fact, FactKey
from ragspine.facts.ports import FactStore
from ragspine.frozen_records import record_builder
from ragspine.sensitivity import Sensitivity

QUERY_METRIC_TOOL: dict[str, Any] = {
    "name": "query_metric",
    "description": (
        "Look up one reported figure in the fact table. Returns status found (value, unit and "
        "its source document and locator), not_found (the normalised parameters; never guess "
        "a number then), or unrecognized_param (which parameter could not be understood)."
    ),
    "parameters": {
        "type": "object",
        "properties": {
            "metric": {
                "type": "string",
                "description": "Metric code or name, e.g. REVENUE, GROSS_MARGIN, 营业收入, 毛利率, 売上高.",
            },
            "entity": {
                "type": "string",
                "description": "Entity code or name from the glossary (a group, segment or region).",
            },
            "period": {
                "type": "string",
                "description": "Fiscal year or quarter, e.g. FY2024, 2024年, 2024年度, 2024Q3, Q3 2024.",
            },
            "channel": {
                "type": "string",
                "description": "Sales channel: TOTAL (default), ONLINE (线上) or OFFLINE (线下).",
                "default": "TOTAL",
            },
        },
        "required": ["metric", "entity", "period"],
        "additionalProperties": False,
    },
}


class QueryStatus(enum.StrEnum):
    """The three outcomes of ``query_metric``; there is no fourth, and no guess."""

    FOUND = "found"
    NOT_FOUND = "not_found"
    UNRECOGNIZED_PARAM = "unrecognized_param"


_new_key = tuple.__new__


@dataclass(frozen=True, slots=True)
class MetricQuery:
    """Normalised arguments of one query."""

    metric_code: str
    entity: str
    period: Period
    channel: str
    # The fact-table key this query looks up: made once, since a planned query is looked up on every ask.
    key: FactKey = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        period = self.period  # the key as a plain tuple of FactKey's class: its NamedTuple __new__ is a Python call
        object.__setattr__(self, "key", _new_key(FactKey, (self.metric_code, self.entity, self.channel,  # set once
                                                           period.period_type, period.period)))


@dataclass(frozen=True, slots=True)
class QueryResult:
    """One tri-state answer of ``query_metric``."""

    status: QueryStatus
    query: MetricQuery | None = None
    fact: Fact | None = None
    param: str | None = None
    raw: str | None = None
    conflicts: tuple[Fact, ...] = ()  # other sources' different figures for the same key (shown, never dropped)

    def to_dict(self) -> dict[str, Any]:
        """The exact JSON shape of seed 001 for this status."""
        if self.status is QueryStatus.FOUND and self.fact is not None:
            fact = self.fact
            return {
                "status": "found", "value": fact.value, "unit": fact.unit,
                "metric_code": fact.metric_code, "entity": fact.entity,
                "period_type": fact.period_type, "period": fact.period, "channel": fact.channel,
                "source": Source(fact.source_doc_id, fact.source_locator).as_dict(),
            } | ({"conflicts": [
                {"value": c.value, "unit": c.unit, "source": Source(c.source_doc_id, c.source_locator).as_dict()}
                for c in self.conflicts]} if self.conflicts else {})
        if self.status is QueryStatus.NOT_FOUND and self.query is not None:
            q = self.query
            return {
                "status": "not_found",
                "normalized": {"metric_code": q.metric_code, "entity": q.entity,
                               "period": q.period.period, "channel": q.channel},
            }
        return {"status": "unrecognized_param", "param": self.param, "raw": self.raw}


_NEW_RESULT = record_builder(QueryResult)  # a found figure's result, built on every ask: slots set directly
# read once: on Python 3.11 a member read off its enum class goes through the metaclass's slow ``__getattr__`` hook
_FOUND = QueryStatus.FOUND


def unrecognized(param: str, raw: str) -> QueryResult:
    """The result for a parameter the glossary cannot map."""
    return QueryResult(QueryStatus.UNRECOGNIZED_PARAM, param=param, raw=raw)


def run_query(query: MetricQuery, *, facts: FactStore,
              max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL) -> QueryResult:
    """Look up already-normalised parameters: found or not_found.

    A fact above ``max_sensitivity`` is reported as not found: a RESTRICTED figure never
    reaches an answer, and the answer does not reveal that it exists. Figures other sources
    state differently for the same key come with a found fact as ``conflicts``.
    """
    fact, differing = facts.get_with_conflicts(query.key)
    if fact is None or fact.sensitivity > max_sensitivity:
        return QueryResult(QueryStatus.NOT_FOUND, query=query)
    if not differing:  # the usual case: no generator to build and drain
        return _NEW_RESULT(_FOUND, query, fact)
    others = tuple(c for c in differing
                   if c.sensitivity <= max_sensitivity and (c.value != fact.value or c.unit != fact.unit)
                   and (c.source_doc_id, c.source_locator) != (fact.source_doc_id, fact.source_locator))
    return QueryResult(QueryStatus.FOUND, query=query, fact=fact, conflicts=others)


def execute_query_metric(arguments: Mapping[str, Any], *, facts: FactStore, glossary: Glossary) -> QueryResult:
    """Execute a ``query_metric`` call as a model or client would send it.

    Args:
        arguments: ``metric``, ``entity``, ``period`` and optional ``channel``, as free text.
        facts: the fact store to query.
        glossary: normalises each argument to a code.

    Returns:
        found / not_found / unrecognized_param; the first argument that cannot be
        normalised (in the order metric, entity, period, channel) is the one reported.
    """
    codes: dict[str, str] = {}
    for name, kind in (("metric", SlotKind.METRIC), ("entity", SlotKind.ENTITY)):
        raw = arguments.get(name)
        code = glossary.normalize(kind, raw) if isinstance(raw, str) else None
        if code is None:
            return unrecognized(name, _as_text(raw))
        codes[name] = code
    raw_period = arguments.get("period")
    period = glossary.normalize_period(raw_period) if isinstance(raw_period, str) else None
    if period is None:
        return unrecognized("period", _as_text(raw_period))
    raw_channel = arguments.get("channel") or glossary.default_channel
    channel = glossary.normalize(SlotKind.CHANNEL, raw_channel) if isinstance(raw_channel, str) else None
    if channel is None:
        return unrecognized("channel", _as_text(raw_channel))
    return run_query(MetricQuery(codes["metric"], codes["entity"], period, channel), facts=facts)


def _as_text(raw: object) -> str:
    return "" if raw is None else str(raw)
