"""Gateway records as JSON text, the same in knowledge.db and in a DynamoDB item's body."""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from datetime import datetime
from functools import cache
from typing import Any, TypeVar

from ragspine.knowledge import model

T = TypeVar("T")


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def dump(record: object) -> str:
    """A frozen dataclass record as JSON text."""
    return json.dumps(_plain(record), ensure_ascii=False, separators=(",", ":"))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, vars(model))


def _revive(kind: Any, value: Any) -> Any:
    if value is None:
        return None
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        real = [a for a in args if a is not type(None)]
        return _revive(real[0], value) if len(real) == 1 else value
    if origin is frozenset:
        return frozenset(_revive(args[0], v) for v in value)
    if origin is tuple:
        return tuple(_revive(args[0], v) for v in value)
    if kind is datetime:
        return datetime.fromisoformat(value)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return kind(value)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return revive(kind, value)
    return value


def revive(cls: type[T], body: dict[str, Any]) -> T:
    """The record of type ``cls`` that ``dump`` wrote (fields it lacks take their defaults)."""
    hints = _hints(cls)  # type: ignore[arg-type]
    values = {f.name: _revive(hints[f.name], body[f.name])
              for f in dataclasses.fields(cls) if f.name in body}  # type: ignore[arg-type]
    return cls(**values)


def load(cls: type[T], text: str) -> T:
    """``revive`` from JSON text."""
    return revive(cls, json.loads(text))
