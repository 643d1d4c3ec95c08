"""Decode a large JSON object in small steps, so the interpreter lock is not held for the whole of it.

``json.loads`` is one call into C: on a 15 MB staged chunk list it holds the interpreter lock
for about a third of a second, and every ask the service answers meanwhile waits that long.
``loads_in_steps`` gives the same value for any JSON text, but decodes each element of the
top-level object's arrays, and each member of its objects, with its own call, so between two
elements the interpreter may hand the lock to another thread (every ``sys.getswitchinterval()``,
5 ms by default).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

_decoder = json.JSONDecoder()
_SPACE = " \t\n\r"


def loads_in_steps(data: bytes | str) -> Any:
    """``json.loads(data)``, decoded array element by array element when ``data`` is an object.

    Raises:
        json.JSONDecodeError: ``data`` is not JSON (raised by ``json.loads`` itself, with its message).
    """
    # Bytes are decoded as json.loads decodes them (its encoding detection, lone surrogates kept).
    text = data.decode(json.detect_encoding(data), "surrogatepass") if isinstance(data, bytes) else data
    try:
        return _object(text)
    except (ValueError, IndexError):
        return json.loads(data)  # not an object, or malformed: json's own value or error


def _object(text: str) -> Any:
    at = _skip(text, 0)
    if text[at] != "{":
        raise ValueError("not an object")
    found, at = _members(text, at, _stepped)
    if _skip(text, at) != len(text):
        raise ValueError("text after the object")
    return found


def _stepped(text: str, at: int) -> tuple[Any, int]:
    """A top-level member's value: an array item by item, an object member by member, else in one call."""
    if text[at] == "[":
        return _array(text, at)
    if text[at] == "{":
        return _members(text, at, _decoder.raw_decode)
    return _decoder.raw_decode(text, at)


def _members(text: str, at: int, value: Callable[[str, int], tuple[Any, int]]) -> tuple[dict[str, Any], int]:
    """The object at ``at``, each member's value decoded by ``value``; and where it ends."""
    found: dict[str, Any] = {}
    at = _skip(text, at + 1)
    if text[at] == "}":
        return found, at + 1
    while True:
        key, at = _decoder.raw_decode(text, at)
        if not isinstance(key, str):
            raise ValueError("a key that is not a string")
        at = _skip(text, at)
        if text[at] != ":":
            raise ValueError("no colon")
        at = _skip(text, at + 1)
        found[key], at = value(text, at)
        at = _skip(text, at)
        if text[at] == "}":
            return found, at + 1
        if text[at] != ",":
            raise ValueError("no comma")
        at = _skip(text, at + 1)


def _array(text: str, at: int) -> tuple[list[Any], int]:
    items: list[Any] = []
    at = _skip(text, at + 1)
    if text[at] == "]":
        return items, at + 1
    while True:
        item, at = _decoder.raw_decode(text, at)
        items.append(item)
        at = _skip(text, at)
        if text[at] == "]":
            return items, at + 1
        if text[at] != ",":
            raise ValueError("no comma")
        at = _skip(text, at + 1)


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _SPACE:
        at += 1
    return at
