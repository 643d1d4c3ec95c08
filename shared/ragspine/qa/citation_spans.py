"""Where the citations of an answer stand: ``（来源：doc · locator）``, ``(source: …)``, ``（计算自：a；b）``.

A locator names a table row as the document writes it, and a row may nest brackets in its
label (``row=Carrying amount (non-current (liabilities)/assets)``), so a citation closes at
the bracket balancing its opening one, in full-width or ASCII form alike; a locator value cut short
(``…``, or ``...`` in NFKC) ends the brackets it opened. A label may also close a bracket it never
opened (``row=Sales per square metre ($)$),col=F19/53 WEEKS``): the bracket balancing the opening one
then falls inside the locator, and the rest of the locator (a ``key=value`` before a closing bracket
nothing on the line opened) still belongs to the citation. A citation left unclosed is no citation:
its text stays part of the answer (and its numbers claims).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragspine.lazy import LazyPattern

_OPENING = LazyPattern(r"[（(](?P<label>来源|计算自|source|出典)[：:]\s*", re.IGNORECASE)
_OPENS = frozenset("(（")
_CLOSES = frozenset(")）")


@dataclass(frozen=True, slots=True)
class Citation:
    """One citation: ``text[start:end]``, its kind word (``来源``, ``source``…) and its body (doc and locator)."""

    start: int
    end: int
    label: str
    body: str


def citations(text: str) -> list[Citation]:
    """The citations of ``text`` in order, each closed at its balancing bracket."""
    found: list[Citation] = []
    cursor = 0
    for opening in _OPENING.finditer(text):
        if opening.start() < cursor:
            continue  # inside the citation found last
        end = _closing(text, opening.end())
        if end is None:
            break
        found.append(Citation(opening.start(), end, opening["label"], text[opening.end():end - 1]))
        cursor = end
    return found


def _closing(text: str, start: int) -> int | None:
    """The index just past the bracket closing the one opened before ``start``, or None when it never closes."""
    depth = 1
    for index in range(start, len(text)):
        if text[index] == "…" or text.startswith("...", index):  # NFKC writes "…" as three dots
            depth = 1  # a locator cut short ("row=Final dividend … (2017: AU 12 cent…"): its brackets end with it
        elif text[index] in _OPENS:
            depth += 1
        elif text[index] in _CLOSES:
            depth -= 1
            if depth == 0:
                return _past_locator_rest(text, index + 1)
    return None


def _past_locator_rest(text: str, end: int) -> int:
    """``end``, or past the rest of the locator when a label closed a bracket it never opened: the text up
    to a closing bracket unmatched on the line holds a locator's ``=`` (``,col=F19/53 WEEKS）``). Prose after
    a citation opens what it closes, so it is never read as locator."""
    depth = 0
    for index in range(end, len(text)):
        char = text[index]
        if char == "\n" or _OPENING.match(text, index) is not None:
            break
        if char in _OPENS:
            depth += 1
        elif char in _CLOSES:
            if depth == 0:
                return _past_locator_rest(text, index + 1) if "=" in text[end:index] else end
            depth -= 1
    return end
