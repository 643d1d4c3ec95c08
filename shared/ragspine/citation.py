"""Where a figure or passage comes from (``Source``: document, locator, version) and how an answer cites it.

An answer cites a fact, a computation's input or a curated FAQ answer as ``（来源：{doc} · {locator}）``
(``citation``) in every language. A quoted passage carries ``（来源：{doc} {locator}）`` without the
dot (``passage_citation``): the form the extractive model writes and the prompt's numbered
passages show, which the citation reader (``qa/citing.py``) matches in a model's reply. A client
reads an answer's sources from its ``sources`` list, never by parsing the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

CITATION_OPEN = "（来源："
CITATION_CLOSE = "）"


@dataclass(frozen=True, slots=True)
class Source:
    """A document, the locator of the place in it (``page=3,para=2``, ``sheet=2024,cell=C3``) and,
    when known, the document version cited (``sha256:<hex>`` of its file).

    An answer's ``sources`` list holds document and locator; an answer part's sources also carry
    the version (a fact knows its file hash; a passage citation is pinned at answer time).
    """

    doc: str
    locator: str
    version: str | None = None

    def as_dict(self) -> dict[str, str]:
        """The JSON form: ``doc`` and ``locator``, and ``version`` when it is known."""
        if self.version is None:
            return {"doc": self.doc, "locator": self.locator}
        return {"doc": self.doc, "locator": self.locator, "version": self.version}

    def cited(self) -> str:
        """``（来源：doc · locator）``."""
        return citation(self.doc, self.locator)


def citation(doc: str, locator: str) -> str:
    """The citation of a figure or curated answer: ``（来源：{doc} · {locator}）``."""
    return f"{CITATION_OPEN}{doc} · {locator}{CITATION_CLOSE}"


def passage_citation(doc: str, locator: str) -> str:
    """The citation of a quoted passage: ``（来源：{doc} {locator}）``."""
    return f"{CITATION_OPEN}{doc} {locator}{CITATION_CLOSE}"


def source_dicts(sources: Iterable[Source]) -> tuple[dict[str, str], ...]:
    """Each source once, in order of first appearance, in its JSON form."""
    return tuple(source.as_dict() for source in dict.fromkeys(sources))


def merged_sources(*groups: Iterable[Mapping[str, str]]) -> tuple[dict[str, str], ...]:
    """The sources of several answers joined: each document and locator once, where it first appears."""
    return source_dicts(Source(str(s["doc"]), str(s["locator"])) for group in groups for s in group)


def table_of(locator: str) -> str:
    """The table part of a cell's locator: ``page=4,table=1`` of ``page=4,table=1,row=…,col=…``."""
    return re.split(r",(?:cell|row|col)=", locator, maxsplit=1)[0]


def numbered_table(locator: str) -> str | None:
    """``table_of(locator)`` where it names a document's numbered table (``table=1``, ``page=3,table=1``); None for
    a sheet's cell (``sheet=…,cell=…``) or a sentence's figure, which name none."""
    table = table_of(locator)
    return table if "table=" in table else None
