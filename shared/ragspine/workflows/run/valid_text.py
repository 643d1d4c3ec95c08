"""Node outputs as valid Unicode: each lone UTF-16 surrogate becomes U+FFFD.

A template can write a lone surrogate (``{{ '\\udfff' }}``: Jinja string literals accept the
escape) and a code node can return one; the child's JSON reply carries it as an escape, so the
parent gets a Python ``str`` that no UTF-8 encoder takes. Every boundary after the node (the run
store, the blocking reply, the event stream, the next child's input) encodes UTF-8, so the
executor cleans each node's outputs once, where they enter the run's variables.

Replacing rather than failing the node is what a decoder does with text that is not valid
UTF-8 (``errors="replace"``): the rest of the text stays as written and the run goes on.
A surrogate pair held as two code points is not valid text either, and is replaced the same way.
"""

from __future__ import annotations

import re
from typing import Any

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")


def valid_text(text: str) -> str:
    """``text`` with each surrogate code point replaced by U+FFFD (the same object when it holds none)."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(REPLACEMENT, text)


def valid_value(value: Any) -> Any:
    """``value`` with every string in it (dictionary keys too) made valid by :func:`valid_text`.

    Mappings become dicts and lists, tuples stay lists and tuples; other values are returned as they are.
    """
    if isinstance(value, str):
        return valid_text(value)
    if isinstance(value, dict):
        return {valid_text(k) if isinstance(k, str) else k: valid_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [valid_value(v) for v in value]
    if isinstance(value, tuple):
        return tuple(valid_value(v) for v in value)
    return value
