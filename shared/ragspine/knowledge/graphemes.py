"""Cutting text to a budget of code points without splitting a grapheme (a user-perceived character).

A cut never falls inside a surrogate pair (Python strings hold code points), a combining
sequence (``e`` + U+0301), an emoji ZWJ sequence or a flag: the ``regex`` package's ``\\X``
(extended grapheme clusters, UAX #29) finds the boundaries. Segmentation starts at a line
start, always a boundary (UAX #29 breaks after a line feed), so a cut far into a line is exact.
"""

from __future__ import annotations

import regex

_GRAPHEME = regex.compile(r"\X")


def forward_end(text: str, start: int, limit: int, end: int | None = None) -> int:
    """The furthest grapheme boundary at most ``limit`` code points after ``start`` (and not past ``end``)."""
    stop = len(text) if end is None else end
    if stop - start <= limit:
        return stop
    reached = start
    for match in _GRAPHEME.finditer(text, pos=start, endpos=stop):
        if match.end() - start > limit:
            break
        reached = match.end()
    return reached


def backward_start(text: str, end: int, limit: int) -> int:
    """The nearest grapheme boundary at most ``limit`` code points before ``end``."""
    lowest = max(0, end - limit)
    if lowest == 0:
        return 0
    anchor = text.rfind("\n", 0, lowest) + 1  # a line start is a boundary (0 when there is none)
    for match in _GRAPHEME.finditer(text, pos=anchor, endpos=end):
        if match.start() >= lowest:
            return int(match.start())
    return end
