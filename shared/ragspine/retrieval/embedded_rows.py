"""How a chunk becomes a row of the embedded index: lineage check, indexed text, term blob."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

from ragspine.errors import FieldError
from ragspine.retrieval.embedded_store import TAG_SEPARATOR, encode_chunk
from ragspine.retrieval.errors import ChunkLineageError
from ragspine.retrieval.passage_text import context_header

if TYPE_CHECKING:
    from collections import Counter

    from ragspine.retrieval.model import Chunk


def check_lineage(chunk: Chunk) -> None:
    """Refuse a chunk without its id, document id or locator (seed 002), before any write."""
    for name in ("chunk_id", "doc_id", "source_locator"):
        if not str(getattr(chunk, name)).strip():
            raise ChunkLineageError(f"chunk {chunk.chunk_id!r} has no {name}",
                                    field_errors=(FieldError(name, "required"),))


def index_text(chunk: Chunk) -> str:
    """The text BM25 indexes for a chunk: its document's context, title, heading path and body."""
    # The heading path tells BM25 what a paragraph is about ("香港" in the heading, not
    # necessarily in the sentence); the title and the context (company, period, type) do the
    # same at document level.
    return "\n".join((context_header(chunk), chunk.title, *chunk.heading_path, chunk.text))


def term_blobs(counts: Sequence[Counter[str]], term_ids: dict[str, int]) -> list[bytes]:
    """Each chunk's ``(term id, count)`` pairs as little-endian uint32 bytes."""
    import numpy as np

    # One numpy conversion for the whole batch: per-chunk arrays cost more than the tokenizer.
    ids = list(map(term_ids.__getitem__, chain.from_iterable(counts)))
    freqs = list(chain.from_iterable(c.values() for c in counts))
    pairs = np.empty((len(ids), 2), dtype="<u4")
    pairs[:, 0], pairs[:, 1] = ids, freqs
    flat = pairs.tobytes()
    ends = np.cumsum([8 * len(c) for c in counts]).tolist()
    return [flat[start:end] for start, end in zip([0, *ends[:-1]], ends, strict=True)]


def chunk_row(chunk: Chunk, n_tokens: int, terms: bytes, vector: bytes | None) -> tuple[Any, ...]:
    """The ``chunks`` table row of a chunk, in ``ChunkStore.insert`` column order."""
    return (chunk.chunk_id, chunk.doc_id, chunk.version_id, chunk.source_locator, int(not chunk.is_parent),
            int(chunk.sensitivity), chunk.library, chunk.entity, chunk.period, chunk.space_id, chunk.document_id,
            chunk.category, TAG_SEPARATOR.join(chunk.tags), n_tokens, terms, vector, encode_chunk(chunk),
            chunk.version_label, chunk.product_code)
