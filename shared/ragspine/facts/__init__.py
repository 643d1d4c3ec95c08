"""Structured facts: the ``Fact`` record, the glossary, the ``FactStore`` port and ``query_metric``."""

from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.facts.model import Fact, FactKey
from ragspine.facts.ports import FactStore
from ragspine.facts.query_metric import (
    QUERY_METRIC_TOOL,
    QueryResult,
    QueryStatus,
    execute_query_metric,
)

__all__ = [
    "QUERY_METRIC_TOOL",
    "Fact",
    "FactKey",
    "FactStore",
    "Glossary",
    "Period",
    "QueryResult",
    "QueryStatus",
    "SlotKind",
    "execute_query_metric",
]
