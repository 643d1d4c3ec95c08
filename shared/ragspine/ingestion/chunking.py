"""Structure-aware chunking: a parsed document becomes citable child chunks and their parents.

Children are what the index searches: one per paragraph, list item or note (long ones split
on sentence boundaries, 。！？ included) and one per table row as ``header: value`` pairs.
Each child keeps its block's locator (a table row adds ``,row=N``), so a hit cites exactly
where its text came from (seed 002).

Page-located text (PDF paragraphs and table texts, ``page=N,…``) is packed instead: the
consecutive blocks of one heading section are joined into children of about
``ChunkLimits.target_chars`` and cited by page, ``page=N`` (or ``page=N-M`` when a short tail
of one page is joined with the start of the next). A long report's paragraphs are often a
line or two each; one child per paragraph turned a 10-K page into a dozen fragments that
diluted ranking and multiplied embedding work. Every child keeps the heading
trail above it (``heading_path``, the Gateway's ``chapterPath``).

Parents give generation context: one per slide, sheet, heading section or page (in that
order of preference), holding the joined text of its children, split into consecutive
windows of at most ``ChunkLimits.max_parent_chars``. Parents are ordinary ``Chunk`` rows
with ``is_parent=True``: an index stores them for ``get(parent_id)`` but never searches
them. ``prev_id``/``next_id`` link the children in reading order across the document.

Ids are deterministic (a hash of document id, version, locator and position), so
re-chunking the same version replaces its chunks instead of duplicating them.

The chunker also renders the document's normalised text (``ChunkedDocument.text``: the title,
headings, paragraphs and table rows it read, one per line) and each child's start and end in
it (``spans``, code points): a child's text is that slice exactly, which is what lets the
Gateway read a citation back with its context (``retrieval.version_text``).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ragspine.facts.statements import statement_tags
from ragspine.ingestion.model import BlockKind
from ragspine.ingestion.table_rows import table_row_texts
from ragspine.retrieval.model import Chunk, is_row_locator
from ragspine.sensitivity import Sensitivity
from ragspine.sentence_spans import split_spans

if TYPE_CHECKING:
    from ragspine.ingestion.model import Block, ParsedDocument

_SKIPPED = (BlockKind.TITLE, BlockKind.HEADING)  # carried by title/heading_path instead
_GROUP_KEYS = ("slide", "sheet")  # a slide or sheet is the parent even under a heading


@dataclass(frozen=True, slots=True)
class ChunkLimits:
    """Size limits in characters; checked on construction."""

    max_chars: int = 800
    max_parent_chars: int = 4000  # the expansion stage skips parents longer than its budget
    target_chars: int = 1500  # packed page-located children (PDF); tuned on FinanceBench (docs/evaluation.md)

    def __post_init__(self) -> None:
        if self.max_chars < 20 or self.max_parent_chars < self.max_chars:
            raise ValueError("need max_chars >= 20 and max_parent_chars >= max_chars")
        if self.target_chars < 20:
            raise ValueError("need target_chars >= 20")

    @property
    def packed_chars(self) -> int:
        """The size packed children aim at: the target, within the parent budget."""
        return min(self.target_chars, self.max_parent_chars)


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
    text: str = ""  # the normalised document text the children were cut from
    spans: tuple[tuple[int, int], ...] = ()  # each child's (start, end) in ``text``, aligned with children

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
    start: int  # the text's offsets in the document text (code points)
    end: int


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
    pieces, groups, text = _pieces(doc.blocks, limits)
    pieces, groups = _pack(pieces, groups, limits.packed_chars, text)
    version = meta.version_id or ""
    child_ids = [_chunk_id("child", doc.doc_id, version, p.locator, i) for i, p in enumerate(pieces)]
    parents: list[Chunk] = []
    parent_of: dict[int, str] = {}
    for key, group in groups.items():
        for window in _windows(group.members, pieces, limits.max_parent_chars):
            parent_id = _chunk_id("parent", doc.doc_id, version, f"{key}\x1f{group.locator}", len(parents))
            parent_of.update((member, parent_id) for member in window)
            parents.append(_chunk(meta, chunk_id=parent_id, doc_id=doc.doc_id,
                                  locator=_window_locator(window, pieces) or group.locator, title=title,
                                  text=_parent_text(window, pieces), position=len(parents),
                                  heading_path=group.heading_path, is_parent=True))
    children = [
        _chunk(meta, chunk_id=child_ids[i], doc_id=doc.doc_id, locator=p.locator, title=title, text=p.text,
               position=i, heading_path=p.heading_path, parent_id=parent_of[i],
               prev_id=child_ids[i - 1] if i else None, next_id=child_ids[i + 1] if i + 1 < len(pieces) else None)
        for i, p in enumerate(pieces)
    ]
    return ChunkedDocument(tuple(children), tuple(parents), text, tuple((p.start, p.end) for p in pieces))


def _pieces(blocks: tuple[Block, ...], limits: ChunkLimits) -> tuple[list[_Piece], dict[str, _Group], str]:
    """The pieces to chunk, their parent groups, and the document text they are slices of."""
    pieces: list[_Piece] = []
    groups: dict[str, _Group] = {}
    heading: tuple[str, ...] = ()
    heading_locators: dict[tuple[str, ...], str] = {}
    lines: list[str] = []
    cursor = 0

    def line(text: str) -> int:
        """Append one line to the document text; return where it starts."""
        nonlocal cursor
        if lines:
            cursor += 1  # the "\n" before it
        start = cursor
        lines.append(text)
        cursor += len(text)
        return start

    for block in blocks:
        if block.kind is BlockKind.HEADING:
            # Parsers may or may not include a heading in its own heading_path.
            path = block.heading_path
            heading = path if path and path[-1] == block.text.strip() else (*path, block.text.strip())
            heading_locators[heading] = block.locator
        if block.kind in _SKIPPED:
            if block.text.strip():
                line(block.text.strip())
            continue
        path = block.heading_path or heading
        key, group_locator = _group(block.locator, path, heading_locators)
        texts = table_row_texts(block) if block.kind is BlockKind.TABLE else [(block.text, block.locator)]
        for text, locator in texts:
            stripped = text.strip()
            if not stripped:
                continue
            base = line(stripped)
            for start, end in split_spans(stripped, limits.max_chars):
                group = groups.setdefault(key, _Group(group_locator, path))
                group.members.append(len(pieces))
                pieces.append(_Piece(stripped[start:end], locator, path, key, base + start, base + end))
    return pieces, groups, "\n".join(lines)


_PAGE = re.compile(r"^page=(\d+)(?:-(\d+))?(?:,|$)")


def _page_span(locator: str) -> tuple[int, int] | None:
    """``(first, last)`` page of a page-located locator (``page=3,para=2``, ``page=3-4``), else None."""
    match = _PAGE.match(locator)
    if match is None:
        return None
    first = int(match.group(1))
    return first, int(match.group(2) or first)


def _page_locator(first: int, last: int) -> str:
    return f"page={first}" if first == last else f"page={first}-{last}"


def _window_locator(window: list[int], pieces: list[_Piece]) -> str | None:
    """The pages a parent window covers when all its children are page-located, else None."""
    spans = [_page_span(pieces[m].locator) for m in window]
    if not spans or any(span is None for span in spans):
        return None
    return _page_locator(min(s[0] for s in spans if s), max(s[1] for s in spans if s))


def _continues_page(last: _Piece, piece: _Piece, target: int) -> bool:
    """A page's short last paragraph (on its own) joined with the next page's first one."""
    before, after = _page_span(last.locator), _page_span(piece.locator)
    return (before is not None and after is not None and after[0] == before[1] + 1 and ",para=" in last.locator
            and piece.locator.endswith(",para=1") and len(last.text) < target // 4)


def _pack(pieces: list[_Piece], groups: dict[str, _Group], target: int,
          text: str) -> tuple[list[_Piece], dict[str, _Group]]:
    """Join consecutive page-located pieces of one group into pieces of about ``target`` characters.

    A piece is joined to the one before it when both are page-located text (not a table row
    with its own ``row=`` locator), share the group and heading trail, the result fits the
    target, only spacing lies between them in the document text (a repeated heading does not),
    and either they are on the same page or what came before is a page's short last
    paragraph (under a quarter of the target) and the piece the next page's first one: a
    paragraph cut by the page break, cited ``page=N-M``. Pieces of other formats pass unchanged.
    The joined text is the document text from the first piece's start to the last one's end,
    so it stays an exact slice.
    """
    packed: list[_Piece] = []
    spans: list[tuple[int, int] | None] = []
    for piece in pieces:
        span = _page_span(piece.locator) if ",row=" not in piece.locator else None
        last = packed[-1] if packed else None
        last_span = spans[-1] if spans else None
        if (span is not None and last is not None and last_span is not None and last.group == piece.group
                and last.heading_path == piece.heading_path and len(last.text) + 1 + len(piece.text) <= target
                and (span[0] == last_span[1] or _continues_page(last, piece, target))
                and not text[last.end:piece.start].strip()):  # nothing between (a repeated heading splits)
            merged = (last_span[0], max(span[1], last_span[1]))
            packed[-1] = _Piece(text[last.start:piece.end], _page_locator(*merged), piece.heading_path, piece.group,
                                last.start, piece.end)
            spans[-1] = merged
            continue
        packed.append(piece)
        spans.append(span)
    if len(packed) == len(pieces) and all(a is b for a, b in zip(packed, pieces, strict=True)):
        return pieces, groups
    regrouped: dict[str, _Group] = {}
    for index, piece in enumerate(packed):
        old = groups[piece.group]
        regrouped.setdefault(piece.group, _Group(old.locator, old.heading_path)).members.append(index)
    return packed, regrouped


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


def _parent_text(window: list[int], pieces: list[_Piece]) -> str:
    """The parent's context text: its children's, without table rows (a row is quoted alone, with its
    headers, never with the rest of its table); a parent of rows only keeps them so it is never empty."""
    prose = [pieces[m].text for m in window if not is_row_locator(pieces[m].locator)]
    return "\n".join(prose or [pieces[m].text for m in window])


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
                 document_id=meta.document_id, version_id=meta.version_id, category=meta.category,
                 tags=tuple(dict.fromkeys((*meta.tags, *statement_tags(heading_path)))),
                 version_label=meta.version_label, product_code=meta.product_code, is_parent=is_parent)


def _chunk_id(kind: str, doc_id: str, version: str, locator: str, position: int) -> str:
    key = "\x1f".join((kind, doc_id, version, locator, str(position)))
    return hashlib.blake2b(key.encode("utf-8"), digest_size=12).hexdigest()
