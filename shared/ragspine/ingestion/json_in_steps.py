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
from array import array
from collections.abc import Callable
from typing import Any

_decoder = json.JSONDecoder()
_SPACE = " \t\n\r"


def _text(data: bytes | str) -> str:
    # Bytes are decoded as json.loads decodes them (its encoding detection, lone surrogates kept).
    return data.decode(json.detect_encoding(data), "surrogatepass") if isinstance(data, bytes) else data


def loads_in_steps(data: bytes | str) -> Any:
    """``json.loads(data)``, decoded array element by array element when ``data`` is an object.

    Raises:
        json.JSONDecodeError: ``data`` is not JSON (raised by ``json.loads`` itself, with its message).
    """
    text = _text(data)
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


def _stepped(_key: str, text: str, at: int) -> tuple[Any, int]:
    """A top-level member's value: an array item by item, an object member by member, else in one call."""
    if text[at] == "[":
        return _array(text, at)
    if text[at] == "{":
        return _members(text, at, _whole)
    return _decoder.raw_decode(text, at)


def _members(text: str, at: int, value: Callable[[str, str, int], tuple[Any, int]]) -> tuple[dict[str, Any], int]:
    """The object at ``at``, each member's value decoded by ``value(key, text, at)``; and where it ends."""
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
        found[key], at = value(key, text, at)
        at = _skip(text, at)
        if text[at] == "}":
            return found, at + 1
        if text[at] != ",":
            raise ValueError("no comma")
        at = _skip(text, at + 1)


def _whole(_key: str, text: str, at: int) -> tuple[Any, int]:
    return _decoder.raw_decode(text, at)


def _array(text: str, at: int) -> tuple[list[Any], int]:
    items: list[Any] = []
    end = _elements(text, at, lambda _start, item: items.append(item))
    return items, end


def _elements(text: str, at: int, each: Callable[[int, Any], object]) -> int:
    """Walk the array at ``at``: ``each(start, value)`` for every element, each decoded once; where the array ends."""
    at = _skip(text, at + 1)
    if text[at] == "]":
        return at + 1
    while True:
        start = at
        item, at = _decoder.raw_decode(text, at)
        each(start, item)
        at = _skip(text, at)
        if text[at] == "]":
            return at + 1
        if text[at] != ",":
            raise ValueError("no comma")
        at = _skip(text, at + 1)


class SteppedArrays:
    """A JSON object whose array members are read a slice at a time, as ``json.loads`` would give them.

    Decoding a large object whole holds every element as Python objects at once (a 70 MB staged
    chunk list becomes about 260 MB of chunks). This keeps the text and where each element of
    each top-level array starts, and decodes a slice when it is asked for, so a reader
    holds one slice of elements at a time. Members that are not arrays are decoded at once.
    """

    def __init__(self, data: bytes | str) -> None:
        """Find the members and their elements (each element is decoded once to find its end, then dropped).

        Raises:
            json.JSONDecodeError: ``data`` is not JSON (with ``json.loads``'s own message).
            ValueError: it is JSON but not an object.
        """
        self._text = _text(data)
        self._starts: dict[str, array[int]] = {}
        self._values: dict[str, Any] = {}
        try:
            self._read_members()
        except (ValueError, IndexError):
            json.loads(data)  # malformed: json's own error
            raise ValueError("the JSON text is not an object") from None

    def _read_members(self) -> None:
        text = self._text
        at = _skip(text, 0)
        if text[at] != "{":
            raise ValueError("not an object")
        _, at = _members(text, at, self._read_member)
        if _skip(text, at) != len(text):
            raise ValueError("text after the object")

    def _read_member(self, key: str, text: str, at: int) -> tuple[None, int]:
        """Record the member at ``at``: an array's element starts, any other value decoded."""
        self._starts.pop(key, None)  # a repeated key: the last one counts, as in json.loads
        self._values.pop(key, None)
        if text[at] == "[":
            return None, self._read_elements(key, at)
        self._values[key], at = _decoder.raw_decode(text, at)
        return None, at

    def _read_elements(self, key: str, at: int) -> int:
        """Record where each element of the array at ``at`` starts; return where the array ends."""
        starts = self._starts[key] = array("q")
        return _elements(self._text, at, lambda start, _item: starts.append(start))

    def __contains__(self, name: object) -> bool:
        return name in self._starts or name in self._values

    def is_array(self, name: str) -> bool:
        """Whether the member ``name`` is an array."""
        return name in self._starts

    def length(self, name: str) -> int:
        """How many elements the array member ``name`` has (0 when it is not an array)."""
        return len(self._starts.get(name, ()))

    def value(self, name: str) -> Any:
        """A member that is not an array, decoded (None when absent or an array)."""
        return self._values.get(name)

    def items(self, name: str, start: int, stop: int) -> list[Any]:
        """Elements ``start`` to ``stop`` (exclusive) of the array member ``name``, decoded."""
        starts = self._starts.get(name, array("q"))
        return [_decoder.raw_decode(self._text, starts[i])[0] for i in range(max(start, 0), min(stop, len(starts)))]


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _SPACE:
        at += 1
    return at
