"""Structure-aware chunking: a parsed document becomes citable child chunks and their parents.

Children are what the index searches: one per paragraph, list item or note (long ones split
on sentence boundaries, 。！？ included) and one per table row as ``header: value`` pairs.
Each child keeps its block's locator (a table row adds ``,row=N``), so a hit cites exactly
where its text came from (seed 002). Blocks are never merged: merging would cite one
locator for text from several.

Parents give generation context: one per slide, sheet, heading section or page (in that
order of preference), holding the joined text of its children, split into consecutive
windows of at most ``ChunkLimits.max_parent_chars``. Parents are ordinary ``Chunk`` rows
with ``is_parent=True``: an index stores them for ``get(parent_id)`` but never searches
them. ``prev_id``/``next_id`` link the children in reading order across the document.

Ids are deterministic (a hash of document id, version, locator and position), so
re-chunking the same version replaces its chunks instead of duplicating them.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ragspine.ingestion.model import BlockKind
from ragspine.retrieval.model import Chunk
from ragspine.retrieval.table_rows import table_row_texts
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from ragspine.ingestion.model import Block, ParsedDocument

_SKIPPED = (BlockKind.TITLE, BlockKind.HEADING)  # carried by title/heading_path instead
_GROUP_KEYS = ("slide", "sheet")  # a slide or sheet is the parent even under a heading
# A sentence ends after 。！？ (no space follows in CJK), after .!? followed by
# whitespace (so 7.4% and v1.2 stay whole), after ；; or at a line break.
_SENTENCE_END = re.compile(r"(?<=[。！？；])|(?<=[.!?;])\s+|\n+")
_SOFT_BREAK = re.compile(r"[\s，、,]")


@dataclass(frozen=True, slots=True)
class ChunkLimits:
    """Size limits in characters; checked on construction."""

    max_chars: int = 800
    max_parent_chars: int = 4000  # the expansion stage skips parents longer than its budget

    def __post_init__(self) -> None:
        if self.max_chars < 20 or self.max_parent_chars < self.max_chars:
            raise ValueError("need max_chars >= 20 and max_parent_chars >= max_chars")


@dataclass(frozen=True, slots=True)
class ChunkMeta:
    """What the caller knows about the document, copied onto every chunk."""

    sensitivity: Sensitivity = Sensitivity.INTERNAL
    library: str = "default"
    entity: str | None = None
    period: str | None = None
    space_id: str | None = None
    document_id: str | None = None
    version_id: str | None = None
    category: str | None = None
    tags: tuple[str, ...] = ()
    version_label: str | None = None
    product_code: str | None = None


@dataclass(frozen=True, slots=True)
class ChunkedDocument:
    """The chunks of one document: ``children`` to search, ``parents`` for context."""

    children: tuple[Chunk, ...]
    parents: tuple[Chunk, ...]

    def all(self) -> tuple[Chunk, ...]:
        """Parents and children together, e.g. for one ``ChunkIndex.add`` without vectors."""
        return self.parents + self.children


@dataclass(slots=True)
class _Group:
    locator: str
    heading_path: tuple[str, ...]
    members: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Piece:
    text: str
    locator: str
    heading_path: tuple[str, ...]
    group: str


def chunk_document(doc: ParsedDocument, *, meta: ChunkMeta | None = None,
                   limits: ChunkLimits | None = None) -> ChunkedDocument:
    """Split a parsed document into child chunks with parents and reading-order neighbours.

    Args:
        doc: the parser's output; every block has a locator.
        meta: sensitivity, library, entity, period and Gateway ids for every chunk.
        limits: the size limits.

    Returns:
        The children in reading order and their parents (parents first appear in the
        order of their first child).
    """
    meta = meta or ChunkMeta()
    limits = limits or ChunkLimits()
    title = doc.title or next((b.text.strip() for b in doc.blocks if b.kind is BlockKind.TITLE), "")
    pieces, groups = _pieces(doc.blocks, limits)
    version = meta.version_id or ""
    child_ids = [_chunk_id("child", doc.doc_id, version, p.locator, i) for i, p in enumerate(pieces)]
    parents: list[Chunk] = []
    parent_of: dict[int, str] = {}
    for key, group in groups.items():
        for window in _windows(group.members, pieces, limits.max_parent_chars):
            parent_id = _chunk_id("parent", doc.doc_id, version, f"{key}\x1f{group.locator}", len(parents))
            parent_of.update((member, parent_id) for member in window)
            parents.append(_chunk(meta, chunk_id=parent_id, doc_id=doc.doc_id, locator=group.locator, title=title,
                                  text="\n".join(pieces[m].text for m in window), position=len(parents),
                                  heading_path=group.heading_path, is_parent=True))
    children = [
        _chunk(meta, chunk_id=child_ids[i], doc_id=doc.doc_id, locator=p.locator, title=title, text=p.text,
               position=i, heading_path=p.heading_path, parent_id=parent_of[i],
               prev_id=child_ids[i - 1] if i else None, next_id=child_ids[i + 1] if i + 1 < len(pieces) else None)
        for i, p in enumerate(pieces)
    ]
    return ChunkedDocument(tuple(children), tuple(parents))


def split_text(text: str, max_chars: int) -> list[str]:
    """Pieces of at most ``max_chars``, cut at sentence ends when possible, else at a space or comma.

    Pieces are slices of the original text (spacing kept); an over-long sentence is cut
    into near-equal parts so no tiny tail is left over.
    """
    text = text.strip()
    if len(text) <= max_chars:
        return [text] if text else []
    spans: list[tuple[int, int]] = []
    start = 0
    for end in [*(m.end() for m in _SENTENCE_END.finditer(text)), len(text)]:
        if end > start:
            spans.extend(_hard_spans(text, start, end, max_chars))
            start = end
    pieces: list[str] = []
    begin, until = spans[0]
    for span_start, span_end in spans[1:]:
        if span_end - begin <= max_chars:
            until = span_end
        else:
            pieces.append(text[begin:until].strip())
            begin, until = span_start, span_end
    pieces.append(text[begin:until].strip())
    return [p for p in pieces if p]


def _pieces(blocks: tuple[Block, ...], limits: ChunkLimits) -> tuple[list[_Piece], dict[str, _Group]]:
    pieces: list[_Piece] = []
    groups: dict[str, _Group] = {}
    heading: tuple[str, ...] = ()
    heading_locators: dict[tuple[str, ...], str] = {}
    for block in blocks:
        if block.kind is BlockKind.HEADING:
            # Parsers may or may not include a heading in its own heading_path.
            path = block.heading_path
            heading = path if path and path[-1] == block.text.strip() else (*path, block.text.strip())
            heading_locators[heading] = block.locator
            continue
        if block.kind in _SKIPPED:
            continue
        path = block.heading_path or heading
        key, group_locator = _group(block.locator, path, heading_locators)
        texts = table_row_texts(block) if block.kind is BlockKind.TABLE else [(block.text, block.locator)]
        for text, locator in texts:
            for part in split_text(text, limits.max_chars):
                group = groups.setdefault(key, _Group(group_locator, path))
                group.members.append(len(pieces))
                pieces.append(_Piece(part, locator, path, key))
    return pieces, groups


def _group(locator: str, path: tuple[str, ...], heading_locators: dict[tuple[str, ...], str]) -> tuple[str, str]:
    """The parent key and the parent's locator for a block."""
    parts = [p.strip() for p in locator.split(",") if "=" in p]
    for part in parts:
        if part.split("=", 1)[0] in _GROUP_KEYS:
            return part, part
    if path:
        return "heading\x1f" + "\x1f".join(path), heading_locators.get(path, f"heading={path[-1]}")
    for part in parts:
        if part.startswith("page="):
            return part, part
    return "document", parts[0] if parts else locator


