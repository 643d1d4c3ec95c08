"""Where the citations of an answer stand: ``（来源：doc · locator）``, ``(source: …)``, ``（计算自：a；b）``.

A locator names a table row as the document writes it, and a row may nest brackets in its
label (``row=Carrying amount (non-current (liabilities)/assets)``), so a citation closes at
the bracket balancing its opening one, in full-width or ASCII form alike; a locator value cut short
(``…``, or ``...`` in NFKC) ends the brackets it opened. A citation left
unclosed is no citation: its text stays part of the answer (and its numbers claims).
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
                return index + 1
    return None
