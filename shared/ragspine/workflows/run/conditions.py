"""if-else conditions: Dify's comparison operators over values from the variable pool."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ragspine.workflows.errors import WorkflowNodeFailedError
from ragspine.workflows.shapes import as_list, maps


def _number(value: Any) -> float:
    if isinstance(value, bool):
        return float(value)
    try:
        return float(value)
    except (TypeError, ValueError) as exc:
        raise WorkflowNodeFailedError(f"{value!r} is not a number") from exc


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _items(value: Any) -> list[Any]:
    if isinstance(value, list | tuple):
        return list(value)
    if isinstance(value, str):
        return [v.strip() for v in value.split(",")] if value else []
    return [value]


def _contains(actual: Any, expected: Any) -> bool:
    if actual is None:
        return False
    if isinstance(actual, list | tuple):
        return expected in actual or _text(expected) in [_text(a) for a in actual]
    return _text(expected) in _text(actual)


def _is(actual: Any, expected: Any) -> bool:
    if isinstance(actual, bool) or isinstance(expected, bool):
        return _text(actual).lower() == _text(expected).lower()
    return _text(actual) == _text(expected)


# Operator spellings as Dify writes them (both the Unicode and the ASCII forms it has used).
OPERATORS: Mapping[str, Callable[[Any, Any], bool]] = {
    "contains": _contains,
    "not contains": lambda a, e: not _contains(a, e),
    "start with": lambda a, e: _text(a).startswith(_text(e)),
    "end with": lambda a, e: _text(a).endswith(_text(e)),
    "is": _is,
    "is not": lambda a, e: not _is(a, e),
    "empty": lambda a, e: a is None or a == "" or a == [] or a == {},
    "not empty": lambda a, e: not (a is None or a == "" or a == [] or a == {}),
    "in": lambda a, e: _text(a) in [_text(i) for i in _items(e)],
    "not in": lambda a, e: _text(a) not in [_text(i) for i in _items(e)],
    "all of": lambda a, e: all(_contains(a, i) for i in _items(e)),
    "=": lambda a, e: _number(a) == _number(e),
    "≠": lambda a, e: _number(a) != _number(e),
    "!=": lambda a, e: _number(a) != _number(e),
    ">": lambda a, e: _number(a) > _number(e),
    "<": lambda a, e: _number(a) < _number(e),
    "≥": lambda a, e: _number(a) >= _number(e),
    ">=": lambda a, e: _number(a) >= _number(e),
    "≤": lambda a, e: _number(a) <= _number(e),
    "<=": lambda a, e: _number(a) <= _number(e),
    "null": lambda a, e: a is None,
    "not null": lambda a, e: a is not None,
    "exists": lambda a, e: a is not None,
    "not exists": lambda a, e: a is None,
}


def evaluate(operator: str, actual: Any, expected: Any) -> bool:
    """Apply one Dify comparison operator.

    Raises:
        WorkflowNodeFailedError: unknown operator, or a numeric comparison on a non-number.
    """
    check = OPERATORS.get(operator)
    if check is None:
        raise WorkflowNodeFailedError(f"unsupported comparison operator {operator!r}")
    return check(actual, expected)


def normalized_cases(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The node's ``cases``; DSL 0.1.x kept one unnamed case at the top level (its handle is 'true')."""
    cases = data.get("cases")
    if isinstance(cases, list) and cases:
        return [c for c in cases if isinstance(c, Mapping)]
    return [{"case_id": "true", "logical_operator": data.get("logical_operator", "and"),
             "conditions": as_list(data.get("conditions"))}]


def choose_branch(cases: Sequence[Mapping[str, Any]], value_of: Callable[[Mapping[str, Any]], tuple[Any, Any]]) -> str:
    """The ``case_id`` of the first case that holds, else ``'false'`` (Dify's else handle)."""
    for case in cases:
        conditions = maps(case.get("conditions"))
        results = (evaluate(str(c.get("comparison_operator", "")), *value_of(c)) for c in conditions)
        holds = any(results) if case.get("logical_operator") == "or" else all(results)
        if conditions and holds:
            return str(case.get("case_id", "true"))
    return "false"
