"""How a chunk becomes a row of the embedded index: lineage check, indexed fields, term blob.

BM25 scores two fields of a chunk, as the OpenSearch mapping has them: the passage (heading
path and text) and the document field (its document's title and context: company, period,
type). The document field is the same on every passage of a document, so it is scored once per
document (``embedded_snapshot.DOCUMENT_FIELD_B``): a thin cover page no longer wins a question
on the year alone. Its words are stored under ids of their own (``DOCUMENT_FIELD_MARK`` before
the token), so they never add to a passage word's frequency nor count in the passage's length.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

from ragspine.errors import FieldError
from ragspine.lazy import LazyModule
from ragspine.retrieval.embedded_store import DOCUMENT_FIELD_MARK, TAG_SEPARATOR, encode_chunk
from ragspine.retrieval.errors import ChunkLineageError
from ragspine.retrieval.passage_text import context_header
from ragspine.text import document_tokens

if TYPE_CHECKING:
    import numpy as np

    from ragspine.retrieval.model import Chunk
else:
    np = LazyModule("numpy")


def check_lineage(chunk: Chunk) -> None:
    """Refuse a chunk without its id, document id or locator (seed 002), before any write."""
    for name in ("chunk_id", "doc_id", "source_locator"):
        if not str(getattr(chunk, name)).strip():
            raise ChunkLineageError(f"chunk {chunk.chunk_id!r} has no {name}",
                                    field_errors=(FieldError(name, "required"),))


def index_text(chunk: Chunk) -> str:
    """The passage field BM25 indexes for a chunk: heading path and body."""
    # The heading path tells BM25 what a paragraph is about ("香港" in the heading, not
    # necessarily in the sentence). A heading that repeats the title is the title, which the
    # document field already holds: counted twice it made the title paragraph win its words.
    headings = (heading for heading in chunk.heading_path if heading != chunk.title)
    return "\n".join((*headings, chunk.text))


def document_field_text(chunk: Chunk) -> str:
    """The document field: the title and the context (``Acme · FY2024 (2024) · review``)."""
    return "\n".join((chunk.title, context_header(chunk)))


def field_term(token: str) -> str:
    """The vocabulary entry of ``token`` in the document field."""
    return DOCUMENT_FIELD_MARK + token


def field_counts(chunk: Chunk) -> tuple[Counter[str], int]:
    """A chunk's term counts over both fields, and its passage length (the document field excluded)."""
    counts = Counter(document_tokens(index_text(chunk)))
    length = sum(counts.values())
    counts.update(map(field_term, document_tokens(document_field_text(chunk))))
    return counts, length


# Pairs converted per batch. One C-level pass over a large document's terms (a 2,000-page PDF has
# millions of pairs) holds the interpreter lock for its whole length, and the ask routes' threads
# wait for it; between batches the interpreter may hand the lock over (every few milliseconds).
TERM_BATCH_PAIRS = 16_384


def term_blobs(counts: Sequence[Counter[str]], term_ids: dict[str, int]) -> list[bytes]:
    """Each chunk's ``(term id, count)`` pairs as little-endian uint32 bytes."""
    blobs: list[bytes] = []
    start = 0
    while start < len(counts):
        end, pairs = start, 0
        while end < len(counts) and (end == start or pairs + len(counts[end]) <= TERM_BATCH_PAIRS):
            pairs += len(counts[end])
            end += 1
        blobs.extend(_batch_blobs(counts[start:end], term_ids))
        start = end
    return blobs


def _batch_blobs(counts: Sequence[Counter[str]], term_ids: dict[str, int]) -> list[bytes]:
    # One numpy conversion for the batch: per-chunk arrays cost more than the tokenizer.
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
