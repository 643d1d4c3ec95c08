"""Chunks with lineage, scored hits and search filters."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ragspine.sensitivity import Sensitivity

_ROW_LOCATOR = re.compile(r"(?:^|,)row=")


def is_row_locator(locator: str) -> bool:
    """Whether a locator names one table row (``sheet=Q,row=8``): such a passage is quoted alone."""
    return bool(_ROW_LOCATOR.search(locator))


@dataclass(frozen=True, slots=True)
class Chunk:
    """A citable piece of a document: every chunk names its document and locator (seed 002).

    The Knowledge Gateway fields (space, document and version ids, metadata category, tags,
    version label, product code) are optional until a chunk comes through the Gateway.
    Children point to their parent with ``parent_id`` and to their reading-order neighbours
    with ``prev_id``/``next_id`` (see ``ingestion/chunking.py``).
    """

    chunk_id: str
    doc_id: str
    source_locator: str
    text: str
    title: str = ""
    entity: str | None = None
    period: str | None = None
    sensitivity: Sensitivity = Sensitivity.INTERNAL
    library: str = "default"
    parent_id: str | None = None
    prev_id: str | None = None
    next_id: str | None = None
    position: int = 0
    heading_path: tuple[str, ...] = ()
    space_id: str | None = None
    document_id: str | None = None
    version_id: str | None = None
    category: str | None = None
    tags: tuple[str, ...] = ()
    version_label: str | None = None
    product_code: str | None = None
    # The document's context (``ingestion.document_context``): indexed and embedded with the text.
    company: str | None = None
    doc_period: str | None = None
    doc_type: str | None = None
    # A parent (section, slide or sheet) holds the joined text of its children for
    # generation context: indexes store it for ``get`` by ``parent_id`` but never search it.
    is_parent: bool = False


@dataclass(frozen=True, slots=True)
class ScoredChunk:
    """A hit: the chunk, its score for this query and which retrieval leg produced it."""

    chunk: Chunk
    score: float
    source: str = "hybrid"  # "bm25", "dense", "hybrid", "rrf:<library>", "rerank"


@dataclass(frozen=True, slots=True)
class SearchFilters:
    """Constraints applied inside the index query (never after it, so recall is kept).

    Empty tuples mean "no constraint". ``max_sensitivity`` defaults to CONFIDENTIAL: a
    RESTRICTED chunk is never returned unless a caller explicitly raises the ceiling.
    Chunks of a Knowledge Gateway space (``space_id`` set) match only when ``space_ids`` names
    their space: the ordinary surfaces, which never name one, cannot see them (the Gateway
    applies its own ACL before it names any).
    """

    libraries: tuple[str, ...] = ()
    doc_ids: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    periods: tuple[str, ...] = ()
    space_ids: tuple[str, ...] = ()
    document_ids: tuple[str, ...] = ()
    version_ids: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    tags_any: tuple[str, ...] = ()
    tags_all: tuple[str, ...] = ()
    version_labels: tuple[str, ...] = ()
    product_codes: tuple[str, ...] = ()
    max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL
    extra: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ChunkLabels:
    """The Gateway metadata stamped on every chunk of a document (``ChunkIndex.update_metadata``)."""

    category: str | None = None
    tags: tuple[str, ...] = ()
    version_label: str | None = None
    product_code: str | None = None
