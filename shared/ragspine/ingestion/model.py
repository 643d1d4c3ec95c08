"""What parsers produce: a document as an ordered list of blocks, each with its locator."""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

CHARS_PER_PAGE = 3000  # about one dense printed page: the page of formats without one


class BlockKind(enum.StrEnum):
    """The structural role of a block; the chunker and the fact extractor dispatch on it."""

    TITLE = "title"
    HEADING = "heading"
    PARAGRAPH = "paragraph"
    LIST_ITEM = "list_item"
    TABLE = "table"
    NOTE = "note"  # speaker notes, captions, footers


@dataclass(frozen=True, slots=True)
class Block:
    """One piece of a document, located precisely enough to cite.

    ``locator`` follows the seed's forms: ``page=3,para=2``, ``slide=7``, ``heading=Returns``,
    ``sheet=2024``, ``slide=2,table=1``. A TABLE block carries its cells in ``rows`` (first row
    the header when there is one) and, where the format has native cell names (xlsx ``C3``),
    the same grid in ``cell_refs``; ``text`` is the table flattened to ``a | b | c`` lines.

    A PDF table stays a PARAGRAPH (its labelled-row text is what search indexes) and carries
    its cells in ``rows`` as read from word positions; ``cell_check`` is empty when every cell
    matched the page text inside its box, else what did not (fact extraction then takes no
    figure from it: a wrong cell is worse than none).
    """

    kind: BlockKind
    text: str
    locator: str
    heading_path: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    cell_refs: tuple[tuple[str, ...], ...] = ()
    caption: str = ""
    cell_check: str = ""


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """A parsed file: its blocks in reading order plus what the file says about itself."""

    doc_id: str
    title: str
    media_type: str
    blocks: tuple[Block, ...]
    metadata: Mapping[str, str] = field(default_factory=dict)

    @property
    def pages(self) -> int:
        """Pages on one scale for every format: PDF pages, slides or sheets; else 3,000-character pages (at least 1)."""
        for key in ("pages", "slides", "sheets"):
            value = self.metadata.get(key, "")
            if value.isdigit():
                return int(value)
        return max(1, math.ceil(sum(len(block.text) for block in self.blocks) / CHARS_PER_PAGE))
