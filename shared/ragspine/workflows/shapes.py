"""Tolerant readers for untrusted node data: a wrong type reads as empty instead of crashing.

Structural fields are checked with JSON pointers in ``dsl/model.py``/``n8n/model.py``; everything deeper
in ``data``/``parameters`` is read through these helpers, so a malformed detail degrades to a
finding or a skipped node, never to a TypeError.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_EMPTY: Mapping[str, Any] = {}


def as_map(value: Any) -> Mapping[str, Any]:
    """``value`` when it is a mapping, else an empty mapping."""
    return value if isinstance(value, Mapping) else _EMPTY


def as_list(value: Any) -> list[Any]:
    """``value`` when it is a list, else an empty list."""
    return value if isinstance(value, list) else []


def maps(value: Any) -> list[Mapping[str, Any]]:
    """The mapping items of a list (anything else is dropped)."""
    return [item for item in as_list(value) if isinstance(item, Mapping)]


def text(value: Any, default: str = "") -> str:
    """``value`` when it is a string, else ``default``."""
    return value if isinstance(value, str) else default


def get_in(value: Any, *keys: str) -> Any:
    """Nested lookup through mappings; None as soon as a level is missing or not a mapping."""
    for key in keys:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value
