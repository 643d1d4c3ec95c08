"""What a process's retrieval is made of: the chunk index, the hybrid pipeline and the embedders.

Built by the composition root only where a chunk index exists (``bootstrap.build_retrieval``, which loads
this module then): a question answered without one never creates the class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ragspine.llm.ports import Embedder
    from ragspine.retrieval.pipeline import HybridRetriever
    from ragspine.retrieval.ports import ChunkIndex


@dataclass(frozen=True)
class Retrieval:
    """The chunk index, the hybrid pipeline over it, and the embedders for passages and questions."""

    index: ChunkIndex
    retriever: HybridRetriever
    document_embedder: Embedder | None
    query_embedder: Embedder | None = None
