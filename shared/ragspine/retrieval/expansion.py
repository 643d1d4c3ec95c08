"""Parent/window expansion at the store level: more context for generation, same citation.

The hit's citation fields (``chunk_id``, ``doc_id``, ``source_locator``) stay the child's;
the expanded text is separate generation context. Seed 001: a RESTRICTED child is removed
before expansion, and expansion never pulls a neighbour or parent above the ceiling.
It assumes the chunker gives a parent the highest sensitivity of its children. A table row
(``row=`` in its locator) is its own context: it carries its headers, and neither a parent
nor a window ever adds the rest of its table (the chunker leaves rows out of parents' text).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ragspine.retrieval.model import Chunk, ScoredChunk, is_row_locator
from ragspine.retrieval.ports import ChunkIndex
from ragspine.sensitivity import Sensitivity

MAX_WINDOW = 5  # neighbours each side; past that the "window" is a whole document
DEFAULT_MAX_CONTEXT_CHARS = 4000


class ExpansionMode(enum.StrEnum):
    """What context a hit gets: its own text, its window, its parent, or the parent when usable."""

    NONE = "none"
    WINDOW = "window"
    PARENT = "parent"
    PARENT_OR_WINDOW = "parent_or_window"


@dataclass(frozen=True, slots=True)
class ExpandedHit:
    """A hit plus its generation context; cite ``chunk_id``/``doc_id``/``source_locator``, never the context's."""

    hit: ScoredChunk
    context: str
    context_chunk_ids: tuple[str, ...]

    @property
    def chunk(self) -> Chunk:
        """The child chunk that matched (the one to cite)."""
        return self.hit.chunk

    @property
    def chunk_id(self) -> str:
        """Citation: the child's chunk id."""
        return self.hit.chunk.chunk_id

    @property
    def doc_id(self) -> str:
        """Citation: the child's document."""
        return self.hit.chunk.doc_id

    @property
    def source_locator(self) -> str:
        """Citation: the child's locator (``page=3,para=2``), not the parent's."""
        return self.hit.chunk.source_locator

    @property
    def score(self) -> float:
        """The hit's score."""
        return self.hit.score


@dataclass(slots=True)
class _Pool:
    """Chunks fetched for one expansion call: only those within the ceiling are kept."""

    index: ChunkIndex
    ceiling: Sensitivity
    chunks: dict[str, Chunk] = field(default_factory=dict)
    tried: set[str] = field(default_factory=set)

    def fetch(self, ids: Sequence[str]) -> None:
        wanted = [chunk_id for chunk_id in dict.fromkeys(ids) if chunk_id not in self.tried]
        if not wanted:
            return
        self.tried.update(wanted)
        for chunk in self.index.get(wanted):
            if chunk.sensitivity <= self.ceiling:
                self.chunks[chunk.chunk_id] = chunk

    def walk(self, child: Chunk, *, forward: bool, steps: int) -> tuple[list[Chunk], str | None]:
        """Neighbours of ``child`` already in the pool, nearest first, and the id still to fetch."""
        found: list[Chunk] = []
        current = child
        while len(found) < steps:
            next_id = current.next_id if forward else current.prev_id
            if next_id is None:
                return found, None
            if next_id not in self.chunks:
                # Stop at a missing or withheld neighbour: skipping it would join text that
                # is not adjacent, and a withheld one must not even be stepped over.
                return found, (None if next_id in self.tried else next_id)
            neighbour = self.chunks[next_id]
            if neighbour.doc_id != child.doc_id:
                return found, None
            found.append(neighbour)
            current = neighbour
        return found, None


def expand(hits: Sequence[ScoredChunk], *, index: ChunkIndex, mode: ExpansionMode = ExpansionMode.PARENT_OR_WINDOW,
           window: int = 1, max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL,
           max_context_chars: int = DEFAULT_MAX_CONTEXT_CHARS) -> list[ExpandedHit]:
    """Give each hit its generation context from its parent and/or prev/next neighbours.

    Args:
        hits: ranked hits, best first.
        index: where parents and neighbours are read (``ChunkIndex.get``, batched per step).
        mode: which context to build.
        window: neighbours on each side for the window modes (0 to 5).
        max_sensitivity: the ceiling; hits above it are dropped before anything is fetched,
            and parents or neighbours above it are never used. Must be below RESTRICTED.
        max_context_chars: a parent longer than this is not used; neighbours are added
            nearest first while the window stays within it (the child's text is always kept).

    Returns:
        One expanded hit per hit within the ceiling, in the same order.

    Raises:
        ValueError: an argument is out of range.
        ProviderUnavailableError: the index cannot be read.
    """
    _check(window=window, max_sensitivity=max_sensitivity, max_context_chars=max_context_chars)
    children = [hit for hit in hits if hit.chunk.sensitivity <= max_sensitivity]
    pool = _Pool(index, max_sensitivity)
    for hit in children:
        pool.chunks[hit.chunk.chunk_id] = hit.chunk
        pool.tried.add(hit.chunk.chunk_id)
    if mode is not ExpansionMode.NONE:
        _gather(pool, [hit.chunk for hit in children], mode=mode, window=window)
    build = _BUILDERS[mode]
    expanded = []
    for hit in children:
        # A table row already carries its headers: its context is the row, never the rest of the table.
        rule = _own if is_row_locator(hit.chunk.source_locator) else build
        context, ids = rule(hit.chunk, pool, window, max_context_chars)
        expanded.append(ExpandedHit(hit, context, ids))
    return expanded


