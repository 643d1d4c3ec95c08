"""What a grand total set after a table's sections totals: the words its sections' headings share.

A table of two sections or more (``Assets allocated to segments:`` … ``Total segments``, then
``Assets not allocated:`` …) often closes with a bare ``Total`` of every line item above it, the
sections' subtotals aside. It is no section's total, and the sentence leading into the table
may name one section only ("The following table shows assets allocated by reportable segment"):
what the headings have in common says what it totals. Their shared first words (``Assets``)
name it; failing those, the table's topic does, else their shared last words
(``Finite-Lived Intangible Assets`` and ``Indefinite-Lived Intangible Assets`` share
``Intangible Assets``), which are weaker: segments' names often end alike (``Industrial
Solutions``, ``Communications Solutions``). A word that only joins (``Revenues from``) names
nothing, so it is left off the end.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.ingestion.table_topic import figure_name

_REMARK = re.compile(r"\s*[(（][^()（）]*[)）]")
_WORD = re.compile(r"[^\s:：]+")
# Words that join a phrase and name nothing alone: never the end (or start) of a shared subject.
_JOINING = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to",
                      "with", "not", "less", "net", "other", "total"})


def _words(heading: str) -> list[str]:
    """A heading's words without its remarks in brackets and its closing colon (``Assets allocated to segments``)."""
    return _WORD.findall(_REMARK.sub(" ", heading).strip().rstrip(":："))


def _trimmed(words: list[str]) -> list[str]:
    """``words`` without joining words at either end (``Revenues from`` -> ``Revenues``)."""
    start, end = 0, len(words)
    while start < end and words[start].casefold() in _JOINING:
        start += 1
    while end > start and words[end - 1].casefold() in _JOINING:
        end -= 1
    return words[start:end]


def _shared(lists: list[list[str]]) -> list[str]:
    """The longest run of words every list begins with, compared without case, as the first list writes it."""
    shared = 0
    for words in zip(*lists, strict=False):
        if len({w.casefold() for w in words}) != 1:
            break
        shared += 1
    return lists[0][:shared]


def shared_start(headings: Sequence[str]) -> str:
    """The words two section headings or more begin with (``Assets`` of ``Assets allocated to segments`` and
    ``Assets not allocated``), else ""."""
    lists = _distinct(headings)
    return _named(_shared(lists)) if lists else ""


def shared_end(headings: Sequence[str]) -> str:
    """The words two section headings or more end with (``Intangible Assets``), else ""."""
    lists = _distinct(headings)
    return _named(list(reversed(_shared([list(reversed(w)) for w in lists])))) if lists else ""


def _distinct(headings: Sequence[str]) -> list[list[str]]:
    """The headings' words, when there are two headings or more and each has words of its own, else []: two
    headings written alike are one section written twice, and say no more than it does."""
    lists = [w for w in (_words(h) for h in headings) if w]
    if len(lists) < 2 or len({" ".join(w).casefold() for w in lists}) != len(lists):
        return []
    return lists


def _named(words: list[str]) -> str:
    """Shared words as the name of figures (``figure_name``: not joining words alone, such as "of", nor a
    generic word, such as "Other" or "Amounts"), else ""."""
    return figure_name(" ".join(_trimmed(words)))
