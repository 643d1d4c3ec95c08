"""What parsers produce: a document as an ordered list of blocks, each with its locator."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field


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
    """

    kind: BlockKind
    text: str
    locator: str
    heading_path: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    cell_refs: tuple[tuple[str, ...], ...] = ()
    caption: str = ""


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """A parsed file: its blocks in reading order plus what the file says about itself."""

    doc_id: str
    title: str
    media_type: str
    blocks: tuple[Block, ...]
    metadata: Mapping[str, str] = field(default_factory=dict)