def _windows(members: list[int], pieces: list[_Piece], budget: int) -> list[list[int]]:
    """Consecutive runs of a group's children whose joined text fits the parent budget."""
    windows: list[list[int]] = [[]]
    size = 0
    for member in members:
        length = len(pieces[member].text) + 1
        if windows[-1] and size + length > budget:
            windows.append([])
            size = 0
        windows[-1].append(member)
        size += length
    return windows


def _chunk(meta: ChunkMeta, *, chunk_id: str, doc_id: str, locator: str, title: str, text: str, position: int,
           heading_path: tuple[str, ...], is_parent: bool = False, parent_id: str | None = None,
           prev_id: str | None = None, next_id: str | None = None) -> Chunk:
    return Chunk(chunk_id, doc_id, locator, text, title=title, entity=meta.entity, period=meta.period,
                 sensitivity=meta.sensitivity, library=meta.library, parent_id=parent_id, prev_id=prev_id,
                 next_id=next_id, position=position, heading_path=heading_path, space_id=meta.space_id,
                 document_id=meta.document_id, version_id=meta.version_id, category=meta.category, tags=meta.tags,
                 version_label=meta.version_label, product_code=meta.product_code, is_parent=is_parent)


def _chunk_id(kind: str, doc_id: str, version: str, locator: str, position: int) -> str:
    key = "\x1f".join((kind, doc_id, version, locator, str(position)))
    return hashlib.blake2b(key.encode("utf-8"), digest_size=12).hexdigest()


def _hard_spans(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """Cut ``text[start:end]`` into near-equal spans of at most ``max_chars``, at a soft break if one is near."""
    spans: list[tuple[int, int]] = []
    while end - start > max_chars:
        target = -(-(end - start) // -(-(end - start) // max_chars))  # ceil(len / ceil(len / max))
        window = text[start:start + target]
        breaks = [m.end() for m in _SOFT_BREAK.finditer(window) if m.end() > target * 0.6]
        cut = start + (breaks[-1] if breaks else target)
        spans.append((start, cut))
        start = cut
    spans.append((start, end))
    return spans
