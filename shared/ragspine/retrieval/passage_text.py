"""The text the dense leg embeds for a passage (the same at ingestion and in the background backfill)."""

from __future__ import annotations

from ragspine.retrieval.model import Chunk


def dense_text(chunk: Chunk) -> str:
    """The passage text the embedder sees."""
    return chunk.text
