"""What an evaluation runs on: labelled queries and a corpus of chunks."""

from __future__ import annotations

from dataclasses import dataclass, field

from ragspine.retrieval.model import Chunk

# A gold target: (document id, source locator), exactly as the index cites a chunk.
Key = tuple[str, str]


def chunk_key(chunk: Chunk) -> Key:
    """The citation of a chunk: what a hit is compared with the gold on."""
    return (chunk.doc_id, chunk.source_locator)


@dataclass(frozen=True, slots=True)
class EvalQuery:
    """A question and the chunks that answer it (any one of them counts as a hit).

    ``restricted_only`` marks a question whose only answer is in RESTRICTED material: it has
    no gold, and the check is that no RESTRICTED chunk is returned for it.
    """

    qid: str
    text: str
    lang: str
    gold: frozenset[Key]
    restricted_only: bool = False
    topic: str = ""


@dataclass(frozen=True, slots=True)
class EvalCorpus:
    """A retrieval test collection: searchable chunks and labelled queries."""

    name: str
    description: str
    chunks: tuple[Chunk, ...]
    queries: tuple[EvalQuery, ...]
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def scored_queries(self) -> tuple[EvalQuery, ...]:
        """The queries with a gold answer (restricted-only ones are scored separately)."""
        return tuple(q for q in self.queries if not q.restricted_only)