def _check(*, window: int, max_sensitivity: Sensitivity, max_context_chars: int) -> None:
    if not 0 <= window <= MAX_WINDOW:
        raise ValueError(f"window must be between 0 and {MAX_WINDOW}, got {window!r}")
    if max_sensitivity >= Sensitivity.RESTRICTED:
        raise ValueError("max_sensitivity must be below RESTRICTED: restricted text never becomes context")
    if max_context_chars < 1:
        raise ValueError(f"max_context_chars must be positive, got {max_context_chars!r}")


def _gather(pool: _Pool, children: list[Chunk], *, mode: ExpansionMode, window: int) -> None:
    """Fetch parents and neighbours with one ``get`` per step away from the children."""
    first = [c.parent_id for c in children if c.parent_id] if mode is not ExpansionMode.WINDOW else []
    uses_window = mode in (ExpansionMode.WINDOW, ExpansionMode.PARENT_OR_WINDOW)
    for _ in range(window if uses_window else 0):
        wanted = list(first)
        for child in children:
            for forward in (False, True):
                _, missing = pool.walk(child, forward=forward, steps=window)
                if missing is not None:
                    wanted.append(missing)
        first = []
        pool.fetch(wanted)
    pool.fetch(first)  # parents alone, when no window step ran


def _own(child: Chunk, pool: _Pool, window: int, max_chars: int) -> tuple[str, tuple[str, ...]]:
    return child.text, (child.chunk_id,)


def _window(child: Chunk, pool: _Pool, window: int, max_chars: int) -> tuple[str, tuple[str, ...]]:
    before = _prose(pool.walk(child, forward=False, steps=window)[0])
    after = _prose(pool.walk(child, forward=True, steps=window)[0])
    kept_before: list[Chunk] = []
    kept_after: list[Chunk] = []
    size = len(child.text)
    # Nearest neighbours first, alternating sides, so a size limit trims the far ends.
    for step in range(window):
        for side, kept in ((before, kept_before), (after, kept_after)):
            if step < len(side) and size + 1 + len(side[step].text) <= max_chars:
                kept.append(side[step])
                size += 1 + len(side[step].text)
    ordered = [*reversed(kept_before), child, *kept_after]
    return "\n".join(c.text for c in ordered), tuple(c.chunk_id for c in ordered)


def _prose(neighbours: list[Chunk]) -> list[Chunk]:
    """Neighbours up to the first table row: a window never quotes a table's rows nobody cited."""
    for index, chunk in enumerate(neighbours):
        if is_row_locator(chunk.source_locator):
            return neighbours[:index]
    return neighbours


def _parent(child: Chunk, pool: _Pool, window: int, max_chars: int) -> tuple[str, tuple[str, ...]] | None:
    parent = pool.chunks.get(child.parent_id) if child.parent_id else None
    if parent is None or parent.doc_id != child.doc_id or len(parent.text) > max_chars:
        return None
    return parent.text, (parent.chunk_id,)


def _parent_or_own(child: Chunk, pool: _Pool, window: int, max_chars: int) -> tuple[str, tuple[str, ...]]:
    return _parent(child, pool, window, max_chars) or _own(child, pool, window, max_chars)


def _parent_or_window(child: Chunk, pool: _Pool, window: int, max_chars: int) -> tuple[str, tuple[str, ...]]:
    return _parent(child, pool, window, max_chars) or _window(child, pool, window, max_chars)


_BUILDERS: dict[ExpansionMode, Callable[[Chunk, _Pool, int, int], tuple[str, tuple[str, ...]]]] = {
    ExpansionMode.NONE: _own,
    ExpansionMode.WINDOW: _window,
    ExpansionMode.PARENT: _parent_or_own,
    ExpansionMode.PARENT_OR_WINDOW: _parent_or_window,
}
