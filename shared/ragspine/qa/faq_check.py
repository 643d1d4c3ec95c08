"""FAQ answers under the provenance check: every number a curated answer states, its cited passage states.

A curated answer is served without any retrieval, so nothing else checks it: an answer
saying "USD millions … 4,200 employees" while citing a cell that says "JPY billion" would
reach users with a source attached. ``unsupported_numbers`` compares the answer's numbers
(read by ``ragspine.numbers``, in any script) with those of the passages at the cited
locator; ``ragspine domain check`` runs it on the sample files and ``answer_question`` on
the ingested passages before serving a hit.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import Protocol

from ragspine.lazy import LazyPattern
from ragspine.qa.provenance import check_numbers, numbers_in

# key=value pairs of a locator; a value may hold commas only when no ``key=`` follows them.
_PAIR = LazyPattern(r"([A-Za-z_]+)=(.*?)(?=,[A-Za-z_]+=|$)")
_CELL = LazyPattern(r"[A-Za-z]+(\d+)")


class CitedPassages(Protocol):
    """Reads the passages a citation points at, from wherever documents are stored."""

    def passages(self, doc: str, locator: str, *, hint: str) -> tuple[str, ...] | None:
        """The texts at ``locator`` in ``doc`` (empty when the document is known but nothing sits
        there), or None when the document is not stored at all. ``hint`` is text the passage
        is expected to share words with (a search query, for stores that search)."""
        ...


def locator_pairs(locator: str) -> frozenset[tuple[str, str]]:
    """``sheet=Q,cell=C5`` -> {(sheet, Q), (cell, C5), (row, 5)}: an xlsx cell also names its row."""
    pairs = {(key.strip().lower(), value.strip()) for key, value in _PAIR.findall(locator.strip())}
    cells = [value for key, value in pairs if key == "cell"]
    if cells and not any(key == "row" for key, _ in pairs):
        match = _CELL.fullmatch(cells[0])
        if match:
            pairs.add(("row", match.group(1)))
    return frozenset(pairs)


def cited_texts(cited: str, passages: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """The texts of ``(text, locator)`` passages that sit at the cited locator, most precise first.

    A passage sits there when its locator's pairs include the citation's (``slide=1`` cites
    ``slide=1,para=2``) or the citation's include its own (``sheet=Q,cell=C5`` cites the row
    passage ``sheet=Q,row=5``); of the latter only the most specific are kept, so a cell's
    citation is checked against its row, not the whole table.
    """
    want = locator_pairs(cited)
    if not want:
        return ()
    inside: list[str] = []
    around: dict[int, list[str]] = {}
    for text, locator in passages:
        have = locator_pairs(locator)
        if want <= have:
            inside.append(text)
        elif have and have <= want:
            around.setdefault(len(have), []).append(text)
    if inside:
        return tuple(inside)
    return tuple(around[max(around)]) if around else ()


def unsupported_numbers(answer: str, sources: Iterable[str], *, asked: Set[str] = frozenset()) -> tuple[str, ...]:
    """The numbers of ``answer`` that neither ``sources`` nor the question (``asked``) state."""
    allowed = numbers_in("\n".join(sources))
    return check_numbers(answer, allowed=allowed | asked if asked else allowed).unsupported


def states_numbers(answer: str) -> bool:
    """Whether the answer states any number at all (one without numbers needs no source text)."""
    return bool(check_numbers(answer, allowed=frozenset()).unsupported)
