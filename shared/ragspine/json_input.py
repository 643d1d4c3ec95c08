"""Strict JSON for request bodies: bounded nesting, real UTF-8 text, no ``NaN``/``Infinity``.

``json.loads`` accepts what later code cannot handle: a lone surrogate escape (``"\\udfff"``)
is a valid JSON string but no UTF-8 text, so storing or echoing it fails; nesting a thousand
levels deep exhausts the interpreter's recursion limit (here or in the schema validator);
``NaN`` is not JSON at all; and given bytes, it guesses UTF-16 or UTF-32 by itself, so a body
that is not UTF-8 would pass. Every one of these is the caller's mistake, so each is refused as
invalid input, never left to fail later as an internal error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

MAX_DEPTH = 32  # objects and arrays inside each other; the contract's bodies need fewer than 8
_SURROGATE = re.compile("[\ud800-\udfff]")
_BOM = "\ufeff"
_NOT_UTF8 = "the request body is not UTF-8 text"


class MalformedJsonError(json.JSONDecodeError):
    """The body is not JSON this service accepts; ``field`` names where (``body`` for the whole)."""

    def __init__(self, message: str, field: str = "body") -> None:
        super().__init__(message, "", 0)
        self.msg = message
        self.field = field

    def __str__(self) -> str:
        return self.msg


def _no_constant(name: str) -> Any:
    raise MalformedJsonError(f"{name} is not a JSON number: send a finite number")


def has_lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds a UTF-16 surrogate code point (never valid in UTF-8 text)."""
    return _SURROGATE.search(text) is not None


def loads(raw: bytes | str, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse a request body strictly.

    Raises:
        MalformedJsonError: not JSON (or not UTF-8), nested deeper than ``max_depth``, a lone
            surrogate in a string or key, ``NaN``/``Infinity``, or an integer over 4,300 digits.
    """
    try:
        value = json.loads(_utf8_text(raw), parse_constant=_no_constant)
    except MalformedJsonError:
        raise
    except RecursionError:
        raise MalformedJsonError(f"the body nests objects or arrays deeper than {max_depth} levels") from None
    except ValueError as exc:  # JSONDecodeError, an integer past Python's digit limit
        raise MalformedJsonError(f"the request body is not valid JSON ({_reason(exc)})") from None
    check_value(value, max_depth=max_depth)
    return value


def _utf8_text(raw: bytes | str) -> str:
    """The body as text, read as strict UTF-8 only (encoded surrogates too are refused by the codec).

    One leading UTF-8 byte order mark is skipped, in bytes or text alike: RFC 8259 lets a parser ignore it, and
    the body is still UTF-8. A UTF-16 or UTF-32 body either fails to decode or, when all its characters are ASCII,
    decodes to text interleaved with NULs, which a JSON text never holds unescaped: both are refused as not UTF-8.
    """
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise MalformedJsonError(_NOT_UTF8) from None
    if "\x00" in text:
        raise MalformedJsonError(f"{_NOT_UTF8} (it holds NUL bytes, as UTF-16 and UTF-32 do)")
    return text.removeprefix(_BOM)


def _reason(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    return str(exc)[:120]


def check_value(value: Any, *, max_depth: int = MAX_DEPTH) -> None:
    """Refuse a parsed value nested deeper than ``max_depth`` or holding a lone surrogate (iteratively: no recursion).

    The walk holds one iterator per open container and the key it is under, so its memory grows with the
    nesting depth, never with the number of elements (a wide array costs nothing more than its own parse).

    Raises:
        MalformedJsonError: with ``field`` the path of the first offending place.
    """
    _check_string(value, ())
    if not isinstance(value, dict | list):
        return
    path: list[str | int] = []  # the key of each open container below the root
    open_entries = [_entries(value, path, max_depth)]
    while open_entries:
        entry = next(open_entries[-1], None)
        if entry is None:
            open_entries.pop()
            if path:
                path.pop()
            continue
        key, child = entry
        if isinstance(child, str):
            _check_string(child, (*path, key))
        elif isinstance(child, dict | list):
            path.append(key)
            open_entries.append(_entries(child, path, max_depth))


def _entries(container: dict[Any, Any] | list[Any], path: list[str | int],
             max_depth: int) -> Iterator[tuple[str | int, Any]]:
    """The (key, child) pairs of a container at ``path``, refused when it sits ``max_depth`` levels down."""
    if len(path) >= max_depth:
        raise MalformedJsonError(f"the body nests objects or arrays deeper than {max_depth} levels",
                                 field_name(tuple(path)))
    if isinstance(container, list):
        return enumerate(container)
    for key in container:
        if has_lone_surrogate(key):
            raise MalformedJsonError(f"a key under {field_name(tuple(path))} holds a lone UTF-16 surrogate: "
                                     "send UTF-8 text", field_name(tuple(path)))
    return iter(container.items())


def _check_string(value: Any, path: tuple[str | int, ...]) -> None:
    if isinstance(value, str) and has_lone_surrogate(value):
        raise MalformedJsonError(f"{field_name(path)} holds a lone UTF-16 surrogate (such as \\udfff): "
                                 "send UTF-8 text", field_name(path))


def field_name(path: tuple[str | int, ...]) -> str:
    """``metadata.tags[0]`` for a path; ``body`` for the whole body."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return (text or "body")[:200]

