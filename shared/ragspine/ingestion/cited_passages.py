"""The passages an FAQ citation points at, read back from what ingestion stored.

Two readers, tried in order: the version's stored parsed document (every block and table row,
including the tables that became facts and so were never indexed as passages), then the chunk
index (the document's chunks that share words with the answer).

A table row is cited two ways: as search cites it (``table=1,row=3``) and as a fact cites its
cell (``table=1,row=Net sales,col=FY2025``, the row's label cells joined by ``/``), so an FAQ
answer citing a cell is checked against that cell's row, not the whole table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from ragspine.ingestion import staged
from ragspine.ingestion.parsers._blocks import locator_value
from ragspine.ingestion.table_rows import table_row_texts
from ragspine.numbers import is_number
from ragspine.qa.faq_check import CitedPassages, cited_texts, locator_pairs
from ragspine.retrieval.model import SearchFilters
from ragspine.retrieval.ports import ChunkIndex

if TYPE_CHECKING:
    from ragspine.ingestion.model import Block
    from ragspine.ingestion.operations import StagingArea
    from ragspine.retrieval.version_text import VersionTextStore

_QUERY_CHARS = 500
_COMMA = re.compile(r"\s*[,，]\s*")  # a locator's separator: a fact's locator writes it as a space


def block_passages(blocks: Iterable[Block]) -> Iterator[tuple[str, str]]:
    """``(text, locator)`` of every block and, for a table, of each row passage as search and facts cite it."""
    for block in blocks:
        yield block.text, block.locator
        if block.rows:
            yield from table_row_texts(block)
            yield from _labelled_rows(block)


def _labelled_rows(block: Block) -> Iterator[tuple[str, str]]:
    """Each data row under the locator a fact of its cells carries: ``row=`` its label cells (those
    before its first figure) joined by ``/``; the text is the row under the table's first row (its header,
    when it has one: the periods the answer may name)."""
    head = " | ".join(cell.strip() for cell in block.rows[0])
    caption = f"{block.caption.strip()}\n" if block.caption.strip() else ""
    for row in block.rows:
        cells = [cell.strip() for cell in row]
        first = next((i for i, cell in enumerate(cells) if cell and is_number(cell)), None)
        labels = list(dict.fromkeys(cell for cell in cells[:first] if cell)) if first is not None else []
        if labels:
            label = locator_value(_COMMA.sub(" ", "/".join(labels)).strip())
            yield f"{caption}{head}\n{' | '.join(cells)}", f"{block.locator},row={label}"


class IndexedCitedPassages:
    """``CitedPassages`` over a ``ChunkIndex``: the document's chunks that share words with the answer,
    kept when their locator sits at the cited one."""

    def __init__(self, index: ChunkIndex, *, depth: int = 64) -> None:
        self._index = index
        self._depth = depth

    def passages(self, doc: str, locator: str, *, hint: str) -> tuple[str, ...] | None:
        """The texts at ``locator`` in ``doc``; None when the index returns nothing of ``doc``."""
        words = " ".join([hint, *(value for _, value in sorted(locator_pairs(locator)))])
        hits = self._index.search(words[:_QUERY_CHARS], top_k=self._depth, filters=SearchFilters(doc_ids=(doc,)))
        if not hits:
            return None
        return cited_texts(locator, ((hit.chunk.text, hit.chunk.source_locator) for hit in hits))


class StoredDocumentPassages:
    """``CitedPassages`` over the active version's stored parsed document (``document.json``)."""

    def __init__(self, staging: Callable[[], StagingArea], texts: VersionTextStore) -> None:
        self._make_staging = staging  # opened on first use: the ask path needs it only for an FAQ hit
        self._staging: StagingArea | None = None
        self._texts = texts

    def passages(self, doc: str, locator: str, *, hint: str) -> tuple[str, ...] | None:
        """The texts at ``locator`` in the active version of ``doc``; None when no version of it is stored."""
        if self._staging is None:
            self._staging = self._make_staging()
        active = next(iter(self._staging.active(doc)), None)
        data = self._texts.get_document(active.version_id) if active is not None else None
        if data is None:
            return None
        return cited_texts(locator, block_passages(staged.load_document(data).blocks))


class FirstCitedPassages:
    """The first reader that knows the document answers."""

    def __init__(self, *readers: CitedPassages) -> None:
        self._readers = readers

    def passages(self, doc: str, locator: str, *, hint: str) -> tuple[str, ...] | None:
        """The first non-None answer of the readers, in order."""
        for reader in self._readers:
            found = reader.passages(doc, locator, hint=hint)
            if found is not None:
                return found
        return None
